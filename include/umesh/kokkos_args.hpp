#ifndef UMESH_KOKKOS_ARGS_HPP
#define UMESH_KOKKOS_ARGS_HPP

// Kokkos' own --kokkos-* arguments and its host thread count, checked
// before Kokkos reads them (every umesh program does, and so should a
// program built on umesh: call kokkos_arguments_problem before
// Kokkos::ScopeGuard). Kokkos 3.4 reads their numbers with std::stoi
// ("--kokkos-threads=abc" escaped as an internal error that said only
// "stoi", or aborted), ignores names it does not know (a typo ran with the
// defaults, without a word), and its OpenMP backend holds at most 512
// threads: --kokkos-threads=600, or OMP_NUM_THREADS=600, crashed with a
// segmentation fault or corrupted the heap.

#include <Kokkos_Macros.hpp>
#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <string>
#include <vector>

namespace umesh {

/// Threads Kokkos' OpenMP backend can hold (OpenMPExec::MAX_THREAD_COUNT in
/// Kokkos 3.4, OpenMPInternal's in 4.x; not public).
constexpr int kokkos_max_openmp_threads = 512;

/// Why `t` is not a whole number from `lo` to `hi` (decimal, no sign, no
/// leading zero), or empty.
inline std::string whole_number_problem(const std::string &t, long long lo, long long hi) {
  if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos)
    return "'" + t + "' is not a whole number (decimal digits only)";
  if (t.size() > 1 && t[0] == '0')
    return "'" + t + "' has a leading zero";
  if (t.size() > 18 || std::stoll(t) < lo || std::stoll(t) > hi)
    return "'" + t + "' is out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ")";
  return {};
}

/// Why the Kokkos argument `arg` ("--kokkos-...") would not run as asked,
/// or empty: a name this build's Kokkos does not read, a value missing or
/// not a whole number in range.
inline std::string kokkos_argument_problem(const std::string &arg) {
  const std::size_t eq = arg.find('=');
  const std::string name = arg.substr(0, eq),
                    value = eq == std::string::npos ? "" : arg.substr(eq + 1);
  const bool has_value = eq != std::string::npos;
  const int max_threads =
#if defined(KOKKOS_ENABLE_OPENMP)
      kokkos_max_openmp_threads;
#else
      INT_MAX;
#endif
  struct Known {
    const char *name;
    char kind; // 'f' flag, 's' text, 'i' whole number, 't' threads, 'd' INT[,INT]
  };
  static const std::vector<Known> known = {
    {"--kokkos-help", 'f'},
    {"--kokkos-disable-warnings", 'f'},
    {"--kokkos-tune-internals", 'f'},
    {"--kokkos-tools-help", 'f'},
    {"--kokkos-tools-args", 's'},
    {"--kokkos-threads", 't'},
    {"--kokkos-device-id", 'i'},
    {"--kokkos-num-devices", 'd'},
#if KOKKOS_VERSION >= 40000
    {"--kokkos-num-threads", 't'},
    {"--kokkos-tools-libs", 's'},
    {"--kokkos-map-device-id-by", 's'},
    {"--kokkos-print-configuration", 'f'},
#else
    {"--kokkos-numa", 'i'},
    {"--kokkos-device", 'i'},
    {"--kokkos-ndevices", 'd'},
    {"--kokkos-tools-library", 's'},
#endif
  };
  const auto it =
      std::find_if(known.begin(), known.end(), [&](const Known &k) { return name == k.name; });
  if (it == known.end())
    return name + ": not an option of this build's Kokkos (" +
           std::to_string(KOKKOS_VERSION / 10000) + "." +
           std::to_string(KOKKOS_VERSION / 100 % 100) + "); --kokkos-help lists them";
  if (it->kind == 'f')
    return has_value ? name + " takes no value" : std::string();
  if (!has_value)
    return name + ": expected " + name + "=VALUE (one argument, with '=')";
  std::string why;
  if (it->kind == 's')
    why = value.empty() ? "an empty value" : "";
  else if (it->kind == 'i')
    why = whole_number_problem(value, 0, INT_MAX);
  else if (it->kind == 't')
    why = whole_number_problem(value, 1, max_threads);
  else { // devices, then optionally a device to skip
    const std::size_t comma = value.find(',');
    why = whole_number_problem(value.substr(0, comma), 1, INT_MAX);
    if (why.empty() && comma != std::string::npos)
      why = whole_number_problem(value.substr(comma + 1), 0, INT_MAX);
  }
  return why.empty() ? why : name + ": " + why;
}

/// Why the host threads Kokkos would start without --kokkos-threads (the
/// OpenMP default: OMP_NUM_THREADS, else the host's hardware threads) would
/// not run, or empty.
inline std::string kokkos_default_threads_problem() {
#if defined(KOKKOS_ENABLE_OPENMP)
  const int n = omp_get_max_threads();
  if (n > kokkos_max_openmp_threads) {
    const char *env = std::getenv("OMP_NUM_THREADS");
    return std::string(env ? "OMP_NUM_THREADS=" + std::string(env)
                           : "this host's " + std::to_string(n) + " hardware threads") +
           ": Kokkos' OpenMP backend runs at most " + std::to_string(kokkos_max_openmp_threads) +
           " threads; give --kokkos-threads=" + std::to_string(kokkos_max_openmp_threads) +
           " or fewer";
  }
#endif
  return {};
}

/// Why Kokkos would not start as the command line `argv` and the
/// environment ask, or empty: a --kokkos-* argument that is not one of
/// this build's Kokkos or whose value it would misread
/// (kokkos_argument_problem), or, without --kokkos-threads, more default
/// threads than its OpenMP backend holds (kokkos_default_threads_problem).
/// Arguments that do not start with "--kokkos" are the program's own.
inline std::string kokkos_arguments_problem(int argc, const char *const *argv) {
  bool threads_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--kokkos", 0) != 0)
      continue;
    if (std::string why = kokkos_argument_problem(a); !why.empty())
      return why;
    threads_given = threads_given || a.rfind("--kokkos-threads=", 0) == 0 ||
                    a.rfind("--kokkos-num-threads=", 0) == 0;
  }
  return threads_given ? std::string() : kokkos_default_threads_problem();
}

} // namespace umesh

#endif
