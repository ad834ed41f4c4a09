// libFuzzer target: the Gmsh reader, its mesh checks (check_gmsh), then the
// sides derived from whatever cells it read. The sides are derived whether
// or not the checks passed: a trusted file (GmshOptions::check off,
// umesh_main --skip-mesh-checks) reaches them unchecked, and must still end
// in umesh::Error at worst. Any other exception, and any crash or sanitizer
// report, is a finding.
#include "mesh_sides.hpp"

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
    check_and_derive_sides(m, "fuzz.msh");
  } catch (const umesh::Error &) {
  }
  return 0;
}
