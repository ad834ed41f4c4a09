#ifndef UMESH_DETAIL_LAUNCH_WEIGHT_HPP
#define UMESH_DETAIL_LAUNCH_WEIGHT_HPP

// How a team kernel's functor reaches the GPU. Light weight (a kernel
// argument) spares the team executors Kokkos 3's wait before each
// constant-memory launch, but Kokkos passes a light-weight functor of 4 KB
// or more through global memory, and its global-memory launch cannot take a
// launch bound: that specialisation of CudaParallelLaunchKernelFunc converts
// the overloaded kernel template to void*, which nvcc 13 rejects as
// ambiguous (Kokkos 3.4.01; 4.x has the same code). A register budget's
// launch bound on such a functor (LULESH's hourglass loop) therefore goes
// heavy weight, through constant memory, which compiles; past constant
// memory's 32 KB no launch bound can compile, so none is instantiated
// (bounded_launch_fits).

#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace umesh::detail {

/// Functor bytes from which a light-weight launch would go through global
/// memory: Kokkos' 4 KB kernel-argument limit less a margin for what its
/// driver object adds to the functor.
constexpr std::size_t light_launch_max_bytes = 3 * 1024;
/// Functor bytes up to which a launch bound compiles (constant memory's
/// 32 KB less the same margin).
constexpr std::size_t bounded_launch_max_bytes = 31 * 1024;

template <class Bounds> constexpr bool is_bounded() {
  return !std::is_same<Bounds, Kokkos::LaunchBounds<>>::value;
}

/// Whether a kernel of `Functor` under launch bounds `Bounds` can be built.
template <class Functor, class Bounds> constexpr bool bounded_launch_fits() {
  return !is_bounded<Bounds>() || sizeof(Functor) < bounded_launch_max_bytes;
}

/// The work-item property for a team launch of `Functor` under `Bounds`.
template <class Functor, class Bounds> constexpr auto launch_weight() {
  if constexpr (is_bounded<Bounds>() && sizeof(Functor) >= light_launch_max_bytes)
    return Kokkos::Experimental::WorkItemProperty::HintHeavyWeight;
  else
    return Kokkos::Experimental::WorkItemProperty::HintLightWeight;
}

/// The Error for a register budget on a loop whose functor is past
/// bounded_launch_max_bytes.
[[noreturn]] inline void fail_bounded_launch(const std::string &loop, const char *executor,
                                             std::size_t bytes) {
  fail("loop '", loop, "' under the ", executor, " executor: its kernel's arguments take ", bytes,
       " bytes, and a register budget (a launch bound) compiles only under ",
       bounded_launch_max_bytes, ": use max_registers 0");
}

} // namespace umesh::detail

#endif
