#include "problem.hpp"

#include <umesh/decimal.hpp>
#include <umesh/error.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace miniaero {

namespace {

// One field of the input, parsed whole: the entire token (a NUL inside it
// included), within the type's range. An integer is decimal digits with an
// optional '-' and no leading zero ("1e3" steps and "010" are errors, not 1
// and 10); a real is decimal ("0x1p3", "inf" and "nan" are errors), finite,
// not subnormal, and uses '.' ("2,5e-6" is an error, not 2). Returns why the
// token is not one (empty when it is).
std::string parse_field(const std::string &t, int &v) {
  const std::size_t digits = !t.empty() && t[0] == '-' ? 1 : 0;
  if (t.size() == digits ||
      !std::all_of(t.begin() + long(digits), t.end(),
                   [](char c) { return c >= '0' && c <= '9'; }) ||
      (t[digits] == '0' && (t.size() > digits + 1 || digits == 1)))
    return "is not an integer (decimal digits, no leading zero, no '-0')";
  char *end = nullptr;
  errno = 0;
  const long long x = std::strtoll(t.c_str(), &end, 10);
  if (errno == ERANGE || x < INT_MIN || x > INT_MAX)
    return "is out of range";
  v = int(x);
  return {};
}
std::string parse_field(const std::string &t, double &v) {
  char *end = nullptr;
  errno = 0;
  v = std::strtod(t.c_str(), &end);
  if (t.empty() || std::isspace(static_cast<unsigned char>(t[0])) || end != t.c_str() + t.size())
    return "is not a number";
  if (!std::isfinite(v) || errno == ERANGE)
    return "is not a finite number of double's normal range";
  if (!umesh::is_decimal_real(t))
    return "is not a decimal number";
  return {};
}
// A 0/1 flag: exactly "0" or "1".
struct Flag {
  bool value = false;
};
std::string parse_field(const std::string &t, Flag &v) {
  if (t != "0" && t != "1")
    return "is not 0 or 1";
  v.value = t == "1";
  return {};
}

// `t` for an error message: a NUL byte as "\0" (printed raw it ended the
// message there, before the reason).
std::string printable(const std::string &t) {
  std::string out;
  for (char c : t)
    if (c == '\0')
      out += "\\0";
    else
      out += c;
  return out;
}

// Reads one line of the input: exactly one field per value, named by
// `names` (space-separated) in errors; text after the last field is an
// error, not a comment.
template <class... T>
void parse_line(std::istream &in, const std::string &path, int line, const char *names,
                T &...values) {
  // Lines are short: a longer one is not miniaero.inp (or a device that
  // never ends), and reading it whole could take all memory.
  constexpr std::size_t longest = 4096;
  std::string text;
  int c;
  while ((c = in.get()) != EOF && c != '\n')
    if (text.size() == longest)
      umesh::fail("input '", path, "' line ", line, ": longer than ", longest,
                  " characters (not a miniaero.inp?)");
    else
      text.push_back(char(c));
  if (c == EOF && text.empty())
    umesh::fail("input '", path, "' line ", line, ": missing (expected ", names, ")");
  std::istringstream split(text), name_split(names);
  std::vector<std::string> fields, field_names;
  for (std::string f; split >> f;)
    fields.push_back(f);
  for (std::string f; name_split >> f;)
    field_names.push_back(f);
  constexpr std::size_t count = sizeof...(T);
  if (fields.size() != count)
    umesh::fail("input '", path, "' line ", line, ": ", fields.size(), " field",
                fields.size() == 1 ? "" : "s", " in '", printable(text), "', expected ", count,
                " (", names, ")");
  std::size_t i = 0;
  auto one = [&](auto &v) {
    if (const std::string why = parse_field(fields[i], v); !why.empty())
      umesh::fail("input '", path, "' line ", line, ": ", field_names[i], " '",
                  printable(fields[i]), "' ", why);
    ++i;
  };
  (one(values), ...);
}
} // namespace

std::string mesh_size_problem(int nx, int ny, int nz) {
  if (nx >= 1 && ny >= 1 && nz >= 1 && double(nx) * ny * nz <= 4e8)
    return {};
  return std::to_string(nx) + " x " + std::to_string(ny) + " x " + std::to_string(nz) +
         " cells (each at least 1, at most 4e8 in all)";
}

std::string mesh_geometry_problem(const Input &in) {
  const double pi = 3.14159265; // make_mesh's
  // The ramp rises from lx / 2 to lx; each column of cells spans what is
  // left of the height above it.
  const double rise = in.lx / 2.0 * std::tan(in.ramp_angle * pi / 180.0);
  const double low = in.ly - std::max(rise, 0.0), high = in.ly - std::min(rise, 0.0);
  std::ostringstream os;
  if (!(low > 0)) {
    os << "a ramp of " << in.ramp_angle << " degrees over half of lx " << in.lx << " rises " << rise
       << ", to or past the height ly " << in.ly << ": its cells would be inverted";
    return os.str();
  }
  // Volumes, areas and lengths a double holds: nothing divides by a zero
  // or an infinite volume later.
  const double dx = in.lx / in.nx, dz = in.lz / in.nz;
  for (const double dy : {low / in.ny, high / in.ny})
    for (const double v : {dx, dy, dz, dx * dy, dy * dz, dx * dz, dx * dy * dz})
      if (!(v >= DBL_MIN && v <= DBL_MAX)) {
        os << "cells of " << dx << " x " << dy << " x " << dz
           << ": a length, area or volume of theirs (" << v << ") is not a normal double";
        return os.str();
      }
  return {};
}

Input read_input(const std::string &path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    umesh::fail("input file '", path, "' is a folder, not a file");
  std::ifstream f(path);
  if (!f)
    umesh::fail("cannot open input file '", path, "': ", std::strerror(errno));
  Input in;
  Flag output, second, viscous;
  parse_line(f, path, 1, "problem_type", in.problem);
  parse_line(f, path, 2, "lx ly lz ramp_angle", in.lx, in.ly, in.lz, in.ramp_angle);
  parse_line(f, path, 3, "nx ny nz", in.nx, in.ny, in.nz);
  parse_line(f, path, 4, "time_steps", in.steps);
  parse_line(f, path, 5, "time_step", in.dt);
  parse_line(f, path, 6, "output_results", output);
  parse_line(f, path, 7, "output_frequency", in.output_frequency);
  parse_line(f, path, 8, "second_order", second);
  parse_line(f, path, 9, "viscous", viscous);
  // Nothing after the last field but white space: a tenth line is a setting
  // this reader would otherwise drop without a word.
  int line = 10, c;
  for (int seen = 0; (c = f.get()) != EOF; ++seen) {
    if (!std::isspace(c) || seen == 4096)
      umesh::fail("input '", path, "' line ", line,
                  ": text after the last field (miniaero.inp has 9 lines)");
    line += c == '\n';
  }
  in.output_results = output.value;
  in.second_order = second.value;
  in.viscous = viscous.value;
  if (in.problem < 0 || in.problem > 2)
    umesh::fail("input '", path, "' line 1: problem type ", in.problem,
                " (0 Sod, 1 flat plate, 2 ramp)");
  if (!(in.lx > 0 && in.ly > 0 && in.lz > 0))
    umesh::fail("input '", path, "' line 2: domain ", in.lx, " x ", in.ly, " x ", in.lz,
                " must be positive");
  if (!(std::fabs(in.ramp_angle) < 60))
    umesh::fail("input '", path, "' line 2: ramp angle ", in.ramp_angle,
                " degrees is outside (-60, 60)");
  if (const std::string why = mesh_size_problem(in.nx, in.ny, in.nz); !why.empty())
    umesh::fail("input '", path, "' line 3: ", why);
  if (const std::string why = mesh_geometry_problem(in); !why.empty())
    umesh::fail("input '", path, "' lines 2-3: ", why);
  if (in.steps < 0)
    umesh::fail("input '", path, "' line 4: ", in.steps, " time steps");
  if (!(in.dt > 0))
    umesh::fail("input '", path, "' line 5: time step ", in.dt, " must be positive");
  if (in.output_frequency < 1)
    umesh::fail("input '", path, "' line 7: output frequency ", in.output_frequency,
                " must be at least 1");
  return in;
}

std::string describe(const Input &in) {
  static const char *names[] = {"Sod shock tube", "viscous flat plate", "inviscid ramp"};
  std::ostringstream os;
  os << names[in.problem] << ", " << in.nx << " x " << in.ny << " x " << in.nz << " cells, "
     << in.steps << " steps of " << in.dt << " s, "
     << (in.second_order ? "second order" : "first order") << ", "
     << (in.viscous ? "viscous" : "inviscid");
  return os.str();
}

const char *bc_name(Bc bc) {
  switch (bc) {
  case Bc::extrapolate:
    return "extrapolate";
  case Bc::tangent:
    return "tangent";
  case Bc::inflow:
    return "inflow";
  case Bc::noslip:
    return "noslip";
  }
  return "?";
}

namespace {
constexpr double kRgasHost = 287.05, kGammaHost = 1.4;
} // namespace

std::vector<double> initial_state(const Input &in, const Mesh &m) {
  std::vector<double> u(std::size_t(m.num_cells) * 5);
  const double cv = kRgasHost / (kGammaHost - 1.0);
  // Sod: high pressure left, low right, at rest (miniAero's values).
  const double p1 = 68947.57, t1 = 288.889, p2 = 6894.757, t2 = 231.11;
  const double rho1 = p1 / (kRgasHost * t1), rho2 = p2 / (kRgasHost * t2);
  for (int c = 0; c < m.num_cells; ++c) {
    double *s = &u[std::size_t(c) * 5];
    if (in.problem == 0) {
      const bool left = m.cell_centroid[3 * std::size_t(c)] < in.lx / 2.0;
      const double rho = left ? rho1 : rho2, t = left ? t1 : t2;
      s[0] = rho;
      s[1] = s[2] = s[3] = 0.0;
      s[4] = rho * cv * t;
    } else {
      for (int k = 0; k < 5; ++k)
        s[k] = kInflow[k];
    }
  }
  return u;
}

} // namespace miniaero
