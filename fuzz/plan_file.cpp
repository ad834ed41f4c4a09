// libFuzzer target: the hierarchical plan's payload reader. The input is the
// payload; the header and checksum around it are made right, so mutations
// reach the payload instead of stopping at the checksum (which the plan-file
// tests cover).
#include "file_input.hpp"

#include <umesh/detail/plan_file.hpp>
#include <umesh/error.hpp>

#include <cstring>
#include <vector>

namespace {
void put(std::vector<char> &b, const void *p, std::size_t n) {
  b.insert(b.end(), static_cast<const char *>(p), static_cast<const char *>(p) + n);
}
void put_text(std::vector<char> &b, const std::string &s) {
  const std::uint64_t n = s.size();
  put(b, &n, sizeof n);
  put(b, s.data(), s.size());
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string kind = "hierarchical plan", options = "fuzz";
  const std::uint64_t fp = 42;
  std::vector<char> b;
  put(b, "umeshpln", 8);
  put(b, &umesh::detail::plan_file_version, sizeof umesh::detail::plan_file_version);
  put_text(b, kind);
  put(b, &fp, sizeof fp);
  put_text(b, options);
  put(b, data, size);
  std::uint64_t h = 1469598103934665603ull; // the file's FNV-1a checksum
  for (char c : b)
    h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  put(b, &h, sizeof h);
  const std::string path = fuzz_file(b.data(), b.size(), ".plan");
  try {
    umesh::detail::PlanReader r(path, kind, fp, options);
    (void)umesh::detail::read_block_plan(r);
    r.finish();
  } catch (const umesh::Error &) {
  }
  std::remove(path.c_str());
  return 0;
}
