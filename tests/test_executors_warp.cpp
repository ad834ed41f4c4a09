// The executor suite for warp pre-aggregation
// (part of test_executors; the suite: executor_suite.hpp).
#include "executor_suite.hpp"

namespace umesh::test {

using WarpConfigs = ExecutorConfigs<exec::WarpCombine>;
INSTANTIATE_TYPED_TEST_SUITE_P(Warp, Executors, WarpConfigs);

} // namespace umesh::test
