// The executor suite for exec::Auto (which instantiates every executor): a
// program of its own beside test_executors (the suite: executor_suite.hpp).
// Auto's instantiations are the heaviest of all, so CMake compiles this file
// once per execution space and layout (UMESH_TEST_SPACE=<Kokkos space>, with
// UMESH_TEST_SPACE_<space> set, and UMESH_TEST_LAYOUT) and the parts build in
// parallel; a part whose space this Kokkos build lacks compiles to nothing.
#include "executor_suite.hpp"

#if !defined(UMESH_TEST_SPACE) || !defined(UMESH_TEST_LAYOUT)
#error "UMESH_TEST_SPACE (Serial, OpenMP, Cuda) and UMESH_TEST_LAYOUT (AoS, SoA) must be defined"
#endif

// The instantiation's name, Auto<space><layout>, expanded before gtest pastes it.
#define UMESH_TEST_CAT3(a, b, c) a##b##c
#define UMESH_TEST_PART(space, layout) UMESH_TEST_CAT3(Auto, space, layout)
#define UMESH_TEST_INSTANTIATE(prefix, ...) INSTANTIATE_TYPED_TEST_SUITE_P(prefix, __VA_ARGS__)

#if (defined(UMESH_TEST_SPACE_Serial) && defined(KOKKOS_ENABLE_SERIAL)) ||                         \
    (defined(UMESH_TEST_SPACE_OpenMP) && defined(KOKKOS_ENABLE_OPENMP)) ||                         \
    (defined(UMESH_TEST_SPACE_Cuda) && defined(KOKKOS_ENABLE_CUDA))
namespace umesh::test {

using AutoConfigs =
    ToTypes<ConfigsIn<UMESH_TEST_LAYOUT, Kokkos::UMESH_TEST_SPACE, exec::Auto>>::type;
UMESH_TEST_INSTANTIATE(UMESH_TEST_PART(UMESH_TEST_SPACE, UMESH_TEST_LAYOUT), Executors,
                       AutoConfigs);

} // namespace umesh::test
#endif
