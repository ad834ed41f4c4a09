#ifndef UMESH_DIST_DETAIL_EXCHANGE_PACK_HPP
#define UMESH_DIST_DETAIL_EXCHANGE_PACK_HPP

// Packing a dat's values that leave a rank into one buffer, every
// neighbour's block after the other, and storing or combining what arrived
// (dist::Exchange). A block holds its points' values point by point for AoS
// dats and component by component for SoA dats: consecutive threads write
// consecutive values of the buffer and read one row (AoS) or one component
// of consecutive points (SoA) of the dat. Both sides of an exchange hold the
// dat in the same layout, so they agree on the blocks.

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace umesh::detail {

/// Whether a block of dats in layout L holds its values component by
/// component.
template <class L> constexpr bool by_component() {
  return std::is_same<L, Kokkos::LayoutLeft>::value;
}

/// Which list row `j` and component `k` value `t` of a packed buffer holds.
/// `first`: each neighbour's first row, then the rows' count (size
/// neighbours + 1).
template <class M, bool ByComponent> struct PackedIndex {
  Kokkos::View<const int *, M> first;
  int dim;

  KOKKOS_INLINE_FUNCTION void operator()(int t, int &j, int &k) const {
    if constexpr (!ByComponent) {
      j = t / dim, k = t % dim;
    } else {
      // The neighbour n with first(n) * dim <= t < first(n + 1) * dim
      // (nonempty: t lies in it).
      int lo = 0, hi = int(first.extent(0)) - 1;
      while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (first(mid) * dim <= t)
          lo = mid;
        else
          hi = mid;
      }
      const int begin = first(lo), count = first(lo + 1) - begin, local = t - begin * dim;
      k = local / count, j = begin + local % count;
    }
  }
};

/// out[t] for t < rows * D: the values of dat view `v` at list rows `ids`.
template <class Exec, class View, class M, bool ByComponent, class T>
void pack_values(const View &v, const Kokkos::View<const int *, M> &ids,
                 const PackedIndex<M, ByComponent> &at, int rows, T *out) {
  Kokkos::parallel_for(
      "umesh::dist::pack", Kokkos::RangePolicy<Exec>(0, rows * at.dim), KOKKOS_LAMBDA(int t) {
        int j, k;
        at(t, j, k);
        out[t] = v(ids(j), k);
      });
}

/// How arrived values go into the dat: stored, added, or folded in with
/// min or max.
enum class Fold { store, add, min, max };

/// The values buf[t] for t in [begin, end) into dat view `v` at list rows
/// `ids`, by `fold`.
template <class Exec, class View, class M, bool ByComponent, class T>
void unpack_values(const View &v, const Kokkos::View<const int *, M> &ids,
                   const PackedIndex<M, ByComponent> &at, int begin, int end, const T *buf,
                   Fold fold) {
  const Kokkos::RangePolicy<Exec> values(begin, end);
  if (fold == Fold::store)
    Kokkos::parallel_for(
        "umesh::dist::unpack", values, KOKKOS_LAMBDA(int t) {
          int j, k;
          at(t, j, k);
          v(ids(j), k) = buf[t];
        });
  else if (fold == Fold::add)
    Kokkos::parallel_for(
        "umesh::dist::unpack_add", values, KOKKOS_LAMBDA(int t) {
          int j, k;
          at(t, j, k);
          v(ids(j), k) += buf[t];
        });
  else
    Kokkos::parallel_for(
        "umesh::dist::unpack_minmax", values, KOKKOS_LAMBDA(int t) {
          int j, k;
          at(t, j, k);
          const T x = buf[t], y = v(ids(j), k);
          v(ids(j), k) = (fold == Fold::min) == (x < y) ? x : y;
        });
}

} // namespace umesh::detail

#endif
