#ifndef UMESH_APPS_COMMON_CLI_HPP
#define UMESH_APPS_COMMON_CLI_HPP

// Command-line helpers shared by the perf programs and the apps: CLI11
// (Debian's libcli11-dev) parses; these add umesh's conventions.

#include <umesh/error.hpp>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace umesh::perf {

#ifndef UMESH_VERSION
#define UMESH_VERSION "unknown"
#endif

/// Adds umesh's --version to a CLI11 app (which has --help, -h).
inline void add_version(CLI::App &app) {
  app.set_version_flag("--version", std::string(app.get_name() + " (umesh ") + UMESH_VERSION + ")");
}

/// Parses `argv` but Kokkos' own --kokkos-* arguments (Kokkos reads them):
/// --help and --version print to stdout and exit 0; a bad command line
/// (CLI11's error, or a umesh::Error from a value's check) prints
/// "<name>: <why>" and a pointer to --help on stderr and exits 2.
inline void parse_or_exit(CLI::App &app, int argc, char **argv) {
  std::vector<char *> args{argv[0]};
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--kokkos", 0) != 0)
      args.push_back(argv[i]);
  try {
    app.parse(int(args.size()), args.data());
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
