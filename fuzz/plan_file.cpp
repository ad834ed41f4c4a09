// libFuzzer target: the hierarchical plan's payload reader and the checks a
// loaded plan passes before it is used (check_block_plan, against the edges
// of a small quad mesh). The input is the payload; the header and checksum
// around it are made right (recomputed), so mutations reach the payload and
// its validation instead of stopping at the checksum (which the plan-file
// tests cover).
#include "file_input.hpp"

#include <umesh/detail/plan_file.hpp>
#include <umesh/error.hpp>
#include <umesh/mesh.hpp>

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
    const umesh::BlockPlan plan = umesh::detail::read_block_plan(r);
    r.finish();
    // The maps a plan of 4 x 3 quads' edges is built over: edge to cells
    // (incremented) and edge to nodes (read).
    static const umesh::QuadMesh mesh = umesh::make_quad_mesh(4, 3);
    const std::vector<umesh::BlockPlanMap> maps{
        {{mesh.edge_cells.data(), 2, 0, mesh.cells.size()}, true},
        {{mesh.edge_nodes.data(), 2, 1, mesh.nodes.size()}, false}};
    umesh::detail::check_block_plan(plan, mesh.edges.size(), maps, plan.block_size, path);
  } catch (const umesh::Error &) {
  }
  std::remove(path.c_str());
  return 0;
}
