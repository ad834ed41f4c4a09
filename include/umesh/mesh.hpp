#ifndef UMESH_MESH_HPP
#define UMESH_MESH_HPP

// Mesh generators. They return sets and host connectivity (`[element][slot]`
// vectors) that build Maps in any memory space:
//   umesh::Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);

#include <umesh/set.hpp>

#include <cstdint>
#include <vector>

namespace umesh {

struct MeshOptions {
  /// Randomly permute element and point numbering, as real meshes arrive.
  bool shuffle = false;
  std::uint64_t seed = 12345;
};

/// Structured quad grid handled as unstructured (Airfoil's shape): interior
/// edges only, each with two nodes and its two cells.
struct QuadMesh {
  Set nodes, cells, edges;
  std::vector<int> edge_nodes;     ///< [edge][2]
  std::vector<int> edge_cells;     ///< [edge][2]
  std::vector<int> cell_nodes;     ///< [cell][4]
  std::vector<double> node_coords; ///< [node][2]
};
QuadMesh make_quad_mesh(int nx, int ny, const MeshOptions &options = {});

/// Triangles: each grid square split in two; interior edges with two nodes
/// and two cells.
struct TriMesh {
  Set nodes, cells, edges;
  std::vector<int> edge_nodes;     ///< [edge][2]
  std::vector<int> edge_cells;     ///< [edge][2]
  std::vector<int> cell_nodes;     ///< [cell][3]
  std::vector<double> node_coords; ///< [node][2]
};
TriMesh make_tri_mesh(int nx, int ny, const MeshOptions &options = {});

/// Hex grid: interior faces with their two cells (miniAero's shape) and
/// cells with their eight nodes (LULESH's shape).
struct HexMesh {
  Set nodes, cells, faces;
  std::vector<int> face_cells;      ///< [face][2]
  std::vector<double> face_normals; ///< [face][3], area-weighted, cell 0 -> 1
  std::vector<int> cell_nodes;      ///< [cell][8]
  std::vector<double> node_coords;  ///< [node][3]
};
HexMesh make_hex_mesh(int nx, int ny, int nz, const MeshOptions &options = {});

/// Tets of the unit cube: each of nx x ny x nz cubes cut into six around
/// its diagonal from its corner (0, 0, 0) to (1, 1, 1) (Freudenthal's cut,
/// conforming across cubes), each tet positively oriented in Gmsh's node
/// order. Shuffling permutes nodes and tets.
struct TetMesh {
  Set nodes, cells;
  std::vector<int> cell_nodes;     ///< [cell][4]
  std::vector<double> node_coords; ///< [node][3]
};
TetMesh make_tet_mesh(int nx, int ny, int nz, const MeshOptions &options = {});

/// `from.size() * arity` uniformly random entries in [0, to.size()): a mesh
/// with no structure at all, for tests.
std::vector<int> make_random_connectivity(const Set &from, const Set &to, int arity,
                                          std::uint64_t seed);

} // namespace umesh

#endif
