#ifndef UMESH_PERF_BP_KERNELS_HPP
#define UMESH_PERF_BP_KERNELS_HPP

// CEED's bake-off operators as umesh element kernels (umesh_bp_bench): BP1,
// the mass matrix, and BP3, the constant-coefficient diffusion (Laplace)
// matrix, applied matrix-free with sum factorisation inside the element, as
// libCEED separates them: the restriction is the row (read_row of the
// element's (p+1)^3 nodes, inc_row back), the basis the 1D tables b and d
// (q x (p+1), staged once per team with umesh::table) applied one direction
// at a time, the pointwise operator the geometric factors at the q^3
// points (element data, computed once by BuildQData). Arrays are x fastest:
// u[c][b][a], then [c][b][qx], [c][qy][qx], [qz][qy][qx].
//
// One implementation of each operator's steps, run two ways: on the
// element's lanes with the element's scratch (MassApply, DiffusionApply)
// or by one thread in order with arrays of its own (the *Thread forms: the
// one-thread-per-element baseline).

#include "bp_basis.hpp"

#include <umesh/umesh.hpp>

namespace umesh::perf {

template <int P, int Q> struct BpSizes {
  static constexpr int P3 = P * P * P, PPQ = P * P * Q, PQQ = P * Q * Q, Q3 = Q * Q * Q;
};

// Loops over [0, n): on the element's lanes (each ends in step), or in order.
template <class Team> struct OnLanes {
  const Team &t;
  template <class F> KOKKOS_INLINE_FUNCTION void operator()(int n, const F &f) const {
    t.lanes(n, f);
  }
};
struct InOrder {
  template <class F> KOKKOS_INLINE_FUNCTION void operator()(int n, const F &f) const {
    for (int i = 0; i < n; ++i)
      f(i);
  }
};

/// BP1: r += B^T (w det J) B u. X: q^3 values, Y: p q^2, Z: p^2 q (P = p + 1).
template <int P, int Q, class Each, class Tab, class QD, class U, class R>
KOKKOS_INLINE_FUNCTION void mass_steps(const Each &each, double *X, double *Y, double *Z,
                                       const Tab &b, const QD &qd, const U &u, const R &r) {
  using S = BpSizes<P, Q>;
  each(S::P3, [&](int i) { X[i] = u(i, 0); });
  each(S::PPQ, [&](int j) { // x: [c][b][a] -> [c][b][qx]
    const int qx = j % Q, cb = j / Q;
    double s = 0;
    for (int a = 0; a < P; ++a)
      s += b(qx, a) * X[a + P * cb];
    Z[j] = s;
  });
  each(S::PQQ, [&](int j) { // y: -> [c][qy][qx]
    const int qx = j % Q, qy = (j / Q) % Q, c = j / (Q * Q);
    double s = 0;
    for (int bb = 0; bb < P; ++bb)
      s += b(qy, bb) * Z[qx + Q * (bb + P * c)];
    Y[j] = s;
  });
  each(S::Q3, [&](int q) { // z, then the pointwise operator
    const int qxy = q % (Q * Q), qz = q / (Q * Q);
    double s = 0;
    for (int c = 0; c < P; ++c)
      s += b(qz, c) * Y[qxy + Q * Q * c];
    X[q] = s * qd(q);
  });
  each(S::PQQ, [&](int j) { // z^T
    const int qxy = j % (Q * Q), c = j / (Q * Q);
    double s = 0;
    for (int qz = 0; qz < Q; ++qz)
      s += b(qz, c) * X[qxy + Q * Q * qz];
    Y[j] = s;
  });
  each(S::PPQ, [&](int j) { // y^T
    const int qx = j % Q, bb = (j / Q) % P, c = j / (Q * P);
    double s = 0;
    for (int qy = 0; qy < Q; ++qy)
      s += b(qy, bb) * Y[qx + Q * (qy + Q * c)];
    Z[j] = s;
  });
  each(S::P3, [&](int i) { // x^T, into the row
    const int a = i % P, cb = i / P;
    double s = 0;
    for (int qx = 0; qx < Q; ++qx)
      s += b(qx, a) * Z[qx + Q * cb];
    r(i, 0) += s;
  });
}

/// BP3: r += D^T G D u, D the reference gradient, G the 6 factors of each
/// point (qd(k * q^3 + point)). X: 3 q^3 values, Y: 3 p q^2, Z: 2 p^2 q.
template <int P, int Q, class Each, class TabB, class TabD, class QD, class U, class R>
KOKKOS_INLINE_FUNCTION void diffusion_steps(const Each &each, double *X, double *Y, double *Z,
                                            const TabB &b, const TabD &d, const QD &qd, const U &u,
                                            const R &r) {
  using S = BpSizes<P, Q>;
  double *Z0 = Z, *Z1 = Z + S::PPQ;                       // b_x u, d_x u
  double *Yx = Y, *Yy = Y + S::PQQ, *Yz = Y + 2 * S::PQQ; // paths of d/dx, d/dy, d/dz
  double *Xx = X, *Xy = X + S::Q3, *Xz = X + 2 * S::Q3;   // the gradient at the points
  each(S::P3, [&](int i) { X[i] = u(i, 0); });
  each(S::PPQ, [&](int j) {
    const int qx = j % Q, cb = j / Q;
    double s0 = 0, s1 = 0;
    for (int a = 0; a < P; ++a) {
      const double v = X[a + P * cb];
      s0 += b(qx, a) * v;
      s1 += d(qx, a) * v;
    }
    Z0[j] = s0;
    Z1[j] = s1;
  });
  each(S::PQQ, [&](int j) {
    const int qx = j % Q, qy = (j / Q) % Q, c = j / (Q * Q);
    double sx = 0, sy = 0, sz = 0;
    for (int bb = 0; bb < P; ++bb) {
      const int at = qx + Q * (bb + P * c);
      sx += b(qy, bb) * Z1[at];
      sy += d(qy, bb) * Z0[at];
      sz += b(qy, bb) * Z0[at];
    }
    Yx[j] = sx, Yy[j] = sy, Yz[j] = sz;
  });
  each(S::Q3, [&](int q) {
    const int qxy = q % (Q * Q), qz = q / (Q * Q);
    double gx = 0, gy = 0, gz = 0;
    for (int c = 0; c < P; ++c) {
      const int at = qxy + Q * Q * c;
      gx += b(qz, c) * Yx[at];
      gy += b(qz, c) * Yy[at];
      gz += d(qz, c) * Yz[at];
    }
    const double g00 = qd(q), g11 = qd(S::Q3 + q), g22 = qd(2 * S::Q3 + q), g12 = qd(3 * S::Q3 + q),
                 g02 = qd(4 * S::Q3 + q), g01 = qd(5 * S::Q3 + q);
    Xx[q] = g00 * gx + g01 * gy + g02 * gz;
    Xy[q] = g01 * gx + g11 * gy + g12 * gz;
    Xz[q] = g02 * gx + g12 * gy + g22 * gz;
  });
  each(S::PQQ, [&](int j) {
    const int qxy = j % (Q * Q), c = j / (Q * Q);
    double sx = 0, sy = 0, sz = 0;
    for (int qz = 0; qz < Q; ++qz) {
      const int at = qxy + Q * Q * qz;
      sx += b(qz, c) * Xx[at];
      sy += b(qz, c) * Xy[at];
      sz += d(qz, c) * Xz[at];
    }
    Yx[j] = sx, Yy[j] = sy, Yz[j] = sz;
  });
  each(S::PPQ, [&](int j) {
    const int qx = j % Q, bb = (j / Q) % P, c = j / (Q * P);
    double s0 = 0, s1 = 0;
    for (int qy = 0; qy < Q; ++qy) {
      const int at = qx + Q * (qy + Q * c);
      s1 += b(qy, bb) * Yx[at];
      s0 += d(qy, bb) * Yy[at] + b(qy, bb) * Yz[at];
    }
    Z0[j] = s0;
    Z1[j] = s1;
  });
  each(S::P3, [&](int i) {
    const int a = i % P, cb = i / P;
    double s = 0;
    for (int qx = 0; qx < Q; ++qx)
      s += b(qx, a) * Z0[qx + Q * cb] + d(qx, a) * Z1[qx + Q * cb];
    r(i, 0) += s;
  });
}

/// The geometric factors of BP (1 or 3) at every point of an element:
/// qd(k * q^3 + point). `gq(i, 0)`, `gq(i, 1)`: Gauss point i and its weight;
/// `x`: the element's 8 corners (a row through the vertex map).
template <int Q, int BP> struct BuildQData {
  template <class Team, class GQ, class X, class QDat>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, GQ gq, X x, QDat qd) const {
    constexpr int Q3 = Q * Q * Q;
    t.lanes(Q3, [&](int q) {
      const int qx = q % Q, qy = (q / Q) % Q, qz = q / (Q * Q);
      const double xi[3] = {gq(qx, 0), gq(qy, 0), gq(qz, 0)};
      double J[3][3];
      trilinear_jacobian([&](int c, int k) { return x(c, k); }, xi, J);
      geometric_factors<BP>(J, gq(qx, 1) * gq(qy, 1) * gq(qz, 1),
                            [&](int k) -> decltype(auto) { return qd(k * Q3 + q); });
    });
  }
};

/// BP1 on the element's lanes and scratch.
template <int P, int Q> struct MassApply {
  using S = BpSizes<P, Q>;
  static constexpr int scratch_doubles() { return S::Q3 + S::PQQ + S::PPQ; }
  template <class Team, class Tab, class QD, class U, class R>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, Tab b, QD qd, U u, R r) const {
    double *X = t.template scratch<double>(S::Q3);
    double *Y = t.template scratch<double>(S::PQQ);
    double *Z = t.template scratch<double>(S::PPQ);
    mass_steps<P, Q>(OnLanes<Team>{t}, X, Y, Z, b, qd, u, r);
  }
};

/// BP3 on the element's lanes and scratch.
template <int P, int Q> struct DiffusionApply {
  using S = BpSizes<P, Q>;
  static constexpr int scratch_doubles() { return 3 * S::Q3 + 3 * S::PQQ + 2 * S::PPQ; }
  template <class Team, class Tab, class QD, class U, class R>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, Tab b, Tab d, QD qd, U u, R r) const {
    double *X = t.template scratch<double>(3 * S::Q3);
    double *Y = t.template scratch<double>(3 * S::PQQ);
    double *Z = t.template scratch<double>(2 * S::PPQ);
    diffusion_steps<P, Q>(OnLanes<Team>{t}, X, Y, Z, b, d, qd, u, r);
  }
};

/// BP1 by one thread per element: the element's arrays are its own (local
/// memory), its row read and incremented slot by slot. Launch it with one
/// lane per element (any more only wait for the one that works).
template <int P, int Q> struct MassThread {
  using S = BpSizes<P, Q>;
  static constexpr int scratch_doubles() { return 0; }
  template <class Team, class Tab, class QD, class U, class R>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, Tab b, QD qd, U u, R r) const {
    t.single([&] {
      double X[S::Q3], Y[S::PQQ], Z[S::PPQ];
      mass_steps<P, Q>(InOrder{}, X, Y, Z, b, qd, u, r);
    });
  }
};

/// BP3 by one thread per element (see MassThread).
template <int P, int Q> struct DiffusionThread {
  using S = BpSizes<P, Q>;
  static constexpr int scratch_doubles() { return 0; }
  template <class Team, class Tab, class QD, class U, class R>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, Tab b, Tab d, QD qd, U u, R r) const {
    t.single([&] {
      double X[3 * S::Q3], Y[3 * S::PQQ], Z[2 * S::PPQ];
      diffusion_steps<P, Q>(InOrder{}, X, Y, Z, b, d, qd, u, r);
    });
  }
};

} // namespace umesh::perf

#endif
