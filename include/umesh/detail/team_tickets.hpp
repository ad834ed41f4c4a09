#ifndef UMESH_DETAIL_TEAM_TICKETS_HPP
#define UMESH_DETAIL_TEAM_TICKETS_HPP

// Ordered work in one launch, as one-launch colouring (element_kernel.hpp)
// and data-flow sweeps (sweep_kernels.hpp) do it: each team takes a ticket
// when it starts, tickets decide the work, and a team waits only for work
// of earlier tickets, held by teams that have started and wait for none
// after them; so no launch deadlocks, whatever order the scheduler runs
// teams in.

#include <Kokkos_Core.hpp>

#include <thread>

namespace umesh::detail {

/// The team's ticket from *counter (one atomic add per team, in the order
/// teams start), handed to every thread of the team through `slot` (team
/// scratch).
template <class Member>
KOKKOS_INLINE_FUNCTION int take_ticket(const Member &m, int *counter, int *slot) {
  Kokkos::single(Kokkos::PerTeam(m), [&] { *slot = Kokkos::atomic_fetch_add(counter, 1); });
  m.team_barrier();
  return *slot;
}

/// Spins until ready(), then fences: what the releasing thread stored
/// before its release is seen after. Host threads yield meanwhile (they may
/// outnumber the cores).
template <class Ready> KOKKOS_INLINE_FUNCTION void spin_until(const Ready &ready) {
  while (!ready()) {
#if !defined(__CUDA_ARCH__)
    std::this_thread::yield();
#endif
  }
  Kokkos::memory_fence();
}

} // namespace umesh::detail

#endif
