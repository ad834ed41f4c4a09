#ifndef UMESH_CONCURRENCY_HPP
#define UMESH_CONCURRENCY_HPP

// How a backend runs a launch's work. With an executor and its loop options
// it decides whether loops give bitwise-reproducible results: each executor's
// tag says so (Exec::reproducible, umesh/exec.hpp).

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace umesh::exec {

/// How an execution space runs the elements of a launch.
enum class Concurrency {
  sequential,   ///< one thread, in order (Kokkos::Serial)
  host_threads, ///< host threads (OpenMP), as many as the run is given
  gpu           ///< GPU threads
};

/// The Concurrency of execution space Space.
template <class Space> constexpr Concurrency concurrency_of() {
#ifdef KOKKOS_ENABLE_SERIAL
  if constexpr (std::is_same<Space, Kokkos::Serial>::value)
    return Concurrency::sequential;
#endif
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename Space::memory_space>::accessible)
    return Concurrency::host_threads;
  else
    return Concurrency::gpu;
}

inline const char *concurrency_name(Concurrency c) {
  switch (c) {
  case Concurrency::sequential:
    return "one thread";
  case Concurrency::host_threads:
    return "host threads";
  default:
    return "GPU";
  }
}

} // namespace umesh::exec

#endif
