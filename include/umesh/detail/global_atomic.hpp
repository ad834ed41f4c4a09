#ifndef UMESH_DETAIL_GLOBAL_ATOMIC_HPP
#define UMESH_DETAIL_GLOBAL_ATOMIC_HPP

// Adds into global memory without fetching the old value. On NVIDIA GPUs
// this is a `red.global.add`: the L2 applies it and sends nothing back. For
// the same Kokkos::atomic_add, nvcc emitted REDG in the atomic executor's
// kernel but a value-returning ATOMG in the team kernels, whose replies
// load the L2 fabric that bounds these kernels (docs/performance-notes.md).
// Only for addresses in global memory: team scratch keeps Kokkos' atomics.
// The kernel never reads a location it reduces into, so the asm carries no
// memory clobber and the loads around it stay free to move.

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace umesh::detail {

template <class T> KOKKOS_INLINE_FUNCTION void global_atomic_add(T *p, T v) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, double>) {
    asm volatile("red.global.add.f64 [%0], %1;" ::"l"(p), "d"(v));
    return;
  } else if constexpr (std::is_same_v<T, float>) {
    asm volatile("red.global.add.f32 [%0], %1;" ::"l"(p), "f"(v));
    return;
  } else if constexpr (std::is_same_v<T, int>) {
    asm volatile("red.global.add.s32 [%0], %1;" ::"l"(p), "r"(v));
    return;
  } else if constexpr (std::is_same_v<T, unsigned>) {
    asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v));
    return;
  }
#endif
  Kokkos::atomic_add(p, v);
}

} // namespace umesh::detail

#endif
