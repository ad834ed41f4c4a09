#ifndef UMESH_ELEMENT_LOOP_HPP
#define UMESH_ELEMENT_LOOP_HPP

// Element loops: a kernel that receives a team handle for its element
// (element_team.hpp) and then one accessor per argument: direct dats,
// indirect reads through one slot (as par_loop), whole rows through a map
// and tables staged in team scratch (element_args.hpp). Several elements
// share a team; each runs on several lanes (ElementTeams). The race between
// elements that fold into one point is the plan's strategy's
// (element_exec.hpp). docs/element-kernels.md.
//
//   auto plan = umesh::make_element_plan(space, umesh::exec::ElementColour{}, cells, cell_nodes);
//   umesh::element_loop(plan, "transpose", umesh::ElementTeams{}.with_elements_per_team(8),
//                       Transpose{}, umesh::table(phi), umesh::read(uq),
//                       umesh::inc_row(r, cell_nodes));

#include <umesh/detail/element_bind.hpp>
#include <umesh/detail/element_gather.hpp>
#include <umesh/detail/element_kernel.hpp>
#include <umesh/detail/element_plans.hpp>
#include <umesh/detail/profiling_region.hpp>
#include <umesh/element_args.hpp>
#include <umesh/element_exec.hpp>
#include <umesh/element_team.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

namespace umesh {

/// The plan of element loops over `set` under strategy `exec`; `maps` are
/// those loops fold through (ElementColour colours over them; the others
/// only check that they map from `set`). read_only(map) may be given too.
template <class Space, class Exec, class... Maps>
ElementPlan<Exec, Space> make_element_plan(const Space &space, Exec exec, const Set &set,
                                           const Maps &...maps) {
  if constexpr (std::is_same<Exec, exec::ElementColour>::value)
    return ElementPlan<Exec, Space>(space, exec, set, maps...);
  else
    return ElementPlan<Exec, Space>(space, set, maps...);
}

namespace detail {

/// The options make sense on any backend (a loop checked on the host
/// launches on a GPU too).
inline void check_element_teams(const std::string &loop, const ElementTeams &t) {
  if (t.elements_per_team < 1 || t.elements_per_team > 1024)
    fail("loop '", loop, "' under element teams: elements_per_team ", t.elements_per_team,
         " is outside [1, 1024]");
  if (t.lanes < 1 || t.lanes > 32 || (t.lanes & (t.lanes - 1)) != 0)
    fail("loop '", loop, "' under element teams: lanes ", t.lanes,
         " is not a power of two in [1, 32]");
  if (t.elements_per_team * t.lanes > 1024)
    fail("loop '", loop, "' under element teams: ", t.elements_per_team, " elements per team of ",
         t.lanes, " lanes make teams of ", t.elements_per_team * t.lanes, " threads; at most 1024");
  if (t.element_scratch < 0 || t.element_scratch > (1 << 24))
    fail("loop '", loop, "' under element teams: element_scratch ", t.element_scratch,
         " bytes is outside [0, 16 MiB]");
}

/// The team's scratch and size fit what the backend gives this kernel.
template <class Space, class F>
void check_element_launch(const std::string &loop, const F &f, const TeamShape &s, int table_bytes,
                          int element_scratch) {
  const int budget = Kokkos::TeamPolicy<Space>::scratch_size_max(0);
  if (f.team_bytes > budget)
    fail("loop '", loop, "' under element teams needs ", f.team_bytes,
         " bytes of team scratch (tables ", table_bytes - element_header_bytes, ", ", s.team_size,
         " x ", element_scratch, " of element scratch), but ", Space::name(), " grants ", budget,
         " per team: fewer elements per team or smaller tables");
  typename F::policy_type probe(Space(), 1, 1, s.lanes);
  probe.set_scratch_size(0, Kokkos::PerTeam(f.team_bytes));
  const int max = probe.team_size_max(f, Kokkos::ParallelForTag());
  if (s.team_size > max)
    fail("loop '", loop, "' under element teams: ", s.team_size, " elements per team of ", s.lanes,
         " lanes, but this kernel launches at most ", max, " per team on ", Space::name());
}

template <class Dev>
using element_accessor_t = decltype(element_bind(std::declval<const Dev &>(), 0, nullptr));

} // namespace detail

/// Runs `kernel(team, accessors...)` for every element of the plan's set:
/// `team` is the element's handle (umesh::ElementTeam), then one accessor
/// per argument, in order. The arguments and options are checked before any
/// launch; invalid ones throw umesh::Error naming the loop.
template <class Exec, class Space, class Kernel, class... Args>
void element_loop(ElementPlan<Exec, Space> &plan, const std::string &name,
                  const ElementTeams &teams, const Kernel &kernel, const Args &...args) {
  detail::check_element_teams(name, teams);
  detail::validate_element_args({name, plan.set()}, args...);
  const detail::ProfilingRegion region("umesh::element_loop::" + name);
  plan.begin_loop();
  detail::TableLayout tables;
  tables.bytes = detail::element_header_bytes;
  using F =
      detail::ElementFunctor<Space, Kernel,
                             decltype(detail::element_device<Space>(plan, tables, name, args))...>;
  using Member = typename F::member_type;
  static_assert(
      std::is_invocable<const Kernel &, const ElementTeam<Member> &,
                        detail::element_accessor_t<decltype(detail::element_device<Space>(
                            plan, tables, name, args))>...>::value,
      "umesh::element_loop: the kernel cannot be called with the team handle and one accessor "
      "per loop argument. Check that its first parameter takes the handle (const Team &), that "
      "one parameter follows per argument, in order, and that its operator() is const.");
  // Braced: the tables take their scratch in argument order.
  F f{kernel, {detail::element_device<Space>(plan, tables, name, args)...}, {}, 1, 0, 0, 0};
  const detail::TeamShape shape = plan.shape(teams);
  f.lanes = shape.lanes;
  f.element_offset = tables.bytes;
  f.element_bytes = teams.element_scratch;
  f.team_bytes = tables.bytes + shape.team_size * teams.element_scratch;
  detail::check_element_launch<Space>(name, f, shape, tables.bytes, teams.element_scratch);
  plan.launch(name, f, shape);
}

/// The same with the default team shape (ElementTeams{}).
template <class Exec, class Space, class Kernel, class... Args>
void element_loop(ElementPlan<Exec, Space> &plan, const std::string &name, const Kernel &kernel,
                  const Args &...args) {
  element_loop(plan, name, ElementTeams{}, kernel, args...);
}

} // namespace umesh

#endif
