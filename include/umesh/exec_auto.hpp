#ifndef UMESH_EXEC_AUTO_HPP
#define UMESH_EXEC_AUTO_HPP

// exec::Auto's tag: the candidate executors are types, so a loop under it
// compiles only their kernels; its run-time options choose among them.

#include <umesh/exec.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace umesh::exec {

/// What exec::Auto tries within its candidate executors, and how it times
/// them. Options about an executor that is not a candidate have no effect;
/// names in `candidates` must be candidates of the plan (an Error otherwise).
struct AutoOptions {
  std::vector<int> block_sizes{128, 256}; ///< block sizes tried (hierarchical, segmented, warp)
  /// Blocks per team tried for the hierarchical variants that pipeline
  /// (staging 'reads', '/sa/ga'), on GPU backends only (host backends run
  /// one block per team).
  std::vector<int> blocks_per_team{1, 2, 4};
  /// Warp executor's register budgets tried (WarpCombine::max_registers), on
  /// CUDA only (host backends have one kernel); 40 at blocks up to 512.
  std::vector<int> warp_registers = WarpCombine::register_budgets();
  /// Warp executor's map entries tried: 32 (the maps), 16 (compact maps,
  /// WarpCombine::compact_maps; not run where a map does not fit).
  std::vector<int> warp_maps{32, 16};
  /// Hierarchical register budgets tried (Hierarchical::max_registers), on
  /// CUDA only, for one block per team without gather, blocks up to 640.
  std::vector<int> hier_registers = Hierarchical::register_budgets();
  int trials = 3; ///< timed runs per candidate (median), after one warm-up
  /// A candidate whose warm-up (the faster of two, when the first is over)
  /// takes this many times the fastest warm-up is not timed further.
  double prune = 3.0;
  /// After the trials, the candidates whose fastest trial is within this
  /// factor of the fastest (at most `finalists` of them) run again in turns,
  /// `final_rounds` times (each round in the opposite order to the last), and
  /// the lowest median of their times relative to each round's fastest wins:
  /// on a small, noisy host three trials each cannot tell candidates 10%
  /// apart. 0 rounds: the best trial median wins.
  double final_margin = 1.3;
  int finalists = 3;
  int final_rounds = 9;
  double time_limit = 60; ///< seconds of tuning per loop; then the best so far wins
  /// Where decisions are remembered; empty: $UMESH_TUNING_FILE, else nowhere.
  std::string tuning_file;
  /// Only these candidates (names as in the plan's summary, e.g. "atomic",
  /// "hier-inc/sa/ga/b256"); empty: all. A name that is no candidate of the
  /// plan (its executor not in the list, or a variant this backend does not
  /// run) is an Error.
  std::vector<std::string> candidates;
  /// Every option above is a plan option (make_plan builds the tuner with
  /// them). Those a setter gave, a bit each (1 << option): par_loop checks
  /// these, and any other that differs from its default, against its plan's.
  enum Option {
    block_sizes_option,
    blocks_per_team_option,
    warp_registers_option,
    warp_maps_option,
    hier_registers_option,
    trials_option,
    prune_option,
    final_margin_option,
    finalists_option,
    final_rounds_option,
    time_limit_option,
    tuning_file_option,
    candidates_option
  };
  unsigned plan_options_given = 0;
};

/// Measures, remembers, runs the fastest of `Candidates` (executor tags
/// among Atomic, ScatterView, Gather, GlobalColour, Hierarchical, Segmented,
/// WarpCombine): on the first call of a loop it times every candidate
/// strategy (with each executor's variants: hierarchical stagings and
/// combines at each block size, warp register budgets and compact maps, ...)
/// on the loop's real data, keeping the loop's outputs as they were between
/// trials, then runs the winner -- so the first call's result is one
/// execution's -- and the winner from then on. Only the candidates' kernels
/// are compiled. Decisions are kept in a tuning file when one is given (or
/// set in $UMESH_TUNING_FILE), keyed by device, backend, loop name, a
/// fingerprint of the maps and the kernel's and arguments' types, so a later
/// run pays no tuning. No candidates: the backend's defaults (AutoDefaults).
template <class... Candidates> struct AutoOf : AutoOptions {
  AutoOf() = default;
  explicit AutoOf(AutoOptions o) : AutoOptions(std::move(o)) {}

  AutoOf &with_block_sizes(std::vector<int> b) {
    return given(block_sizes_option), block_sizes = std::move(b), *this;
  }
  AutoOf &with_blocks_per_team(std::vector<int> n) {
    return given(blocks_per_team_option), blocks_per_team = std::move(n), *this;
  }
  AutoOf &with_warp_registers(std::vector<int> r) {
    return given(warp_registers_option), warp_registers = std::move(r), *this;
  }
  AutoOf &with_warp_maps(std::vector<int> bits) {
    return given(warp_maps_option), warp_maps = std::move(bits), *this;
  }
  AutoOf &with_hier_registers(std::vector<int> r) {
    return given(hier_registers_option), hier_registers = std::move(r), *this;
  }
  AutoOf &with_trials(int t) { return given(trials_option), trials = t, *this; }
  AutoOf &with_prune(double p) { return given(prune_option), prune = p, *this; }
  AutoOf &with_final_margin(double m) {
    return given(final_margin_option), final_margin = m, *this;
  }
  AutoOf &with_finalists(int n) { return given(finalists_option), finalists = n, *this; }
  AutoOf &with_final_rounds(int r) { return given(final_rounds_option), final_rounds = r, *this; }
  AutoOf &with_time_limit(double s) { return given(time_limit_option), time_limit = s, *this; }
  AutoOf &with_tuning_file(std::string path) {
    return given(tuning_file_option), tuning_file = std::move(path), *this;
  }
  AutoOf &with_candidates(std::vector<std::string> names) {
    return given(candidates_option), candidates = std::move(names), *this;
  }

private:
  void given(Option o) { plan_options_given |= 1u << o; }
};

/// The backend's default candidates (exec::Auto): the executors that won
/// most often in our measurements, few enough that a loop under exec::Auto
/// compiles in about twice its time under exec::Atomic (docs/executors.md).
/// GPU backends: Atomic and WarpCombine; host backends: Atomic,
/// GlobalColour and Gather.
template <class Space>
using AutoDefaults = std::conditional_t<
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible,
    AutoOf<Atomic, GlobalColour, Gather>, AutoOf<Atomic, WarpCombine>>;

/// The backend's default candidates (AutoDefaults).
using Auto = AutoOf<>;

/// Every executor as a candidate (the apps' 'auto'), the hierarchical one
/// with its standard kernels (exec::Hierarchical): compiles every executor's
/// kernels for each loop. A list with exec::HierarchicalAll tries every
/// hierarchical variant too (the main job's).
using AutoAll =
    AutoOf<Atomic, ScatterView, Gather, GlobalColour, Hierarchical, Segmented, WarpCombine>;

} // namespace umesh::exec

#endif
