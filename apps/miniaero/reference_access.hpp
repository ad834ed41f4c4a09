#ifndef UMESH_MINIAERO_REFERENCE_ACCESS_HPP
#define UMESH_MINIAERO_REFERENCE_ACCESS_HPP

// The small accessors through which miniAero's own strategies
// (reference.hpp) call the shared pointwise kernels (kernels.hpp): reads of
// a View's row, and increments or min/max into a cell's slot, atomic or
// plain.

#include <Kokkos_Core.hpp>

namespace miniaero {

namespace ref {

template <class V> struct Row { // reads v(i, k)
  V v;
  int i;
  KOKKOS_INLINE_FUNCTION double operator()(int k) const { return v(i, k); }
};
template <class V> struct Scalar { // reads v(i) as component 0
  V v;
  int i;
  KOKKOS_INLINE_FUNCTION double operator()(int) const { return v(i); }
};
template <class V> struct GradRow { // reads v(i, k / 3, k % 3)
  V v;
  int i;
  KOKKOS_INLINE_FUNCTION double operator()(int k) const { return v(i, k / 3, k % 3); }
};
template <class V> KOKKOS_INLINE_FUNCTION Row<V> row(const V &v, int i) {
  return {v, i};
}

enum class Op { sum, min };
template <Op O, bool Atomic> struct Ref {
  double *p;
  KOKKOS_INLINE_FUNCTION void operator+=(double x) const { update(x); }
  KOKKOS_INLINE_FUNCTION void operator-=(double x) const { update(-x); }
  KOKKOS_INLINE_FUNCTION void update(double x) const {
    if constexpr (O == Op::sum) {
      if constexpr (Atomic)
        Kokkos::atomic_add(p, x);
      else
        *p += x;
    } else {
      if constexpr (Atomic)
        Kokkos::atomic_fetch_min(p, x);
      else
        *p = x < *p ? x : *p;
    }
  }
};
template <bool Atomic> struct MaxRef {
  double *p;
  KOKKOS_INLINE_FUNCTION void update(double x) const {
    if constexpr (Atomic)
      Kokkos::atomic_fetch_max(p, x);
    else
      *p = x > *p ? x : *p;
  }
};
// A cell's slot of a [cell][slot][5] array (slot 0 under atomics).
template <Op O, bool Atomic, class V> struct Slot {
  V v;
  int i, s;
  KOKKOS_INLINE_FUNCTION Ref<O, Atomic> operator()(int k) const { return {&v(i, s, k)}; }
};
template <bool Atomic, class V> struct MaxSlot {
  V v;
  int i, s;
  KOKKOS_INLINE_FUNCTION MaxRef<Atomic> operator()(int k) const { return {&v(i, s, k)}; }
};
template <bool Atomic, class V> struct GradSlot { // [cell][slot][5][3]
  V v;
  int i, s;
  KOKKOS_INLINE_FUNCTION Ref<Op::sum, Atomic> operator()(int k) const {
    return {&v(i, s, k / 3, k % 3)};
  }
};

} // namespace ref

} // namespace miniaero

#endif
