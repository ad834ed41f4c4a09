#include <umesh/detail/tuning_file.hpp>
#include <umesh/error.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace umesh::detail {

namespace {
constexpr const char *header = "umesh-tuning 1";
}

TuningTable read_tuning_file(const std::string &path) {
  TuningTable table;
  std::ifstream in(path);
  if (!in)
    return table;
  std::string line;
  int number = 1;
  if (!std::getline(in, line) || line != header)
    fail("tuning file '", path, "' line 1: expected '", header,
         "' (not a umesh tuning file, or another version): delete it to tune again");
  while (std::getline(in, line)) {
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
