#ifndef UMESH_APPS_COMMON_RUN_MAIN_HPP
#define UMESH_APPS_COMMON_RUN_MAIN_HPP

// One error policy for every umesh program: whatever goes wrong is reported
// in one line on stderr, "<program>: <why>", and the exit status says which
// kind of failure it was. No exception leaves main: std::terminate would
// abort with a core dump and no word about the input.
//
// Exit status of every umesh program (--help of each says so too):
//   0  success
//   1  a check failed: validation against the serial reference, --compare,
//      --expect-cycles/--expect-energy, or nothing was validated at all
//   2  bad input: the command line, an input, mesh, plan or tuning file, an
//      output path that cannot be a file
//   3  resources: out of memory, disk full or another read or write error
//   4  internal error: a bug in umesh (please report it with the command line)

#include <umesh/error.hpp>

#include <cstdio>
#include <exception>
#include <ios>
#include <new>
#include <stdexcept>
#include <string>

namespace umesh::perf {

/// Exit statuses of the umesh programs (see the comment above).
enum ExitStatus : int {
  exit_ok = 0,
  exit_check_failed = 1,
  exit_bad_input = 2,
  exit_resources = 3,
  exit_internal = 4
};

/// The one line --help of every program ends with.
inline const char *exit_status_help() {
  return "Exit status: 0 success, 1 a check failed (or nothing was validated), 2 bad input "
         "(command line, input files, output paths), 3 resources (out of memory, disk full, "
         "read or write error), 4 internal error.";
}

/// A resource ran out (memory, disk) or a read or write failed: exit status 3.
class ResourceError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// `why` without the "umesh: " or "<program>: " that library and app errors
/// start with, so that the line names the program once.
inline std::string without_program_prefix(std::string why, const std::string &program) {
  for (const std::string &p : {std::string("umesh: "), program + ": "})
    while (why.compare(0, p.size(), p) == 0)
      why.erase(0, p.size());
  return why;
}

/// For the exception being handled (call it in a catch block): prints
/// "<program>: <why>" on stderr and returns the exit status of its kind.
inline int report_exception(const std::string &program) noexcept {
  int status = exit_internal;
  std::string why;
  try {
    try {
      throw;
    } catch (const Error &e) {
      status = exit_bad_input;
      why = e.what();
    } catch (const ResourceError &e) {
      status = exit_resources;
      why = e.what();
    } catch (const std::bad_alloc &e) {
      // Kokkos' allocation failures derive from bad_alloc and name the size
      // and the View; the standard library's say only "std::bad_alloc".
      status = exit_resources;
      why = std::string("out of memory: ") + e.what() +
            " (the problem needs more memory than this machine gives; try a smaller size)";
    } catch (const std::length_error &e) {
      status = exit_resources;
      why = std::string("a size too large to allocate: ") + e.what();
    } catch (const std::ios_base::failure &e) {
      status = exit_resources;
      why = std::string("read or write error: ") + e.what();
    } catch (const std::exception &e) {
      why = std::string("internal error: ") + e.what();
    } catch (...) {
      why = "internal error: an exception of unknown type";
    }
    why = without_program_prefix(why, program);
  } catch (...) { // building the message ran out of memory: say what we can
    why = "out of memory";
    status = exit_resources;
  }
  std::fprintf(stderr, "%s: %s\n", program.c_str(), why.c_str());
  std::fflush(stderr);
  return status;
}

/// Runs `body` (returning an exit status) under the error policy: an
/// exception becomes one line on stderr and its exit status.
template <class Body> int run_main(const std::string &program, Body &&body) noexcept {
  try {
    return body();
  } catch (...) {
    return report_exception(program);
  }
}

} // namespace umesh::perf

#endif
