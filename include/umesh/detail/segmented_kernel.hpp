#ifndef UMESH_DETAIL_SEGMENTED_KERNEL_HPP
#define UMESH_DETAIL_SEGMENTED_KERNEL_HPP

// Device side of exec::Segmented (executor_segmented.hpp has the plan): a
// team per block of consecutive elements folds its increments into team
// scratch over the runs of points (segments) it reaches, then adds each
// staged point to global memory once. A thread finds its point's place in
// scratch from the point id it already holds.

#include <umesh/detail/bind.hpp>
#include <umesh/detail/loop_body.hpp>
#include <umesh/detail/scratch.hpp>
#include <umesh/detail/team_scratch.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace umesh::detail {

// A group's block facts in scratch, before its counts: first[S], offset[S + 1].
KOKKOS_INLINE_FUNCTION constexpr int segment_header_bytes(int segments) {
  return ((2 * segments + 1) * int(sizeof(int)) + 15) / 16 * 16;
}

// An indirect inc/min/max under exec::Segmented, in one of two forms.
// Entries (default): each staged point of the block has `refs` entries in
// scratch (the most references any point gets from one block); a reference
// takes the next with one integer shared-memory atomic and stores its values
// plainly, and after the block each point folds its entries. Scratch atomics
// (Segmented::scratch_atomics): one value per point, folded into with
// atomics (compare-and-swap loops for FP64 on NVIDIA GPUs), `refs` times
// less scratch. Either way each point then goes to global memory once,
// atomically. The first argument of its (dat, map) group (`owner`) loads
// the block's segments, clears the buffer and writes back.
template <Access A, class T, int Dim, class Layout, bool Entries>
struct SegmentedCombineDev : BufferedCombine<A, T, Dim> {
  DatPtr<T, Dim, Layout> dat;
  const int *map;
  int arity, slot;
  const int *first, *offset; // the map's segment table
  int segments;              // per block
  int counts;                // byte offset of the group's counts (its header just before)
  int values;                // byte offset of its values, [Dim][refs][stride]
  int refs;                  // entries per point (1 under scratch atomics)
  int stride;                // points of the largest block
  bool owner;
  bool one_thread; // host backends, one thread per team: fold in place, no atomics

  KOKKOS_INLINE_FUNCTION const int *header(char *scratch) const {
    return scratch_at<const int>(scratch, counts - segment_header_bytes(segments));
  }
  // The point's place in the block's buffer, or -1 outside its runs. Runs
  // are ascending and disjoint: the first that ends past p is the only one
  // that may hold it (unused runs are empty and end at 0).
  KOKKOS_INLINE_FUNCTION int local_index(const int *h, int p) const {
    for (int r = 0; r < segments; ++r) {
      const int d = p - h[r], length = h[segments + r + 1] - h[segments + r];
      if (d < length)
        return d >= 0 ? h[segments + r] + d : -1;
    }
    return -1;
  }
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void finish(const Ctx &ctx, CombineBuffer<A, T, Dim> &buf) const {
    const int p = map_entry(map, ctx.e, arity, slot);
    const int local = local_index(header(ctx.scratch), p);
    if (local < 0) {
      T *g = dat.at(p);
      const int gs = dat.stride()();
      for (int k = 0; k < Dim; ++k)
        Combine<A>::atomic_global(g + k * gs, buf.v[k]);
      return;
    }
    T *s = scratch_at<T>(ctx.scratch, values) + local;
    if constexpr (Entries) {
      int *c = scratch_at<int>(ctx.scratch, counts) + local;
      if (one_thread && *c > 0) {
        for (int k = 0; k < Dim; ++k)
          s[k * refs * stride] = Combine<A>::apply(s[k * refs * stride], buf.v[k]);
        return;
      }
      const int q = one_thread ? (*c)++ : scratch_fetch_add(c, 1);
      for (int k = 0; k < Dim; ++k)
        s[(k * refs + q) * stride] = buf.v[k];
    } else {
      for (int k = 0; k < Dim; ++k)
        Combine<A>::atomic(s + k * stride, buf.v[k]);
    }
  }
};

template <class Dev, class Team>
KOKKOS_INLINE_FUNCTION void segmented_stage(const Dev &, const Team &, int, char *) {}
template <class Dev, class Team>
KOKKOS_INLINE_FUNCTION void segmented_writeback(const Dev &, const Team &, char *) {}

template <Access A, class T, int Dim, class Layout, bool Entries, class Team>
KOKKOS_INLINE_FUNCTION void
segmented_stage(const SegmentedCombineDev<A, T, Dim, Layout, Entries> &d, const Team &team, int b,
                char *scratch) {
  if (!d.owner)
    return;
  const int S = d.segments;
  int *h = scratch_at<int>(scratch, d.counts - segment_header_bytes(S));
  const int *first = d.first + std::size_t(b) * S, *offset = d.offset + std::size_t(b) * (S + 1);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 2 * S + 1),
                       [&](int j) { h[j] = j < S ? first[j] : offset[j - S]; });
  if constexpr (Entries) {
    int *c = scratch_at<int>(scratch, d.counts);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, offset[S]), [&](int j) { c[j] = 0; });
  } else {
    T *v = scratch_at<T>(scratch, d.values);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, offset[S]), [&](int j) {
      for (int k = 0; k < Dim; ++k)
        v[k * d.stride + j] = Combine<A>::template identity<T>();
    });
  }
}

template <Access A, class T, int Dim, class Layout, bool Entries, class Team>
KOKKOS_INLINE_FUNCTION void
segmented_writeback(const SegmentedCombineDev<A, T, Dim, Layout, Entries> &d, const Team &team,
                    char *scratch) {
  if (!d.owner)
    return;
  const int S = d.segments;
  const int *h = d.header(scratch);
  const int *c = scratch_at<const int>(scratch, d.counts);
  const T *s = scratch_at<const T>(scratch, d.values);
  const int gs = d.dat.stride()(), ks = d.refs * d.stride;
  // Consecutive threads take consecutive points of a run: coalesced.
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, h[2 * S]), [&](int j) {
    T v[Dim];
    bool any = false; // a point no reference of this group reached is left alone
    if constexpr (Entries) {
      const int n = c[j];
      any = n > 0;
      for (int k = 0; k < Dim; ++k)
        v[k] = s[k * ks + j];
      for (int q = 1; q < n; ++q)
        for (int k = 0; k < Dim; ++k)
          v[k] = Combine<A>::apply(v[k], s[k * ks + q * d.stride + j]);
    } else {
      // (Under inc a sum of exactly zero is not added either.)
      for (int k = 0; k < Dim; ++k) {
        v[k] = s[k * d.stride + j];
        any = any || v[k] != Combine<A>::template identity<T>();
      }
    }
    if (!any)
      return;
    int r = 0;
    while (r + 1 < S && h[S + r + 1] <= j)
      ++r;
    T *g = d.dat.at(h[r] + (j - h[S + r]));
    for (int k = 0; k < Dim; ++k)
      Combine<A>::atomic_global(g + k * gs, v[k]);
  });
}

template <class Body, class Space> struct SegmentedFunctor : ReduceHooks<Body> {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using value_type = typename Body::reduce_value;
  using ReduceHooks<Body>::body;
  int n, block_size, scratch_bytes;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type &team) const {
    value_type unused;
    run(team, unused);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const member_type &team, value_type &red) const {
    run(team, red);
  }
  KOKKOS_INLINE_FUNCTION void run(const member_type &team, value_type &red) const {
    const int b = team.league_rank();
    char *scratch = static_cast<char *>(
        team.team_scratch(team_scratch_level<Space>()).get_shmem(scratch_bytes));
    body.for_each([&](const auto &dev) { segmented_stage(dev, team, b, scratch); });
    team.team_barrier();
    const int begin = b * block_size, end = begin + block_size < n ? begin + block_size : n;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, begin, end), [&](int e) {
      typename Body::storage st{};
      const TeamCtx ctx{e, e, b, scratch, e - begin, scratch};
      body.compute(ctx, st, red);
      body.finish(ctx, st);
    });
    team.team_barrier();
    body.for_each([&](const auto &dev) { segmented_writeback(dev, team, scratch); });
  }
};

// Binding of one loop: indirect combines get scratch per (dat, map) group;
// everything else binds as for the atomic executor. Two passes: the first
// (before lay_out) only collects the groups and their slots, which fix
// each group's entries per point; the second binds.
template <class PlanT, bool Entries> struct SegmentedBinding {
  PlanT &plan;
  const std::string &loop;
  int scratch = 0;
  struct Group {
    const void *dat, *map;
    int table, value_bytes;
    std::vector<int> slots;
    int counts = 0, values = 0, refs = 0;
    bool bound = false;
  };
  std::vector<Group> groups;
  bool laid_out = false;
  static constexpr bool one_thread =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename PlanT::memory_space>::accessible;

  template <Access A, class T, int D, class L, class M, class MM>
  auto combine(const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) {
    const int m = plan.map_index(a.map, loop);
    const auto &table = plan.table(m);
    const auto &sizes = plan.host_table(m);
    SegmentedCombineDev<A, T, D, L, Entries> dev{{},
                                                 dat_ptr(a.dat),
                                                 a.map.view().data(),
                                                 a.map.arity(),
                                                 a.slot,
                                                 table.first.data(),
                                                 table.offset.data(),
                                                 sizes.max_segments,
                                                 0,
                                                 0,
                                                 0,
                                                 sizes.max_points,
                                                 false,
                                                 one_thread};
    Group *g = nullptr;
    for (auto &x : groups)
      if (x.dat == a.dat.view().data() && x.map == a.map.view().data())
        g = &x;
    if (!laid_out) {
      if (!g) {
        groups.push_back({a.dat.view().data(), a.map.view().data(), m, int(D * sizeof(T)), {}});
        g = &groups.back();
      }
      g->slots.push_back(a.slot);
      return dev;
    }
    dev.counts = g->counts;
    dev.values = g->values;
    dev.refs = g->refs;
    dev.owner = !g->bound;
    g->bound = true;
    return dev;
  }

  // Entries per point: the most references a point gets through the
  // group's slots (a slot named twice counts twice); one where a team is
  // one thread.
  void lay_out() {
    for (auto &g : groups) {
      const auto &t = plan.host_table(g.table);
      std::vector<int> slots = g.slots;
      std::sort(slots.begin(), slots.end());
      const bool distinct = std::unique(slots.begin(), slots.end()) == slots.end();
      int sum = 0;
      for (int s : g.slots)
        sum += t.max_refs_per_slot[s];
      g.refs = one_thread || !Entries ? 1 : std::max(1, distinct ? std::min(sum, t.max_refs) : sum);
      g.counts = scratch + segment_header_bytes(t.max_segments);
      g.values = g.counts + (Entries ? (int(sizeof(int)) * t.max_points + 15) / 16 * 16 : 0);
      scratch = g.values + (g.value_bytes * g.refs * t.max_points + 15) / 16 * 16;
    }
    laid_out = true;
  }
};

} // namespace umesh::detail

#endif
