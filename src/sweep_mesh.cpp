// Sweep meshes from cells and nodes (umesh/sweep_mesh.hpp), through the
// faces and normals connectivity.hpp derives.
#include <umesh/connectivity.hpp>
#include <umesh/error.hpp>
#include <umesh/sweep_mesh.hpp>

#include <cstddef>
#include <vector>

namespace umesh {

SweepMesh sweep_mesh_from_cells(const Set &cells, int nodes_per_cell,
                                const std::vector<int> &cell_nodes, const Set &nodes,
                                const std::vector<double> &coords) {
  if (nodes_per_cell != 4 && nodes_per_cell != 8)
    fail("sweep_mesh_from_cells: cells of ", nodes_per_cell,
         " nodes (tets have 4, hexes 8; other meshes give a SweepMesh of their own)");
  if (coords.size() != std::size_t(nodes.size()) * 3)
    fail("sweep_mesh_from_cells: ", coords.size(), " coordinates for the ", nodes.size(),
         " nodes of '", nodes.name(), "' (three per node)");
  const CellSides sides = derive_faces(cells, nodes_per_cell, cell_nodes, nodes);
  const std::vector<double> inner = side_normals(sides, coords);
  const std::vector<double> outer = side_normals(sides, coords, true);
  SweepMesh m;
  m.cells = cells;
  m.faces_per_cell = nodes_per_cell == 4 ? 4 : 6;
  const std::size_t slots = std::size_t(cells.size()) * m.faces_per_cell;
  m.neighbours.assign(slots, sweep_no_face);
  m.normals.assign(slots * 3, 0.0);
  std::vector<int> used(std::size_t(cells.size()), 0);
  // The next free slot of cell c gets the face to `other` with normal n * sign.
  const auto add = [&](int c, int other, const double *n, double sign) {
    const std::size_t at = std::size_t(c) * m.faces_per_cell + used[c]++;
    m.neighbours[at] = other;
    for (int k = 0; k < 3; ++k)
      m.normals[at * 3 + k] = sign * n[k];
  };
  for (int s = 0; s < sides.sides.size(); ++s) {
    const int a = sides.side_cells[2 * s], b = sides.side_cells[2 * s + 1];
    add(a, b, &inner[std::size_t(s) * 3], 1.0);
    add(b, a, &inner[std::size_t(s) * 3], -1.0);
  }
  for (int s = 0; s < sides.boundary.size(); ++s)
    add(sides.boundary_cells[s], sweep_boundary, &outer[std::size_t(s) * 3], 1.0);
  return m;
}

} // namespace umesh
