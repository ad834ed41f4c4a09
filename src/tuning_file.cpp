#include <umesh/detail/tuning_file.hpp>
#include <umesh/error.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace umesh::detail {

namespace {
constexpr const char *header = "umesh-tuning 1";

// A tuning file is a regular file (or none yet): a device that never ends
// would be read for ever, and the rename that writes the file would replace
// a device node with a regular file.
void check_regular(const std::string &path) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
    fail("tuning file '", path, "' is ",
         std::filesystem::is_directory(st) ? "a folder" : "not a regular file",
         ": give a file path");
}

// std::getline, but a line longer than `longest` is an error, not a read of
// all memory.
bool bounded_line(std::istream &in, std::string &line, const std::string &path, int number) {
  constexpr std::size_t longest = 1 << 16;
  line.clear();
  int c;
  while ((c = in.get()) != EOF && c != '\n') {
    if (line.size() == longest)
      fail("tuning file '", path, "' line ", number, ": longer than ", longest,
           " characters (not a umesh tuning file): delete it to tune again");
    line.push_back(char(c));
  }
  return c != EOF || !line.empty();
}
} // namespace

TuningTable read_tuning_file(const std::string &path) {
  TuningTable table;
  check_regular(path);
  std::ifstream in(path);
  if (!in)
    return table;
  std::string line;
  int number = 1;
  if (!bounded_line(in, line, path, number) || line != header)
    fail("tuning file '", path, "' line 1: expected '", header,
         "' (not a umesh tuning file, or another version): delete it to tune again");
  while (bounded_line(in, line, path, number + 1)) {
    ++number;
    if (line.empty())
      continue;
    const auto tab = line.find('\t');
    if (tab == std::string::npos || tab == 0 || tab + 1 == line.size() ||
        line.find('\t', tab + 1) != std::string::npos)
      fail("tuning file '", path, "' line ", number,
           ": expected '<key> TAB <candidate>': delete the file to tune again");
    table[line.substr(0, tab)] = line.substr(tab + 1);
  }
  if (in.bad())
    fail("tuning file '", path, "': read error");
  return table;
}

void write_tuning_file(const std::string &path, const TuningTable &table) {
  check_regular(path);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out)
      fail("cannot write tuning file '", tmp, "'");
    out << header << '\n';
    for (const auto &[key, candidate] : table)
      out << key << '\t' << candidate << '\n';
    out.flush();
    if (!out)
      fail("writing tuning file '", tmp, "' failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    fail("cannot move '", tmp, "' to '", path, "'");
}

TuningTable record_tuning_decision(const std::string &path, const std::string &key,
                                   const std::string &candidate) {
  TuningTable table = read_tuning_file(path);
  table[key] = candidate;
  write_tuning_file(path, table);
  return table;
}

} // namespace umesh::detail
