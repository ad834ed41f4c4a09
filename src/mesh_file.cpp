// Mesh files by their name (mesh_file.hpp): the format an extension says,
// which formats this build reads, and the reader for each.
#include <umesh/error.hpp>
#include <umesh/mesh_file.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace umesh {

MeshFormat mesh_format_of(const std::string &path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".msh")
    return MeshFormat::gmsh;
  if (ext == ".exo" || ext == ".e" || ext == ".g" || ext == ".ex2" || ext == ".gen")
    return MeshFormat::exodus;
  if (ext == ".cgns")
    return MeshFormat::cgns;
  fail("mesh file '", path, "': its name does not say its format (umesh reads Gmsh .msh, ",
       "Exodus II .exo/.e/.g/.ex2/.gen and CGNS .cgns files)");
}

const char *mesh_format_name(MeshFormat format) {
  switch (format) {
  case MeshFormat::exodus:
    return "exodus";
  case MeshFormat::cgns:
    return "cgns";
  default:
    return "gmsh";
  }
}

bool mesh_format_built(MeshFormat format) {
  switch (format) {
  case MeshFormat::exodus:
#if defined(UMESH_HAS_EXODUS)
    return true;
#else
    return false;
#endif
  case MeshFormat::cgns:
#if defined(UMESH_HAS_CGNS)
    return true;
#else
    return false;
#endif
  default:
    return true;
  }
}

std::string mesh_format_missing(MeshFormat format) {
  if (mesh_format_built(format))
    return {};
  if (format == MeshFormat::exodus)
    return "this umesh was built without Exodus II (configure with UMESH_ENABLE_EXODUS=ON "
           "where the library is installed; Debian: apt-get install libexodusii-dev)";
  return "this umesh was built without CGNS (configure with UMESH_ENABLE_CGNS=ON where the "
         "library is installed; Debian: apt-get install libcgns-dev)";
}

GmshMesh read_mesh_file(const std::string &path, const GmshOptions &options) {
  switch (mesh_format_of(path)) {
  case MeshFormat::exodus:
    return read_exodus(path, options);
  case MeshFormat::cgns:
    return read_cgns(path, options);
  default:
    return read_gmsh(path, options);
  }
}

} // namespace umesh
