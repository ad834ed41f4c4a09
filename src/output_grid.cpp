// OutputGrid and its checks (output_grid.hpp).
#include <umesh/error.hpp>
#include <umesh/output_grid.hpp>

#include <set>

namespace umesh {

int OutputGrid::corners() const {
  if (cell_type == "line")
    return 2;
  if (cell_type == "triangle")
    return 3;
  if (cell_type == "quad" || cell_type == "tet")
    return 4;
  if (cell_type == "wedge")
    return 6;
  if (cell_type == "hex")
    return 8;
  fail("output grid: cell type '", cell_type,
       "' (the writers take line, triangle, quad, tet, wedge and hex)");
}

std::int64_t OutputGrid::cell_count() const {
  return std::int64_t(cells.size()) / corners();
}

void check_output(const OutputGrid &grid, const OutputStep &step, const std::string &what) {
  const int k = grid.corners();
  if (grid.points.size() % 3 != 0)
    fail(what, ": ", grid.points.size(), " point coordinates, not three a point");
  if (grid.cells.size() % std::size_t(k) != 0)
    fail(what, ": ", grid.cells.size(), " cell corners, not ", k, " a ", grid.cell_type);
  const std::int64_t n = grid.point_count();
  for (std::size_t i = 0; i < grid.cells.size(); ++i)
    if (grid.cells[i] < 0 || grid.cells[i] >= n)
      fail(what, ": cell ", i / std::size_t(k), " has the corner ", grid.cells[i],
           "; the grid has ", n, " points");
  std::set<std::string> names;
  const auto fields = [&](const std::vector<OutputField> &fs, std::int64_t items, const char *on) {
    for (const auto &f : fs) {
      if (f.name.empty() || !names.insert(f.name).second)
        fail(what, ": a field named '", f.name, "' ", f.name.empty() ? "(no name)" : "twice");
      if (f.components < 1 || f.values.size() != std::size_t(items) * std::size_t(f.components))
        fail(what, ": field '", f.name, "' has ", f.values.size(), " values for ", items, " ", on,
             " of ", f.components, " component", f.components == 1 ? "" : "s");
    }
  };
  fields(step.point_fields, n, "points");
  fields(step.cell_fields, grid.cell_count(), "cells");
}

} // namespace umesh
