#ifndef UMESH_DIST_DETAIL_STREAM_MARKS_HPP
#define UMESH_DIST_DETAIL_STREAM_MARKS_HPP

// CUDA events on the loops' stream that time a GPU-to-GPU exchange's phases
// where the device runs them: one host wait at the end, where a fence
// between the phases would add host round trips the untimed exchange does
// not make. CUDA builds with NCCL only.

#if defined(UMESH_HAS_NCCL)
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>
#include <cuda_runtime.h>

namespace umesh::detail {

class StreamMarks {
public:
  static constexpr int count = 5;
  StreamMarks() {
    for (int i = 0; i < count; ++i)
      if (cudaEventCreate(&events_[i]) != cudaSuccess) {
        for (int j = 0; j < i; ++j)
          cudaEventDestroy(events_[j]);
        fail("dist: cudaEventCreate failed (timing a halo exchange)");
      }
  }
  StreamMarks(const StreamMarks &) = delete;
  StreamMarks &operator=(const StreamMarks &) = delete;
  ~StreamMarks() {
    for (cudaEvent_t e : events_)
      cudaEventDestroy(e);
  }
  /// Mark `i` when the stream gets there.
  void record(int i) {
    if (cudaEventRecord(events_[i], Kokkos::DefaultExecutionSpace().cuda_stream()) != cudaSuccess)
      fail("dist: cudaEventRecord failed (timing a halo exchange)");
  }
  /// Seconds from mark `a` to mark `b` (both reached: after a fence).
  double seconds(int a, int b) const {
    float ms = 0;
    if (cudaEventElapsedTime(&ms, events_[a], events_[b]) != cudaSuccess)
      fail("dist: cudaEventElapsedTime failed (timing a halo exchange)");
    return 1e-3 * double(ms);
  }

private:
  cudaEvent_t events_[count] = {};
};

} // namespace umesh::detail
#endif

#endif
