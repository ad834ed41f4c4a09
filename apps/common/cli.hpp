#ifndef UMESH_APPS_COMMON_CLI_HPP
#define UMESH_APPS_COMMON_CLI_HPP

// Command-line helpers shared by the perf programs and the apps: CLI11
// (Debian's libcli11-dev) parses; these add umesh's conventions.

#include <umesh/error.hpp>

#include <CLI/CLI.hpp>

#include <cstdio>
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

#ifndef UMESH_VERSION
#define UMESH_VERSION "unknown"
#endif

/// Adds umesh's --version to a CLI11 app (which has --help, -h).
inline void add_version(CLI::App &app) {
  app.set_version_flag("--version", std::string(app.get_name() + " (umesh ") + UMESH_VERSION + ")");
}

/// Parses `argv` (after Kokkos took its --kokkos-* arguments): --help and
/// --version print to stdout and exit 0; a bad command line (CLI11's error,
/// or a umesh::Error from a value's check) prints "<name>: <why>" and a pointer
/// to --help on stderr and exits 2.
inline void parse_or_exit(CLI::App &app, int argc, char **argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success &e) {
    std::exit(app.exit(e));
  } catch (const std::exception &e) {
    std::string why = e.what();
    const std::string prefix = "umesh: ";
    if (why.compare(0, prefix.size(), prefix) == 0)
      why.erase(0, prefix.size());
    std::fprintf(stderr, "%s: %s\nrun '%s --help' for the options\n", app.get_name().c_str(),
                 why.c_str(), app.get_name().c_str());
    std::exit(2);
  }
}

} // namespace umesh::perf

#endif
