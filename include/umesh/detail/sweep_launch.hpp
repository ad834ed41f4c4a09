#ifndef UMESH_DETAIL_SWEEP_LAUNCH_HPP
#define UMESH_DETAIL_SWEEP_LAUNCH_HPP

// Host side of each sweep executor: its team shape on this backend and its
// launches of a sweep body. What the
// plans of one schedule share at run time (counters, tickets, the lagged
// values) is a SweepState.

#include <umesh/detail/element_plans.hpp> // runs_on_host
#include <umesh/detail/sweep_device.hpp>
#include <umesh/detail/sweep_kernels.hpp>
#include <umesh/detail/sweep_options.hpp>
#include <umesh/error.hpp>
#include <umesh/sweep_exec.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

namespace umesh::detail {

template <class Space> struct SweepState {
  using mem = typename Space::memory_space;
  Kokkos::View<int *, mem> counters;
  Kokkos::View<int *, mem> tickets;
  Kokkos::View<double *, mem> lag; // (doubles: aligned for any T)

  template <class T> T *lag_buffer(std::size_t n) {
    const std::size_t words = (n * sizeof(T) + sizeof(double) - 1) / sizeof(double);
    if (lag.extent(0) < words)
      lag = Kokkos::View<double *, mem>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::sweep::lagged"), words);
    return reinterpret_cast<T *>(lag.data());
  }
};

template <class Space> LevelIndex level_index(const SweepDevice<Space> &dev) {
  return {dev.order.data(), dev.level_offsets.data(), dev.dir_levels.data(), dev.cells};
}

/// Fails naming the loop unless this kernel launches teams of `team_size`.
template <class Space, class F>
void check_sweep_team(const std::string &loop, const char *executor, const F &f, int team_size,
                      int lanes, int scratch) {
  typename F::policy_type probe(Space(), 1, 1, lanes);
  probe.set_scratch_size(0, Kokkos::PerTeam(scratch));
  const int max = probe.team_size_max(f, Kokkos::ParallelForTag());
  if (team_size > max)
    fail("sweep loop '", loop, "' under exec::", executor, ": teams of ", team_size, " cells of ",
         lanes, " lanes, but this kernel launches at most ", max, " per team on ", Space::name(),
         ": fewer cells per team");
}

template <class Space, class Body>
void sweep_launch(const Space &space, const exec::SweepSerial &, const SweepDevice<Space> &dev,
                  SweepState<Space> &, const std::string &loop, const Body &body) {
  Kokkos::parallel_for("umesh::sweep_serial::" + loop, Kokkos::RangePolicy<Space>(space, 0, 1),
                       SweepSerialFunctor<Body>{body, level_index(dev)});
}

template <class Space, class Body>
void sweep_launch(const Space &space, const exec::SweepLevels &, const SweepDevice<Space> &dev,
                  SweepState<Space> &, const std::string &loop, const Body &body) {
  using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;
  const std::string label = "umesh::sweep_levels::" + loop;
  for (int l = 0; l < dev.levels; ++l) {
    const std::int64_t n =
        std::int64_t(dev.host_total[l + 1] - dev.host_total[l]) * body.psi.groups;
    SweepLevelFunctor<Body> f{body, level_index(dev),
                              dev.prefix.data() + std::size_t(l) * (dev.directions + 1), l};
    Kokkos::parallel_for(label, Policy(space, 0, n), f);
  }
}

template <class Space, class Body>
void sweep_launch(const Space &space, const exec::SweepTeams &o, const SweepDevice<Space> &dev,
                  SweepState<Space> &, const std::string &loop, const Body &body) {
  constexpr bool host = runs_on_host<Space>();
  const int groups = body.psi.groups, nd = dev.directions;
  const int team_size = host ? 1 : (o.cells_per_team ? o.cells_per_team : 16);
  const int lanes = host ? 1 : (o.lanes ? o.lanes : 16);
  const int chunk = o.groups_per_team > 0 ? std::min(o.groups_per_team, groups) : groups;
  const int chunks = (groups + chunk - 1) / chunk;
  const int per_launch = o.directions_per_launch > 0 ? o.directions_per_launch : nd;
  using F = SweepTeamFunctor<Space, Body>;
  const std::string label = "umesh::sweep_teams::" + loop;
  for (int first = 0; first < nd; first += per_launch) {
    const int end = std::min(nd, first + per_launch);
    const int teams = (end - first + o.directions_per_team - 1) / o.directions_per_team;
    F f{body, level_index(dev), first, end, o.directions_per_team, chunk, chunks, lanes};
    if (first == 0)
      check_sweep_team<Space>(loop, "SweepTeams", f, team_size, lanes, 0);
    Kokkos::parallel_for(label, typename F::policy_type(space, teams * chunks, team_size, lanes),
                         f);
  }
}

template <class Space, class Body>
void sweep_launch(const Space &space, const exec::SweepDataFlow &o, const SweepDevice<Space> &dev,
                  SweepState<Space> &state, const std::string &loop, const Body &body) {
  constexpr bool host = runs_on_host<Space>();
  const std::size_t pairs = std::size_t(dev.directions) * dev.cells;
  if (pairs == 0)
    return;
  const int team_size = host ? 1 : (o.cells_per_team ? o.cells_per_team : 8);
  const int lanes = host ? 1 : (o.lanes ? o.lanes : 16);
  const int per_ticket = host ? (o.cells_per_team ? o.cells_per_team : 32) : team_size;
  using mem = typename Space::memory_space;
  if (state.counters.extent(0) < pairs)
    state.counters = Kokkos::View<int *, mem>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::sweep::counters"), pairs);
  if (state.tickets.extent(0) < 1)
    state.tickets = Kokkos::View<int *, mem>("umesh::sweep::tickets", 1);
  Kokkos::parallel_for("umesh::sweep_counts::" + loop,
                       Kokkos::RangePolicy<Space>(space, 0, int(pairs)),
                       SweepCountFunctor{body.geo, state.counters.data()});
  Kokkos::deep_copy(space, state.tickets, 0);
  using F = SweepFlowFunctor<Space, Body>;
  F f{body,  level_index(dev),      dev.prefix.data(),   dev.total.data(), dev.levels, per_ticket,
      lanes, state.counters.data(), state.tickets.data()};
  constexpr int scratch = 16; // the ticket
  check_sweep_team<Space>(loop, "SweepDataFlow", f, team_size, lanes, scratch);
  const int teams = int((pairs + per_ticket - 1) / per_ticket);
  Kokkos::parallel_for("umesh::sweep_flow::" + loop,
                       typename F::policy_type(space, teams, team_size, lanes)
                           .set_scratch_size(0, Kokkos::PerTeam(scratch)),
                       f);
}

} // namespace umesh::detail

#endif
