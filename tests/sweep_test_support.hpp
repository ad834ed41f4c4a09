#ifndef UMESH_SWEEP_TEST_SUPPORT_HPP
#define UMESH_SWEEP_TEST_SUPPORT_HPP

// Small meshes and directions for the sweep tests: structured hexes, the
// same cubes cut into six tets each (Freudenthal), a ring of cells whose
// faces twist so that one direction's dependencies form a cycle, and random
// unit directions.

#include <umesh/mesh.hpp>
#include <umesh/sweep_mesh.hpp>

#include <cmath>
#include <random>
#include <vector>

namespace umesh::test {

/// Hexes of the unit cube, nx x ny x nz (optionally shuffled numbering).
inline SweepMesh sweep_hexes(int nx, int ny, int nz, bool shuffle = false) {
  MeshOptions o;
  o.shuffle = shuffle;
  const HexMesh h = make_hex_mesh(nx, ny, nz, o);
  return sweep_mesh_from_cells(h.cells, 8, h.cell_nodes, h.nodes, h.node_coords);
}

/// The same cubes, six tets each (make_tet_mesh).
inline SweepMesh sweep_tets(int nx, int ny, int nz, bool shuffle = false) {
  MeshOptions o;
  o.shuffle = shuffle;
  const TetMesh t = make_tet_mesh(nx, ny, nz, o);
  return sweep_mesh_from_cells(t.cells, 4, t.cell_nodes, t.nodes, t.node_coords);
}

/// `n` cells in a ring: cell k's slot 0 faces cell k + 1 with normal
/// (0, 0, 1) (tilted outward a little), slot 1 faces cell k - 1 with the
/// opposite of that cell's slot 0, slots 2 and 3 are the boundary (down and
/// up, less area). Direction (0, 0, 1) makes every cell wait for the one
/// before it: one cycle of n cells. Direction (1, 0, 0) has no cycle.
inline SweepMesh sweep_twisted_ring(int n) {
  SweepMesh m;
  m.cells = Set("ring", n);
  m.faces_per_cell = 4;
  m.neighbours.resize(std::size_t(n) * 4);
  m.normals.resize(std::size_t(n) * 12);
  for (int k = 0; k < n; ++k) {
    const double a = 2 * M_PI * (k + 0.5) / n;
    const double up[3] = {0.1 * std::cos(a), 0.1 * std::sin(a), 1.0};
    const int next = (k + 1) % n;
    m.neighbours[k * 4 + 0] = next;
    m.neighbours[next * 4 + 1] = k;
    m.neighbours[k * 4 + 2] = sweep_boundary;
    m.neighbours[k * 4 + 3] = sweep_boundary;
    for (int j = 0; j < 3; ++j) {
      m.normals[(k * 4 + 0) * 3 + j] = up[j];
      m.normals[(next * 4 + 1) * 3 + j] = -up[j];
    }
    const double side[2][3] = {{-0.3, 0.2, -0.5}, {0.3, -0.2, 0.5}};
    for (int s = 0; s < 2; ++s)
      for (int j = 0; j < 3; ++j)
        m.normals[(k * 4 + 2 + s) * 3 + j] = side[s][j];
  }
  return m;
}

/// `n` random unit directions ([direction][3]).
inline std::vector<double> random_directions(int n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  std::vector<double> out;
  while (int(out.size()) < 3 * n) {
    const double v[3] = {g(rng), g(rng), g(rng)};
    const double len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 1e-3)
      out.insert(out.end(), {v[0] / len, v[1] / len, v[2] / len});
  }
  return out;
}

} // namespace umesh::test

#endif
