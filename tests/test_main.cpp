// main() alone, for a test program whose sources are all instantiation parts
// (test_executors_auto).
#include "test_main.hpp"
