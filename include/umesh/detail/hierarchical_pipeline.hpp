#ifndef UMESH_DETAIL_HIERARCHICAL_PIPELINE_HPP
#define UMESH_DETAIL_HIERARCHICAL_PIPELINE_HPP

// Several blocks per team, as a three-stage pipeline over a ring of three
// scratch slots: while a team computes block k, the reads of block k+1 are
// in flight (copies through the point list already in scratch), and so are
// the index lists of block k+2. Each block's point list and local indices
// are padded to one stride, so that no copy waits for a load to know its
// address: in the two-stage version, waits on block offsets and point lists
// were the largest share of the stalls, and waits on local and global
// indices most of the rest of its body's (docs/performance-notes.md).
// Increments combined in scratch (atomics or gather) go to global memory
// from the block's slot after its compute.

#include <umesh/detail/async_copy.hpp>
#include <umesh/detail/device_args.hpp>
#include <umesh/detail/hierarchical_checks.hpp> // LocalIndex
#include <umesh/detail/scratch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace umesh::detail {

// One staged map's padded lists and where a slot keeps them. Each list is
// copied into the slot by the first argument that needs it (its owner).
// (A table of all of a loop's copies, walked by one loop, replaced these
// per-argument hooks for a while: more instructions and slower;
// docs/performance-notes.md.)
struct PipeMapDev {
  const int *points = nullptr;       // [block * point_stride + j]
  const LocalIndex *local = nullptr; // [block * local_stride + rank * arity + slot]
  int point_stride = 0, local_stride = 0;
  int points_offset = -1, local_offset = -1; // in a slot; -1: not staged
  bool points_owner = false, local_owner = false;
  // Combine::gather: the block's inverse lists (inverse_lists.hpp).
  const LocalIndex *inv_offsets = nullptr, *inv_entries = nullptr;
  int inv_offsets_stride = 0, inv_entries_stride = 0;
  int inv_offsets_offset = -1, inv_entries_offset = -1;
  bool inv_owner = false;
  // For write-backs: the block's list offsets {first, next first}, copied
  // into a slot at counts_offset (-1: not needed).
  const int *point_offsets = nullptr;
  int counts_offset = -1;
  // What this argument does in a pipelined block, one flag per hook, so
  // that the arguments with nothing to do pass each hook on one test (the
  // per-owner tests were a large share of the kernel's instructions).
  bool copies_lists = false; // owns a list or the counts
  bool stages_data = false;  // owns a staged read's data
  bool writes_back = false;  // owns a combine group's buffer
  KOKKOS_INLINE_FUNCTION bool on() const { return points_offset >= 0; }
  KOKKOS_INLINE_FUNCTION int local_index(char *slot, int rank, int arity, int s) const {
    return scratch_at<const LocalIndex>(slot, local_offset)[rank * arity + s];
  }
  KOKKOS_INLINE_FUNCTION int point(char *slot, int local_index) const {
    return scratch_at<const int>(slot, points_offset)[local_index];
  }
};

struct alignas(16) Chunk16 {
  int v[4];
};

// A slot starts with its block's element range.
inline constexpr int pipe_facts_bytes = 16;

// Copies `bytes` (a multiple of 16) from 16-byte aligned global memory.
template <class Team>
KOKKOS_INLINE_FUNCTION void team_copy16(const Team &team, char *dst, const void *src, int bytes) {
  const Chunk16 *s = static_cast<const Chunk16 *>(src);
  Chunk16 *d = reinterpret_cast<Chunk16 *>(dst);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, bytes / 16),
                       [&](int c) { async_copy(d[c], s + c); });
}

// Gather: whether the kernel combines by gather (only then are there
// inverse lists to copy; their code in other kernels cost registers).
template <bool Gather, class Team>
KOKKOS_INLINE_FUNCTION void team_stage_lists(const PipeMapDev &p, const Team &team, int b,
                                             char *slot) {
  if (!p.copies_lists)
    return;
  if (p.local_owner)
    team_copy16(team, slot + p.local_offset, p.local + std::size_t(b) * p.local_stride,
                p.local_stride * int(sizeof(LocalIndex)));
  if (p.points_owner)
    team_copy16(team, slot + p.points_offset, p.points + std::size_t(b) * p.point_stride,
                p.point_stride * int(sizeof(int)));
  if (Gather && p.inv_owner) {
    team_copy16(team, slot + p.inv_offsets_offset,
                p.inv_offsets + std::size_t(b) * p.inv_offsets_stride,
                p.inv_offsets_stride * int(sizeof(LocalIndex)));
    team_copy16(team, slot + p.inv_entries_offset,
                p.inv_entries + std::size_t(b) * p.inv_entries_stride,
                p.inv_entries_stride * int(sizeof(LocalIndex)));
  }
  if (p.counts_offset >= 0 && team.team_rank() < 2)
    async_copy(scratch_at<int>(slot, p.counts_offset)[team.team_rank()],
               p.point_offsets + b + team.team_rank());
}

// Increments under staging 'reads': global atomics, at the point the slot's
// list names when the map is pipelined, else at the one the map names.
template <Access A, class T, int Dim, class Layout> struct ReadsAtomicDev : NoHooks {
  DatPtr<T, Dim, Layout> dat;
  const int *map;
  int arity, slot;
  PipeMapDev pipe;
  template <class Ctx> KOKKOS_INLINE_FUNCTION auto bind(const Ctx &ctx, Empty &, Empty &) const {
    const int p =
        pipe.on() ? pipe.point(ctx.scratch, pipe.local_index(ctx.scratch, ctx.rank, arity, slot))
                  : map_entry(map, ctx.e, arity, slot);
    return CombineAccessor<T, Layout, A, true, Dim>{dat.at(p), dat.stride()};
  }
};

template <bool Gather, class Dev, class Team>
KOKKOS_INLINE_FUNCTION void team_stage_lists(const Dev &, const Team &, int, char *) {}
template <bool Gather, Access A, class T, int Dim, class Layout, class Team>
KOKKOS_INLINE_FUNCTION void team_stage_lists(const ReadsAtomicDev<A, T, Dim, Layout> &d,
                                             const Team &team, int b, char *slot) {
  team_stage_lists<Gather>(d.pipe, team, b, slot);
}

// The pipelined team loop: blocks [first, last) of the launch over a ring of
// three slots of `slot_bytes`. stage_lists(b, slot), stage_data(slot),
// compute(slot, b, e, place of e in its block) and writeback(slot) are the
// arguments' parts.
// WritesBack (increments combined in scratch): block s goes back to global
// memory after a barrier that ends its compute, before round s+1 issues
// block s+3's lists into its slot. (A fourth slot saved that barrier but
// cost occupancy: docs/performance-notes.md.)
template <bool WritesBack, class Team, class StageLists, class StageData, class Compute,
          class Writeback>
KOKKOS_INLINE_FUNCTION void run_pipeline(const Team &team, const int *block_start, int first,
                                         int last, char *base, int slot_bytes,
                                         const StageLists &stage_lists, const StageData &stage_data,
                                         const Compute &compute, const Writeback &writeback) {
  const auto slot = [&](int b) { return base + ((b - first) % 3) * slot_bytes; };
  for (int s = first - 2; s < last; ++s) {
    // The lists of block s+1 (staged one round ago) are complete and seen.
    async_copy_wait_older<1>();
    team.team_barrier();
    if (s + 2 < last) {
      char *to = slot(s + 2);
      if (team.team_rank() < 2)
        async_copy(scratch_at<int>(to, 0)[team.team_rank()],
                   block_start + s + 2 + team.team_rank());
      stage_lists(s + 2, to);
    }
    async_copy_commit();
    if (s + 1 >= first && s + 1 < last)
      stage_data(slot(s + 1));
    async_copy_commit();
    if (s >= first) {
      async_copy_wait_older<2>(); // the data of block s
      team.team_barrier();
      char *current = slot(s);
      const int begin = scratch_at<int>(current, 0)[0], end = scratch_at<int>(current, 0)[1];
      // Teams smaller than blocks: each thread runs every team_size-th element.
      for (int i = begin + team.team_rank(); i < end; i += team.team_size())
        compute(current, s, i, i - begin);
      if constexpr (WritesBack) {
        team.team_barrier();
        writeback(current);
      }
    }
  }
}

// A staged map's lists padded for the pipeline: each block's point list to
// a stride of max_points rounded up to 4 (padding repeats its first point),
// its local indices, by element rank, to block_size * arity rounded up to 8:
// whole 16-byte copies, and no load to find a block's lists. Blocks must be
// ranges of elements (local is indexed by element).
template <class Mem> struct PaddedLists {
  Kokkos::View<int *, Mem> points;
  Kokkos::View<LocalIndex *, Mem> local;
  int point_stride = 0, local_stride = 0;
};

template <class Space, class Mem = typename Space::memory_space>
PaddedLists<Mem> pad_block_lists(const Space &space, int num_blocks,
                                 const Kokkos::View<int *, Mem> &block_start,
                                 const Kokkos::View<int *, Mem> &point_offsets,
                                 const Kokkos::View<int *, Mem> &points,
                                 const Kokkos::View<LocalIndex *, Mem> &local, int max_points,
                                 int arity, int block_size) {
  PaddedLists<Mem> pad;
  const int ps = pad.point_stride = (max_points + 3) / 4 * 4;
  const int ls = pad.local_stride = (block_size * arity + 7) / 8 * 8;
  pad.points = Kokkos::View<int *, Mem>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Hierarchical::padded_points"),
      std::size_t(num_blocks) * ps);
  pad.local = Kokkos::View<LocalIndex *, Mem>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Hierarchical::padded_local"),
      std::size_t(num_blocks) * ls);
  const auto out_points = pad.points;
  const auto out_local = pad.local;
  Kokkos::parallel_for(
      "umesh::Hierarchical::pad_points", Kokkos::RangePolicy<Space>(space, 0, num_blocks * ps),
      KOKKOS_LAMBDA(const int idx) {
        const int b = idx / ps, j = idx % ps, first = point_offsets(b);
        const int n = point_offsets(b + 1) - first;
        out_points(idx) = j < n ? points(first + j) : (n > 0 ? points(first) : 0);
      });
  Kokkos::parallel_for(
      "umesh::Hierarchical::pad_local", Kokkos::RangePolicy<Space>(space, 0, num_blocks * ls),
      KOKKOS_LAMBDA(const int idx) {
        const int b = idx / ls, k = idx % ls;
        const int n = (block_start(b + 1) - block_start(b)) * arity;
        out_local(idx) = k < n ? local(std::size_t(block_start(b)) * arity + k) : LocalIndex(0);
      });
  return pad;
}

} // namespace umesh::detail

#endif
