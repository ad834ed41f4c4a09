#ifndef UMESH_PERF_BP_BASIS_HPP
#define UMESH_PERF_BP_BASIS_HPP

// The bake-off problems' reference element: Gauss-Lobatto nodes (p + 1 a
// direction), Gauss quadrature (q = p + 2 points a direction, as CEED's BP1
// and BP3), the 1D Lagrange basis and its derivative at the quadrature
// points (the (q x (p + 1)) tables a kernel stages), and the geometric
// factors of a trilinear hex at a point: BP1's w det J, BP3's symmetric
// w det J J^-1 J^-T (6 entries: 00, 11, 22, 12, 02, 01).

#include <Kokkos_Core.hpp>

#include <cmath>
#include <vector>

namespace umesh::perf {

/// Legendre P_n(x) and its derivative.
inline void legendre(int n, double x, double &pn, double &dpn) {
  double p0 = 1, p1 = x;
  if (n == 0) {
    pn = 1, dpn = 0;
    return;
  }
  for (int k = 2; k <= n; ++k) {
    const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1, p1 = p2;
  }
  pn = p1;
  dpn = n * (x * p1 - p0) / (x * x - 1);
}

/// Gauss points and weights on [-1, 1], ascending.
inline void gauss_points(int q, std::vector<double> &x, std::vector<double> &w) {
  x.assign(q, 0);
  w.assign(q, 0);
  for (int i = 0; i < q; ++i) {
    double z = -std::cos(M_PI * (i + 0.75) / (q + 0.5)), pn = 0, dpn = 0;
    for (int it = 0; it < 100; ++it) {
      legendre(q, z, pn, dpn);
      const double dz = pn / dpn;
      z -= dz;
      if (std::fabs(dz) < 1e-16)
        break;
    }
    legendre(q, z, pn, dpn);
    x[i] = z;
    w[i] = 2 / ((1 - z * z) * dpn * dpn);
  }
}

/// Gauss-Lobatto points on [-1, 1] (n >= 2), ascending: the ends and the
/// roots of P'_{n-1}.
inline std::vector<double> gauss_lobatto_points(int n) {
  std::vector<double> x(n);
  x[0] = -1, x[n - 1] = 1;
  for (int i = 1; i < n - 1; ++i) {
    double z = -std::cos(M_PI * i / (n - 1));
    for (int it = 0; it < 100; ++it) {
      // Newton on (1 - z^2) P'_{n-1}(z) = (n - 1) (P_{n-2} - z P_{n-1}).
      double p = 0, dp = 0, pm = 0, dpm = 0;
      legendre(n - 1, z, p, dp);
      legendre(n - 2, z, pm, dpm);
      const double f = (n - 1) * (pm - z * p), df = (n - 1) * (dpm - p - z * dp);
      const double dz = f / df;
      z -= dz;
      if (std::fabs(dz) < 1e-16)
        break;
    }
    x[i] = z;
  }
  return x;
}

/// The Lagrange basis on `nodes` and its derivative at each of `at`:
/// b[q * n + i] = l_i(at_q), d[q * n + i] = l_i'(at_q).
inline void lagrange_tables(const std::vector<double> &nodes, const std::vector<double> &at,
                            std::vector<double> &b, std::vector<double> &d) {
  const int n = int(nodes.size()), m = int(at.size());
  b.assign(std::size_t(m) * n, 0);
  d.assign(std::size_t(m) * n, 0);
  for (int q = 0; q < m; ++q)
    for (int i = 0; i < n; ++i) {
      double li = 1, dli = 0;
      for (int j = 0; j < n; ++j) {
        if (j == i)
          continue;
        const double f = (at[q] - nodes[j]) / (nodes[i] - nodes[j]);
        dli = dli * f + li / (nodes[i] - nodes[j]);
        li *= f;
      }
      b[q * n + i] = li;
      d[q * n + i] = dli;
    }
}

/// The Jacobian dx_i/dxi_j at reference point xi of the trilinear hex whose
/// corner t (x + 2y + 4z) is at (x(t, 0), x(t, 1), x(t, 2)).
template <class X>
KOKKOS_INLINE_FUNCTION void trilinear_jacobian(const X &x, const double xi[3], double J[3][3]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      J[i][j] = 0;
  for (int t = 0; t < 8; ++t) {
    double n[3], dn[3];
    for (int k = 0; k < 3; ++k) {
      const bool hi = (t >> k) & 1;
      n[k] = hi ? 0.5 * (1 + xi[k]) : 0.5 * (1 - xi[k]);
      dn[k] = hi ? 0.5 : -0.5;
    }
    const double g[3] = {dn[0] * n[1] * n[2], n[0] * dn[1] * n[2], n[0] * n[1] * dn[2]};
    for (int i = 0; i < 3; ++i) {
      const double xt = x(t, i);
      for (int j = 0; j < 3; ++j)
        J[i][j] += xt * g[j];
    }
  }
}

/// BP1's factor (w det J) or BP3's six (w det J J^-1 J^-T = w adj(J)
/// adj(J)^T / det J) at a point of weight w: `out(k)` for k < 1 or 6.
template <int BP, class Out>
KOKKOS_INLINE_FUNCTION void geometric_factors(const double J[3][3], double w, const Out &out) {
  double a[3][3]; // adj(J) = det J J^-1
  a[0][0] = J[1][1] * J[2][2] - J[1][2] * J[2][1];
  a[0][1] = J[0][2] * J[2][1] - J[0][1] * J[2][2];
  a[0][2] = J[0][1] * J[1][2] - J[0][2] * J[1][1];
  a[1][0] = J[1][2] * J[2][0] - J[1][0] * J[2][2];
  a[1][1] = J[0][0] * J[2][2] - J[0][2] * J[2][0];
  a[1][2] = J[0][2] * J[1][0] - J[0][0] * J[1][2];
  a[2][0] = J[1][0] * J[2][1] - J[1][1] * J[2][0];
  a[2][1] = J[0][1] * J[2][0] - J[0][0] * J[2][1];
  a[2][2] = J[0][0] * J[1][1] - J[0][1] * J[1][0];
  const double det = J[0][0] * a[0][0] + J[0][1] * a[1][0] + J[0][2] * a[2][0];
  if (BP == 1) {
    out(0) = w * det;
    return;
  }
  const int ij[6][2] = {{0, 0}, {1, 1}, {2, 2}, {1, 2}, {0, 2}, {0, 1}};
  for (int k = 0; k < 6; ++k) {
    const int i = ij[k][0], j = ij[k][1];
    out(k) = w * (a[i][0] * a[j][0] + a[i][1] * a[j][1] + a[i][2] * a[j][2]) / det;
  }
}

/// The reference element of order p with q = p + 2 Gauss points, on the host.
struct BpBasis {
  int p, P, Q;
  std::vector<double> nodes, qx, qw; // GLL nodes, Gauss points and weights
  std::vector<double> b, d;          // [q][i]: l_i(qx_q), l_i'(qx_q)
  explicit BpBasis(int order) : p(order), P(order + 1), Q(order + 2) {
    nodes = gauss_lobatto_points(P);
    gauss_points(Q, qx, qw);
    lagrange_tables(nodes, qx, b, d);
  }
};

} // namespace umesh::perf

#endif
