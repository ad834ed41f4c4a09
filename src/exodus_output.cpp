// Exodus II results (exodus_output.hpp): the grid as one element block,
// nodal and element variables per time step, through a temporary beside
// the path that close() moves onto it.
#include <umesh/error.hpp>
#include <umesh/exodus_output.hpp>

#include <cstdio>

#if defined(UMESH_HAS_EXODUS)
#include "exodus_file.hpp"
#include "temp_beside.hpp"
#endif

namespace umesh {

std::string exodus_piece_path(const std::string &path, int rank, int ranks) {
  if (ranks <= 1)
    return path;
  const int width = int(std::to_string(ranks).size());
  char digits[32];
  std::snprintf(digits, sizeof digits, "%0*d", width, rank);
  return path + "." + std::to_string(ranks) + "." + digits;
}

#if defined(UMESH_HAS_EXODUS)

namespace {

// A field's variables: one per component (name_x, name_y, name_z for three).
std::vector<std::string> variable_names(const std::vector<OutputField> &fields) {
  std::vector<std::string> out;
  for (const auto &f : fields)
    for (int c = 0; c < f.components; ++c)
      out.push_back(f.components == 1   ? f.name
                    : f.components <= 3 ? f.name + "_" + "xyz"[c]
                                        : f.name + "_" + std::to_string(c));
  return out;
}

void same_fields(const std::vector<OutputField> &a, const std::vector<OutputField> &b,
                 const std::string &what) {
  bool same = a.size() == b.size();
  for (std::size_t i = 0; same && i < a.size(); ++i)
    same = a[i].name == b[i].name && a[i].components == b[i].components;
  if (!same)
    fail(what, ": a time step with other fields than the first (every step writes the same)");
}

} // namespace

struct ExodusResults::File {
  detail::TempBeside temp;
  detail::ExodusFile exo;
  OutputGrid grid;
  OutputStep first;
  int steps = 0;
  File(const std::string &path)
      : temp(path, "exodus file '" + path + "'"),
        exo(detail::ExodusFile::create(temp.path(), path)) {}
};

ExodusResults::ExodusResults(std::string path, const OutputGrid &grid, const OutputStep &first)
    : path_(std::move(path)) {
  const std::string what = "exodus file '" + path_ + "'";
  check_output(grid, first, what);
  file_ = std::make_unique<File>(path_);
  File &f = *file_;
  f.grid = grid;
  f.first.point_fields = first.point_fields;
  f.first.cell_fields = first.cell_fields;
  const int id = f.exo.id();
  const std::int64_t n = grid.point_count(), cells = grid.cell_count();
  f.exo.check(ex_put_init(id, "umesh results", 3, n, cells, 1, 0, 0), "writing its header");
  std::vector<double> x(static_cast<std::size_t>(n)), y(x.size()), z(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = grid.points[3 * i], y[i] = grid.points[3 * i + 1], z[i] = grid.points[3 * i + 2];
  f.exo.check(ex_put_coord(id, x.data(), y.data(), z.data()), "writing its coordinates");
  const char *type = grid.cell_type == "line"       ? "BAR2"
                     : grid.cell_type == "triangle" ? "TRI3"
                     : grid.cell_type == "quad"     ? "QUAD4"
                     : grid.cell_type == "tet"      ? "TETRA4"
                     : grid.cell_type == "wedge"    ? "WEDGE6"
                                                    : "HEX8";
  f.exo.check(ex_put_block(id, EX_ELEM_BLOCK, 1, type, cells, grid.corners(), 0, 0, 0),
              "writing its element block");
  std::vector<int64_t> conn(grid.cells.begin(), grid.cells.end());
  for (auto &c : conn)
    ++c;
  if (!conn.empty())
    f.exo.check(ex_put_conn(id, EX_ELEM_BLOCK, 1, conn.data(), nullptr, nullptr),
                "writing its connectivity");
  const auto variables = [&](ex_entity_type type, const std::vector<OutputField> &fields) {
    std::vector<std::string> names = variable_names(fields);
    if (names.empty())
      return;
    f.exo.check(ex_put_variable_param(id, type, int(names.size())), "writing its variables");
    std::vector<char *> pointers;
    for (auto &s : names)
      pointers.push_back(s.data());
    f.exo.check(ex_put_variable_names(id, type, int(names.size()), pointers.data()),
                "writing its variables' names");
  };
  variables(EX_NODAL, first.point_fields);
  variables(EX_ELEM_BLOCK, first.cell_fields);
}

ExodusResults::ExodusResults(ExodusResults &&) noexcept = default;
ExodusResults &ExodusResults::operator=(ExodusResults &&) noexcept = default;
ExodusResults::~ExodusResults() = default;

void ExodusResults::write(const OutputStep &step) {
  const std::string what = "exodus file '" + path_ + "'";
  if (!file_)
    fail(what, ": written after close()");
  File &f = *file_;
  check_output(f.grid, step, what);
  same_fields(step.point_fields, f.first.point_fields, what);
  same_fields(step.cell_fields, f.first.cell_fields, what);
  const int id = f.exo.id(), k = ++f.steps;
  f.exo.check(ex_put_time(id, k, &step.time), "writing time step " + std::to_string(k));
  const auto put = [&](ex_entity_type type, const std::vector<OutputField> &fields,
                       std::int64_t items) {
    int variable = 0;
    std::vector<double> values(static_cast<std::size_t>(items));
    for (const auto &fd : fields)
      for (int c = 0; c < fd.components; ++c) {
        for (std::size_t i = 0; i < values.size(); ++i)
          values[i] = fd.values[i * std::size_t(fd.components) + std::size_t(c)];
        f.exo.check(ex_put_var(id, k, type, ++variable, 1, items, values.data()),
                    "writing '" + fd.name + "' at time step " + std::to_string(k));
      }
  };
  put(EX_NODAL, step.point_fields, f.grid.point_count());
  put(EX_ELEM_BLOCK, step.cell_fields, f.grid.cell_count());
  f.exo.check(ex_update(id), "writing time step " + std::to_string(k));
}

void ExodusResults::close() {
  if (!file_)
    return;
  std::unique_ptr<File> f = std::move(file_);
  f->exo.close();
  f->temp.commit();
}

#else // built without Exodus II

struct ExodusResults::File {};

ExodusResults::ExodusResults(std::string path, const OutputGrid &, const OutputStep &)
    : path_(std::move(path)) {
  fail("exodus file '", path_,
       "': this umesh was built without Exodus II (configure with UMESH_ENABLE_EXODUS=ON where "
       "the library is installed; Debian: apt-get install libexodusii-dev)");
}
ExodusResults::ExodusResults(ExodusResults &&) noexcept = default;
ExodusResults &ExodusResults::operator=(ExodusResults &&) noexcept = default;
ExodusResults::~ExodusResults() = default;
void ExodusResults::write(const OutputStep &) {}
void ExodusResults::close() {}

#endif

} // namespace umesh
