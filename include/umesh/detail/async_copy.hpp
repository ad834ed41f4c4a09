#ifndef UMESH_DETAIL_ASYNC_COPY_HPP
#define UMESH_DETAIL_ASYNC_COPY_HPP

// Global memory -> team scratch copies that do not wait for their data. On
// NVIDIA GPUs of compute capability 8.0 and later a copy is a cp.async
// (LDGSTS): the thread goes on issuing the next copies, so all of a block's
// staging loads are in flight at once instead of one load latency per
// staging step (what profiles of staged reads showed:
// docs/performance-notes.md). Elsewhere it is a plain load and store.
// async_copy_wait() completes the calling thread's copies; a team barrier
// after it publishes them to the team.

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace umesh::detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define UMESH_ASYNC_COPY_CP_ASYNC 1
#endif

template <class T> KOKKOS_INLINE_FUNCTION void async_copy(T &scratch_dst, const T *global_src) {
#ifdef UMESH_ASYNC_COPY_CP_ASYNC
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16) {
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&scratch_dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(global_src),
                 "n"(int(sizeof(T)))
                 : "memory");
    return;
  }
#endif
  scratch_dst = *global_src;
}

// Closes the calling thread's copies issued since the last commit into a
// group; async_copy_wait_older<N>() then completes every group but the N
// most recent ones (the copies of the next block, while this one is used).
KOKKOS_INLINE_FUNCTION void async_copy_commit() {
#ifdef UMESH_ASYNC_COPY_CP_ASYNC
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

template <int N> KOKKOS_INLINE_FUNCTION void async_copy_wait_older() {
#ifdef UMESH_ASYNC_COPY_CP_ASYNC
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

KOKKOS_INLINE_FUNCTION void async_copy_wait() {
#ifdef UMESH_ASYNC_COPY_CP_ASYNC
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// Asks for the line holding `p` in L1 without waiting for it: a load the
// thread will need after a barrier then finds it there instead of paying a
// memory latency after the barrier. No-op off NVIDIA GPUs.
KOKKOS_INLINE_FUNCTION void prefetch_l1(const void *p) {
#if defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L1 [%0];\n" ::"l"(p));
#else
  (void)p;
#endif
}

} // namespace umesh::detail

#endif
