#ifndef UMESH_FUZZ_MESH_SIDES_HPP
#define UMESH_FUZZ_MESH_SIDES_HPP

// What the mesh-reading targets do with a mesh they read: its checks
// (check_gmsh), then the sides derived from its cells whether or not the
// checks passed (a trusted file reaches them unchecked and must still end in
// umesh::Error at worst).

#include <umesh/connectivity.hpp>
#include <umesh/error.hpp>
#include <umesh/gmsh.hpp>

#include <string>

inline void check_and_derive_sides(const umesh::GmshMesh &m, const std::string &name) {
  try {
    umesh::check_gmsh(m, name);
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
}

#endif
