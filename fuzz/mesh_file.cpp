// libFuzzer target: the Exodus II or CGNS reader (UMESH_FUZZ_SUFFIX says
// which) end to end, on whole files through their library (only umesh's code
// is instrumented), then check_gmsh. Seeds: the Gmsh seeds written in the
// format (fuzz/mesh_seeds.cpp): Exodus II as NetCDF's classic format, as
// umesh writes it; CGNS as ADF. The libraries fail on forged files in their
// own code (HDF5's parser within seconds, in H5G__dense_iterate); umesh
// reads in a child process first, and a library that fails there is an
// umesh::Error naming the file. umesh::Error is the only way out.
#include "file_input.hpp"

#include <umesh/error.hpp>
#include <umesh/mesh_file.hpp>

#include <cstdint>
#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string path = fuzz_file(data, size, UMESH_FUZZ_SUFFIX);
  try {
    const umesh::GmshMesh m = umesh::read_mesh_file(path, umesh::GmshOptions().checks(false));
    try {
      umesh::check_gmsh(m, path);
    } catch (const umesh::Error &) {
    }
  } catch (const umesh::Error &) {
  }
  std::remove(path.c_str());
  return 0;
}
