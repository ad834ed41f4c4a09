#include "results.hpp"

#include "common/output.hpp"

#include <umesh/decimal.hpp>
#include <umesh/error.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace miniaero {

std::vector<std::string> results_lines(const std::vector<double> &centroids,
                                       const std::vector<double> &solution) {
  const std::size_t n = solution.size() / 5;
  std::vector<std::string> lines(n);
  for (std::size_t c = 0; c < n; ++c) {
    std::ostringstream os; // default precision (6), as miniAero writes
    for (int d = 0; d < 3; ++d)
      os << centroids[3 * c + d] << '\t';
    for (int k = 0; k < 5; ++k)
      os << solution[5 * c + k] << '\t';
    lines[c] = os.str();
  }
  return lines;
}

void write_results(const std::string &path, const std::vector<std::string> &lines) {
  umesh::apps::ResultFile f(path); // complete or not at all
  for (const auto &l : lines)
    f << l << '\n';
  f.commit();
}

std::vector<std::vector<double>> read_reference(const std::string &path, std::size_t max_rows) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    umesh::fail("reference file '", path, "' is a folder, not a file");
  std::ifstream f(path);
  if (!f)
    umesh::fail("cannot open reference file '", path, "'");
  std::vector<std::vector<double>> rows;
  std::string line;
  int number = 0;
  // Bounded: a results line is eight numbers, and there is one a cell. A
  // device that never ends (/dev/zero) was read whole into memory.
  constexpr std::size_t longest = 4096;
  for (int c = 0; c != EOF;) {
    line.clear();
    while ((c = f.get()) != EOF && c != '\n')
      if (line.size() == longest)
        umesh::fail("reference file '", path, "' line ", number + 1, ": longer than ", longest,
                    " characters (not miniAero's results?)");
      else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
        // A NUL inside a field ended the field in the message that named it.
        umesh::fail("reference file '", path, "' line ", number + 1, ": ",
                    c == 0 ? "a NUL byte" : "a control byte", " (", umesh::apps::control_code(c),
                    ") at column ", line.size() + 1, " (not miniAero's results, a text file?)");
      else
        line.push_back(char(c));
    if (c == EOF && line.empty())
      break;
    ++number;
    if (line.empty() || line[0] == '#')
      continue;
    if (rows.size() == max_rows)
      umesh::fail("reference file '", path, "' has more than ", max_rows,
                  " results lines (one a cell)");
    std::istringstream in(line);
    std::vector<double> row;
    std::string field;
    while (in >> field) {
      // Decimal and finite: a "nan" or "inf" in the reference is a broken
      // file (exit 2), not a difference every run would be blamed for.
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(field, &used);
      } catch (const std::exception &) {
        used = 0;
      }
      if (used != field.size())
        umesh::fail("reference file '", path, "' line ", number, ": '", field, "' is not a number");
      if (!umesh::is_decimal_real(field) || !std::isfinite(v))
        umesh::fail("reference file '", path, "' line ", number, ": '", field,
                    "' is not a finite decimal number");
      row.push_back(v);
    }
    rows.push_back(std::move(row));
  }
  if (f.bad())
    umesh::fail("reference file '", path, "': read error");
  if (rows.empty()) // would "match" no results at all
    umesh::fail("reference file '", path, "' has no results lines");
  return rows;
}

int compare_results(const std::vector<std::string> &lines,
                    const std::vector<std::vector<double>> &reference, double rel_tol, double floor,
                    std::string &report) {
  std::ostringstream os;
  if (lines.size() != reference.size()) {
    os << "results have " << lines.size() << " lines, the reference " << reference.size();
    report = os.str();
    return int(std::max(lines.size(), reference.size()));
  }
  int bad = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::istringstream in(lines[i]);
    std::vector<double> got;
    for (double v; in >> v;)
      got.push_back(v);
    bool differs = got.size() != reference[i].size();
    for (std::size_t j = 0; !differs && j < got.size(); ++j) {
      const double a = got[j], b = reference[i][j];
      if (!std::isfinite(a) || !std::isfinite(b))
        differs = true;
      else if (std::fabs(a) > floor || std::fabs(b) > floor)
        differs = std::fabs(a - b) / std::max(std::fabs(a), std::fabs(b)) > rel_tol;
    }
    if (differs && ++bad <= 5) {
      os << "  line " << i + 1 << ": got      " << lines[i] << "\n          expected ";
      for (double v : reference[i])
        os << v << '\t';
      os << '\n';
    }
  }
  report = os.str();
  return bad;
}

} // namespace miniaero
