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
//   3  resources: out of memory, disk full or another read or write error,
//      a GPU runtime that could not start (kokkos_scope.hpp)
//   4  internal error: a bug in umesh (please report it with the command line)

#include <umesh/error.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <ios>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace umesh::apps {

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

/// What sized the problem, for the out-of-memory message: the options as
/// given ("--nx 5000 --ny 5000") and what to lower ("--nx or --ny"). A
/// program sets it once its command line is parsed; report_exception reads
/// it in catch blocks far from where the sizes are known (per rank, per
/// variant), and a bare std::bad_alloc names nothing.
struct SizeOptions {
  std::string given, lower;
};
inline SizeOptions &size_options() {
  static SizeOptions s;
  return s;
}

/// The options named in `given`: "--nx 5000 --ny 5000" -> "--nx or --ny".
inline std::string option_names(const std::string &given) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < given.size();) {
    const std::size_t end = std::min(given.find(' ', i), given.size());
    if (given[i] == '-')
      names.push_back(given.substr(i, end - i));
    i = end + 1;
  }
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k)
    out += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + names[k];
  return out;
}

/// Sets size_options() to `given` and the options it names.
inline void set_size_options(const std::string &given) {
  size_options() = {given, option_names(given)};
}

/// "out of memory: <what>; <given> asks for more memory than this run may
/// use (...): lower <lower>" (a generic hint when no size options were set).
inline std::string out_of_memory(const std::string &what) {
  const SizeOptions &s = size_options();
  if (s.given.empty())
    return "out of memory: " + what +
           " (the problem needs more memory than this run may use; try a smaller size)";
  return "out of memory: " + what + "; " + s.given +
         " asks for more memory than this run may use (the machine's, a ulimit's or a container's "
         "limit): lower " +
         s.lower;
}

/// `what` of an exception Kokkos threw, on one line: without the
/// "Traceback functionality not available" Kokkos 3 appends on lines of
/// its own, and its other line breaks as spaces.
inline std::string kokkos_message(std::string what) {
  if (const std::size_t at = what.find("Traceback functionality not available");
      at != std::string::npos)
    what.erase(at);
  std::replace(what.begin(), what.end(), '\n', ' ');
  while (!what.empty() && what.back() == ' ')
    what.pop_back();
  return what;
}

/// True for Kokkos' allocation failures: Kokkos 3 and 4 throw them as
/// std::runtime_error ("Kokkos failed to allocate memory for label ...",
/// having printed the reason, or "Memory allocation failure"), Kokkos 5 as
/// "Kokkos ERROR: Host memory space failed to allocate 512 MiB (label=...)",
/// not as the std::bad_alloc their RawMemoryAllocationFailure is.
inline bool is_kokkos_allocation_failure(const std::string &what) {
  return what.rfind("Kokkos failed to allocate memory", 0) == 0 ||
         what == "Memory allocation failure" ||
         (what.rfind("Kokkos ERROR: ", 0) == 0 &&
          what.find(" space failed to allocate ") != std::string::npos);
}

/// A byte as "0x1b", for messages about bytes that cannot be shown.
inline std::string control_code(int c) {
  char code[8];
  std::snprintf(code, sizeof code, "0x%02x", unsigned(c) & 0xffu);
  return code;
}

/// `why` with its control bytes but tabs and line breaks written as "\x00":
/// a NUL from an input file ended the message there (printed as a C
/// string), and an escape sequence would drive the terminal.
inline std::string printable(const std::string &why) {
  std::string out;
  for (const char ch : why) {
    const unsigned c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && ch != '\t' && ch != '\n') || c == 0x7f)
      out += "\\x" + control_code(int(c)).substr(2);
    else
      out.push_back(ch);
  }
  return out;
}

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
      // The standard library's say only "std::bad_alloc" (Kokkos' come as
      // runtime errors, below).
      status = exit_resources;
      why = out_of_memory(e.what());
    } catch (const std::length_error &e) {
      status = exit_resources;
      why = std::string("a size too large to allocate: ") + e.what();
      if (!size_options().given.empty())
        why += "; " + size_options().given + " asks for it: lower " + size_options().lower;
    } catch (const std::ios_base::failure &e) {
      status = exit_resources;
      why = std::string("read or write error: ") + e.what();
    } catch (const std::exception &e) {
      why = kokkos_message(e.what());
      if (is_kokkos_allocation_failure(why)) {
        status = exit_resources;
        why = out_of_memory(why);
      } else
        why = "internal error: " + why;
    } catch (...) {
      why = "internal error: an exception of unknown type";
    }
    why = printable(without_program_prefix(why, program));
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

} // namespace umesh::apps

#endif
