#ifndef UMESH_PERF_ELEMENT_KERNELS_HPP
#define UMESH_PERF_ELEMENT_KERNELS_HPP

// femto's two element kernels (umesh_element_bench), as element loops, and
// their serial references on the host:
// - interpolation: nodal values to values and physical gradients at the
//   quadrature points, out(q, 0) = sum_i phi(q, i) u_i and
//   out(q, 1 + d) = sum_c Jinv(c, d) sum_i dphi(q, i, c) u_i;
// - its transpose: quadrature values integrated back to the nodes (an
//   increment), r_i += sum_q w_q (phi(q, i) f(q, 0) + sum_d g(q, i, d) f(q, 1 + d))
//   with g(q, i, d) = sum_c Jinv(c, d) dphi(q, i, c).
// Basis (phi, dphi) and quadrature weights are tables staged once per team;
// Jinv (the element's inverse Jacobian, D x D) is element data. The
// element's nodal values (interpolation) or quadrature values (transpose)
// are staged in its scratch first, by all its lanes.

#include <umesh/umesh.hpp>

#include <vector>

namespace umesh::perf {

template <int NN, int NQ, int D> struct Interpolate {
  static constexpr int out_dim = NQ * (1 + D);
  template <class Team, class Phi, class DPhi, class J, class U, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, Phi phi, DPhi dphi, J jinv, U u,
                                         Out out) const {
    double *ue = t.template scratch<double>(NN);
    t.lanes(NN, [&](int i) { ue[i] = u(i, 0); });
    t.lanes(NQ, [&](int q) {
      double v = 0, g[D] = {};
      for (int i = 0; i < NN; ++i) {
        v += phi(q, i) * ue[i];
        for (int c = 0; c < D; ++c)
          g[c] += dphi(q, i, c) * ue[i];
      }
      out(q * (1 + D)) = v;
      for (int d = 0; d < D; ++d) {
        double x = 0;
        for (int c = 0; c < D; ++c)
          x += jinv(c * D + d) * g[c];
        out(q * (1 + D) + 1 + d) = x;
      }
    });
  }
  static constexpr int scratch_doubles() { return NN; }
};

template <int NN, int NQ, int D> struct Transpose {
  static constexpr int in_dim = NQ * (1 + D);
  template <class Team, class Phi, class DPhi, class W, class J, class F, class R>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, Phi phi, DPhi dphi, W w, J jinv, F f,
                                         R r) const {
    double *fe = t.template scratch<double>(in_dim);
    t.lanes(in_dim, [&](int x) { fe[x] = f(x); });
    t.lanes(NN, [&](int i) {
      double acc = 0;
      for (int q = 0; q < NQ; ++q) {
        double s = phi(q, i) * fe[q * (1 + D)];
        for (int d = 0; d < D; ++d) {
          double g = 0;
          for (int c = 0; c < D; ++c)
            g += jinv(c * D + d) * dphi(q, i, c);
          s += g * fe[q * (1 + D) + 1 + d];
        }
        acc += w(q) * s;
      }
      r(i, 0) += acc;
    });
  }
  static constexpr int scratch_doubles() { return in_dim; }
};

/// The tables and element data of one element type, on the host.
struct ElementTables {
  int nn, nq, d;
  std::vector<double> phi, dphi, w; // [q][i], [q][i][c], [q]
};

/// Host reference of Interpolate: out[e][q * (1 + D) + ...].
inline void interpolate_reference(const ElementTables &t, const std::vector<int> &rows,
                                  const std::vector<double> &jinv, const std::vector<double> &u,
                                  std::vector<double> &out) {
  const int nn = t.nn, nq = t.nq, D = t.d, n = int(rows.size() / nn);
  out.assign(std::size_t(n) * nq * (1 + D), 0);
  for (int e = 0; e < n; ++e)
    for (int q = 0; q < nq; ++q) {
      double v = 0, g[3] = {0, 0, 0};
      for (int i = 0; i < nn; ++i) {
        const double ui = u[rows[std::size_t(e) * nn + i]];
        v += t.phi[q * nn + i] * ui;
        for (int c = 0; c < D; ++c)
          g[c] += t.dphi[(q * nn + i) * D + c] * ui;
      }
      double *o = &out[(std::size_t(e) * nq + q) * (1 + D)];
      o[0] = v;
      for (int d = 0; d < D; ++d) {
        double x = 0;
        for (int c = 0; c < D; ++c)
          x += jinv[std::size_t(e) * D * D + c * D + d] * g[c];
        o[1 + d] = x;
      }
    }
}

/// Host reference of Transpose: r (nodal) incremented.
inline void transpose_reference(const ElementTables &t, const std::vector<int> &rows,
                                const std::vector<double> &jinv, const std::vector<double> &f,
                                std::vector<double> &r) {
  const int nn = t.nn, nq = t.nq, D = t.d, n = int(rows.size() / nn);
  for (int e = 0; e < n; ++e)
    for (int i = 0; i < nn; ++i) {
      double acc = 0;
      for (int q = 0; q < nq; ++q) {
        const double *fe = &f[(std::size_t(e) * nq + q) * (1 + D)];
        double s = t.phi[q * nn + i] * fe[0];
        for (int d = 0; d < D; ++d) {
          double g = 0;
          for (int c = 0; c < D; ++c)
            g += jinv[std::size_t(e) * D * D + c * D + d] * t.dphi[(q * nn + i) * D + c];
          s += g * fe[1 + d];
        }
        acc += t.w[q] * s;
      }
      r[rows[std::size_t(e) * nn + i]] += acc;
    }
}

} // namespace umesh::perf

#endif
