#ifndef UMESH_DIST_DETAIL_EXCHANGE_PACK_HPP
#define UMESH_DIST_DETAIL_EXCHANGE_PACK_HPP

// Packing the values of several dats that leave a rank into one buffer, and
// storing or combining what arrived (dist::Exchange), each in one kernel
// for every dat and every neighbour: an exchange's launches do not grow with
// its dats or neighbours. The buffer holds each neighbour's rows after the
// other, so that a neighbour's bytes are one message; inside them each
// dat's block after the other (dats by decreasing value size, so that every
// block is aligned), and a block its points' values point by point for AoS
// dats and component by component for SoA dats: consecutive threads write
// consecutive values of the buffer and read one row (AoS) or one component
// of consecutive points (SoA) of the dat. Both sides of an exchange hold
// the same dats in the same layouts in the same order, so they agree on
// the buffer.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace umesh::detail {

/// Whether a block of dats in layout L holds its values component by
/// component.
template <class L> constexpr bool by_component() {
  return std::is_same<L, Kokkos::LayoutLeft>::value;
}

/// How arrived values go into the dat: stored, added, or folded in with
/// min or max.
enum class Fold { store, add, min, max };

/// The type of a dat's values, for the folds (the kernels are not
/// templated on it: one kernel serves dats of several types).
enum class ValueKind { f32, f64, i8, i16, i32, i64, u8, u16, u32, u64 };
template <class T> constexpr ValueKind value_kind() {
  static_assert(std::is_arithmetic<T>::value && sizeof(T) <= 8,
                "umesh::dist: halo exchanges move dats of numbers of at most 8 bytes");
  if constexpr (std::is_floating_point<T>::value)
    return sizeof(T) == 4 ? ValueKind::f32 : ValueKind::f64;
  else if constexpr (std::is_signed<T>::value)
    return sizeof(T) == 1   ? ValueKind::i8
           : sizeof(T) == 2 ? ValueKind::i16
           : sizeof(T) == 4 ? ValueKind::i32
                            : ValueKind::i64;
  else
    return sizeof(T) == 1   ? ValueKind::u8
           : sizeof(T) == 2 ? ValueKind::u16
           : sizeof(T) == 4 ? ValueKind::u32
                            : ValueKind::u64;
}

/// One dat of a packed exchange: where its values are and where its block
/// lies in a neighbour's rows.
struct PackedDat {
  char *data = nullptr;
  std::ptrdiff_t point_stride = 0, comp_stride = 0; // in values
  int dim = 0, size = 0;                            // components, bytes a value
  ValueKind kind = ValueKind::f64;
  Fold fold = Fold::store;
  bool by_component = false;
  int values_before = 0, bytes_before = 0; // a point of the dats before it

  KOKKOS_INLINE_FUNCTION char *at(int point, int k) const {
    return data + (point * point_stride + k * comp_stride) * size;
  }
  // Row j and component k of value l of a block of `rows` rows.
  KOKKOS_INLINE_FUNCTION void split(int l, int rows, int &j, int &k) const {
    if (by_component)
      k = l / rows, j = l % rows;
    else
      j = l / dim, k = l % dim;
  }
};

/// The dats of one packed exchange, passed to its kernels by value (no
/// device copy to make per exchange).
constexpr int max_packed_dats = 8;
struct PackedDats {
  PackedDat dat[max_packed_dats];
  int count = 0;
  int values = 0;    // a point, over the dats
  int row_bytes = 0; // a point, over the dats, padded to the widest value

  /// Orders the dats by decreasing value size (stable: both sides agree)
  /// and places their blocks.
  void arrange() {
    std::stable_sort(dat, dat + count,
                     [](const PackedDat &a, const PackedDat &b) { return a.size > b.size; });
    values = row_bytes = 0;
    for (int d = 0; d < count; ++d) {
      dat[d].values_before = values, dat[d].bytes_before = row_bytes;
      values += dat[d].dim, row_bytes += dat[d].dim * dat[d].size;
    }
    if (count > 0) // sizes are powers of two: each block starts aligned
      row_bytes = (row_bytes + dat[0].size - 1) / dat[0].size * dat[0].size;
  }
  /// The dat holding value l of a neighbour's (or a set of points') `rows`
  /// rows. The dats are read at constant indices only (here and in
  /// visit()): a kernel's parameters indexed at run time would be copied to
  /// each thread's local memory on a GPU.
  KOKKOS_INLINE_FUNCTION int which(int l, int rows) const {
    int d = 0;
    for (int e = 1; e < max_packed_dats; ++e)
      if (e < count && rows * dat[e].values_before <= l)
        d = e;
    return d;
  }
  /// f(dat[d]).
  template <class F> KOKKOS_INLINE_FUNCTION void visit(int d, const F &f) const {
    for (int e = 0; e < max_packed_dats; ++e)
      if (e == d)
        f(dat[e]);
  }
};

/// Value t of a buffer of neighbours' rows: its neighbour's first row b and
/// row count, its dat d and its place l in the dat's block. `first`: each
/// neighbour's first row, then the rows' count.
template <class M> struct PackedIndex {
  Kokkos::View<const int *, M> first;
  PackedDats dats;

  KOKKOS_INLINE_FUNCTION void operator()(int t, int &b, int &rows, int &d, int &l) const {
    const int values = dats.values;
    // The neighbour n with first(n) * values <= t < first(n + 1) * values
    // (nonempty: t lies in it).
    int lo = 0, hi = int(first.extent(0)) - 1;
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      if (first(mid) * values <= t)
        lo = mid;
      else
        hi = mid;
    }
    b = first(lo), rows = first(lo + 1) - b;
    l = t - b * values;
    d = dats.which(l, rows);
  }
  /// Where value l of dat p's block in the rows [b, b + rows) lies in the
  /// buffer (bytes from its start).
  KOKKOS_INLINE_FUNCTION std::ptrdiff_t offset(const PackedDat &p, int b, int rows, int l) const {
    return std::ptrdiff_t(b) * dats.row_bytes + std::ptrdiff_t(rows) * p.bytes_before +
           std::ptrdiff_t(l - rows * p.values_before) * p.size;
  }
};

KOKKOS_INLINE_FUNCTION void copy_value(char *to, const char *from, int size) {
  if (size == 8)
    *reinterpret_cast<std::uint64_t *>(to) = *reinterpret_cast<const std::uint64_t *>(from);
  else if (size == 4)
    *reinterpret_cast<std::uint32_t *>(to) = *reinterpret_cast<const std::uint32_t *>(from);
  else if (size == 2)
    *reinterpret_cast<std::uint16_t *>(to) = *reinterpret_cast<const std::uint16_t *>(from);
  else
    *to = *from;
}

/// out: the values of every dat at list rows `ids` (each neighbour's
/// rows [first(n), first(n + 1))), `total` rows in all.
template <class Exec, class M>
void pack_values(const PackedIndex<M> &at, const Kokkos::View<const int *, M> &ids, int total,
                 char *out) {
  Kokkos::parallel_for(
      "umesh::dist::pack", Kokkos::RangePolicy<Exec>(0, total * at.dats.values),
      KOKKOS_LAMBDA(int t) {
        int b, rows, d, l;
        at(t, b, rows, d, l);
        at.dats.visit(d, [&](const PackedDat &p) {
          int j, k;
          p.split(l - rows * p.values_before, rows, j, k);
          copy_value(out + at.offset(p, b, rows, l), p.at(ids(b + j), k), p.size);
        });
      });
}

/// The values in `in` stored into every dat at list rows `ids` (an import:
/// each halo point has one owner, so no point is written twice).
template <class Exec, class M>
void store_values(const PackedIndex<M> &at, const Kokkos::View<const int *, M> &ids, int total,
                  const char *in) {
  Kokkos::parallel_for(
      "umesh::dist::unpack", Kokkos::RangePolicy<Exec>(0, total * at.dats.values),
      KOKKOS_LAMBDA(int t) {
        int b, rows, d, l;
        at(t, b, rows, d, l);
        at.dats.visit(d, [&](const PackedDat &p) {
          int j, k;
          p.split(l - rows * p.values_before, rows, j, k);
          copy_value(p.at(ids(b + j), k), in + at.offset(p, b, rows, l), p.size);
        });
      });
}

/// The points an export combines into (detail/exchange_lists.hpp): each
/// point once, with the list rows that bring it values in neighbour order
/// (rows [at(u), at(u + 1)) of `rows`, their neighbours in `neighbour`).
template <class M> struct CombineLists {
  Kokkos::View<const int *, M> points, at, rows, neighbour;
};

// Folds the values at in + where(e), e in [begin, end), into *to in that
// order: a point shared with several ranks sums in neighbour order, as one
// kernel per neighbour did.
template <class T, class Where>
KOKKOS_INLINE_FUNCTION void fold_values(char *to, const Where &where, int begin, int end,
                                        Fold fold) {
  T v = *reinterpret_cast<const T *>(to);
  for (int e = begin; e < end; ++e) {
    const T x = *reinterpret_cast<const T *>(where(e));
    if (fold == Fold::add)
      v += x;
    else
      v = (fold == Fold::min) == (x < v) ? x : v;
  }
  *reinterpret_cast<T *>(to) = v;
}

// fold_values of the type `kind` names.
template <class Where>
KOKKOS_INLINE_FUNCTION void fold_kind(ValueKind kind, char *to, const Where &where, int begin,
                                      int end, Fold fold) {
  switch (kind) {
  case ValueKind::f32:
    return fold_values<float>(to, where, begin, end, fold);
  case ValueKind::f64:
    return fold_values<double>(to, where, begin, end, fold);
  case ValueKind::i8:
    return fold_values<std::int8_t>(to, where, begin, end, fold);
  case ValueKind::i16:
    return fold_values<std::int16_t>(to, where, begin, end, fold);
  case ValueKind::i32:
    return fold_values<std::int32_t>(to, where, begin, end, fold);
  case ValueKind::i64:
    return fold_values<std::int64_t>(to, where, begin, end, fold);
  case ValueKind::u8:
    return fold_values<std::uint8_t>(to, where, begin, end, fold);
  case ValueKind::u16:
    return fold_values<std::uint16_t>(to, where, begin, end, fold);
  case ValueKind::u32:
    return fold_values<std::uint32_t>(to, where, begin, end, fold);
  case ValueKind::u64:
    return fold_values<std::uint64_t>(to, where, begin, end, fold);
  }
}

// Where entry e of the combine lists finds its value of dat p, component k
// in the arrived buffer (p's fields copied: see PackedDats::which).
template <class M> struct ArrivedAt {
  CombineLists<M> c;
  Kokkos::View<const int *, M> first;
  const char *in;
  int row_bytes, k, dim, size, bytes_before;
  bool by_component;
  KOKKOS_INLINE_FUNCTION const char *operator()(int e) const {
    const int n = c.neighbour(e), b = first(n), rows = first(n + 1) - b, j = c.rows(e) - b;
    return in + std::ptrdiff_t(b) * row_bytes + std::ptrdiff_t(rows) * bytes_before +
           std::ptrdiff_t(by_component ? k * rows + j : j * dim + k) * size;
  }
};

/// The values in `in` combined into every dat's points by the dat's fold
/// (an export): one thread a point and component, folding its neighbours'
/// values in neighbour order, so the sums are those of one neighbour after
/// the other, and no two threads touch one point.
template <class Exec, class M>
void combine_values(const PackedDats &dats, const CombineLists<M> &c,
                    const Kokkos::View<const int *, M> &first, const char *in) {
  const int points = int(c.points.extent(0));
  Kokkos::parallel_for(
      "umesh::dist::unpack_combine", Kokkos::RangePolicy<Exec>(0, points * dats.values),
      KOKKOS_LAMBDA(int t) {
        dats.visit(dats.which(t, points), [&](const PackedDat &p) {
          int u, k;
          p.split(t - points * p.values_before, points, u, k);
          char *to = p.at(c.points(u), k);
          const ArrivedAt<M> where{
              c, first, in, dats.row_bytes, k, p.dim, p.size, p.bytes_before, p.by_component};
          fold_kind(p.kind, to, where, c.at(u), c.at(u + 1), p.fold);
        });
      });
}

} // namespace umesh::detail

#endif
