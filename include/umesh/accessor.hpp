#ifndef UMESH_ACCESSOR_HPP
#define UMESH_ACCESSOR_HPP

// What a user kernel receives, one object per loop argument. `x(k)` reads
// component k; `res(k) += v` increments it. The layout (and, for increments,
// the strategy: plain, atomic, buffered or ScatterView) is hidden here.

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

/// Reference returned by an increment accessor: only `+=` and `-=`.
template <class T, bool Atomic> struct IncRef {
  T *ptr;
  KOKKOS_INLINE_FUNCTION void operator+=(T v) const {
    if constexpr (Atomic)
      Kokkos::atomic_add(ptr, v);
    else
      *ptr += v;
  }
  KOKKOS_INLINE_FUNCTION void operator-=(T v) const { *this += -v; }
};

/// Increment access to the components of one point.
template <class T, class Layout, bool Atomic> struct IncAccessor {
  T *ptr;
  detail::ComponentStride<Layout> stride;
  KOKKOS_INLINE_FUNCTION IncRef<T, Atomic> operator()(int k) const { return {ptr + k * stride()}; }
};

/// Increment access through a Kokkos ScatterView. Its access objects cannot
/// be copied (duplicated strategy), so one is made per increment.
template <class ScatterViewT> struct ScatterIncAccessor {
  ScatterViewT scatter;
  int point;
  KOKKOS_INLINE_FUNCTION auto operator()(int k) const { return scatter.access()(point, k); }
};

} // namespace umesh

#endif
