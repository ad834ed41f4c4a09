// The executor suite for exec::Auto (which instantiates every executor): a
// program of its own beside test_executors (the suite: executor_suite.hpp).
#include "executor_suite.hpp"
#include "test_main.hpp"

namespace umesh::test {

using AutoConfigs = ExecutorConfigs<exec::Auto>;
INSTANTIATE_TYPED_TEST_SUITE_P(Auto, Executors, AutoConfigs);

} // namespace umesh::test
