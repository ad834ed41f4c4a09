#ifndef UMESH_PERF_CLI_HPP
#define UMESH_PERF_CLI_HPP

// Command-line helpers shared by the perf programs.

#include <sstream>
#include <string>
#include <vector>

namespace umesh::perf {

/// "a,b,,c" -> {"a", "b", "c"}.
inline std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty())
      out.push_back(item);
  return out;
}

} // namespace umesh::perf

#endif
