// The executor suite for exec::Auto (which instantiates every executor): a
// program of its own beside test_executors (the suite: executor_suite.hpp).
// Auto's instantiations are the heaviest of all, so CMake compiles this file
// once per execution space of the Kokkos build and layout (UMESH_TEST_SPACE,
// UMESH_TEST_LAYOUT) and the parts build in parallel.
#include "executor_suite.hpp"

#if !defined(UMESH_TEST_SPACE) || !defined(UMESH_TEST_LAYOUT)
#error "UMESH_TEST_SPACE (Serial, OpenMP, Cuda) and UMESH_TEST_LAYOUT (AoS, SoA) must be defined"
#endif

// The instantiation's name, Auto<space><layout>, expanded before gtest pastes it.
#define UMESH_TEST_CAT3(a, b, c) a##b##c
#define UMESH_TEST_PART(space, layout) UMESH_TEST_CAT3(Auto, space, layout)
#define UMESH_TEST_INSTANTIATE(prefix, ...) INSTANTIATE_TYPED_TEST_SUITE_P(prefix, __VA_ARGS__)

namespace umesh::test {

using AutoConfigs =
    ToTypes<ConfigsIn<UMESH_TEST_LAYOUT, Kokkos::UMESH_TEST_SPACE, exec::Auto>>::type;
UMESH_TEST_INSTANTIATE(UMESH_TEST_PART(UMESH_TEST_SPACE, UMESH_TEST_LAYOUT), Executors,
                       AutoConfigs);

} // namespace umesh::test
