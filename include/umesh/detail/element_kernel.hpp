#ifndef UMESH_DETAIL_ELEMENT_KERNEL_HPP
#define UMESH_DETAIL_ELEMENT_KERNEL_HPP

// Device side of element loops: a team runs `per_team` consecutive positions
// of the schedule, one element per team thread (its vector lanes are the
// element's lanes), after copying the loop's tables into its scratch. The
// positions are the set's elements in order, or through a permutation in
// colour groups (teams of one colour each); one-launch colouring orders the
// groups by tickets (exec::ElementColour).

#include <umesh/detail/element_bind.hpp>
#include <umesh/detail/scratch.hpp>
#include <umesh/detail/team_tickets.hpp>
#include <umesh/detail/tuple.hpp>
#include <umesh/element_team.hpp>

#include <Kokkos_Core.hpp>

#include <utility>

namespace umesh::detail {

/// Which elements a team runs. Without groups, team t runs positions
/// [t * per_team, (t + 1) * per_team) of [0, n); with groups (colours),
/// group g's teams are [team_start[g], team_start[g + 1]) and its positions
/// [group_start[g], group_start[g + 1]). Position i is element perm[i]
/// (i without perm).
struct ElementSchedule {
  const int *perm = nullptr;
  int n = 0;
  int per_team = 1;
  const int *team_start = nullptr;
  const int *group_start = nullptr;
  int groups = 0;
  int team_base = 0; // first team of the launch (one launch per group)
  // One-launch ordering: {next ticket, finished teams}, zero at the launch;
  // null when groups need not wait for each other.
  int *counters = nullptr;
};

/// Bytes of team scratch before the tables: the team's ticket.
constexpr int element_header_bytes = 16;

template <class Dev> KOKKOS_INLINE_FUNCTION auto element_bind(const Dev &d, int e, char *) {
  Empty none;
  return d.bind(ElementCtx{e}, none, none);
}
template <Access A, class T, int D, class L, int N, RowFold F>
KOKKOS_INLINE_FUNCTION auto element_bind(const RowDev<A, T, D, L, N, F> &d, int e, char *) {
  return d.bind(e);
}
template <Access A, class T, int D, int N>
KOKKOS_INLINE_FUNCTION auto element_bind(const BufferedRowDev<A, T, D, N> &d, int e, char *) {
  return d.bind(e);
}
template <Access A, class T, int D, class L, int N, RowFold F>
KOKKOS_INLINE_FUNCTION auto element_bind(const ColumnDev<A, T, D, L, N, F> &d, int e, char *) {
  return d.bind(e);
}
template <class ViewT>
KOKKOS_INLINE_FUNCTION auto element_bind(const TableDev<ViewT> &d, int, char *team) {
  return d.bind(team);
}

template <class Dev, class Member>
KOKKOS_INLINE_FUNCTION void element_stage(const Dev &, const Member &, char *) {}
template <class ViewT, class Member>
KOKKOS_INLINE_FUNCTION void element_stage(const TableDev<ViewT> &d, const Member &m, char *team) {
  d.stage(m, team);
}

template <class Space, class Kernel, class... Devs> struct ElementFunctor {
  using policy_type = Kokkos::TeamPolicy<Space, Kokkos::IndexType<int>>;
  using member_type = typename policy_type::member_type;

  Kernel kernel;
  Tuple<Devs...> devs;
  ElementSchedule schedule;
  int lanes = 1;          // the handle's lane_count()
  int team_bytes = 0;     // team scratch in all
  int element_offset = 0; // first byte of the elements' own scratch
  int element_bytes = 0;  // each team thread's

  KOKKOS_INLINE_FUNCTION void operator()(const member_type &m) const {
    char *team = static_cast<char *>(m.team_scratch(0).get_shmem(team_bytes));
    const ElementSchedule &s = schedule;
    int t = s.team_base + m.league_rank();
    if (s.counters) // the ticket decides the team's work (team_tickets.hpp)
      t = take_ticket(m, s.counters, scratch_at<int>(team, 0));
    stage(m, team, std::index_sequence_for<Devs...>{});
    int first = t * s.per_team, end = s.n, wait_for = 0;
    if (s.groups > 0) {
      int g = 0;
      while (g + 1 < s.groups && s.team_start[g + 1] <= t)
        ++g;
      first = s.group_start[g] + (t - s.team_start[g]) * s.per_team;
      end = s.group_start[g + 1];
      wait_for = s.team_start[g];
    }
    if (first + s.per_team < end)
      end = first + s.per_team;
    if (s.counters) {
      // Tables load meanwhile; the elements wait for every earlier group.
      Kokkos::single(Kokkos::PerTeam(m), [&] {
        spin_until([&] { return Kokkos::atomic_fetch_add(s.counters + 1, 0) >= wait_for; });
      });
    }
    m.team_barrier();
    char *own = team + element_offset + m.team_rank() * element_bytes;
    for (int i = first + m.team_rank(); i < end; i += m.team_size()) {
      const int e = s.perm ? s.perm[i] : i;
      const ElementTeam<member_type> handle(m, e, 0, lanes, own, element_bytes);
      call(handle, e, team, std::index_sequence_for<Devs...>{});
    }
    if (s.counters) {
      // Every thread's stores before the count that releases later groups.
      Kokkos::memory_fence();
      m.team_barrier();
      Kokkos::single(Kokkos::PerTeam(m), [&] { Kokkos::atomic_fetch_add(s.counters + 1, 1); });
    } else {
      // A backend may run several league ranks on one block in turn: the
      // next one's staging must not overwrite scratch this one still reads.
      m.team_barrier();
    }
  }

private:
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void stage(const member_type &m, char *team,
                                    std::index_sequence<I...>) const {
    (void)team; // (a loop without arguments)
    (element_stage(get<I>(devs), m, team), ...);
  }
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void call(const ElementTeam<member_type> &h, int e, char *team,
                                   std::index_sequence<I...>) const {
    (void)e, (void)team; // (a loop without arguments)
    kernel(h, element_bind(get<I>(devs), e, team)...);
  }
};

} // namespace umesh::detail

#endif
