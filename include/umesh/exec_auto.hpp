#ifndef UMESH_EXEC_AUTO_HPP
#define UMESH_EXEC_AUTO_HPP

// exec::Auto's tag: the candidate executors are types, so a loop under it
// compiles only their kernels; its run-time options choose among them.

#include <umesh/exec.hpp>
#include <umesh/exec_registry.hpp>

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
  /// Warp executor's register budgets tried (WarpLoop::max_registers), on
  /// CUDA only (host backends have one kernel); 40 at blocks up to 512.
  std::vector<int> warp_registers = WarpLoop::register_budgets();
  /// Warp executor's map entries tried: 32 (the maps), 16 (compact maps,
  /// WarpLoop::compact_maps; not run where a map does not fit).
  std::vector<int> warp_maps{32, 16};
  /// Hierarchical register budgets tried (HierarchicalLoopOptions::max_registers), on
  /// CUDA only, for one block per team without gather, blocks up to 640.
  std::vector<int> hier_registers = HierarchicalLoopOptions::register_budgets();
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
  /// Only candidates whose results are bitwise identical run to run on this
  /// backend (Exec::reproducible with the variant's loop options): none of
  /// atomic, scatterview, segmented or warp on GPUs or host threads, and
  /// only the hierarchical variants with coloured write-back (and, on GPUs,
  /// no scratch atomics). A list that leaves none is an Error naming it. The
  /// choice is still a timing: runs that tune may choose another candidate
  /// (other bits); with a tuning file every later run repeats the first's
  /// choice, whose decisions it keeps apart from other runs'.
  bool reproducible = false;
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
  using Loop = NoLoopOptions; ///< every option is the plan's
  using Variant = VariantOf<AutoOf>;
  AutoOf() = default;
  explicit AutoOf(AutoOptions o) : AutoOptions(std::move(o)) {}

  AutoOf &with_block_sizes(std::vector<int> b) { return block_sizes = std::move(b), *this; }
  AutoOf &with_blocks_per_team(std::vector<int> n) { return blocks_per_team = std::move(n), *this; }
  AutoOf &with_warp_registers(std::vector<int> r) { return warp_registers = std::move(r), *this; }
  AutoOf &with_warp_maps(std::vector<int> bits) { return warp_maps = std::move(bits), *this; }
  AutoOf &with_hier_registers(std::vector<int> r) { return hier_registers = std::move(r), *this; }
  AutoOf &with_trials(int t) { return trials = t, *this; }
  AutoOf &with_prune(double p) { return prune = p, *this; }
  AutoOf &with_final_margin(double m) { return final_margin = m, *this; }
  AutoOf &with_finalists(int n) { return finalists = n, *this; }
  AutoOf &with_final_rounds(int r) { return final_rounds = r, *this; }
  AutoOf &with_time_limit(double s) { return time_limit = s, *this; }
  AutoOf &with_tuning_file(std::string path) { return tuning_file = std::move(path), *this; }
  AutoOf &with_candidates(std::vector<std::string> names) {
    return candidates = std::move(names), *this;
  }
  AutoOf &with_reproducible(bool r = true) { return reproducible = r, *this; }
};

/// exec::Auto's loops are reproducible when its option limits the
/// candidates to reproducible ones (AutoOptions::reproducible).
template <class Space, class... C>
constexpr bool reproducible(const AutoOf<C...> &a, const NoLoopOptions & = {}) {
  return a.reproducible;
}

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

namespace detail {
// AutoOf<Acc...> followed by the tags T..., each void dropped.
template <class Acc, class... T> struct auto_of_nonvoid;
template <class... Acc> struct auto_of_nonvoid<AutoOf<Acc...>> { using type = AutoOf<Acc...>; };
template <class... Acc, class... T>
struct auto_of_nonvoid<AutoOf<Acc...>, void, T...> : auto_of_nonvoid<AutoOf<Acc...>, T...> {};
template <class... Acc, class H, class... T>
struct auto_of_nonvoid<AutoOf<Acc...>, H, T...> : auto_of_nonvoid<AutoOf<Acc..., H>, T...> {};
} // namespace detail

// The registry's candidates, in its order (a void for every other entry).
#define UMESH_AUTO_ROLE_candidate(Tag) Tag
#define UMESH_AUTO_ROLE_reference(Tag) void
#define UMESH_AUTO_ROLE_tuner(Tag) void
#define UMESH_AUTO_CANDIDATE(Tag, name, role) UMESH_AUTO_ROLE_##role(Tag),

/// Every candidate of the registry (umesh/exec_registry.hpp), in its order:
/// the apps' 'auto', the hierarchical one with its standard kernels
/// (exec::Hierarchical). Compiles every executor's kernels for each loop. A
/// list with exec::HierarchicalAll tries every hierarchical variant too (as
/// umesh_main's does).
using AutoAll =
    typename detail::auto_of_nonvoid<AutoOf<>, UMESH_EXECUTORS(UMESH_AUTO_CANDIDATE) void>::type;

#undef UMESH_AUTO_CANDIDATE
#undef UMESH_AUTO_ROLE_candidate
#undef UMESH_AUTO_ROLE_reference
#undef UMESH_AUTO_ROLE_tuner

} // namespace umesh::exec

#endif
