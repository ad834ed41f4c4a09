#ifndef UMESH_APPS_COMMON_SIZES_HPP
#define UMESH_APPS_COMMON_SIZES_HPP

// Problem sizes the command line asks for, checked before any mesh is built:
// counts that multiply are computed in 64 bits and refused with the limit
// named when they pass umesh's 32-bit indices, and a problem whose mesh alone
// needs more memory than the machine has is refused as such (exit status 3)
// instead of being killed by the kernel halfway through.

#include "common/run_main.hpp"

#include <umesh/error.hpp>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>

#include <unistd.h>

namespace umesh::perf {

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

/// Bytes of physical memory of this machine (0 when unknown).
inline std::int64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::int64_t(pages) * page : 0;
}

/// "12.3 GiB"
inline std::string gib(std::int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / (1 << 30));
  return text;
}

/// Throws ResourceError when `bytes`, a lower bound of what the problem
/// needs, is more than the machine's physical memory.
inline void check_memory(const std::string &given, std::int64_t bytes) {
  const std::int64_t have = physical_memory_bytes();
  if (have > 0 && bytes > have)
    throw ResourceError(given + ": the mesh alone needs at least " + gib(bytes) +
                        " of memory, this machine has " + gib(have));
}

} // namespace umesh::perf

#endif
