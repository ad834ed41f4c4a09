// check_against_serial's instantiations for one map arity (UMESH_TEST_ARITY:
// 2, 4 or 8), every space and layout; CMake compiles this file once per arity
// into test_hierarchical (hierarchical_check.hpp says why).
#include "hierarchical_check.hpp"

#ifndef UMESH_TEST_ARITY
#error "UMESH_TEST_ARITY (2, 4 or 8) must be defined"
#endif

namespace umesh::test {

UMESH_TEST_CHECKS(UMESH_TEST_ARITY, )

} // namespace umesh::test
