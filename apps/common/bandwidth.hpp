#ifndef UMESH_APPS_COMMON_BANDWIDTH_HPP
#define UMESH_APPS_COMMON_BANDWIDTH_HPP

// The yardstick every benchmark here reports against: the device's copy
// bandwidth, measured in the same run.

#include "common/run_main.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace umesh::apps {

/// Median (0 for no samples).
inline double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

/// Device copy bandwidth: bytes read plus bytes written per second, median
/// of 10 copies of 512 MB after 2 warm-ups (past any cache).
inline double copy_bandwidth_gbps() {
  using Mem = Kokkos::DefaultExecutionSpace::memory_space;
  const std::size_t n = std::size_t(64) << 20;
  Kokkos::View<double *, Mem> a, b;
  // A fixed 1 GiB whatever the problem's size: out of memory here is not
  // the size options' doing, and the message says so.
  try {
    a = Kokkos::View<double *, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "copy_a"), n);
    b = Kokkos::View<double *, Mem>("copy_b", n);
  } catch (const std::exception &e) {
    const std::string what = kokkos_message(e.what());
    if (!dynamic_cast<const std::bad_alloc *>(&e) && !is_kokkos_allocation_failure(what))
      throw;
    throw ResourceError("out of memory measuring the copy bandwidth, every result's yardstick: "
                        "its two 512 MiB buffers do not fit (" +
                        what + "); give the run 1 GiB or more, whatever the problem's size");
  }
  Kokkos::deep_copy(a, 1.0);
  std::vector<double> t;
  for (int r = 0; r < 12; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    Kokkos::deep_copy(b, a);
    Kokkos::fence();
    if (r >= 2)
      t.push_back(timer.seconds());
  }
  return 2.0 * double(n) * sizeof(double) / median(t) / 1e9;
}

} // namespace umesh::apps

#endif
