// libFuzzer target: exec::Auto's tuning-file reader.
#include "file_input.hpp"

#include <umesh/detail/tuning_file.hpp>
#include <umesh/error.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string path = fuzz_file(data, size, ".tuning");
  try {
    (void)umesh::detail::read_tuning_file(path);
  } catch (const umesh::Error &) {
  }
  std::remove(path.c_str());
  return 0;
}
