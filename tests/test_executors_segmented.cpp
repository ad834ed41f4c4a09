// The executor suite for exec::Segmented
// (part of test_executors; the suite: executor_suite.hpp).
#include "executor_suite.hpp"

namespace umesh::test {

using SegmentedConfigs = ExecutorConfigs<exec::Segmented>;
INSTANTIATE_TYPED_TEST_SUITE_P(Segmented, Executors, SegmentedConfigs);

} // namespace umesh::test
