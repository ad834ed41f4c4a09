// The executor suite for exec::Hierarchical in the SoA layout (part of
// test_executors; the suite: executor_suite.hpp). Its instantiations are the
// heaviest of the suite: one file per layout, compiled in parallel.
#include "executor_suite.hpp"

namespace umesh::test {

using HierarchicalSoAConfigs = LayoutConfigs<SoA, exec::Hierarchical>;
INSTANTIATE_TYPED_TEST_SUITE_P(HierarchicalSoA, Executors, HierarchicalSoAConfigs);

} // namespace umesh::test
