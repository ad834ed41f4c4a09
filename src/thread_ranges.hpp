#ifndef UMESH_SRC_THREAD_RANGES_HPP
#define UMESH_SRC_THREAD_RANGES_HPP

// Library-internal: splitting [0, n) among the threads of an OpenMP parallel
// region in contiguous ranges, and joining what the threads produced in
// thread order, so that a parallel phase gives what one thread going
// through [0, n) would have (plans must not depend on the thread count).

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace umesh::detail {

struct ThreadRange {
  int threads, thread, lo, hi; ///< this thread's share [lo, hi) of [0, n)
};

/// This thread's contiguous share of [0, n), shares in thread order; all of
/// it outside a parallel region or without OpenMP.
inline ThreadRange thread_range(int n) {
#ifdef _OPENMP
  const int threads = omp_get_num_threads(), thread = omp_get_thread_num();
#else
  const int threads = 1, thread = 0;
#endif
  return {threads, thread, int(std::int64_t(n) * thread / threads),
          int(std::int64_t(n) * (thread + 1) / threads)};
}

/// Whether parallel regions run on one thread: phases that have a cheaper
/// sequential form with the same result take it then.
inline bool one_thread() {
#ifdef _OPENMP
  return omp_get_max_threads() == 1;
#else
  return true;
#endif
}

/// Called by every thread of a parallel region with its range `r`: appends
/// each thread's `mine` to `out` in thread order. `sizes` is scratch shared
/// by the threads (declared outside the region). `out` is complete for every
/// thread on return.
inline void append_in_thread_order(const ThreadRange &r, const std::vector<int> &mine,
                                   std::vector<int> &out, std::vector<std::size_t> &sizes) {
  const std::size_t base = out.size(); // read by all before anyone resizes
#ifdef _OPENMP
#pragma omp single
#endif
  sizes.assign(std::size_t(r.threads) + 1, 0);
  sizes[std::size_t(r.thread) + 1] = mine.size();
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
  {
    std::partial_sum(sizes.begin(), sizes.end(), sizes.begin());
    out.resize(base + sizes.back());
  }
  std::copy(mine.begin(), mine.end(), out.begin() + std::ptrdiff_t(base + sizes[r.thread]));
#ifdef _OPENMP
#pragma omp barrier
#endif
}

} // namespace umesh::detail

#endif
