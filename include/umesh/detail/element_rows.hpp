#ifndef UMESH_DETAIL_ELEMENT_ROWS_HPP
#define UMESH_DETAIL_ELEMENT_ROWS_HPP

// Row arguments of element loops on the device: the accessor a kernel gets
// (`x(i, k)`, component k of the row's point i) and the device form that
// binds it to an element. How a combining row folds a value in is fixed by
// the strategy: plain, atomic, or (one-launch colouring) plain through loads
// that bypass the GPU's non-coherent L1, where another team of the same
// launch may have stored the point.

#include <umesh/access.hpp>
#include <umesh/accessor.hpp>
#include <umesh/detail/device_args.hpp>

#include <Kokkos_Core.hpp>

namespace umesh {
namespace detail {

/// How a strategy folds a combining row's values into global memory.
/// Coloured folds are atomic for elements whose row names a point twice
/// (two of the element's lanes may fold into it at once).
enum class RowFold {
  plain,    // no other thread touches the point meanwhile (serial)
  atomic,   // atomics always
  coloured, // plain: no element running meanwhile shares the point
  coherent, // coloured, but loaded past L1: a team of the same launch may
            // have stored the point (one-launch colouring)
  buffer    // into the element's own slots of a temporary (gather)
};

// The row of one element: point(i) = row[i]; size() fixed when Arity > 0.
template <int Arity> struct RowIndex {
  const int *row;
  int n;
  KOKKOS_INLINE_FUNCTION constexpr int size() const {
    if constexpr (Arity > 0)
      return Arity;
    else
      return n;
  }
  KOKKOS_INLINE_FUNCTION int point(int i) const { return row[i]; }
};

} // namespace detail

/// What combining row accessors return: `update(v)` folds v in under the
/// row's access; inc rows offer `+=` and `-=` too.
template <class T, Access A, detail::RowFold Fold> struct RowCombineRef {
  T *ptr;
  bool atomic_point; // (coloured folds) the element's row names a point twice
  KOKKOS_INLINE_FUNCTION void update(T v) const {
    if constexpr (Fold == detail::RowFold::atomic) {
      detail::Combine<A>::atomic_global(ptr, v);
    } else if constexpr (Fold == detail::RowFold::plain) {
      *ptr = detail::Combine<A>::apply(*ptr, v);
    } else if (atomic_point) {
      detail::Combine<A>::atomic_global(ptr, v);
    } else if constexpr (Fold == detail::RowFold::coherent) {
      volatile T *q = ptr;
      *q = detail::Combine<A>::apply(T(*q), v);
    } else {
      *ptr = detail::Combine<A>::apply(*ptr, v);
    }
  }
  template <Access B = A> KOKKOS_INLINE_FUNCTION void operator+=(T v) const {
    static_assert(B == Access::inc, "umesh: += and -= are for inc_row; min_row and max_row "
                                    "take update(v)");
    update(v);
  }
  template <Access B = A> KOKKOS_INLINE_FUNCTION void operator-=(T v) const {
    static_assert(B == Access::inc, "umesh: += and -= are for inc_row; min_row and max_row "
                                    "take update(v)");
    update(-v);
  }
};

/// The accessor of a row argument: `x(i, k)` is component k of the row's
/// point i (a value for read_row, a reference to assign for write_row, a
/// RowCombineRef for inc_row, min_row, max_row); size() is the arity,
/// point(i) the point's index, dim its components.
template <Access A, class T, int Dim, class Layout, class Index, detail::RowFold Fold>
struct RowAccessor {
  static constexpr int dim = Dim;
  detail::DatPtr<T, Dim, Layout> dat;
  Index index;
  bool atomic_point;

  KOKKOS_INLINE_FUNCTION constexpr int size() const { return index.size(); }
  KOKKOS_INLINE_FUNCTION int point(int i) const { return index.point(i); }
  KOKKOS_INLINE_FUNCTION decltype(auto) operator()(int i, int k) const {
    T *p = dat.at(index.point(i)) + k * dat.stride()();
    if constexpr (A == Access::read || A == Access::write)
      return *p; // T is const for reads
    else
      return RowCombineRef<T, A, Fold>{p, atomic_point};
  }
};

/// The accessor of a combining row under exec::ElementGather: as
/// RowAccessor's, but `x(i, k)` folds into the element's own slot (i, k) of
/// the loop's temporary, which a later launch folds into the points.
template <Access A, class T, int Dim, int Arity> struct BufferedRowAccessor {
  static constexpr int dim = Dim;
  T *slots; // the element's, [slot][component]
  detail::RowIndex<Arity> index;
  KOKKOS_INLINE_FUNCTION constexpr int size() const { return index.size(); }
  KOKKOS_INLINE_FUNCTION int point(int i) const { return index.point(i); }
  KOKKOS_INLINE_FUNCTION RowCombineRef<T, A, detail::RowFold::plain> operator()(int i,
                                                                                int k) const {
    return {slots + i * Dim + k, false};
  }
};

namespace detail {

/// A combining row under exec::ElementGather: `temp` holds [element][slot][Dim].
template <Access A, class T, int Dim, int Arity> struct BufferedRowDev {
  const int *map;
  int arity;
  T *temp;
  KOKKOS_INLINE_FUNCTION auto bind(int e) const {
    const int n = Arity > 0 ? Arity : arity;
    const unsigned at = unsigned(e) * unsigned(n);
    return BufferedRowAccessor<A, T, Dim, Arity>{temp + std::size_t(at) * Dim, {map + at, n}};
  }
};

/// A row argument bound to elements: `bind(e)` gives the element's accessor.
/// `repeats` (coloured folds only, may be null): a byte per element, set
/// where the element's row names a point twice (two lanes could then fold
/// into one point at once).
template <Access A, class T, int Dim, class Layout, int Arity, RowFold Fold> struct RowDev {
  using value_type = std::conditional_t<A == Access::read, const T, T>;
  DatPtr<value_type, Dim, Layout> dat;
  const int *map;
  int arity;
  const unsigned char *repeats;

  KOKKOS_INLINE_FUNCTION auto bind(int e) const {
    const int n = Arity > 0 ? Arity : arity;
    const bool atomic = (Fold == RowFold::coloured || Fold == RowFold::coherent) &&
                        repeats != nullptr && repeats[e] != 0;
    return RowAccessor<A, value_type, Dim, Layout, RowIndex<Arity>, Fold>{
        dat, {map + unsigned(e) * unsigned(n), n}, atomic};
  }
};

} // namespace detail
} // namespace umesh

#endif
