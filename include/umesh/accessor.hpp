#ifndef UMESH_ACCESSOR_HPP
#define UMESH_ACCESSOR_HPP

// What a user kernel receives, one object per loop argument. `x(k)` reads
// component k; `res(k) += v` increments it; `lo(k).update(v)` folds v into a
// min or max argument. The layout (and, for increments,
// the strategy: plain, atomic, buffered or ScatterView) is hidden here.
//
// Every accessor knows its argument's component count at compile time,
// `X::components`, so a kernel can check the dats it is given:
//
//   template <class Q, class R> KOKKOS_INLINE_FUNCTION void operator()(Q q, R res) const {
//     static_assert(Q::components == 4 && R::components == 4, "q and res: 4 components");
//
// Debug builds (UMESH_DEBUG defined, or NDEBUG not defined) also check every
// index k against it and abort the kernel with a message naming both;
// release builds compile no check.

#include <umesh/access.hpp>
#include <umesh/detail/global_atomic.hpp>
#include <umesh/layout.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>

#if defined(UMESH_DEBUG) || !defined(NDEBUG)
#define UMESH_CHECK_COMPONENTS 1
#endif

namespace umesh {

namespace detail {
// Component k of an argument of D components: checked in debug builds only.
template <int D> KOKKOS_INLINE_FUNCTION void check_component(int k) {
#ifdef UMESH_CHECK_COMPONENTS
  if (k < 0 || k >= D) {
#define UMESH_COMPONENT_MESSAGE                                                                    \
  "umesh: a kernel used component %d of a loop argument with %d components (pass a dat of the "    \
  "width the kernel reads)\n"
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
    printf(UMESH_COMPONENT_MESSAGE, k, D);
#else
    std::fprintf(stderr, UMESH_COMPONENT_MESSAGE, k, D); // where Kokkos::abort writes too
#endif
#undef UMESH_COMPONENT_MESSAGE
    Kokkos::abort("umesh: component index out of range");
  }
#else
  (void)k;
#endif
}
} // namespace detail

/// Read-only access to the D components of one point.
template <class T, class Layout, int D> struct ReadAccessor {
  static constexpr int components = D;
  const T *ptr;
  detail::ComponentStride<Layout> stride;
  KOKKOS_INLINE_FUNCTION const T &operator()(int k) const {
    detail::check_component<D>(k);
    return ptr[k * stride()];
  }
};

/// Read-write access to the D components of the loop's own element, or to
/// a global reduction's thread-private value.
template <class T, class Layout, int D> struct RwAccessor {
  static constexpr int components = D;
  T *ptr;
  detail::ComponentStride<Layout> stride;
  KOKKOS_INLINE_FUNCTION T &operator()(int k) const {
    detail::check_component<D>(k);
    return ptr[k * stride()];
  }
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

/// Combining access (inc, min or max) to the D components of one point.
template <class T, class Layout, Access A, bool Atomic, int D> struct CombineAccessor {
  static constexpr int components = D;
  T *ptr;
  detail::ComponentStride<Layout> stride;
  KOKKOS_INLINE_FUNCTION CombineRef<T, A, Atomic> operator()(int k) const {
    detail::check_component<D>(k);
    return {ptr + k * stride()};
  }
};
/// Increment access to the D components of one point.
template <class T, class Layout, bool Atomic, int D>
using IncAccessor = CombineAccessor<T, Layout, Access::inc, Atomic, D>;

/// Combining access through a Kokkos ScatterView (whose values offer
/// update(v), and += for sums). Its access objects cannot
/// be copied (duplicated strategy), so one is made per increment.
template <class ScatterViewT> struct ScatterIncAccessor {
  static constexpr int components = int(ScatterViewT::original_view_type::static_extent(1));
  ScatterViewT scatter;
  int point;
  KOKKOS_INLINE_FUNCTION auto operator()(int k) const {
    detail::check_component<components>(k);
    return scatter.access()(point, k);
  }
};

} // namespace umesh

#endif
