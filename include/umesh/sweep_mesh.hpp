#ifndef UMESH_SWEEP_MESH_HPP
#define UMESH_SWEEP_MESH_HPP

// What an ordered sweep (sweep_plan.hpp) needs of a mesh: for every cell and
// face slot, the cell across the face (or a marker: the face has one cell, or
// the slot is unused) and the face's outward normal from that cell. Given by
// the application, or derived from cells and node coordinates
// (sweep_mesh_from_cells). docs/sweeps.md.

#include <umesh/set.hpp>

#include <vector>

namespace umesh {

/// A face of one cell only: the mesh's boundary.
inline constexpr int sweep_boundary = -1;
/// A slot the cell does not use (a tet's fifth and sixth among hexes).
inline constexpr int sweep_no_face = -2;

/// Cells and their faces, slot by slot. Checked when a sweep plan is made:
/// every neighbour a cell of `cells` other than itself (or a marker), named
/// back by that cell through one of its slots, every face's normal finite
/// and nonzero, and the two cells of a face giving opposite normals.
struct SweepMesh {
  Set cells{"cells", 0};
  int faces_per_cell = 0;      ///< slots per cell, 1 to 8
  std::vector<int> neighbours; ///< [cell][slot]: a cell, sweep_boundary or sweep_no_face
  std::vector<double> normals; ///< [cell][slot][3]: outward from the cell, area-weighted
};

/// The sweep mesh of cells of one type, tets (`nodes_per_cell` 4) or hexes
/// (8) in Gmsh's node order, from their nodes and the nodes' coordinates
/// ([node][3]). A cell's slots hold its faces in the order derive_faces
/// meets them; normals are area-weighted (connectivity.hpp's side_normals).
/// Throws umesh::Error on what derive_faces refuses, or coordinates that do
/// not cover `nodes`.
SweepMesh sweep_mesh_from_cells(const Set &cells, int nodes_per_cell,
                                const std::vector<int> &cell_nodes, const Set &nodes,
                                const std::vector<double> &coords);

} // namespace umesh

#endif
