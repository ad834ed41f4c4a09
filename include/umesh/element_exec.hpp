#ifndef UMESH_ELEMENT_EXEC_HPP
#define UMESH_ELEMENT_EXEC_HPP

// Element loops (element_loop.hpp): the race strategies, as executor tags,
// and the loop's team shape (ElementTeams). docs/element-kernels.md.

#include <string>
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
