#ifndef UMESH_APPS_COMMON_SIZES_HPP
#define UMESH_APPS_COMMON_SIZES_HPP

// Problem sizes the command line asks for, checked before any mesh is built:
// counts that multiply are computed in 64 bits and refused with the limit
// named when they pass umesh's 32-bit indices, and a problem whose mesh alone
// needs more memory than the process may use (the machine's, or a ulimit's or
// a container's limit) is refused as such (exit status 3) instead of being
// killed by the kernel halfway through.

#include "common/run_main.hpp"

#include <umesh/error.hpp>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

namespace umesh::apps {

/// One count of a problem: how many of what ("edges", "cell-to-node map
/// entries").
struct Count {
  const char *what;
  std::int64_t n;
};

/// Throws umesh::Error when a count passes 2^31-1 (umesh's sets and maps
/// are indexed with 32-bit ints): "<given>: <n> <what>, more than 2^31-1".
/// `given` names the options that asked for it ("--nx 100000 --ny 100000").
inline void check_counts(const std::string &given, std::initializer_list<Count> counts) {
  for (const Count &c : counts)
    if (c.n > INT_MAX)
      throw Error(given + ": " + std::to_string(c.n) + " " + c.what +
                  ", more than 2^31-1 (umesh indexes sets and maps with 32-bit ints)");
}

/// Throws umesh::Error when an nx x ny quad mesh has no interior edge, so
/// that `loop` (which runs over them) would run over nothing and a check of
/// its result would pass having checked nothing.
inline void check_interior_edges(const std::string &given, std::int64_t nx, std::int64_t ny,
                                 const std::string &loop) {
  if (nx * ny == 1)
    throw Error(given + ": " + loop +
                " loops over interior edges, and one quad has none (nothing would be "
                "checked): give --nx or --ny 2 or more");
}

/// Bytes of physical memory of this machine (0 when unknown).
inline std::int64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::int64_t(pages) * page : 0;
}

/// The first number in `path` (0 when absent or not a number: "max").
inline std::int64_t number_in_file(const char *path) {
  std::int64_t v = 0;
  if (std::FILE *f = std::fopen(path, "r")) {
    long long x = 0;
    if (std::fscanf(f, "%lld", &x) == 1 && x > 0)
      v = x;
    std::fclose(f);
  }
  return v;
}

/// Bytes this process may use, and what bounds them: the machine's
/// physical memory, or less where an address-space limit (ulimit -v) or
/// the control group's memory limit (a container) says so. Past a cgroup's
/// limit the kernel kills the process without a word, so it counts here.
inline std::int64_t usable_memory_bytes(std::string &bound) {
  std::int64_t have = physical_memory_bytes();
  bound = "this machine has";
  auto lower = [&](std::int64_t limit, const char *what) {
    if (limit > 0 && (have == 0 || limit < have))
      have = limit, bound = what;
  };
  struct rlimit as {};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY &&
      as.rlim_cur < rlim_t(INT64_MAX))
    lower(std::int64_t(as.rlim_cur), "this process may use (ulimit -v)");
  lower(number_in_file("/sys/fs/cgroup/memory.max"), "its control group allows");
  lower(number_in_file("/sys/fs/cgroup/memory/memory.limit_in_bytes"), "its control group allows");
  return have;
}

/// "12.3 GiB", or "300 MiB" below a GiB (where tenths of a GiB would make
/// a need and a limit look alike)
inline std::string gib(std::int64_t bytes) {
  char text[32];
  if (bytes < (std::int64_t(1) << 30))
    std::snprintf(text, sizeof text, "%.0f MiB", double(bytes) / (1 << 20));
  else
    std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / (1 << 30));
  return text;
}

/// Throws ResourceError when `bytes`, a lower bound of what `what` (the
/// problem's mesh, by default) needs, is more than the memory this process
/// may use; the message says to lower `lower` (default: the options named
/// in `given`).
inline void check_memory(const std::string &given, std::int64_t bytes, std::string lower = "",
                         const std::string &what = "the mesh alone") {
  std::string bound;
  const std::int64_t have = usable_memory_bytes(bound);
  if (have > 0 && bytes > have)
    throw ResourceError(given + ": " + what + " needs at least " + gib(bytes) + " of memory, " +
                        bound + " " + gib(have) + ": lower " +
                        (lower.empty() ? option_names(given) : lower));
}

} // namespace umesh::apps

#endif
