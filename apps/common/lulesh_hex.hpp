#ifndef UMESH_APPS_COMMON_LULESH_HEX_HPP
#define UMESH_APPS_COMMON_LULESH_HEX_HPP

// Shared by umesh_lulesh and the main job's integrate_stress case (perf/).
// Geometry of one trilinear hex in LULESH's node order (bottom face 0-3
// counter-clockwise, top face 4-7 above them), coordinates component-major:
// p[k][i] is component k of node i. The formulas are LULESH 2.0's
// (LLNL-CODE-461231), written anew.

#include <Kokkos_Core.hpp>

#include <cmath>

namespace lulesh::hex {

using Nodes = double[3][8];

/// Gathers component-major node values of one hex from eight accessors.
template <class A>
KOKKOS_INLINE_FUNCTION void gather(Nodes &out, const A &a0, const A &a1, const A &a2, const A &a3,
                                   const A &a4, const A &a5, const A &a6, const A &a7) {
  const A *a[8] = {&a0, &a1, &a2, &a3, &a4, &a5, &a6, &a7};
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 3; ++k)
      out[k][i] = (*a[i])(k);
}

/// a . (b x c)
KOKKOS_INLINE_FUNCTION double triple(const double (&a)[3], const double (&b)[3],
                                     const double (&c)[3]) {
  return a[0] * (b[1] * c[2] - c[1] * b[2]) + a[1] * (c[0] * b[2] - b[0] * c[2]) +
         a[2] * (b[0] * c[1] - c[0] * b[1]);
}

KOKKOS_INLINE_FUNCTION void cross(const double (&a)[3], const double (&b)[3], double (&out)[3]) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/// Volume from three triple products of edge and diagonal vectors.
KOKKOS_INLINE_FUNCTION double volume(const Nodes &p) {
  // d(i, j) = p_i - p_j, component k
  auto d = [&](int i, int j, int k) { return p[k][i] - p[k][j]; };
  double a[3], b[3], c[3], v = 0;
  for (int k = 0; k < 3; ++k)
    a[k] = d(3, 1, k) + d(7, 2, k), b[k] = d(6, 3, k), c[k] = d(2, 0, k);
  v += triple(a, b, c);
  for (int k = 0; k < 3; ++k)
    a[k] = d(4, 3, k) + d(5, 7, k), b[k] = d(6, 4, k), c[k] = d(7, 0, k);
  v += triple(a, b, c);
  for (int k = 0; k < 3; ++k)
    a[k] = d(1, 4, k) + d(2, 5, k), b[k] = d(6, 1, k), c[k] = d(5, 0, k);
  v += triple(a, b, c);
  return v * (1.0 / 12.0);
}

/// Derivatives of the shape functions at the centre, b[k][i] = dN_i/dx_k
/// times the Jacobian determinant, which is returned.
KOKKOS_INLINE_FUNCTION double shape_derivatives(const Nodes &p, Nodes &b) {
  double j[3][3]; // j[k][m]: d x_k / d (xi, eta, zeta)_m
  for (int k = 0; k < 3; ++k) {
    const double d60 = p[k][6] - p[k][0], d53 = p[k][5] - p[k][3], d71 = p[k][7] - p[k][1],
                 d42 = p[k][4] - p[k][2];
    j[k][0] = 0.125 * (d60 + d53 - d71 - d42);
    j[k][1] = 0.125 * (d60 - d53 + d71 - d42);
    j[k][2] = 0.125 * (d60 + d53 + d71 + d42);
  }
  double c[3][3]; // cofactors
  for (int k = 0; k < 3; ++k)
    for (int m = 0; m < 3; ++m) {
      const int k1 = (k + 1) % 3, k2 = (k + 2) % 3, m1 = (m + 1) % 3, m2 = (m + 2) % 3;
      c[k][m] = j[k1][m1] * j[k2][m2] - j[k1][m2] * j[k2][m1];
    }
  for (int k = 0; k < 3; ++k) {
    b[k][0] = -c[k][0] - c[k][1] - c[k][2];
    b[k][1] = c[k][0] - c[k][1] - c[k][2];
    b[k][2] = c[k][0] + c[k][1] - c[k][2];
    b[k][3] = -c[k][0] + c[k][1] - c[k][2];
    b[k][4] = -b[k][2];
    b[k][5] = -b[k][3];
    b[k][6] = -b[k][0];
    b[k][7] = -b[k][1];
  }
  return 8.0 * (j[0][1] * c[0][1] + j[1][1] * c[1][1] + j[2][1] * c[2][1]);
}

/// Area-weighted normals at the nodes: a quarter of the area vector of each
/// of the three faces through a node.
KOKKOS_INLINE_FUNCTION void node_normals(const Nodes &p, Nodes &n) {
  constexpr int faces[6][4] = {{0, 1, 2, 3}, {0, 4, 5, 1}, {1, 5, 6, 2},
                               {2, 6, 7, 3}, {3, 7, 4, 0}, {4, 7, 6, 5}};
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 8; ++i)
      n[k][i] = 0.0;
  for (const auto &f : faces) {
    double b0[3], b1[3], area[3];
    for (int k = 0; k < 3; ++k) {
      b0[k] = 0.5 * (p[k][f[3]] + p[k][f[2]] - p[k][f[1]] - p[k][f[0]]);
      b1[k] = 0.5 * (p[k][f[2]] + p[k][f[1]] - p[k][f[3]] - p[k][f[0]]);
    }
    cross(b0, b1, area);
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < 4; ++i)
        n[k][f[i]] += 0.25 * area[k];
  }
}

/// d(volume)/d(node position), every node: each from the six nodes around
/// it, listed in the order the formula takes them.
KOKKOS_INLINE_FUNCTION void volume_derivatives(const Nodes &p, Nodes &dv) {
  constexpr int around[8][6] = {{1, 2, 3, 4, 5, 7}, {2, 3, 0, 5, 6, 4}, {3, 0, 1, 6, 7, 5},
                                {0, 1, 2, 7, 4, 6}, {7, 6, 5, 0, 3, 1}, {4, 7, 6, 1, 0, 2},
                                {5, 4, 7, 2, 1, 3}, {6, 5, 4, 3, 2, 0}};
  for (int node = 0; node < 8; ++node) {
    const int *a = around[node];
    // g(u, w) for components u, w of the six nodes
    auto g = [&](int u, int w) {
      auto s = [&](int c, int i, int j) { return p[c][a[i]] + p[c][a[j]]; };
      return s(u, 1, 2) * s(w, 0, 1) - s(u, 0, 1) * s(w, 1, 2) + s(u, 0, 4) * s(w, 3, 4) -
             s(u, 3, 4) * s(w, 0, 4) - s(u, 2, 5) * s(w, 3, 5) + s(u, 3, 5) * s(w, 2, 5);
    };
    dv[0][node] = g(1, 2) * (1.0 / 12.0);
    dv[1][node] = -g(0, 2) * (1.0 / 12.0);
    dv[2][node] = -g(1, 0) * (1.0 / 12.0);
  }
}

/// 4 volume / sqrt(largest face "area"), LULESH's length for the Courant
/// limit.
KOKKOS_INLINE_FUNCTION double characteristic_length(const Nodes &p, double volume) {
  constexpr int faces[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                               {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  double largest = 0.0;
  for (const auto &f : faces) {
    double ff = 0, gg = 0, fg = 0;
    for (int k = 0; k < 3; ++k) {
      const double d20 = p[k][f[2]] - p[k][f[0]], d31 = p[k][f[3]] - p[k][f[1]];
      const double fk = d20 - d31, gk = d20 + d31;
      ff += fk * fk, gg += gk * gk, fg += fk * gk;
    }
    const double area = ff * gg - fg * fg;
    largest = area > largest ? area : largest;
  }
  return 4.0 * volume / std::sqrt(largest);
}

/// Trace of the velocity gradient (the relative volume rate), from the
/// shape-function derivatives b and their determinant.
KOKKOS_INLINE_FUNCTION double velocity_divergence(const Nodes &v, const Nodes &b, double det) {
  constexpr int opposite[4] = {6, 7, 4, 5};
  const double inverse = 1.0 / det;
  double trace = 0;
  for (int k = 0; k < 3; ++k) {
    double d = 0;
    for (int i = 0; i < 4; ++i)
      d += b[k][i] * (v[k][i] - v[k][opposite[i]]);
    trace += inverse * d;
  }
  return trace;
}

/// Differences across the element in its three logical directions (xi,
/// eta, zeta): the mean of one face's four nodes minus the opposite face's.
KOKKOS_INLINE_FUNCTION void logical_differences(const Nodes &q, double (&di)[3], double (&dj)[3],
                                                double (&dk)[3]) {
  for (int k = 0; k < 3; ++k) {
    const double *c = q[k];
    di[k] = 0.25 * ((c[1] + c[2] + c[6] + c[5]) - (c[0] + c[3] + c[7] + c[4]));
    dj[k] = -0.25 * ((c[0] + c[1] + c[5] + c[4]) - (c[3] + c[2] + c[6] + c[7]));
    dk[k] = 0.25 * ((c[4] + c[5] + c[6] + c[7]) - (c[0] + c[1] + c[2] + c[3]));
  }
}

} // namespace lulesh::hex

#endif
