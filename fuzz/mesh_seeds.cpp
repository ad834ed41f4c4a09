// The seeds of the Exodus II and CGNS fuzz targets: each Gmsh file given,
// written in both formats into a folder (fuzz/run.sh builds and runs this
// before those targets, so that no binary seed is committed); CGNS as ADF,
// the format the cgns target fuzzes (fuzz/mesh_file.cpp).
//   mesh_seeds OUT_DIR FILE.msh...
#include <umesh/error.hpp>
#include <umesh/mesh_file.hpp>

#if defined(UMESH_HAS_CGNS)
#include <cgnslib.h>
#endif

#include <cstdio>
#include <string>

int main(int argc, char **argv) {
#if defined(UMESH_HAS_CGNS)
  cg_set_file_type(CG_FILE_ADF);
#endif
  if (argc < 3) {
    std::fprintf(stderr, "usage: mesh_seeds OUT_DIR FILE.msh...\n");
    return 2;
  }
  int written = 0;
  for (int i = 2; i < argc; ++i) {
    std::string name = argv[i];
    name = name.substr(name.find_last_of('/') + 1);
    name = std::string(argv[1]) + "/" + name.substr(0, name.rfind('.'));
    try {
      const umesh::GmshMesh m = umesh::read_gmsh(argv[i]);
      if (umesh::mesh_format_built(umesh::MeshFormat::exodus))
        umesh::write_exodus_mesh(name + ".exo", m);
      if (umesh::mesh_format_built(umesh::MeshFormat::cgns))
        umesh::write_cgns_mesh(name + ".cgns", m);
      ++written;
    } catch (const std::exception &e) { // a seed that does not convert is left out
      std::fprintf(stderr, "mesh_seeds: %s: %s\n", argv[i], e.what());
    }
  }
  return written > 0 ? 0 : 1;
}
