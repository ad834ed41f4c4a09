#ifndef UMESH_ELEMENT_EXEC_HPP
#define UMESH_ELEMENT_EXEC_HPP

// Element loops (element_loop.hpp): the race strategies, as executor tags,
// the tuner's tag (ElementAutoOf: its plan is in element_auto.hpp) and the
// loop's team shape (ElementTeams). docs/element-kernels.md.

#include <umesh/exec_auto.hpp>

#include <string>
#include <utility>
#include <vector>

namespace umesh {
namespace exec {

/// Element teams, reference: one thread runs every element in set order, an
/// element's lanes one after the other. Slow, exact: the baseline of tests.
struct ElementSerial {};

/// Element teams in one launch; increments (and min/max) through rows go to
/// global memory with atomics.
struct ElementAtomic {};

/// Element teams over a greedy colouring of the elements: no two elements of
/// one colour share a point of the maps the plan colours, so increments
/// through rows are plain loads and stores. Each team holds elements of one
/// colour. By default all colours run in ONE launch: a team takes a ticket
/// when it starts, tickets go to the teams of colour 0 first, then colour 1,
/// ..., and a team waits (before its elements run) until every team of the
/// colours before its own has finished. A team waits only for teams that
/// hold earlier tickets, which have started and wait for none after them, so
/// the launch cannot deadlock on any backend; what remains between colours is
/// the drain of the previous colour, without a launch. per_colour_launches
/// gives the simple form: one launch per colour.
struct ElementColour {
  bool one_launch = true;
  ElementColour &with_per_colour_launches(bool p = true) { return one_launch = !p, *this; }
};

/// Element teams whose combining rows leave each value in the element's own
/// slot of a temporary `[element][slot][component]` array (no race, no
/// atomics); then each point folds its slots, in element and slot order,
/// over the map's inverse. Deterministic: results are bitwise the same for
/// every team shape, backend and run. Costs the temporary's traffic and one
/// launch per combining row after the loop's. Not for extruded rows yet.
struct ElementGather {};

/// What exec::ElementAutoOf tries, and how it times (exec::Auto's tuner).
struct ElementAutoOptions {
  /// Elements per team tried; shapes the device cannot launch (team scratch,
  /// threads per team) are left out when the loop first runs.
  std::vector<int> elements_per_team{1, 2, 4, 8, 16, 32};
  /// Lanes per element tried (powers of two up to 32); empty: every power of
  /// two up to the one covering `work`. Host backends run an element's lanes
  /// one after the other, so there every candidate has one lane.
  std::vector<int> lanes;
  /// The most items the kernel spreads over an element's lanes at once (its
  /// largest t.lanes count: nodes, quadrature points); more lanes would idle.
  int work = 32;
  /// The tuner's timing and memory, as exec::Auto's: trials, prune, finals,
  /// time_limit, tuning_file and candidates (names as the plan's candidates()
  /// give them, e.g. "colour/e8/l16"). Its executor options (block sizes,
  /// registers, ...) have no effect here.
  AutoOptions tuning;
};

/// Measures, remembers and runs the fastest team shape and race strategy of
/// an element loop. Strategies: any of ElementAtomic, ElementColour (tried in
/// one launch, "colour", and one launch per colour, "colour-per") and
/// ElementGather; only their kernels are compiled. On a loop's first call
/// every candidate (strategy x elements per team x lanes) runs on the loop's
/// real data, outputs put back between trials, the leaders again in turns;
/// the winner runs (the first call's result is one execution's) and runs
/// from then on. Decisions go to the tuning file when one is given (or set
/// in $UMESH_TUNING_FILE), keyed as exec::Auto's (device, backend, loop
/// name, the maps' fingerprint, the kernel's and arguments' types), so a
/// later plan reads them without tuning.
template <class... Strategies> struct ElementAutoOf : ElementAutoOptions {
  ElementAutoOf() = default;
  explicit ElementAutoOf(ElementAutoOptions o) : ElementAutoOptions(std::move(o)) {}

  ElementAutoOf &with_elements_per_team(std::vector<int> e) {
    return elements_per_team = std::move(e), *this;
  }
  ElementAutoOf &with_lanes(std::vector<int> l) { return lanes = std::move(l), *this; }
  ElementAutoOf &with_work(int n) { return work = n, *this; }
  ElementAutoOf &with_trials(int t) { return tuning.trials = t, *this; }
  ElementAutoOf &with_final_rounds(int r) { return tuning.final_rounds = r, *this; }
  ElementAutoOf &with_time_limit(double s) { return tuning.time_limit = s, *this; }
  ElementAutoOf &with_tuning_file(std::string path) {
    return tuning.tuning_file = std::move(path), *this;
  }
  ElementAutoOf &with_candidates(std::vector<std::string> names) {
    return tuning.candidates = std::move(names), *this;
  }
};

/// Atomics and colouring (one launch and per colour): the strategies that
/// need no temporary.
using ElementAuto = ElementAutoOf<ElementAtomic, ElementColour>;
/// Every strategy, the deterministic gather included.
using ElementAutoAll = ElementAutoOf<ElementAtomic, ElementColour, ElementGather>;

} // namespace exec

/// The team shape of an element loop: `elements_per_team` elements share a
/// team (and its staged tables), each runs on `lanes` lanes (GPU threads of
/// one warp; host backends run an element's lanes one after the other), and
/// each element has `element_scratch` bytes of team scratch for t.scratch().
/// Checked before any launch: elements_per_team in [1, 1024], lanes a power
/// of two in [1, 32], their product within what the backend launches, the
/// scratch within what it grants a team.
struct ElementTeams {
  int elements_per_team = 8;
  int lanes = 8;
  int element_scratch = 0;

  /// Bytes t.scratch<T>(n) takes: n values rounded up to 16 bytes.
  template <class T> static constexpr int scratch_bytes(int n) {
    return (n * int(sizeof(T)) + 15) / 16 * 16;
  }
  ElementTeams &with_elements_per_team(int e) { return elements_per_team = e, *this; }
  ElementTeams &with_lanes(int l) { return lanes = l, *this; }
  /// Room for one more t.scratch<T>(n) per element.
  template <class T> ElementTeams &with_scratch(int n) {
    return element_scratch += scratch_bytes<T>(n), *this;
  }
  ElementTeams &with_scratch_bytes(int bytes) { return element_scratch = bytes, *this; }
};

} // namespace umesh

#endif
