#ifndef UMESH_PERF_BP_REFERENCE_HPP
#define UMESH_PERF_BP_REFERENCE_HPP

// Host references of the bake-off operators (umesh_bp_bench):
// - apply_reference: y = A x matrix-free, with the kernels' own
//   sum-factorisation steps run in order for each element (elements in
//   parallel on the host backend: every timed row is checked against it);
// - assemble_reference: the global matrix assembled in the simplest way
//   (full 3D basis at every point, element matrices summed into rows), to
//   check the first on small meshes, independently of sum factorisation;
// - exact integrals of polynomials over the unit cube, to check both
//   against the continuous operators (volume, the H1 seminorm).

#include "bp_basis.hpp"
#include "bp_kernels.hpp"
#include "bp_mesh.hpp"

#include <array>
#include <cmath>
#include <map>
#include <vector>

namespace umesh::perf {

/// The geometric factors of element e at its q^3 points: out[k * q^3 + point].
template <int BP> void host_qdata(const BpBasis &basis, const H1Mesh &m, int e, double *out) {
  const int Q = basis.Q, Q3 = Q * Q * Q;
  const int *v = &m.vertex_rows[std::size_t(e) * 8];
  auto x = [&](int c, int k) { return m.coords[std::size_t(v[c]) * 3 + k]; };
  for (int q = 0; q < Q3; ++q) {
    const int qx = q % Q, qy = (q / Q) % Q, qz = q / (Q * Q);
    const double xi[3] = {basis.qx[qx], basis.qx[qy], basis.qx[qz]};
    double J[3][3];
    trilinear_jacobian(x, xi, J);
    geometric_factors<BP>(J, basis.qw[qx] * basis.qw[qy] * basis.qw[qz],
                          [&](int k) -> double & { return out[std::size_t(k) * Q3 + q]; });
  }
}
template <int BP>
void host_qdata(const BpBasis &basis, const H1Mesh &m, int e, std::vector<double> &out) {
  out.assign(std::size_t(BP == 1 ? 1 : 6) * basis.Q * basis.Q * basis.Q, 0);
  host_qdata<BP>(basis, m, e, out.data());
}

// The reference's r(i, 0) += v: an atomic add (elements run in parallel).
struct HostFold {
  double *p;
  void operator+=(double v) const { Kokkos::atomic_add(p, v); }
};

/// y = A x for BP (1 or 3) of order P - 1, with the kernels' steps in order
/// for each element; elements in parallel on the host backend.
template <int P, int BP>
std::vector<double> apply_reference(const BpBasis &basis, const H1Mesh &m,
                                    const std::vector<double> &x) {
  constexpr int Q = P + 1, P3 = P * P * P;
  using S = BpSizes<P, Q>;
  std::vector<double> y(x.size(), 0);
  const BpBasis *bs = &basis;
  const H1Mesh *mesh = &m;
  const double *in = x.data();
  double *out = y.data();
  Kokkos::parallel_for("umesh_bp_bench::reference",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, m.elements),
                       [=](int e) {
                         double qd[6 * S::Q3], X[3 * S::Q3], Y[3 * S::PQQ], Z[2 * S::PPQ];
                         host_qdata<BP>(*bs, *mesh, e, qd);
                         const int *row = &mesh->rows[std::size_t(e) * P3];
                         auto b = [&](int q, int i) { return bs->b[q * P + i]; };
                         auto d = [&](int q, int i) { return bs->d[q * P + i]; };
                         auto u = [&](int i, int) { return in[row[i]]; };
                         auto r = [&](int i, int) { return HostFold{out + row[i]}; };
                         auto g = [&](int k) { return qd[k]; };
                         if constexpr (BP == 1)
                           mass_steps<P, Q>(InOrder{}, X, Y, Z, b, g, u, r);
                         else
                           diffusion_steps<P, Q>(InOrder{}, X, Y, Z, b, d, g, u, r);
                       });
  Kokkos::fence();
  return y;
}

/// A sparse matrix by rows.
using SparseRows = std::vector<std::map<int, double>>;

/// The global matrix of BP (1 or 3), assembled from element matrices
/// K_e(i, j) = sum_q phi_i(q) w det J phi_j(q) (BP1) or
/// sum_q grad phi_i(q) . G_q grad phi_j(q) (BP3), with the full 3D basis.
template <int BP> SparseRows assemble_reference(const BpBasis &basis, const H1Mesh &m) {
  const int P = basis.P, Q = basis.Q, P3 = P * P * P, Q3 = Q * Q * Q;
  SparseRows a(std::size_t(m.dofs));
  std::vector<double> qd;
  // phi[q][i] and its reference gradient gphi[q][i][3].
  std::vector<double> phi(std::size_t(Q3) * P3), gphi(std::size_t(Q3) * P3 * 3);
  for (int q = 0; q < Q3; ++q)
    for (int i = 0; i < P3; ++i) {
      const int qq[3] = {q % Q, (q / Q) % Q, q / (Q * Q)},
                ii[3] = {i % P, (i / P) % P, i / (P * P)};
      double bv[3], dv[3];
      for (int k = 0; k < 3; ++k) {
        bv[k] = basis.b[qq[k] * P + ii[k]];
        dv[k] = basis.d[qq[k] * P + ii[k]];
      }
      phi[std::size_t(q) * P3 + i] = bv[0] * bv[1] * bv[2];
      double *g = &gphi[(std::size_t(q) * P3 + i) * 3];
      g[0] = dv[0] * bv[1] * bv[2];
      g[1] = bv[0] * dv[1] * bv[2];
      g[2] = bv[0] * bv[1] * dv[2];
    }
  for (int e = 0; e < m.elements; ++e) {
    host_qdata<BP>(basis, m, e, qd);
    const int *row = &m.rows[std::size_t(e) * P3];
    for (int i = 0; i < P3; ++i)
      for (int j = 0; j < P3; ++j) {
        double s = 0;
        for (int q = 0; q < Q3; ++q) {
          if (BP == 1) {
            s += phi[std::size_t(q) * P3 + i] * qd[q] * phi[std::size_t(q) * P3 + j];
            continue;
          }
          const double *gi = &gphi[(std::size_t(q) * P3 + i) * 3];
          const double *gj = &gphi[(std::size_t(q) * P3 + j) * 3];
          const double G[3][3] = {{qd[q], qd[5 * Q3 + q], qd[4 * Q3 + q]},
                                  {qd[5 * Q3 + q], qd[Q3 + q], qd[3 * Q3 + q]},
                                  {qd[4 * Q3 + q], qd[3 * Q3 + q], qd[2 * Q3 + q]}};
          for (int k = 0; k < 3; ++k)
            for (int l = 0; l < 3; ++l)
              s += gi[k] * G[k][l] * gj[l];
        }
        a[row[i]][row[j]] += s;
      }
  }
  return a;
}

inline std::vector<double> multiply(const SparseRows &a, const std::vector<double> &x) {
  std::vector<double> y(a.size(), 0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (const auto &[j, v] : a[i])
      y[i] += v * x[j];
  return y;
}

/// A polynomial in x, y, z: exponents -> coefficient.
using Poly = std::map<std::array<int, 3>, double>;

inline double evaluate(const Poly &u, const double *x) {
  double s = 0;
  for (const auto &[e, c] : u)
    s += c * std::pow(x[0], e[0]) * std::pow(x[1], e[1]) * std::pow(x[2], e[2]);
  return s;
}
inline Poly derivative(const Poly &u, int k) {
  Poly out;
  for (const auto &[e, c] : u)
    if (e[k] > 0) {
      std::array<int, 3> f = e;
      --f[k];
      out[f] += c * e[k];
    }
  return out;
}
/// The integral of u v over the unit cube, exactly (term by term).
inline double integral_of_product(const Poly &u, const Poly &v) {
  double s = 0;
  for (const auto &[e, c] : u)
    for (const auto &[f, d] : v)
      s += c * d / ((e[0] + f[0] + 1.0) * (e[1] + f[1] + 1.0) * (e[2] + f[2] + 1.0));
  return s;
}

/// A polynomial of degree at most p in each variable (so in the space of
/// order-p hexes on an affine mesh), not symmetric in the variables.
inline Poly test_polynomial(int p) {
  Poly u;
  u[{0, 0, 0}] = 0.5;
  u[{p, 0, 0}] = 1.0;
  u[{0, p, 1}] = -0.7;
  u[{1, 1, 1}] = 0.9;
  u[{0, 0, p}] += 0.3;
  u[{p, p - 1, 0}] += -0.4;
  return u;
}

/// The physical position of every node (from the element that names it
/// last) and the largest distance between two elements' positions for one
/// node: zero when the numbering is continuous.
inline std::vector<double> node_positions(const BpBasis &basis, const H1Mesh &m, double &mismatch) {
  const int P = basis.P, P3 = P * P * P;
  std::vector<double> pos(std::size_t(m.dofs) * 3, 0);
  std::vector<char> seen(std::size_t(m.dofs), 0);
  mismatch = 0;
  for (int e = 0; e < m.elements; ++e) {
    const int *v = &m.vertex_rows[std::size_t(e) * 8];
    for (int i = 0; i < P3; ++i) {
      const double xi[3] = {basis.nodes[i % P], basis.nodes[(i / P) % P], basis.nodes[i / (P * P)]};
      double x[3] = {0, 0, 0};
      for (int t = 0; t < 8; ++t) {
        double n = 1;
        for (int k = 0; k < 3; ++k)
          n *= ((t >> k) & 1) ? 0.5 * (1 + xi[k]) : 0.5 * (1 - xi[k]);
        for (int k = 0; k < 3; ++k)
          x[k] += n * m.coords[std::size_t(v[t]) * 3 + k];
      }
      const int dof = m.rows[std::size_t(e) * P3 + i];
      double *at = &pos[std::size_t(dof) * 3];
      if (seen[dof])
        for (int k = 0; k < 3; ++k)
          mismatch = std::max(mismatch, std::fabs(at[k] - x[k]));
      seen[dof] = 1;
      for (int k = 0; k < 3; ++k)
        at[k] = x[k];
    }
  }
  for (char s : seen)
    if (!s)
      mismatch = INFINITY; // a number no element names
  return pos;
}

} // namespace umesh::perf

#endif
