#ifndef UMESH_TESTS_PORTING_FV_MESH_HPP
#define UMESH_TESTS_PORTING_FV_MESH_HPP

// The mesh of docs/porting.md's example as a code has it before umesh: plain
// arrays. Triangles on the unit square, numbered in a shuffled order as a
// mesh generator's output often is; boundary edges have one cell (-1 for
// the other), interior edges point either way.

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace fv {

struct Mesh {
  int ncells = 0, nedges = 0;
  std::vector<int> edge_cells;     ///< [edge][2], cell 1 is -1 on the boundary
  std::vector<double> edge_normal; ///< [edge][2], its length the edge's, from cell 0 to 1
  std::vector<double> cell_area;   ///< [cell]
  std::vector<double> cell_centre; ///< [cell][2]
};

inline Mesh make_mesh(int nx, int ny, unsigned seed) {
  std::vector<std::array<int, 3>> tris; // nodes, counter-clockwise
  auto node = [&](int i, int j) { return j * (nx + 1) + i; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      tris.push_back({node(i, j), node(i + 1, j), node(i + 1, j + 1)});
      tris.push_back({node(i, j), node(i + 1, j + 1), node(i, j + 1)});
    }
  auto x = [&](int n) { return double(n % (nx + 1)) / nx; };
  auto y = [&](int n) { return double(n / (nx + 1)) / ny; };
  Mesh m;
  m.ncells = int(tris.size());
  std::mt19937 rng(seed);
  std::vector<int> cell_of(tris.size()); // shuffled numbering
  std::iota(cell_of.begin(), cell_of.end(), 0);
  std::shuffle(cell_of.begin(), cell_of.end(), rng);
  m.cell_area.resize(tris.size());
  m.cell_centre.resize(2 * tris.size());
  std::map<std::pair<int, int>, int> edge_of;
  std::vector<std::array<int, 2>> ec;
  std::vector<std::array<double, 2>> en;
  for (std::size_t t = 0; t < tris.size(); ++t) {
    const int c = cell_of[t];
    const auto &v = tris[t];
    m.cell_area[c] = 0.5 / (nx * ny);
    m.cell_centre[2 * c] = (x(v[0]) + x(v[1]) + x(v[2])) / 3;
    m.cell_centre[2 * c + 1] = (y(v[0]) + y(v[1]) + y(v[2])) / 3;
    for (int k = 0; k < 3; ++k) {
      const int a = v[k], b = v[(k + 1) % 3];
      const auto key = std::make_pair(std::min(a, b), std::max(a, b));
      const auto found = edge_of.find(key);
      if (found == edge_of.end()) { // outward from this cell
        edge_of[key] = int(ec.size());
        ec.push_back({c, -1});
        en.push_back({y(b) - y(a), x(a) - x(b)});
      } else {
        ec[found->second][1] = c;
      }
    }
  }
  m.nedges = int(ec.size());
  std::vector<int> order(ec.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  for (int e : order) {
    const bool flip = ec[e][1] >= 0 && rng() % 2;
    m.edge_cells.push_back(ec[e][flip ? 1 : 0]);
    m.edge_cells.push_back(ec[e][flip ? 0 : 1]);
    m.edge_normal.push_back(flip ? -en[e][0] : en[e][0]);
    m.edge_normal.push_back(flip ? -en[e][1] : en[e][1]);
  }
  return m;
}

/// A pressure and density bump at rest: the initial state, [cell][4].
inline std::vector<double> initial_state(const Mesh &m) {
  std::vector<double> q(4 * std::size_t(m.ncells));
  for (int c = 0; c < m.ncells; ++c) {
    const double dx = m.cell_centre[2 * c] - 0.4, dy = m.cell_centre[2 * c + 1] - 0.55;
    const double bump = std::exp(-40 * (dx * dx + dy * dy));
    const double rho = 1 + 0.3 * bump, p = 1 + 0.8 * bump;
    q[4 * c] = rho;
    q[4 * c + 1] = 0.1 * rho;
    q[4 * c + 2] = 0;
    q[4 * c + 3] = p / 0.4 + 0.5 * rho * 0.01;
  }
  return q;
}

} // namespace fv

#endif
