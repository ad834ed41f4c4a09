#ifndef UMESH_DIST_EXCHANGE_BASELINE_HPP
#define UMESH_DIST_EXCHANGE_BASELINE_HPP

// The baseline of a halo exchange's cost: NCCL's own transfer of the same
// bytes between the same ranks, measured in the same run.

#include <umesh/dist/exchange.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <vector>

namespace umesh::dist {

/// Seconds NCCL takes to move this rank's exchanges' bytes to the same
/// neighbours on its own (one group of sends and receives, no packing),
/// weighted as `rows` (row size in bytes -> exchanges, e.g. the
/// difference of two rows() taken around a run): each size timed by CUDA
/// events, median of `repeats`. The baseline for an exchange's cost.
/// Collective over the neighbours (every rank calls it with its own
/// rows, the same sizes in the same order); 0 without NCCL.
inline double nccl_transfer_seconds(const Exchange &ex,
                                    const std::map<std::size_t, std::size_t> &rows,
                                    int repeats = 21) {
  double total = 0;
  std::size_t count = 0;
#if defined(UMESH_HAS_NCCL)
  if (!ex.nccl_ || ex.neighbours_.empty())
    return 0;
  const int slot = ex.slots_.take();
  umesh::detail::ExchangeBuffers &b = ex.slots_[slot];
  for (const auto &[row, n] : rows) {
    if (n == 0)
      continue;
    const char *out =
        umesh::detail::staging<Exchange::DeviceMemory>(b.out, ex.send_at_.back() * row).data();
    char *in =
        umesh::detail::staging<Exchange::DeviceMemory>(b.in, ex.recv_at_.back() * row).data();
    std::vector<double> times;
    for (int r = 0; r < repeats + 1; ++r) { // the first one warms up
      Kokkos::fence();
      umesh::detail::meet_ranks(ex.comm_, ex.neighbours_);
      b.marks.begin(); // as a timed exchange: the device's part alone
      ex.nccl_->send_recv(ex.neighbours_, out, ex.send_at_, in, ex.recv_at_, row,
                          Kokkos::DefaultExecutionSpace().cuda_stream());
      b.marks.record(1);
      Kokkos::fence();
      if (r > 0)
        times.push_back(b.marks.seconds(0, 1));
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    total += times[times.size() / 2] * double(n);
    count += n;
  }
  ex.slots_.release(slot);
#else
  (void)ex, (void)rows, (void)repeats;
#endif
  return count ? total / double(count) : 0.0;
}

} // namespace umesh::dist

#endif
