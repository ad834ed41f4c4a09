#ifndef UMESH_TIMING_HPP
#define UMESH_TIMING_HPP

// Planning time per phase, and progress lines for large sets.

#include <string>
#include <vector>

namespace umesh {

/// The Kokkos Tools profiling region umesh opens around each wait of the
/// host for the device (a reduction into a host Global, a device global
/// store's fetch), for tools that count host synchronisations (Kokkos 3
/// reports no fences to tools).
inline const std::string &host_sync_region() {
  static const std::string name = "umesh::host_sync";
  return name;
}

struct PhaseTime {
  std::string name;
  double seconds;
};
using PhaseTimes = std::vector<PhaseTime>;

/// "graph 0.21 s, partition 1.3 s, ..." (empty string when no phases).
std::string format(const PhaseTimes &phases);

namespace detail {

/// Sets of this many elements or more get progress lines on stderr.
constexpr int progress_threshold = 1000000;

/// Times consecutive phases into `out`. With `progress`, writes one line to
/// stderr when a phase starts and its time when it ends, so a user waiting on
/// a multi-second plan sees where it is; without, only phases longer than
/// 2 s report their time.
class PhaseClock {
public:
  PhaseClock(std::string what, bool progress, PhaseTimes &out)
      : what_(std::move(what)), progress_(progress), out_(out) {}
  PhaseClock(const PhaseClock &) = delete;
  PhaseClock &operator=(const PhaseClock &) = delete;
  ~PhaseClock() { stop(); }
  void start(const std::string &phase);
  void stop();

private:
  std::string what_, phase_;
  bool progress_;
  PhaseTimes &out_;
  double t0_ = 0;
};

} // namespace detail
} // namespace umesh

#endif
