// libFuzzer target: miniAero's input file reader (apps/miniaero/problem.cpp).
#include "file_input.hpp"
#include "miniaero/problem.hpp"

#include <umesh/error.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string path = fuzz_file(data, size, ".inp");
  try {
    const auto in = miniaero::read_input(path);
    (void)miniaero::describe(in);
  } catch (const umesh::Error &) {
  }
  std::remove(path.c_str());
  return 0;
}
