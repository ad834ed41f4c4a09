#ifndef UMESH_DETAIL_TEAM_SCRATCH_HPP
#define UMESH_DETAIL_TEAM_SCRATCH_HPP

// Which Kokkos scratch level the team executors stage in, and its budget.
// GPUs: level 0, the SM's shared memory. Host backends: level 1, because
// there a team's scratch is plain memory either way and level 0 is capped
// far below what a default block of an ordinary loop stages (every executor
// must run every valid kernel with its defaults on every backend).

#include <Kokkos_Core.hpp>

namespace umesh::detail {

// A function, not a constexpr variable: Kokkos' team_scratch takes the level
// by reference, which would odr-use a variable in device code (nvcc refuses).
template <class Space> KOKKOS_INLINE_FUNCTION constexpr int team_scratch_level() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible
             ? 1
             : 0;
}

/// Bytes of team scratch a team of Space may take at that level.
template <class Space> int team_scratch_budget() {
  return Kokkos::TeamPolicy<Space>::scratch_size_max(team_scratch_level<Space>());
}

} // namespace umesh::detail

#endif
