#ifndef UMESH_DETAIL_SCRATCH_HPP
#define UMESH_DETAIL_SCRATCH_HPP

#include <Kokkos_Core.hpp>

namespace umesh::detail {

/// A typed pointer `offset` bytes into a team's scratch.
template <class T> KOKKOS_INLINE_FUNCTION T *scratch_at(char *scratch, int offset) {
  return reinterpret_cast<T *>(scratch + offset);
}

/// Adds `v` to an int in team scratch atomically and returns the old value.
/// On NVIDIA GPUs a shared-memory atom: through Kokkos the generic pointer
/// could compile to a generic atomic. No memory clobber: callers order it
/// against other scratch accesses with team barriers (which are compiler
/// barriers too), and one in their loops would force every scratch value to
/// be loaded again after it.
KOKKOS_INLINE_FUNCTION int scratch_fetch_add(int *p, int v) {
#if defined(__CUDA_ARCH__)
  int old;
  asm volatile("atom.shared.add.u32 %0, [%1], %2;"
               : "=r"(old)
               : "r"(unsigned(__cvta_generic_to_shared(p))), "r"(v));
  return old;
#else
  return Kokkos::atomic_fetch_add(p, v);
#endif
}

} // namespace umesh::detail

#endif
