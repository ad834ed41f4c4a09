// The executor suite (executor_suite.hpp) for one execution space and layout
// (UMESH_TEST_SPACE, UMESH_TEST_LAYOUT): every executor, exec::Auto
// included. CMake compiles this file once per space of the build and layout
// into test_executors, and the parts build in parallel. Auto's loops
// instantiate every other executor's, so with Auto beside them they compile
// once: Serial and AoS took 119 s of compile time without Auto and 116 s with
// it (g++ 12 -O3, 2-core machine), where Auto in a program of its own had
// cost 85-92 s more per space and layout.
#include "executor_suite.hpp"

#if !defined(UMESH_TEST_SPACE) || !defined(UMESH_TEST_LAYOUT)
#error "UMESH_TEST_SPACE (Serial, OpenMP, Cuda) and UMESH_TEST_LAYOUT (AoS, SoA) must be defined"
#endif

// The instantiation's name, <space><layout>, expanded before gtest pastes it.
#define UMESH_TEST_CAT2(a, b) a##b
#define UMESH_TEST_PART(space, layout) UMESH_TEST_CAT2(space, layout)
#define UMESH_TEST_INSTANTIATE(prefix, ...) INSTANTIATE_TYPED_TEST_SUITE_P(prefix, __VA_ARGS__)

namespace umesh::test {

// Every executor of the registry (umesh/exec_registry.hpp), in its order; the
// tuner as exec::Auto (the backend's default candidates: exec::AutoAll would
// compile every executor's loops once more).
#define UMESH_TEST_ROLE_reference(Tag) exec::Tag
#define UMESH_TEST_ROLE_candidate(Tag) exec::Tag
#define UMESH_TEST_ROLE_tuner(Tag) exec::Auto
#define UMESH_TEST_EXEC(Tag, name, role) UMESH_TEST_ROLE_##role(Tag),
using Registry =
    typename exec::detail::list_nonvoid<exec::List<>, UMESH_EXECUTORS(UMESH_TEST_EXEC) void>::type;
template <class L, class S, class List> struct RegistryConfigs;
template <class L, class S, class... E> struct RegistryConfigs<L, S, exec::List<E...>> {
  using type = ConfigsIn<L, S, E...>;
};
using PartConfigs = ToTypes<
    typename RegistryConfigs<UMESH_TEST_LAYOUT, Kokkos::UMESH_TEST_SPACE, Registry>::type>::type;
UMESH_TEST_INSTANTIATE(UMESH_TEST_PART(UMESH_TEST_SPACE, UMESH_TEST_LAYOUT), Executors,
                       PartConfigs);

} // namespace umesh::test
