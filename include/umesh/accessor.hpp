#ifndef UMESH_ACCESSOR_HPP
#define UMESH_ACCESSOR_HPP

// What a user kernel receives, one object per loop argument. `x(k)` reads
// component k; `res(k) += v` increments it; `lo(k).update(v)` folds v into a
// min or max argument. The layout (and, for increments,
// the strategy: plain, atomic, buffered or ScatterView) is hidden here.

#include <umesh/access.hpp>
#include <umesh/detail/global_atomic.hpp>
#include <umesh/layout.hpp>

#include <Kokkos_Core.hpp>

namespace umesh {

/// Read-only access to the components of one point.
template <class T, class Layout> struct ReadAccessor {
  const T *ptr;
  detail::ComponentStride<Layout> stride;
  KOKKOS_INLINE_FUNCTION const T &operator()(int k) const { return ptr[k * stride()]; }
};

/// Read-write access to the components of the loop's own element, or to a
/// global reduction's thread-private value.
template <class T, class Layout> struct RwAccessor {
  T *ptr;
  detail::ComponentStride<Layout> stride;
  KOKKOS_INLINE_FUNCTION T &operator()(int k) const { return ptr[k * stride()]; }
};

namespace detail {
// How an indirect combining access folds a value into a point: sum, min or
// max, with the identity its thread-private buffers start from.
template <Access A> struct Combine {
  static_assert(A == Access::inc || A == Access::min || A == Access::max,
                "umesh: only inc, min and max combine values");
  template <class T> KOKKOS_INLINE_FUNCTION static constexpr T identity() {
    if constexpr (A == Access::inc)
      return T(0);
    else if constexpr (A == Access::min)
      return Kokkos::reduction_identity<T>::min();
    else
      return Kokkos::reduction_identity<T>::max();
  }
  template <class T> KOKKOS_INLINE_FUNCTION static T apply(T a, T b) {
    if constexpr (A == Access::inc)
      return a + b;
    else if constexpr (A == Access::min)
      return b < a ? b : a;
    else
      return b > a ? b : a;
  }
  // `atomic` folds into any memory (team scratch included); `atomic_global`
  // into global memory only, with no value sent back where that exists.
  template <class T> KOKKOS_INLINE_FUNCTION static void atomic(T *p, T v) {
    if constexpr (A == Access::inc)
      Kokkos::atomic_add(p, v);
    else if constexpr (A == Access::min)
      Kokkos::atomic_fetch_min(p, v);
    else
      Kokkos::atomic_fetch_max(p, v);
  }
  template <class T> KOKKOS_INLINE_FUNCTION static void atomic_global(T *p, T v) {
    if constexpr (A == Access::inc)
      global_atomic_add(p, v);
    else
      atomic(p, v);
  }
};
} // namespace detail

/// Reference returned by a combining accessor. `update(v)` folds v in under
/// the argument's access (inc: add; min; max); inc also offers `+=`, `-=`.
template <class T, Access A, bool Atomic> struct CombineRef {
  T *ptr;
  KOKKOS_INLINE_FUNCTION void update(T v) const {
    if constexpr (Atomic) // atomic accessors point into dats, in global memory
      detail::Combine<A>::atomic_global(ptr, v);
    else
      *ptr = detail::Combine<A>::apply(*ptr, v);
  }
  template <Access B = A> KOKKOS_INLINE_FUNCTION void operator+=(T v) const {
    static_assert(B == Access::inc, "umesh: += and -= are for inc arguments; min and max "
                                    "arguments take update(v)");
    update(v);
  }
  template <Access B = A> KOKKOS_INLINE_FUNCTION void operator-=(T v) const {
    static_assert(B == Access::inc, "umesh: += and -= are for inc arguments; min and max "
                                    "arguments take update(v)");
    update(-v);
  }
};
template <class T, bool Atomic> using IncRef = CombineRef<T, Access::inc, Atomic>;

/// Combining access (inc, min or max) to the components of one point.
template <class T, class Layout, Access A, bool Atomic> struct CombineAccessor {
  T *ptr;
  detail::ComponentStride<Layout> stride;
  KOKKOS_INLINE_FUNCTION CombineRef<T, A, Atomic> operator()(int k) const {
    return {ptr + k * stride()};
  }
};
/// Increment access to the components of one point.
template <class T, class Layout, bool Atomic>
using IncAccessor = CombineAccessor<T, Layout, Access::inc, Atomic>;

/// Combining access through a Kokkos ScatterView (whose values offer
/// update(v), and += for sums). Its access objects cannot
/// be copied (duplicated strategy), so one is made per increment.
template <class ScatterViewT> struct ScatterIncAccessor {
  ScatterViewT scatter;
  int point;
  KOKKOS_INLINE_FUNCTION auto operator()(int k) const { return scatter.access()(point, k); }
};

} // namespace umesh

#endif
