#ifndef UMESH_PERF_ELEMENT_MESHES_HPP
#define UMESH_PERF_ELEMENT_MESHES_HPP

// Meshes of the element benchmark (umesh_element_bench): triangles, quads,
// tets and hexes of order p on a structured lattice, handled as
// unstructured. The lattice has p * n + 1 points a side; an element's nodes
// are the lattice points of its p-refinement (tensor elements: the (p + 1)^d
// block; simplices: v0 + sum_k a_k (v_k - v0) / p, sum a_k <= p, whose
// edges run along lattice directions, so every node is a lattice point).

#include <umesh/set.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace umesh::perf {

enum class Shape { tri, quad, tet, hex };

inline const char *shape_name(Shape s) {
  return s == Shape::tri ? "tri" : s == Shape::quad ? "quad" : s == Shape::tet ? "tet" : "hex";
}
constexpr int shape_dim(Shape s) {
  return s == Shape::tri || s == Shape::quad ? 2 : 3;
}
constexpr bool is_simplex(Shape s) {
  return s == Shape::tri || s == Shape::tet;
}
/// Nodes of an element of order p: C(p + d, d) for simplices, (p + 1)^d.
constexpr int shape_nodes(Shape s, int p) {
  return s == Shape::tri    ? (p + 1) * (p + 2) / 2
         : s == Shape::tet  ? (p + 1) * (p + 2) * (p + 3) / 6
         : s == Shape::quad ? (p + 1) * (p + 1)
                            : (p + 1) * (p + 1) * (p + 1);
}
/// Quadrature points: Gauss (p + 1)^d on tensor elements; on simplices the
/// sizes of the usual rules exact to degree 2p (triangles 3, 6, 12; tets 4,
/// 11, 24).
constexpr int shape_qpoints(Shape s, int p) {
  return s == Shape::tri   ? (p == 1   ? 3
                              : p == 2 ? 6
                                       : 12)
         : s == Shape::tet ? (p == 1   ? 4
                              : p == 2 ? 11
                                       : 24)
                           : shape_nodes(s, p);
}

struct ElementMesh {
  Set elements{"elements", 0}, nodes{"nodes", 0};
  int side = 0;          // macro cells a side
  std::vector<int> rows; // [element][shape_nodes]
};

/// Macro cells a side for about `target` elements.
inline int mesh_side(Shape s, long target) {
  const double cells = s == Shape::tri ? target / 2.0 : s == Shape::tet ? target / 6.0 : target;
  const double side = shape_dim(s) == 2 ? std::sqrt(cells) : std::cbrt(cells);
  return std::max(1, int(std::lround(side)));
}

/// The nodes of order p of the simplex with lattice vertices `v` (scaled by p).
inline void simplex_nodes(const std::vector<std::array<int, 3>> &v, int p, int dim,
                          std::vector<std::array<int, 3>> &out) {
  for (int a = 0; a <= p; ++a)
    for (int b = 0; a + b <= p; ++b)
      for (int c = 0; a + b + c <= p && (dim == 3 || c == 0); ++c) {
        std::array<int, 3> x{};
        for (int k = 0; k < 3; ++k) {
          const int d1 = v[1][k] - v[0][k], d2 = v[2][k] - v[0][k],
                    d3 = dim == 3 ? v[3][k] - v[0][k] : 0;
          x[k] = v[0][k] + (a * d1 + b * d2 + c * d3) / p;
        }
        out.push_back(x);
      }
}

/// About `target` elements of shape `s` and order `p` on a lattice.
inline ElementMesh make_element_mesh(Shape s, int p, long target) {
  const int n = mesh_side(s, target), dim = shape_dim(s), side = p * n + 1;
  const std::int64_t points =
      dim == 2 ? std::int64_t(side) * side : std::int64_t(side) * side * side;
  auto id = [&](const std::array<int, 3> &x) { return x[0] + side * (x[1] + side * x[2]); };
  ElementMesh m;
  m.side = n;
  std::vector<std::array<int, 3>> nodes;
  const int cz = dim == 3 ? n : 1;
  for (int k = 0; k < cz; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const std::array<int, 3> o{p * i, p * j, p * k};
        auto corner = [&](int dx, int dy, int dz) {
          return std::array<int, 3>{o[0] + p * dx, o[1] + p * dy, o[2] + p * dz};
        };
        if (!is_simplex(s)) {
          for (int c = 0; c <= (dim == 3 ? p : 0); ++c)
            for (int b = 0; b <= p; ++b)
              for (int a = 0; a <= p; ++a)
                m.rows.push_back(id({o[0] + a, o[1] + b, o[2] + c}));
          continue;
        }
        std::vector<std::vector<std::array<int, 3>>> simplices;
        if (dim == 2) {
          simplices = {{corner(0, 0, 0), corner(1, 0, 0), corner(1, 1, 0)},
                       {corner(0, 0, 0), corner(1, 1, 0), corner(0, 1, 0)}};
        } else { // Kuhn: the six paths from (0,0,0) to (1,1,1) along the axes
          const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
          for (const auto &pm : perms) {
            std::array<int, 3> d{0, 0, 0};
            std::vector<std::array<int, 3>> t{corner(0, 0, 0)};
            for (int step = 0; step < 3; ++step) {
              d[pm[step]] = 1;
              t.push_back(corner(d[0], d[1], d[2]));
            }
            simplices.push_back(t);
          }
        }
        for (const auto &v : simplices) {
          nodes.clear();
          simplex_nodes(v, p, dim, nodes);
          for (const auto &x : nodes)
            m.rows.push_back(id(x));
        }
      }
  const int per = shape_nodes(s, p);
  m.elements =
      Set(std::string(shape_name(s)) + "_p" + std::to_string(p), std::int64_t(m.rows.size() / per));
  m.nodes = Set("nodes", points);
  return m;
}

} // namespace umesh::perf

#endif
