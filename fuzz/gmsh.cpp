// libFuzzer target: the Gmsh reader, its mesh checks (check_gmsh), then the
// sides derived from whatever cells it read. The sides are derived whether
// or not the checks passed: a trusted file (GmshOptions::check off,
// umesh_main --skip-mesh-checks) reaches them unchecked, and must still end
// in umesh::Error at worst. Any other exception, and any crash or sanitizer
// report, is a finding.
#include <umesh/connectivity.hpp>
#include <umesh/error.hpp>
#include <umesh/gmsh.hpp>

#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
  try {
    const umesh::GmshMesh m = umesh::parse_gmsh(in, "fuzz.msh", umesh::GmshOptions().checks(false));
    try {
      umesh::check_gmsh(m, "fuzz.msh");
    } catch (const umesh::Error &) {
    }
    for (const auto &b : m.blocks) {
      const bool faces = b.type == "tet" || b.type == "hex";
      if (faces || b.type == "triangle" || b.type == "quad") {
        const auto s = faces ? umesh::derive_faces(b.set, b.nodes_per_element, b.nodes, m.nodes)
                             : umesh::derive_edges(b.set, b.nodes_per_element, b.nodes, m.nodes);
        if (faces)
          umesh::side_normals(s, m.coords);
      }
    }
  } catch (const umesh::Error &) {
  }
  return 0;
}
