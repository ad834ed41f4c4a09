// The executor suite for the team-scratch executors
// (part of test_executors; the suite: executor_suite.hpp).
#include "executor_suite.hpp"

namespace umesh::test {

using ScratchConfigs = ExecutorConfigs<exec::Hierarchical, exec::Segmented>;
INSTANTIATE_TYPED_TEST_SUITE_P(Scratch, Executors, ScratchConfigs);

} // namespace umesh::test
