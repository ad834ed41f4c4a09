#ifndef UMESH_APPS_COMMON_CLI_HPP
#define UMESH_APPS_COMMON_CLI_HPP

// Command-line helpers shared by the perf programs and the apps.

#include <cstdlib>
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

/// `value` as a whole number in [1, 100000]; otherwise calls `fail` (which
/// must not return) with a message naming `flag` and the value.
template <class Fail> int positive(const char *flag, const char *value, Fail &&fail) {
  char *end = nullptr;
  const long v = std::strtol(value, &end, 10);
  if (*value == '\0' || *end || v < 1 || v > 100000)
    fail(std::string(flag) + " needs a positive integer up to 100000, got '" + value + "'");
  return int(v);
}

} // namespace umesh::perf

#endif
