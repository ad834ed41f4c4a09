#ifndef UMESH_DETAIL_SWEEP_KERNELS_HPP
#define UMESH_DETAIL_SWEEP_KERNELS_HPP

// Device side of sweep loops: the body that runs the kernel for one (cell,
// direction, group) and stores what it returns, and one functor per
// executor. An element loop's team handle (element_team.hpp) gives the
// team forms their lanes and lane barriers.

#include <umesh/detail/sweep_args.hpp>
#include <umesh/detail/sweep_device.hpp>
#include <umesh/detail/team_tickets.hpp>
#include <umesh/detail/tuple.hpp>
#include <umesh/element_team.hpp>
#include <umesh/sweep_cell.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <utility>

namespace umesh::detail {

template <class T, class Kernel, class... Devs> struct SweepBody {
  using value_type = T;
  Kernel kernel;
  Tuple<Devs...> devs;
  SweepGeometry geo;
  FluxRef<T> psi;

  template <bool Coherent> KOKKOS_INLINE_FUNCTION void run(int c, int d, int g) const {
    const std::uint16_t f = geo.flags[std::size_t(d) * geo.cells + c];
    const SweepCell<T, Coherent> s(geo, psi, c, d, g, f);
    psi.data[psi.at(c, d, g)] = T(call(s, c, std::index_sequence_for<Devs...>{}));
  }

private:
  template <class S, std::size_t... I>
  KOKKOS_INLINE_FUNCTION auto call(const S &s, int c, std::index_sequence<I...>) const {
    (void)c; // (a kernel without arguments)
    return kernel(s, sweep_bind(get<I>(devs), c)...);
  }
};

/// Where a direction's level l starts in its order, and its size (0 past
/// the direction's deepest level).
struct LevelIndex {
  const int *order = nullptr, *level_offsets = nullptr, *dir_levels = nullptr;
  int cells = 0;
  KOKKOS_INLINE_FUNCTION int levels(int d) const { return dir_levels[d + 1] - dir_levels[d] - 1; }
  KOKKOS_INLINE_FUNCTION int size(int d, int l) const {
    return l < levels(d) ? level_offsets[dir_levels[d] + l + 1] - level_offsets[dir_levels[d] + l]
                         : 0;
  }
  KOKKOS_INLINE_FUNCTION int cell(int d, int l, int k) const {
    return order[std::size_t(d) * cells + level_offsets[dir_levels[d] + l] + k];
  }
};

/// exec::SweepSerial: one thread, direction by direction, level order.
template <class Body> struct SweepSerialFunctor {
  Body body;
  LevelIndex index;
  KOKKOS_INLINE_FUNCTION void operator()(int) const {
    for (int d = 0; d < body.geo.directions; ++d)
      for (int k = 0; k < index.cells; ++k) {
        const int c = index.order[std::size_t(d) * index.cells + k];
        for (int g = 0; g < body.psi.groups; ++g)
          body.template run<false>(c, d, g);
      }
  }
};

/// exec::SweepLevels: level `level` of every direction, a thread per
/// (cell, direction, group), groups adjacent; `prefix` is the level's row.
template <class Body> struct SweepLevelFunctor {
  Body body;
  LevelIndex index;
  const int *prefix = nullptr;
  int level = 0;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const int groups = body.psi.groups;
    int d, k;
    level_item(prefix, body.geo.directions, int(i / groups), d, k);
    body.template run<false>(index.cell(d, level, k), d, int(i % groups));
  }
};

/// exec::SweepTeams: team t sweeps directions [d0, d0 + per_team) of the
/// launch, groups [g0, g0 + group_chunk), level by level.
template <class Space, class Body> struct SweepTeamFunctor {
  using policy_type = Kokkos::TeamPolicy<Space, Kokkos::IndexType<int>>;
  using member_type = typename policy_type::member_type;
  Body body;
  LevelIndex index;
  int first_dir = 0, end_dir = 0, per_team = 1, group_chunk = 1, chunks = 1, lanes = 1;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type &m) const {
    const int t = m.league_rank();
    const int d0 = first_dir + t / chunks * per_team;
    const int d1 = d0 + per_team < end_dir ? d0 + per_team : end_dir;
    const int g0 = t % chunks * group_chunk;
    const int gn = body.psi.groups - g0 < group_chunk ? body.psi.groups - g0 : group_chunk;
    int deepest = 0;
    for (int d = d0; d < d1; ++d)
      deepest = index.levels(d) > deepest ? index.levels(d) : deepest;
    for (int l = 0; l < deepest; ++l) {
      int total = 0;
      for (int d = d0; d < d1; ++d)
        total += index.size(d, l);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, total), [&](int i) {
        int d = d0, k = i;
        while (k >= index.size(d, l))
          k -= index.size(d++, l);
        const int c = index.cell(d, l, k);
        const ElementTeam<member_type> cell(m, c, 0, lanes, nullptr, 0);
        cell.lanes(gn, [&](int j) { body.template run<false>(c, d, g0 + j); });
      });
      m.team_barrier(); // the level's values, before the next level reads them
    }
  }
};

/// exec::SweepDataFlow: ticket t runs positions [t * per_ticket, ...) of
/// the level order (every direction's level 0, then level 1, ...), each
/// once its counter reaches zero.
template <class Space, class Body> struct SweepFlowFunctor {
  using policy_type = Kokkos::TeamPolicy<Space, Kokkos::IndexType<int>>;
  using member_type = typename policy_type::member_type;
  Body body;
  LevelIndex index;
  const int *prefix = nullptr, *total = nullptr; // LevelPrefix
  int levels = 0, per_ticket = 1, lanes = 1;
  int *counters = nullptr, *tickets = nullptr;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type &m) const {
    int *slot = static_cast<int *>(m.team_scratch(0).get_shmem(sizeof(int) * 4));
    const int ticket = take_ticket(m, tickets, slot);
    const std::int64_t pairs = total[levels];
    const std::int64_t first = std::int64_t(ticket) * per_ticket;
    const std::int64_t end = first + per_ticket < pairs ? first + per_ticket : pairs;
    const int nd = body.geo.directions;
    for (std::int64_t p = first + m.team_rank(); p < end; p += m.team_size()) {
      int lo = 0, hi = levels; // the level: the last l with total[l] <= p
      while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        (total[mid] <= p ? lo : hi) = mid;
      }
      int d, k;
      level_item(prefix + std::size_t(lo) * (nd + 1), nd, int(p - total[lo]), d, k);
      const int c = index.cell(d, lo, k);
      const ElementTeam<member_type> cell(m, c, 0, lanes, nullptr, 0);
      const int *counter = counters + std::size_t(d) * index.cells + c;
      cell.single(
          [&] { spin_until([&] { return *static_cast<const volatile int *>(counter) <= 0; }); });
      cell.barrier();
      cell.lanes(body.psi.groups, [&](int g) {
        body.template run<true>(c, d, g);
        Kokkos::memory_fence(); // this lane's value, before the count that releases readers
      });
      cell.single([&] { release(c, d); });
    }
    m.team_barrier(); // the next league rank on this block takes the ticket's scratch
  }

private:
  // Counts down every cell waiting for (c, d) through a face not lagged.
  KOKKOS_INLINE_FUNCTION void release(int c, int d) const {
    Kokkos::memory_fence();
    const SweepGeometry &g = body.geo;
    for (int s = 0; s < g.faces; ++s) {
      const std::size_t at = std::size_t(c) * g.faces + s;
      const int n = g.neighbours[at];
      if (n < 0)
        continue;
      const int j = g.partner[at];
      const unsigned f = g.flags[std::size_t(d) * g.cells + n];
      if ((f >> j & 1u) && !(f >> (8 + j) & 1u))
        Kokkos::atomic_fetch_sub(counters + std::size_t(d) * g.cells + n, 1);
    }
  }
};

/// Each (cell, direction)'s counter: the inflow faces from cells it waits for.
struct SweepCountFunctor {
  SweepGeometry geo;
  int *counters;
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    const int c = i % geo.cells;
    const unsigned f = geo.flags[i];
    int n = 0;
    for (int s = 0; s < geo.faces; ++s)
      n += (f >> s & 1u) && !(f >> (8 + s) & 1u) &&
           geo.neighbours[std::size_t(c) * geo.faces + s] >= 0;
    counters[i] = n;
  }
};

/// The lagged faces' upwind values before the sweep: lag[i * groups + g].
template <class T> struct SweepLagFunctor {
  SweepGeometry geo;
  FluxRef<T> psi;
  T *lag;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const int lagged = int(i / psi.groups), g = int(i % psi.groups);
    int d = 0, hi = geo.directions; // the last d with lag_offsets[d] <= lagged
    while (hi - d > 1) {
      const int mid = (d + hi) / 2;
      (geo.lag_offsets[mid] <= lagged ? d : hi) = mid;
    }
    const int key = geo.lag_keys[lagged];
    lag[i] = psi.data[psi.at(geo.neighbours[key], d, g)];
  }
};

} // namespace umesh::detail

#endif
