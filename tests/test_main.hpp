#ifndef UMESH_TEST_MAIN_HPP
#define UMESH_TEST_MAIN_HPP

// The test helpers and main(), which owns Kokkos' lifetime: included by
// exactly one source file of each test program.

#include "test_support.hpp"

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard guard(argc, argv);
  return RUN_ALL_TESTS();
}

#endif
