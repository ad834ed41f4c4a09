#ifndef UMESH_DETAIL_DEVICE_ARGS_HPP
#define UMESH_DETAIL_DEVICE_ARGS_HPP

// Device-side form of each loop argument. Each provides
//   storage_type  thread-private storage for one element (Empty if none)
//   reduce_type   its part of the loop's reduction value (Empty if none)
//   bind(e, storage, reduce) -> the accessor handed to the kernel
//   finish(e, storage)       -> runs after the kernel (buffered increments)

#include <umesh/access.hpp>
#include <umesh/accessor.hpp>
#include <umesh/detail/tuple.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <type_traits>

namespace umesh::detail {

// Raw pointer form of a dat: what device code indexes.
template <class T, int Dim, class Layout> struct DatPtr {
  T *data;
  int n; // rows of the View: the SoA component stride (Dat::rows())
  KOKKOS_INLINE_FUNCTION T *at(int i) const {
    if constexpr (std::is_same<Layout, AoS>::value)
      return data + std::size_t(i) * Dim;
    else
      return data + i;
  }
  KOKKOS_INLINE_FUNCTION ComponentStride<Layout> stride() const {
    if constexpr (std::is_same<Layout, AoS>::value)
      return {};
    else
      return {n};
  }
};

// The one place a dat's device form is made: its SoA stride is the View's
// rows (Dat::rows()), not the set's size.
template <class T, int Dim, class L, class M>
DatPtr<T, Dim, L> dat_ptr(const Dat<T, Dim, L, M> &d) {
  return {d.view().data(), d.rows()};
}
/// The same, read only.
template <class T, int Dim, class L, class M>
DatPtr<const T, Dim, L> read_ptr(const Dat<T, Dim, L, M> &d) {
  return {d.view().data(), d.rows()};
}

/// Point (e, slot) of a map of `arity`, in 32-bit arithmetic: validate()
/// refuses maps of 2^32 or more entries, and the 64-bit index math (sign
/// extensions, wide multiplies) cost every indirect argument several
/// instructions per element (seen in the compiled device code:
/// docs/performance-notes.md).
KOKKOS_INLINE_FUNCTION int map_entry(const int *map, int e, int arity, int slot) {
  return map[unsigned(e) * unsigned(arity) + unsigned(slot)];
}

// Where a device argument is bound: the element, and for team executors the
// thread's slot in its block and the team's scratch.
struct ElementCtx {
  int e;
};
struct TeamCtx {
  int e; // element
  int i; // position in the plan's block order
  int b; // block
  char *scratch;
  int rank = 0;         // the element's place in its block
  char *team = nullptr; // scratch kept for the whole team (pipelined); else = scratch
};
// A team context whose kernel combines staged increments by gather (or
// not), fixed at compile time so that each kernel carries only its own
// combine code (both in one kernel cost registers and time:
// docs/performance-notes.md).
template <bool Gather> struct ModeCtx : TeamCtx { static constexpr bool gather = Gather; };

// Shared no-op hooks for arguments without storage or reduction.
struct NoHooks {
  using storage_type = Empty;
  using reduce_type = Empty;
  template <class Ctx> KOKKOS_INLINE_FUNCTION void finish(const Ctx &, Empty &) const {}
  KOKKOS_INLINE_FUNCTION static void init(Empty &) {}
  template <class D, class S> KOKKOS_INLINE_FUNCTION static void join(D &, S &) {}
};

template <Access A, class T, int Dim, class Layout> struct DirectDev : NoHooks {
  DatPtr<T, Dim, Layout> dat;
  template <class Ctx> KOKKOS_INLINE_FUNCTION auto bind(const Ctx &ctx, Empty &, Empty &) const {
    const int e = ctx.e;
    if constexpr (A == Access::read)
      return ReadAccessor<T, Layout, Dim>{dat.at(e), dat.stride()};
    else if constexpr (A == Access::inc)
      return IncAccessor<T, Layout, false, Dim>{dat.at(e), dat.stride()};
    else
      return RwAccessor<T, Layout, Dim>{dat.at(e), dat.stride()};
  }
};

template <class T, int Dim, class Layout> struct IndirectReadDev : NoHooks {
  DatPtr<T, Dim, Layout> dat;
  const int *map;
  int arity, slot;
  template <class Ctx> KOKKOS_INLINE_FUNCTION auto bind(const Ctx &ctx, Empty &, Empty &) const {
    const int p = map_entry(map, ctx.e, arity, slot);
    return ReadAccessor<T, Layout, Dim>{dat.at(p), dat.stride()};
  }
};

// Combine (inc, min, max) straight into global memory, plainly or atomically.
template <Access A, class T, int Dim, class Layout, bool Atomic>
struct IndirectCombineDev : NoHooks {
  DatPtr<T, Dim, Layout> dat;
  const int *map;
  int arity, slot;
  template <class Ctx> KOKKOS_INLINE_FUNCTION auto bind(const Ctx &ctx, Empty &, Empty &) const {
    const int p = map_entry(map, ctx.e, arity, slot);
    return CombineAccessor<T, Layout, A, Atomic, Dim>{dat.at(p), dat.stride()};
  }
};

// Thread-private buffer of a combining argument; it starts at the identity of
// the access (0 for inc, +max for min, lowest for max).
template <Access A, class T, int Dim> struct CombineBuffer {
  T v[Dim];
  KOKKOS_INLINE_FUNCTION CombineBuffer() {
    for (int k = 0; k < Dim; ++k)
      v[k] = Combine<A>::template identity<T>();
  }
};

// Combining arguments that the kernel folds into a thread-private buffer;
// the executor's finish() applies it.
template <Access A, class T, int Dim> struct BufferedCombine {
  using storage_type = CombineBuffer<A, T, Dim>;
  using reduce_type = Empty;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION auto bind(const Ctx &, storage_type &buf, Empty &) const {
    return CombineAccessor<T, AoS, A, false, Dim>{buf.v, {}};
  }
  KOKKOS_INLINE_FUNCTION static void init(Empty &) {}
  template <class D, class S> KOKKOS_INLINE_FUNCTION static void join(D &, S &) {}
};

// Buffer stored afterwards at temp[(e * arity + slot) * Dim + k] (the
// gather executor's first step).
template <Access A, class T, int Dim> struct BufferedCombineDev : BufferedCombine<A, T, Dim> {
  T *temp;
  int arity, slot;
  bool accumulate; // another argument already stored to this slot
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void finish(const Ctx &ctx, CombineBuffer<A, T, Dim> &buf) const {
    T *dst = temp + (std::size_t(ctx.e) * arity + slot) * Dim;
    for (int k = 0; k < Dim; ++k)
      dst[k] = accumulate ? Combine<A>::apply(dst[k], buf.v[k]) : buf.v[k];
  }
};

template <class ScatterViewT> struct ScatterIncDev : NoHooks {
  ScatterViewT scatter;
  const int *map;
  int arity, slot;
  template <class Ctx> KOKKOS_INLINE_FUNCTION auto bind(const Ctx &ctx, Empty &, Empty &) const {
    const int p = map_entry(map, ctx.e, arity, slot);
    return ScatterIncAccessor<ScatterViewT>{scatter, p};
  }
};

template <Reduction R, class T, int Dim> struct GlobalDev {
  using storage_type = Empty;
  using reduce_type = Array<T, Dim>;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION auto bind(const Ctx &, Empty &, reduce_type &r) const {
    return RwAccessor<T, AoS, Dim>{r.v, {}};
  }
  template <class Ctx> KOKKOS_INLINE_FUNCTION void finish(const Ctx &, Empty &) const {}
  KOKKOS_INLINE_FUNCTION static void init(reduce_type &r) {
    for (int k = 0; k < Dim; ++k) {
      if constexpr (R == Reduction::sum)
        r.v[k] = T(0);
      else if constexpr (R == Reduction::min)
        r.v[k] = Kokkos::reduction_identity<T>::min();
      else
        r.v[k] = Kokkos::reduction_identity<T>::max();
    }
  }
  // Templated on the reference types so it serves volatile joins (Kokkos 3)
  // and plain ones alike.
  template <class D, class S> KOKKOS_INLINE_FUNCTION static void join(D &dst, S &src) {
    for (int k = 0; k < Dim; ++k) {
      const T a = dst.v[k], b = src.v[k];
      if constexpr (R == Reduction::sum)
        dst.v[k] = a + b;
      else if constexpr (R == Reduction::min)
        dst.v[k] = b < a ? b : a;
      else
        dst.v[k] = b > a ? b : a;
    }
  }
};

// A reduction into a device global: the kernel's accessor and the joins are
// GlobalDev's; at the end of each launch, Kokkos' final() folds the launch's
// result into the global's device values (store), so the host need not wait.
template <Reduction R, class T, int Dim> struct DeviceGlobalDev : GlobalDev<R, T, Dim> {
  static constexpr bool stores_on_device = true;
  T *values;
  KOKKOS_INLINE_FUNCTION void store(const Array<T, Dim> &r) const {
    Array<T, Dim> v;
    for (int k = 0; k < Dim; ++k)
      v.v[k] = values[k];
    GlobalDev<R, T, Dim>::join(v, r);
    for (int k = 0; k < Dim; ++k)
      values[k] = v.v[k];
  }
};

// Whether a device argument folds its reduction into device memory itself.
template <class Dev, class = void> struct stores_on_device : std::false_type {};
template <class Dev>
struct stores_on_device<Dev, std::void_t<decltype(Dev::stores_on_device)>>
    : std::integral_constant<bool, Dev::stores_on_device> {};

} // namespace umesh::detail

#endif
