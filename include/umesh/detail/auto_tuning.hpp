#ifndef UMESH_DETAIL_AUTO_TUNING_HPP
#define UMESH_DETAIL_AUTO_TUNING_HPP

// exec::Auto's timing of its candidates on a loop's first call: a warm-up
// round, trial rounds over all candidates in turn, then finals: the leaders
// again in alternation, so that a host whose speed drifts or jitters (two
// cores shared with other work) does not crown a clearly slower candidate
// (docs/performance-notes.md).

#include <umesh/detail/auto_candidates.hpp>
#include <umesh/detail/tuning_file.hpp>
#include <umesh/exec_auto.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <functional>
#include <map>
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
  double seconds = 0;              // tuning time
  std::vector<double> median_ms;   // per candidate, trial rounds; NaN: not timed
  std::vector<double> final_ms;    // per candidate, final rounds; NaN: not a finalist
  std::vector<double> final_ratio; // per candidate, median of its time / each round's fastest
  std::vector<std::string> notes;  // per candidate: why not timed
};

/// Everything of exec::Auto's plan that does not depend on the loop's types
/// (compiled once, in src/auto_tuning.cpp): the candidates, the decisions,
/// the tuning file, the report.
class AutoTuner {
public:
  /// `kinds`: the list's executors; `device`: the tuning file's key prefix (device and backend);
  /// `fingerprint`: of the maps, read only with a tuning file. Fails on bad
  /// options or a name in the options' `candidates` that is no candidate.
  AutoTuner(exec::AutoOptions options, std::vector<AutoCandidate::Kind> kinds,
            std::vector<AutoCandidate> candidates, std::string device,
            const std::function<std::string()> &fingerprint);

  const std::vector<AutoCandidate> &candidates() const { return candidates_; }
  const std::string &tuning_file() const { return options_.tuning_file; }
  /// The candidate loop `name` runs under, tuned by `tune` on its first call
  /// (and recorded in the tuning file), or read from the file. `sig`: the
  /// kernel's and arguments' types (another sig for the same name is an
  /// Error). tune(warm_up, time) times the candidates (tune_candidates).
  const AutoCandidate &choose(const std::string &name, const std::string &sig,
                              const std::function<void(std::size_t)> &warm_up,
                              const std::function<double(std::size_t)> &time,
                              const std::function<void()> &restore);
  const AutoDecision &decision(const std::string &loop) const;
  std::string summary() const;

private:
  std::string list_key() const;
  bool runs_here(const std::string &choice, const std::string &loop, const std::string &key,
                 const std::function<void(std::size_t)> &warm_up,
                 const std::function<void()> &restore) const;

  exec::AutoOptions options_;
  std::vector<AutoCandidate::Kind> all_kinds_; // the list's executors
  std::vector<AutoCandidate> candidates_;
  std::string device_, fingerprint_;
  std::map<std::string, AutoDecision> decisions_;
  TuningTable table_;
};

} // namespace umesh::detail

#endif
