#ifndef UMESH_PERF_BP_MESH_HPP
#define UMESH_PERF_BP_MESH_HPP

// Meshes of the CEED bake-off problems (umesh_bp_bench): umesh's hex mesh of
// the unit cube handled as unstructured -- elements and vertices shuffled,
// each element's local axes turned by a random rotation, interior vertices
// moved -- and a continuous (H1) numbering of its order-p nodes, built from
// the elements' vertices alone, as a code reading an unstructured mesh must:
// vertices, edges (keyed by their two vertices), faces (by their four) and
// interiors, each node numbered when an element first names it. Nodes are
// the Gauss-Lobatto points of the element's tensor basis.

#include <umesh/mesh.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

namespace umesh::perf {

/// An order-p hex mesh: rows in tensor order (local node a + P (b + P c),
/// P = p + 1, x fastest), vertices in tensor order too (corner x + 2y + 4z).
struct H1Mesh {
  int p = 1, elements = 0, dofs = 0, vertices = 0;
  std::vector<int> vertex_rows; // [element][8]
  std::vector<double> coords;   // [vertex][3]
  std::vector<int> rows;        // [element][P^3]
};

struct BpMeshOptions {
  bool shuffle = true;  ///< random element and vertex numbering
  bool rotate = true;   ///< each element's local axes turned by one of the 24 rotations
  double distort = 0.2; ///< interior vertices moved by up to this fraction of a cell
  std::uint64_t seed = 7;
};

namespace detail_bp {

// The corner of the old tensor numbering that a rotated element's corner n
// is: old coordinate k is n[perm[k]], flipped where flip[k].
inline int turned_corner(int n, const std::array<int, 3> &perm, const std::array<int, 3> &flip) {
  int old = 0;
  for (int k = 0; k < 3; ++k) {
    const int bit = (n >> perm[k]) & 1;
    old |= (flip[k] ? 1 - bit : bit) << k;
  }
  return old;
}

// A rotation (determinant +1: even permutation with an even number of
// flips, or odd with an odd number), from `rng`.
inline void random_rotation(std::mt19937_64 &rng, std::array<int, 3> &perm,
                            std::array<int, 3> &flip) {
  perm = {0, 1, 2};
  std::shuffle(perm.begin(), perm.end(), rng);
  const int inversions = (perm[0] > perm[1]) + (perm[0] > perm[2]) + (perm[1] > perm[2]);
  for (int k = 0; k < 2; ++k)
    flip[k] = int(rng() & 1);
  flip[2] = (inversions + flip[0] + flip[1]) & 1;
}

// Node positions along one direction: 0 and p are the element's faces.
inline bool inner(int a, int p) {
  return a > 0 && a < p;
}

struct FaceHash {
  std::size_t operator()(const std::array<int, 4> &f) const {
    std::uint64_t h = 1469598103934665603ull;
    for (int v : f)
      h = (h ^ std::uint32_t(v)) * 1099511628211ull;
    return std::size_t(h ^ (h >> 29));
  }
};

} // namespace detail_bp

/// Numbers the order-p nodes of `m` (vertex_rows given): m.rows and m.dofs.
/// An edge's inner nodes run from its lower global vertex to its higher; a
/// face's from its lowest vertex, first toward the lower of that vertex's
/// two neighbours on the face. Both elements of an edge or face see these
/// the same way, whatever their local axes.
inline void number_h1(H1Mesh &m) {
  const int p = m.p, P = p + 1, N = P * P * P;
  std::vector<int> vertex_dof(std::size_t(m.vertices), -1);
  std::unordered_map<std::uint64_t, int> edges; // (low << 32 | high) -> first node
  std::unordered_map<std::array<int, 4>, int, detail_bp::FaceHash> faces; // sorted vertices
  edges.reserve(std::size_t(m.elements) * 3 + 64);
  faces.reserve(std::size_t(m.elements) * 3 + 64);
  int next = 0;
  auto take = [&](int count) { return (next += count) - count; };
  m.rows.assign(std::size_t(m.elements) * N, -1);
  for (int e = 0; e < m.elements; ++e) {
    const int *v = &m.vertex_rows[std::size_t(e) * 8];
    int interior = -1;
    for (int c = 0; c <= p; ++c)
      for (int b = 0; b <= p; ++b)
        for (int a = 0; a <= p; ++a) {
          const int x[3] = {a, b, c};
          int in[3], n_in = 0, bnd = 0; // inner directions; corner bits of the others
          for (int k = 0; k < 3; ++k) {
            if (detail_bp::inner(x[k], p))
              in[n_in++] = k;
            else if (x[k] == p)
              bnd |= 1 << k;
          }
          int dof = -1;
          if (n_in == 0) {
            int &d = vertex_dof[v[bnd]];
            dof = d >= 0 ? d : (d = take(1));
          } else if (n_in == 1) {
            const int v0 = v[bnd], v1 = v[bnd | 1 << in[0]];
            const std::uint64_t key =
                std::uint64_t(std::min(v0, v1)) << 32 | std::uint32_t(std::max(v0, v1));
            auto it = edges.find(key);
            if (it == edges.end())
              it = edges.emplace(key, take(p - 1)).first;
            const int s = x[in[0]];
            dof = it->second + (v0 < v1 ? s - 1 : p - 1 - s);
          } else if (n_in == 2) {
            const int s_bit = 1 << in[0], t_bit = 1 << in[1];
            int g[2][2]; // global vertex at face corner (s, t)
            for (int s = 0; s < 2; ++s)
              for (int t = 0; t < 2; ++t)
                g[s][t] = v[bnd | (s ? s_bit : 0) | (t ? t_bit : 0)];
            std::array<int, 4> key{g[0][0], g[0][1], g[1][0], g[1][1]};
            std::sort(key.begin(), key.end());
            auto it = faces.find(key);
            if (it == faces.end())
              it = faces.emplace(key, take((p - 1) * (p - 1))).first;
            int s0 = 0, t0 = 0; // the lowest corner
            for (int s = 0; s < 2; ++s)
              for (int t = 0; t < 2; ++t)
                if (g[s][t] < g[s0][t0])
                  s0 = s, t0 = t;
            const int ds = s0 == 0 ? x[in[0]] : p - x[in[0]];
            const int dt = t0 == 0 ? x[in[1]] : p - x[in[1]];
            const bool s_first = g[1 - s0][t0] < g[s0][1 - t0];
            const int u = s_first ? ds : dt, w = s_first ? dt : ds;
            dof = it->second + (u - 1) + (p - 1) * (w - 1);
          } else {
            if (interior < 0)
              interior = take((p - 1) * (p - 1) * (p - 1));
            dof = interior + (a - 1) + (p - 1) * ((b - 1) + (p - 1) * (c - 1));
          }
          m.rows[std::size_t(e) * N + a + P * (b + P * c)] = dof;
        }
  }
  m.dofs = next;
}

/// An n x n x n hex mesh of the unit cube, order p, as BpMeshOptions says.
inline H1Mesh make_bp_mesh(int n, int p, const BpMeshOptions &o) {
  MeshOptions mo;
  mo.shuffle = o.shuffle;
  mo.seed = o.seed;
  const HexMesh hex = make_hex_mesh(n, n, n, mo);
  H1Mesh m;
  m.p = p;
  m.elements = int(hex.cells.size());
  m.vertices = int(hex.nodes.size());
  m.coords = hex.node_coords;
  // make_hex_mesh lists corners as VTK does; tensor corner t = x + 2y + 4z.
  const int vtk_of_tensor[8] = {0, 1, 3, 2, 4, 5, 7, 6};
  std::mt19937_64 rng(o.seed + 1);
  m.vertex_rows.resize(std::size_t(m.elements) * 8);
  for (int e = 0; e < m.elements; ++e) {
    std::array<int, 3> perm{0, 1, 2}, flip{0, 0, 0};
    if (o.rotate)
      detail_bp::random_rotation(rng, perm, flip);
    for (int t = 0; t < 8; ++t)
      m.vertex_rows[std::size_t(e) * 8 + t] =
          hex.cell_nodes[std::size_t(e) * 8 +
                         vtk_of_tensor[detail_bp::turned_corner(t, perm, flip)]];
  }
  if (o.distort > 0) { // the boundary stays: the domain is still the unit cube
    std::uniform_real_distribution<double> d(-0.5 * o.distort / n, 0.5 * o.distort / n);
    for (int i = 0; i < m.vertices; ++i) {
      double *x = &m.coords[std::size_t(i) * 3];
      const bool boundary =
          std::any_of(x, x + 3, [](double c) { return c < 1e-12 || c > 1 - 1e-12; });
      for (int k = 0; k < 3; ++k) {
        const double shift = d(rng);
        if (!boundary)
          x[k] += shift;
      }
    }
  }
  number_h1(m);
  return m;
}

/// Cells a side for about `dofs` nodes of order p: (p n + 1)^3.
inline int bp_mesh_side(long dofs, int p) {
  return std::max(1, int(std::lround((std::cbrt(double(dofs)) - 1) / p)));
}

} // namespace umesh::perf

#endif
