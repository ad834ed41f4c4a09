#ifndef UMESH_APPS_COMMON_CLI_HPP
#define UMESH_APPS_COMMON_CLI_HPP

// Command-line helpers shared by the perf programs and the apps: CLI11
// (Debian's libcli11-dev) parses; these add umesh's conventions.

#include "common/output.hpp"
#include "common/run_main.hpp"

#include <umesh/decimal.hpp>
#include <umesh/error.hpp>
#include <umesh/kokkos_args.hpp>
#include <umesh/partition.hpp>

#include <CLI/CLI.hpp>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace umesh::apps {

#ifndef UMESH_VERSION
#define UMESH_VERSION "unknown"
#endif

/// Adds umesh's --version to a CLI11 app (which has --help, -h).
inline void add_version(CLI::App &app) {
  app.set_version_flag("--version", std::string(app.get_name() + " (umesh ") + UMESH_VERSION + ")");
}

/// CLI11 check of a file the program writes: not empty, not a folder.
inline CLI::Validator output_file() {
  return CLI::Validator([](std::string &path) { return output_path_problem(path); }, "FILE");
}

/// CLI11 check of a folder the program writes into: not empty, not a file.
inline CLI::Validator output_folder() {
  return CLI::Validator(
      [](std::string &path) {
        std::error_code ec;
        if (path.empty())
          return std::string("an empty path names no folder");
        if (std::filesystem::exists(path, ec) && !std::filesystem::is_directory(path, ec))
          return "'" + path + "' is a file, not a folder";
        return std::string();
      },
      "DIR");
}

/// CLI11 check of a file the program reads: not empty, present, a regular
/// file (not a folder, pipe or device), readable.
inline CLI::Validator input_file() {
  return CLI::Validator(
      [](std::string &path) {
        std::error_code ec;
        if (path.empty())
          return std::string("an empty path names no file");
        if (!std::filesystem::exists(path, ec))
          return "'" + path + "' does not exist";
        if (std::filesystem::is_directory(path, ec))
          return "'" + path + "' is a folder, not a file";
        // Before opening it: opening a named pipe waits for a writer.
        if (!std::filesystem::is_regular_file(path, ec))
          return "'" + path + "' is not a regular file (a pipe, socket or device)";
        if (std::FILE *f = std::fopen(path.c_str(), "rb"))
          std::fclose(f);
        else
          return "cannot read '" + path + "': " + std::strerror(errno);
        return std::string();
      },
      "FILE");
}

/// Numbers on the command line are read whole. CLI11 reads integers with
/// strtoll/strtoull in base 0 ("010" is 8, "0x10" is 16), lets "-1" wrap
/// around for an unsigned option and clamps a value past 64 bits; these
/// checks, added to every numeric option, refuse all of that: decimal digits
/// only (a sign only where the type is signed, no leading zero), within 64
/// bits; reals decimal (no hexadecimal float, inf or nan: strtod reads
/// them all) and finite.
inline void strict_numbers(CLI::App &app) {
  for (CLI::Option *opt : app.get_options()) {
    const std::string type = opt->get_type_name();
    const bool is_unsigned = type.rfind("UINT", 0) == 0, is_signed = type.rfind("INT", 0) == 0,
               is_real = type.rfind("FLOAT", 0) == 0;
    if (!is_unsigned && !is_signed && !is_real)
      continue;
    opt->check(CLI::Validator(
        [is_unsigned, is_real](std::string &t) -> std::string {
          const std::string quoted = "'" + t + "'";
          if (is_real) {
            char *end = nullptr;
            errno = 0;
            const double v = std::strtod(t.c_str(), &end);
            if (t.empty() || std::isspace(static_cast<unsigned char>(t[0])) || *end)
              return quoted + " is not a number";
            if (errno == ERANGE || !std::isfinite(v))
              return quoted + " is not a finite number in range";
            if (!umesh::is_decimal_real(t))
              return quoted + " is not a decimal number (digits, '.', an exponent 'e')";
            return {};
          }
          std::size_t digits = t.empty() || (t[0] != '-' && t[0] != '+') ? 0 : 1;
          if (is_unsigned && digits && t[0] == '-')
            return quoted + " is negative: give 0 or more";
          if (digits == t.size() || t.find_first_not_of("0123456789", digits) != std::string::npos)
            return quoted + " is not a whole number (decimal digits only)";
          if (t[digits] == '0' && t.size() > digits + 1)
            return quoted + " has a leading zero (C would read it in octal): write it without";
          errno = 0;
          if (is_unsigned)
            (void)std::strtoull(t.c_str(), nullptr, 10);
          else
            (void)std::strtoll(t.c_str(), nullptr, 10);
          if (errno == ERANGE)
            return quoted + " is out of range";
          return {};
        },
        ""));
  }
}

/// Parses `argv` but Kokkos' own --kokkos-* arguments (Kokkos reads them;
/// they are checked here, umesh/kokkos_args.hpp):
/// --help and --version print to stdout and exit 0; a bad command line
/// (CLI11's error, or a umesh::Error from a value's check) prints
/// "<name>: <why>" and a pointer to --help on stderr and exits 2.
inline void parse_or_exit(CLI::App &app, int argc, char **argv) {
  strict_numbers(app);
  app.footer(app.get_footer() + (app.get_footer().empty() ? "" : "\n") + exit_status_help());
  std::vector<char *> args{argv[0]};
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--kokkos", 0) != 0)
      args.push_back(argv[i]);
  try {
    // Kokkos' arguments first: Kokkos reads them later, and fails badly.
    if (const std::string why = kokkos_arguments_problem(argc, argv); !why.empty())
      throw Error(why);
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
    std::exit(exit_bad_input);
  }
}

/// Whether the program was built with PT-Scotch (umesh::dist defines
/// UMESH_HAS_PTSCOTCH for the programs linking it).
constexpr bool built_with_ptscotch() {
#if defined(UMESH_HAS_PTSCOTCH)
  return true;
#else
  return false;
#endif
}

/// The apps' --partition: as given (METIS and PT-Scotch only where built
/// in), else the app's own default if it has one, else METIS where built in,
/// else slabs; refused in one process. `program` names the program in the
/// errors.
inline std::string rank_partition(const std::string &program, const std::string &given,
                                  bool distributed, const std::string &app_default = {}) {
  if (!given.empty() && !distributed)
    throw Error(program + ": --partition is for distributed runs (several MPI ranks or "
                          "--distributed)");
  if (given == "metis" && !has_metis())
    throw Error(program + ": --partition metis: umesh was built without METIS (use slabs)");
  if (given == "ptscotch" && !built_with_ptscotch())
    throw Error(program + ": --partition ptscotch: umesh was built without PT-Scotch (use " +
                (has_metis() ? "metis or slabs" : "slabs") +
                "; PT-Scotch needs MPI and libptscotch-dev at configure time)");
  if (!given.empty())
    return given;
  return !app_default.empty() ? app_default : has_metis() ? "metis" : "slabs";
}

} // namespace umesh::apps

#endif
