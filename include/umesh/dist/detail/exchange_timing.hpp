#ifndef UMESH_DIST_DETAIL_EXCHANGE_TIMING_HPP
#define UMESH_DIST_DETAIL_EXCHANGE_TIMING_HPP

// What a halo exchange's time is made of (dist::Exchange::Phases), the wait
// for the neighbour ranks before a timed exchange, and the CUDA events that
// time a GPU-to-GPU exchange's phases where the device runs them: one host
// wait at the end, where a fence between the phases would add host round
// trips the untimed exchange does not make.

#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <vector>

#if defined(UMESH_HAS_NCCL)
#include <cuda_runtime.h>
#endif

namespace umesh::detail {

/// Where an exchange's seconds went: packing on the device and copying to
/// the host; waiting for MPI (which counts a neighbour still busy with its
/// own loop) or, through NCCL and timed on the device, the transfers;
/// copying back and unpacking. skew: timed on the device only, the wait
/// before each exchange for the neighbour ranks' loops to end (not part of
/// seconds()). Through NCCL and timed on the device, the phases are the
/// device's, timed by CUDA events on the stream (ExchangeMarks); lead: the
/// device's spins before them (not part of seconds(), nor of an untimed
/// run's time).
struct ExchangePhases {
  double pack = 0, wait = 0, unpack = 0, skew = 0, lead = 0;
  double seconds() const { return pack + wait + unpack; }
};

/// Waits until every one of `ranks` has reached this exchange too (an empty
/// message each way); the seconds it took. Neighbours are mutual, and both
/// sides of a pair start the same exchanges in the same order.
inline double meet_ranks(MPI_Comm comm, const std::vector<int> &ranks) {
  Kokkos::Timer timer;
  std::vector<MPI_Request> requests(2 * ranks.size());
  char none = 0, sink = 0;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    MPI_Irecv(&sink, 0, MPI_BYTE, ranks[i], 703, comm, &requests[2 * i]);
    MPI_Isend(&none, 0, MPI_BYTE, ranks[i], 703, comm, &requests[2 * i + 1]);
  }
  if (MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
    fail("dist: waiting for the neighbour ranks before a timed halo exchange failed");
  return timer.seconds();
}

#if defined(UMESH_HAS_NCCL)
/// CUDA events on the loops' stream (CUDA builds with NCCL only).
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
#endif

/// One exchange's marks through NCCL: 0 before the packing, 1 after it, 2
/// after the transfers, 3 and 4 around the unpacking (made on first use; no
/// marks without NCCL). begin() makes mark 0 after a lead: the device
/// first spins for lead_seconds, in which the host launches the exchange's
/// work, so the marks time the device's part alone, as in untimed runs,
/// where the loops before an exchange keep the device busy while the host
/// launches it (without the lead, the device would wait for each launch).
class ExchangeMarks {
public:
  static constexpr double lead_seconds = 300e-6;

  void begin() {
#if defined(UMESH_HAS_NCCL)
    const auto lead_ns = static_cast<unsigned long long>(lead_seconds * 1e9);
    Kokkos::parallel_for(
        "umesh::dist::timing_lead", Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>(0, 1),
        KOKKOS_LAMBDA(int) {
#if defined(__CUDA_ARCH__)
          unsigned long long start, now;
          asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
          do
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
          while (now - start < lead_ns);
#else
          (void)lead_ns;
#endif
        });
#endif
    record(0);
  }
  void record([[maybe_unused]] int i) {
#if defined(UMESH_HAS_NCCL)
    if (!events_)
      events_ = std::make_shared<StreamMarks>();
    events_->record(i);
#endif
  }
  /// Seconds from mark `a` to mark `b` (both reached: after a fence).
  double seconds([[maybe_unused]] int a, [[maybe_unused]] int b) const {
#if defined(UMESH_HAS_NCCL)
    return events_->seconds(a, b);
#else
    return 0;
#endif
  }
  /// Adds the phases the marks give (after the fence that follows mark 4)
  /// to `phases`; what ran between the exchange's halves (marks 2 to 3) is
  /// not the exchange's.
  void add_to([[maybe_unused]] ExchangePhases &phases) const {
#if defined(UMESH_HAS_NCCL)
    const StreamMarks &m = *events_;
    phases.pack += m.seconds(0, 1);
    phases.wait += m.seconds(1, 2);
    phases.unpack += m.seconds(3, 4);
    phases.lead += lead_seconds;
#endif
  }

private:
#if defined(UMESH_HAS_NCCL)
  std::shared_ptr<StreamMarks> events_;
#endif
};

} // namespace umesh::detail

#endif
