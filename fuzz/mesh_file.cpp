// libFuzzer target: the Exodus II or CGNS reader (UMESH_FUZZ_SUFFIX says
// which) end to end, on whole files through their library (only umesh's code
// is instrumented), then check_gmsh. Seeds: the Gmsh seeds written in the
// format (fuzz/mesh_seeds.cpp): Exodus II as NetCDF's classic format, as
// umesh writes it; CGNS as ADF. Inputs in HDF5's format are left out: HDF5
// 1.10's parser (NetCDF-4 and CGNS/HDF5 files) crashes on forged files
// within seconds of fuzzing (in H5G__dense_iterate, freeing what it never
// allocated), a fault of that library that umesh cannot guard against; what
// umesh does with what any file holds is fuzzed by mesh_assembly.
// umesh::Error is the only way out.
#include "file_input.hpp"

#include <umesh/error.hpp>
#include <umesh/mesh_file.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size >= 4 && std::memcmp(data, "\x89HDF", 4) == 0)
    return 0;
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
