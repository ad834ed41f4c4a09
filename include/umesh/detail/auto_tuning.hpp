#ifndef UMESH_DETAIL_AUTO_TUNING_HPP
#define UMESH_DETAIL_AUTO_TUNING_HPP

// exec::Auto's timing of its candidates on a loop's first call: a warm-up
// round, trial rounds over all candidates in turn, then finals: the leaders
// again in alternation, so that a host whose speed drifts or jitters (two
// cores shared with other work) does not crown a candidate 1.6x slower.

#include <umesh/detail/auto_candidates.hpp>
#include <umesh/exec_auto.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::detail {

/// The device a tuning decision was measured on.
template <class Space> std::string device_description() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<Space, Kokkos::Cuda>::value) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, Kokkos::Cuda().cuda_device()) == cudaSuccess)
      return prop.name;
  }
#endif
  return std::string(Space::name()) + " x" + std::to_string(Space().concurrency());
}

/// What tuning found for one loop.
struct AutoDecision {
  std::string signature; // the loop's kernel and argument types
  int winner = -1;
  bool from_file = false;
  double seconds = 0;             // tuning time
  std::vector<double> median_ms;  // per candidate, trial rounds; NaN: not timed
  std::vector<double> final_ms;   // per candidate, final rounds; NaN: not a finalist
  std::vector<std::string> notes; // per candidate: why not timed
};

/// Times the candidates into `d` and sets its winner: a warm-up round
/// (warm_up(c) runs candidate c once untimed, so that plans built on first
/// use are not counted, then time(c) runs it timed from the loop's saved
/// outputs and returns milliseconds; an Error: it does not fit), pruning,
/// trial rounds over all candidates in turn, then the finals.
void tune_candidates(const std::vector<AutoCandidate> &cands, const exec::AutoOptions &o,
                     const std::string &loop, AutoDecision &d,
                     const std::function<void(std::size_t)> &warm_up,
                     const std::function<double(std::size_t)> &time);

/// The winner, its time and margin over the runner-up, the tuning time,
/// every candidate's trial median (or why it was not timed) and the
/// finalists' medians.
void write_auto_decision(std::ostream &os, const std::vector<AutoCandidate> &cands,
                         const AutoDecision &d);

} // namespace umesh::detail

#endif
