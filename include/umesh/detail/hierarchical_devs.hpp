#ifndef UMESH_DETAIL_HIERARCHICAL_DEVS_HPP
#define UMESH_DETAIL_HIERARCHICAL_DEVS_HPP

// The hierarchical executor's device arguments (what HierarchicalBinding
// makes of a loop's indirect arguments) and the team-wide loop over a
// block's staged points they share; the kernel is hierarchical_kernel.hpp.

#include <umesh/detail/async_copy.hpp>
#include <umesh/detail/device_args.hpp>
#include <umesh/detail/hierarchical_pipeline.hpp>
#include <umesh/detail/inverse_lists.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace umesh::detail {

// Local indices (LocalIndex) are 16-bit: a block's point list is checked to
// fit when the plan is uploaded. Half the bytes of 32-bit indices on every
// element.

// Device arrays of one staged map; `local` is indexed by element.
struct StagedMapDev {
  const int *point_offsets, *points, *owned;
  const LocalIndex *local;
  int arity, max_points;
  KOKKOS_INLINE_FUNCTION int local_index(int e, int slot) const {
    return local[std::size_t(e) * arity + slot];
  }
  KOKKOS_INLINE_FUNCTION void prefetch(int e, int slot) const {
    prefetch_l1(local + std::size_t(e) * arity + slot);
  }
};

// Indirect read under full staging: from the block's scratch when the map is
// staged (offset >= 0), else from global memory. `stride` of the scratch is
// the map's largest block point count (scratch is [component][point]).
template <class T, int Dim, class Layout> struct HierReadDev : NoHooks {
  DatPtr<T, Dim, Layout> dat;
  StagedMapDev map;
  const int *global_map;
  int arity, slot, offset;
  bool owner; // the first argument of its (dat, map) group stages it
  PipeMapDev pipe;
  template <class Ctx> KOKKOS_INLINE_FUNCTION auto bind(const Ctx &ctx, Empty &, Empty &) const {
    if (offset >= 0) {
      const int local = pipe.on() ? pipe.local_index(ctx.scratch, ctx.rank, arity, slot)
                                  : map.local_index(ctx.e, slot);
      return ReadAccessor<T, SoA, Dim>{scratch_at<T>(ctx.scratch, offset) + local,
                                       {map.max_points}};
    }
    const int p = map_entry(global_map, ctx.e, arity, slot);
    return ReadAccessor<T, SoA, Dim>{dat.at(p), {dat.stride()()}};
  }
};

template <Access A, class T, int Dim, class Layout>
struct StagedCombineDev : BufferedCombine<A, T, Dim> {
  DatPtr<T, Dim, Layout> dat;
  StagedMapDev map;
  int slot, offset;
  bool owner;
  bool atomic_combine;   // into scratch with atomics, all threads at once
  bool atomic_writeback; // other blocks of this launch may share points
  PipeMapDev pipe;       // pipelined (scratch atomics or gather, atomic write-back)
  // Combine::gather (kernels of ModeCtx<true>): the buffer at `offset` (in
  // the team's scratch) holds one entry per (slot, rank),
  // [component][slot * block_size + rank]; the first argument of its group
  // to write a slot stores, later ones combine.
  bool accumulate = false;
  int block_size = 0;
  InverseListsDev inverse; // not pipelined: read from global memory
  // The buffer starts at the dat's values for the block's own points (those
  // no other block of the launch touches), copied in with the staged reads,
  // so the write-back stores without loading. Only where this group is the
  // loop's one use of the dat (HierarchicalBinding): a second group or a read
  // of it would see or overwrite a stale copy. One block per team, no gather.
  bool preload = false;
  KOKKOS_INLINE_FUNCTION int entry_stride() const { return map.arity * block_size; }
  // With colours, called by one thread colour at a time: no two threads of
  // a colour share a point.
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void finish(const Ctx &ctx, CombineBuffer<A, T, Dim> &buf) const {
    if constexpr (Ctx::gather) {
      T *s = scratch_at<T>(ctx.team, offset) + slot * block_size + ctx.rank;
      const int cs = entry_stride();
      for (int k = 0; k < Dim; ++k)
        s[k * cs] = accumulate ? Combine<A>::apply(s[k * cs], buf.v[k]) : buf.v[k];
      return;
    }
    const int local = pipe.on() ? pipe.local_index(ctx.scratch, ctx.rank, map.arity, slot)
                                : map.local_index(ctx.e, slot);
    T *s = scratch_at<T>(ctx.scratch, offset) + local;
    for (int k = 0; k < Dim; ++k) {
      if (atomic_combine)
        Combine<A>::atomic(s + k * map.max_points, buf.v[k]);
      else
        s[k * map.max_points] = Combine<A>::apply(s[k * map.max_points], buf.v[k]);
    }
  }
};

// No staging: the buffer goes straight to global memory, colour by colour.
template <Access A, class T, int Dim, class Layout>
struct ColouredCombineDev : BufferedCombine<A, T, Dim> {
  DatPtr<T, Dim, Layout> dat;
  const int *map;
  int arity, slot;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void finish(const Ctx &ctx, CombineBuffer<A, T, Dim> &buf) const {
    T *d = dat.at(map_entry(map, ctx.e, arity, slot));
    const int s = dat.stride()();
    for (int k = 0; k < Dim; ++k)
      d[k * s] = Combine<A>::apply(d[k * s], buf.v[k]);
  }
};

// Team-wide loop over a block's np points (list `pts`): each thread takes
// whole points, f(global pointer of component 0, component stride, point's
// place in the block's list), so that a thread issues all of a point's
// loads before it needs the first (one memory latency per point, not one
// per component). Consecutive threads take consecutive points: coalesced
// per component under SoA.
template <class T, int Dim, class Layout, class Team, class F>
KOKKOS_INLINE_FUNCTION void for_block_points(const Team &team, const DatPtr<T, Dim, Layout> &dat,
                                             const int *pts, int np, F &&f) {
  const int stride = dat.stride()();
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, np),
                       [&](int jp) { f(dat.at(pts[jp]), stride, jp); });
}

// Before the staging barrier, a GPU thread asks for its element's map entries
// (the next loads it makes after the barrier) in L1: e is its element.
template <class Dev> KOKKOS_INLINE_FUNCTION void team_prefetch(const Dev &, int) {}
template <class T, int Dim, class Layout>
KOKKOS_INLINE_FUNCTION void team_prefetch(const HierReadDev<T, Dim, Layout> &d, int e) {
  if (d.pipe.on())
    return;
  if (d.offset >= 0)
    d.map.prefetch(e, d.slot);
  else
    prefetch_l1(d.global_map + std::size_t(e) * d.arity + d.slot);
}
template <Access A, class T, int Dim, class Layout>
KOKKOS_INLINE_FUNCTION void team_prefetch(const StagedCombineDev<A, T, Dim, Layout> &d, int e) {
  if (!d.pipe.on())
    d.map.prefetch(e, d.slot);
}
template <Access A, class T, int Dim, class Layout>
KOKKOS_INLINE_FUNCTION void team_prefetch(const ColouredCombineDev<A, T, Dim, Layout> &d, int e) {
  prefetch_l1(d.map + std::size_t(e) * d.arity + d.slot);
}

} // namespace umesh::detail

#endif
