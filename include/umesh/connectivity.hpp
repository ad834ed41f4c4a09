#ifndef UMESH_CONNECTIVITY_HPP
#define UMESH_CONNECTIVITY_HPP

// Flux-loop connectivity derived from a cell mesh (what a Gmsh file holds):
// the edges of triangles or quads, the faces of tets or hexes, each interior
// one with its two cells and each boundary one with its single cell. Cell
// nodes follow Gmsh's ordering. Results are host vectors that build Maps in
// any memory space, as the mesh generators' do.

#include <umesh/set.hpp>

#include <vector>

namespace umesh {

/// Sides (edges in 2D, faces in 3D) of a cell mesh. An interior side lists
/// its nodes in the order of its first cell (`side_cells[2s]`), whose outward
/// normal then points into its second cell; a boundary side lists them in
/// the order of its cell, outward. Triangle faces among quad faces (tets
/// with hexes) have -1 in their fourth place.
struct CellSides {
  Set sides{"sides", 0};           ///< interior sides
  Set boundary{"boundary", 0};     ///< boundary sides
  int nodes_per_side = 0;          ///< 2 (edges), 3 (triangles), 4 (quads, or mixed)
  std::vector<int> side_nodes;     ///< [side][nodes_per_side]
  std::vector<int> side_cells;     ///< [side][2], first cell's own first
  std::vector<int> boundary_nodes; ///< [boundary side][nodes_per_side]
  std::vector<int> boundary_cells; ///< [boundary side][1]
};

/// Cells of one type, numbered after those of the blocks before it.
struct CellBlock {
  int nodes_per_cell;                 ///< 3 triangle, 4 quad (edges); 4 tet, 8 hex (faces)
  const std::vector<int> &cell_nodes; ///< [cell][nodes_per_cell], Gmsh's node order
};

/// Edges of triangles (`nodes_per_cell` 3) and quads (4), in first-seen
/// order (cell by cell, each cell's edges in turn). The sets are named
/// "<cells>_edges" and "<cells>_boundary_edges". Throws umesh::Error on a node
/// outside `nodes`, a cell repeating a node, an edge of more than two cells,
/// or block sizes that do not add up to `cells`.
CellSides derive_edges(const Set &cells, const std::vector<CellBlock> &blocks, const Set &nodes);
/// One cell type.
CellSides derive_edges(const Set &cells, int nodes_per_cell, const std::vector<int> &cell_nodes,
                       const Set &nodes);

/// Faces of tets (`nodes_per_cell` 4) and hexes (8), as derive_edges does
/// for edges; the sets are "<cells>_faces" and "<cells>_boundary_faces".
CellSides derive_faces(const Set &cells, const std::vector<CellBlock> &blocks, const Set &nodes);
/// One cell type.
CellSides derive_faces(const Set &cells, int nodes_per_cell, const std::vector<int> &cell_nodes,
                       const Set &nodes);

/// Area-weighted normals of 3D sides ([side][3], from `side_nodes` of
/// `sides`, or of the boundary when `boundary`): pointing out of the first
/// cell. `coords` is [node][3].
std::vector<double> side_normals(const CellSides &sides, const std::vector<double> &coords,
                                 bool boundary = false);

} // namespace umesh

#endif
