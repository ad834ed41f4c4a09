#ifndef UMESH_FUZZ_FILE_INPUT_HPP
#define UMESH_FUZZ_FILE_INPUT_HPP

// The readers under test take a path: each input goes to a file of this
// process's own first.

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

inline std::string fuzz_file(const void *data, std::size_t size, const char *suffix) {
  const std::string path = "/tmp/umesh_fuzz_" + std::to_string(getpid()) + suffix;
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char *>(data), std::streamsize(size));
  return path;
}

#endif
