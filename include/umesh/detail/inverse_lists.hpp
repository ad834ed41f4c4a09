#ifndef UMESH_DETAIL_INVERSE_LISTS_HPP
#define UMESH_DETAIL_INVERSE_LISTS_HPP

// Combine::gather: each element of a block leaves its increments in its own
// scratch slots, entry `slot * block_size + rank` (rank: the element's place
// in its block), and each point of the block's list then sums the entries
// that reach it. These are the per-block inverse lists of one staged map:
// point j's entries are entries[offsets[j], offsets[j + 1]), in rank order
// then slot order, so a block always sums in the same order.

#include <umesh/detail/hierarchical_pipeline.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <limits>

namespace umesh::detail {

// Padded per block: offsets to a stride of max_points + 1, entries to one of
// block_size * arity, each rounded up to 8 (whole 16-byte copies for the
// pipelined kernel, and no load to find a block's lists).
template <class Mem> struct InverseLists {
  Kokkos::View<LocalIndex *, Mem> offsets, entries;
  int offsets_stride = 0, entries_stride = 0;
};

// Device view of one map's inverse lists.
struct InverseListsDev {
  const LocalIndex *offsets = nullptr, *entries = nullptr;
  int offsets_stride = 0, entries_stride = 0;
};

template <class Mem> InverseListsDev inverse_dev(const InverseLists<Mem> &l) {
  return {l.offsets.data(), l.entries.data(), l.offsets_stride, l.entries_stride};
}

// Sum (or min, max) of point jp's entries in `buf` ([component][entry],
// component stride `cs`).
template <Access A, class T, int Dim>
KOKKOS_INLINE_FUNCTION void gather_point(const T *buf, int cs, const LocalIndex *offsets,
                                         const LocalIndex *entries, int jp, T (&v)[Dim]) {
  for (int k = 0; k < Dim; ++k)
    v[k] = Combine<A>::template identity<T>();
  const int last = offsets[jp + 1];
  for (int c = offsets[jp]; c < last; ++c) {
    const T *p = buf + entries[c];
    for (int k = 0; k < Dim; ++k)
      v[k] = Combine<A>::apply(v[k], p[k * cs]);
  }
}

// Builds one map's inverse lists from its element-indexed local indices.
// Rank r of block b is element block_start[b] + r when blocks are element
// ranges (as the team kernels run them), else elem[block_start[b] + r].
template <class Space, class Mem = typename Space::memory_space>
InverseLists<Mem> build_inverse_lists(const Space &space, int num_blocks,
                                      const Kokkos::View<int *, Mem> &block_start, const int *elem,
                                      bool ranges, const Kokkos::View<int *, Mem> &point_offsets,
                                      const Kokkos::View<LocalIndex *, Mem> &local, int max_points,
                                      int arity, int block_size) {
  constexpr long most = std::numeric_limits<LocalIndex>::max();
  if (long(block_size) * arity > most)
    fail("hierarchical plan: combine 'gather' indexes a block's ", block_size, " x ", arity,
         " increment slots with 16 bits (at most ", most, "); use a smaller block size");
  InverseLists<Mem> inv;
  const int os = inv.offsets_stride = (max_points + 1 + 7) / 8 * 8;
  const int es = inv.entries_stride = (block_size * arity + 7) / 8 * 8;
  inv.offsets = Kokkos::View<LocalIndex *, Mem>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Hierarchical::inverse_offsets"),
      std::size_t(num_blocks) * os);
  inv.entries = Kokkos::View<LocalIndex *, Mem>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Hierarchical::inverse_entries"),
      std::size_t(num_blocks) * es);
  LocalIndex *const offsets = inv.offsets.data();
  LocalIndex *const entries = inv.entries.data();
  // One thread per block: a counting sort of its (rank, slot) pairs by point.
  Kokkos::parallel_for(
      "umesh::Hierarchical::inverse_lists", Kokkos::RangePolicy<Space>(space, 0, num_blocks),
      KOKKOS_LAMBDA(const int b) {
        const int begin = block_start(b), n = block_start(b + 1) - begin;
        const int np = point_offsets(b + 1) - point_offsets(b);
        LocalIndex *off = offsets + std::size_t(b) * os;
        LocalIndex *ent = entries + std::size_t(b) * es;
        const auto point = [&](int r, int s) {
          const int e = ranges ? begin + r : elem[begin + r];
          return int(local(std::size_t(e) * arity + s));
        };
        for (int j = 0; j <= np; ++j)
          off[j] = 0;
        for (int r = 0; r < n; ++r)
          for (int s = 0; s < arity; ++s)
            ++off[point(r, s) + 1];
        for (int j = 1; j <= np; ++j)
          off[j] = LocalIndex(off[j] + off[j - 1]);
        // Fill, moving each point's start to its end; then shift back.
        for (int r = 0; r < n; ++r)
          for (int s = 0; s < arity; ++s)
            ent[off[point(r, s)]++] = LocalIndex(s * block_size + r);
        for (int j = np - 1; j >= 1; --j)
          off[j] = off[j - 1];
        off[0] = 0;
        for (int j = np + 1; j < os; ++j)
          off[j] = off[np];
        for (int c = n * arity; c < es; ++c)
          ent[c] = 0;
      });
  return inv;
}

} // namespace umesh::detail

#endif
