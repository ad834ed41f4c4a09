#ifndef UMESH_DETAIL_HIERARCHICAL_KERNEL_HPP
#define UMESH_DETAIL_HIERARCHICAL_KERNEL_HPP

// Device side of the hierarchical executor: one team per block. A team
// (1) stages the block's points of every staged (dat, map) in scratch,
// structure-of-arrays, and sets its increment (or min/max) buffers to the
// identity; (2) runs the kernel, increments into thread-private buffers;
// (3) applies the buffers to scratch, thread colour by thread colour with a
// barrier after each, or all at once with scratch atomics; (4) combines them
// into global memory: plainly when the launch holds blocks of one colour,
// else plainly for the block's own points and atomically for shared ones.

#include <umesh/detail/async_copy.hpp>
#include <umesh/detail/hierarchical_devs.hpp>
#include <umesh/detail/hierarchical_pipeline.hpp>
#include <umesh/detail/inverse_lists.hpp>
#include <umesh/detail/loop_body.hpp>
#include <umesh/detail/team_scratch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace umesh::detail {

template <class Dev, class Team, bool G>
KOKKOS_INLINE_FUNCTION void team_stage(const Dev &, const Team &, const ModeCtx<G> &) {}
template <class Dev, class Team, bool G>
KOKKOS_INLINE_FUNCTION void team_writeback(const Dev &, const Team &, const ModeCtx<G> &) {}

// Staged reads are copied asynchronously (async_copy.hpp); the caller waits
// for them before the team barrier that ends staging.
template <class T, int Dim, class Layout, class Team, bool G>
KOKKOS_INLINE_FUNCTION void team_stage(const HierReadDev<T, Dim, Layout> &d, const Team &team,
                                       const ModeCtx<G> &ctx) {
  if (!d.owner || d.offset < 0)
    return;
  using V = std::remove_const_t<T>;
  const int first = d.map.point_offsets[ctx.b], np = d.map.point_offsets[ctx.b + 1] - first;
  V *s = scratch_at<V>(ctx.scratch, d.offset);
  const int mp = d.map.max_points;
  for_block_points(team, d.dat, d.map.points + first, np, [&](const T *g, int stride, int jp) {
    for (int k = 0; k < Dim; ++k)
      async_copy(s[k * mp + jp], g + k * stride);
  });
}

// Pipelined staging: the lists of a read's map, and its data through the
// point list in the slot.
template <bool Gather, class T, int Dim, class Layout, class Team>
KOKKOS_INLINE_FUNCTION void team_stage_lists(const HierReadDev<T, Dim, Layout> &d, const Team &team,
                                             int b, char *slot) {
  team_stage_lists<Gather>(d.pipe, team, b, slot);
}
template <class Dev, class Team>
KOKKOS_INLINE_FUNCTION void team_stage_data(const Dev &, const Team &, char *) {}
template <class T, int Dim, class Layout, class Team>
KOKKOS_INLINE_FUNCTION void team_stage_data(const HierReadDev<T, Dim, Layout> &d, const Team &team,
                                            char *slot) {
  if (!d.pipe.stages_data)
    return;
  using V = std::remove_const_t<T>;
  V *s = scratch_at<V>(slot, d.offset);
  const int mp = d.map.max_points;
  for_block_points(team, d.dat, scratch_at<const int>(slot, d.pipe.points_offset), mp,
                   [&](const T *g, int stride, int jp) {
                     for (int k = 0; k < Dim; ++k)
                       async_copy(s[k * mp + jp], g + k * stride);
                   });
}

// A combine group's block facts, kept in scratch just before its buffer:
// read from global memory when the block starts, so the write-back after
// the kernel does not wait on them (it did, and stalled on them:
// docs/performance-notes.md).
struct GroupMeta {
  int first, points, shared; // list start, point count, first point other blocks share
  int block;
};
inline constexpr int group_meta_bytes = 16;
static_assert(sizeof(GroupMeta) <= group_meta_bytes, "GroupMeta must fit its scratch slot");

// Sets `count` values at `s` to the identity of A, team-wide.
template <Access A, class T, class Team>
KOKKOS_INLINE_FUNCTION void team_fill_identity(const Team &team, T *s, int count) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count),
                       [&](int j) { s[j] = Combine<A>::template identity<T>(); });
}

template <Access A, class T, int Dim, class Layout, class Team, bool G>
KOKKOS_INLINE_FUNCTION void team_stage(const StagedCombineDev<A, T, Dim, Layout> &d,
                                       const Team &team, const ModeCtx<G> &ctx) {
  if (!d.owner)
    return;
  const int first = d.map.point_offsets[ctx.b], np = d.map.point_offsets[ctx.b + 1] - first;
  // Points past `owned` are shared with other (block, map) lists: atomics
  // when other blocks run in this launch.
  const int shared = d.atomic_writeback ? d.map.owned[ctx.b] : np;
  if (team.team_rank() == 0)
    *scratch_at<GroupMeta>(ctx.scratch, d.offset - group_meta_bytes) = {first, np, shared, ctx.b};
  // Gather: entries of slots no argument writes must read as the identity.
  if constexpr (G) {
    team_fill_identity<A>(team, scratch_at<T>(ctx.scratch, d.offset), Dim * d.entry_stride());
  } else if (d.preload) {
    T *s = scratch_at<T>(ctx.scratch, d.offset);
    const int mp = d.map.max_points;
    for_block_points(team, d.dat, d.map.points + first, np, [&](const T *g, int stride, int jp) {
      for (int k = 0; k < Dim; ++k) {
        if (jp < shared)
          async_copy(s[k * mp + jp], g + k * stride);
        else
          s[k * mp + jp] = Combine<A>::template identity<T>();
      }
    });
  } else {
    team_fill_identity<A>(team, scratch_at<T>(ctx.scratch, d.offset), Dim * d.map.max_points);
  }
}

template <Access A, class T, int Dim, class Layout, class Team, bool G>
KOKKOS_INLINE_FUNCTION void team_writeback(const StagedCombineDev<A, T, Dim, Layout> &d,
                                           const Team &team, const ModeCtx<G> &ctx) {
  if (!d.owner)
    return;
  const GroupMeta m = *scratch_at<GroupMeta>(ctx.scratch, d.offset - group_meta_bytes);
  const T *s = scratch_at<T>(ctx.scratch, d.offset);
  const int mp = d.map.max_points;
  for_block_points(team, d.dat, d.map.points + m.first, m.points, [&](T *g, int stride, int jp) {
    T add[Dim];
    if constexpr (G) {
      const std::size_t b = m.block;
      gather_point<A>(s, d.entry_stride(), d.inverse.offsets + b * d.inverse.offsets_stride,
                      d.inverse.entries + b * d.inverse.entries_stride, jp, add);
    } else {
      for (int k = 0; k < Dim; ++k)
        add[k] = s[k * mp + jp];
    }
    if (jp >= m.shared) {
      for (int k = 0; k < Dim; ++k)
        Combine<A>::atomic_global(g + k * stride, add[k]);
    } else if (d.preload) { // the buffer started at the dat's values
      for (int k = 0; k < Dim; ++k)
        g[k * stride] = add[k];
    } else {
      // All loads before the first store: the compiler may not move a load
      // above a store that might alias it, so written in this order.
      T v[Dim];
      for (int k = 0; k < Dim; ++k)
        v[k] = g[k * stride];
      for (int k = 0; k < Dim; ++k)
        g[k * stride] = Combine<A>::apply(v[k], add[k]);
    }
  });
  // The next group may write the same points through another map.
  team.team_barrier();
}

// Pipelined combines: under scratch atomics every slot's buffer starts at
// the identity, and a block's write-back, through the lists in its slot,
// sets it back for the block that next takes the slot; under gather the
// team's one buffer starts at the identity and each block's compute
// overwrites the entries it uses. Every point goes by a global atomic:
// without a barrier between combine groups, two groups may reach one point
// of a dat through different maps.
template <bool G, class Dev, class Team>
KOKKOS_INLINE_FUNCTION void team_fill_slot(const Dev &, const Team &, char *, char *) {}
template <bool G, class Dev, class Team>
KOKKOS_INLINE_FUNCTION void team_writeback_slot(const Dev &, const Team &, char *, char *) {}
template <bool Gather, Access A, class T, int Dim, class Layout, class Team>
KOKKOS_INLINE_FUNCTION void team_stage_lists(const StagedCombineDev<A, T, Dim, Layout> &d,
                                             const Team &team, int b, char *slot) {
  team_stage_lists<Gather>(d.pipe, team, b, slot);
}
// Called once per slot (slot) and, for gather, once with slot == nullptr
// for the team's buffer.
template <bool G, Access A, class T, int Dim, class Layout, class Team>
KOKKOS_INLINE_FUNCTION void team_fill_slot(const StagedCombineDev<A, T, Dim, Layout> &d,
                                           const Team &team, char *slot, char *team_scratch) {
  if (!d.pipe.writes_back || G != (slot == nullptr))
    return;
  if constexpr (G)
    team_fill_identity<A>(team, scratch_at<T>(team_scratch, d.offset), Dim * d.entry_stride());
  else
    team_fill_identity<A>(team, scratch_at<T>(slot, d.offset), Dim * d.map.max_points);
}
template <bool G, Access A, class T, int Dim, class Layout, class Team>
KOKKOS_INLINE_FUNCTION void team_writeback_slot(const StagedCombineDev<A, T, Dim, Layout> &d,
                                                const Team &team, char *slot, char *team_scratch) {
  if (!d.pipe.writes_back)
    return;
  const int *counts = scratch_at<const int>(slot, d.pipe.counts_offset);
  const int *points = scratch_at<const int>(slot, d.pipe.points_offset);
  if constexpr (G) {
    const T *buf = scratch_at<const T>(team_scratch, d.offset);
    const LocalIndex *offsets = scratch_at<const LocalIndex>(slot, d.pipe.inv_offsets_offset);
    const LocalIndex *entries = scratch_at<const LocalIndex>(slot, d.pipe.inv_entries_offset);
    const int cs = d.entry_stride();
    for_block_points(team, d.dat, points, counts[1] - counts[0], [&](T *g, int stride, int jp) {
      T v[Dim];
      gather_point<A>(buf, cs, offsets, entries, jp, v);
      for (int k = 0; k < Dim; ++k)
        Combine<A>::atomic_global(g + k * stride, v[k]);
    });
    return;
  }
  T *s = scratch_at<T>(slot, d.offset);
  const int mp = d.map.max_points;
  for_block_points(team, d.dat, points, counts[1] - counts[0], [&](T *g, int stride, int jp) {
    for (int k = 0; k < Dim; ++k) {
      const T v = s[k * mp + jp];
      s[k * mp + jp] = Combine<A>::template identity<T>();
      Combine<A>::atomic_global(g + k * stride, v);
    }
  });
}

// Device form of the plan, captured by the team functor.
struct BlockPlanDev {
  const int *block_order, *block_start, *elem, *thread_colour_offsets, *colour_start;
  // elem is null when positions are elements (a mesh renumbered into blocks).
  KOKKOS_INLINE_FUNCTION int element(int i) const { return elem ? elem[i] : i; }
  // Each block's elements are the range of its positions (contiguous
  // blocks, renumbered meshes): threads need no thread-colour order, so
  // without colour rounds position i runs element i.
  bool blocks_are_ranges;
  // Per element, its thread colour; set when blocks are ranges whose
  // elements are not in colour order. A GPU thread then runs element
  // begin + rank and waits for its colour's round: a byte read off the
  // critical path instead of the element indirection before every load.
  const std::uint8_t *element_colour = nullptr;
};

// Pipe: the several-blocks-per-team kernel (PipeKind::reads, or
// PipeKind::combines when staged increments go back from each slot), a
// separate instantiation so that the one-block kernels carry none of its
// code or registers (the one-block kernels ran slower when both lived in
// one kernel: docs/performance-notes.md).
enum class PipeKind { none, reads, combines };
template <class Body, class Space, PipeKind Pipe = PipeKind::none, bool Gather = false>
struct HierarchicalFunctor : ReduceHooks<Body> {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using value_type = typename Body::reduce_value;
  using ReduceHooks<Body>::body;
  BlockPlanDev plan;
  int order_begin; // first entry of this launch in block_order; -1: block = league rank
  int scratch_bytes;
  bool one_thread_per_element;
  bool colour_rounds; // combine thread colour by thread colour (else atomics)
  // Pipelined: consecutive blocks per team, three scratch slots of
  // scratch_bytes (GPUs, blocks that are element ranges), then team_bytes
  // kept for the whole team (gather buffers).
  int blocks_per_team = 1;
  int num_blocks = 0;
  int team_bytes = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type &team) const {
    value_type unused;
    run(team, unused);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const member_type &team, value_type &red) const {
    run(team, red);
  }
  // Several blocks per team: the three-stage pipeline of
  // hierarchical_pipeline.hpp over three slots of scratch_bytes.
  KOKKOS_INLINE_FUNCTION void run_pipelined(const member_type &team, value_type &red) const {
    const int first = team.league_rank() * blocks_per_team;
    const int last = first + blocks_per_team < num_blocks ? first + blocks_per_team : num_blocks;
    char *base = static_cast<char *>(
        team.team_scratch(team_scratch_level<Space>()).get_shmem(3 * scratch_bytes + team_bytes));
    char *team_scratch = base + 3 * scratch_bytes;
    constexpr bool combines = Pipe == PipeKind::combines;
    if constexpr (combines) {
      for (int r = 0; r < 3; ++r)
        body.for_each([&](const auto &dev) {
          team_fill_slot<Gather>(dev, team, base + r * scratch_bytes, team_scratch);
        });
      body.for_each(
          [&](const auto &dev) { team_fill_slot<Gather>(dev, team, nullptr, team_scratch); });
    }
    run_pipeline<combines>(
        team, plan.block_start, first, last, base, scratch_bytes,
        [&](int b, char *slot) {
          body.for_each([&](const auto &dev) { team_stage_lists<Gather>(dev, team, b, slot); });
        },
        [&](char *slot) {
          body.for_each([&](const auto &dev) { team_stage_data(dev, team, slot); });
        },
        [&](char *slot, int b, int e, int rank) {
          typename Body::storage st{};
          const ModeCtx<Gather> ctx{{e, e, b, slot, rank, team_scratch}};
          body.compute(ctx, st, red);
          body.finish(ctx, st);
        },
        [&](char *slot) {
          body.for_each(
              [&](const auto &dev) { team_writeback_slot<Gather>(dev, team, slot, team_scratch); });
        });
  }

  KOKKOS_INLINE_FUNCTION void run(const member_type &team, value_type &red) const {
    if constexpr (Pipe != PipeKind::none) {
      run_pipelined(team, red);
      return;
    }
    // One launch for all blocks runs them in their own order: neighbours
    // run together and share the L2, where colour order would sweep the
    // mesh once per colour.
    const int b =
        order_begin < 0 ? team.league_rank() : plan.block_order[order_begin + team.league_rank()];
    const bool by_position = !colour_rounds && plan.blocks_are_ranges;
    char *scratch = static_cast<char *>(
        team.team_scratch(team_scratch_level<Space>()).get_shmem(scratch_bytes));
    const ModeCtx<Gather> block{{0, 0, b, scratch, 0, scratch}};
    // The block's facts, and on GPUs the thread's colour byte and map
    // entries, are asked for before staging: their latency then passes under
    // the staging copies' instead of after the barrier, before any compute.
    const int begin = plan.block_start[b], end = plan.block_start[b + 1];
    const int c0 = plan.thread_colour_offsets[b];
    const int ncol = colour_rounds ? plan.thread_colour_offsets[b + 1] - c0 - 1 : 1;
    const int i = begin + team.team_rank();
    const bool active = one_thread_per_element && i < end;
    const bool colour_bytes = colour_rounds && plan.element_colour;
    const int mine = active && colour_bytes ? plan.element_colour[i] : -1;
    const bool e_is_i = by_position || colour_bytes;
    body.for_each([&](const auto &dev) { team_stage(dev, team, block); });
    if (active && e_is_i)
      body.for_each([&](const auto &dev) { team_prefetch(dev, i); });
    async_copy_wait();
    team.team_barrier();
    if (one_thread_per_element) {
      // GPU: every thread computes its element at once; the increments wait
      // in registers for the thread's colour.
      typename Body::storage st{};
      const ModeCtx<Gather> ctx{
          {active ? (e_is_i ? i : plan.element(i)) : 0, i, b, scratch, i - begin, scratch}};
      if (active)
        body.compute(ctx, st, red);
      for (int c = 0; c < ncol; ++c) {
        if (active && (!colour_rounds || (colour_bytes ? mine == c
                                                       : i >= plan.colour_start[c0 + c] &&
                                                             i < plan.colour_start[c0 + c + 1])))
          body.finish(ctx, st);
        team.team_barrier();
      }
    } else {
      // Fewer threads than elements (host backends): colour by colour, each
      // element computed and applied by whichever thread takes it.
      for (int c = 0; c < ncol; ++c) {
        const int lo = colour_rounds ? plan.colour_start[c0 + c] : begin;
        const int hi = colour_rounds ? plan.colour_start[c0 + c + 1] : end;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, lo, hi), [&](int p) {
          typename Body::storage st{};
          const ModeCtx<Gather> ctx{
              {by_position ? p : plan.element(p), p, b, scratch, p - begin, scratch}};
          body.compute(ctx, st, red);
          body.finish(ctx, st);
        });
        team.team_barrier();
      }
    }
    body.for_each([&](const auto &dev) { team_writeback(dev, team, block); });
  }
};

} // namespace umesh::detail

#endif
