#ifndef UMESH_LULESH_KERNELS_HPP
#define UMESH_LULESH_KERNELS_HPP

// LULESH's element and node loops as umesh kernels: each receives accessors
// (x(k) reads component k, f(k) += v increments), so every executor and
// layout runs the same body. The arithmetic is LULESH 2.0's, written anew.

#include "common/lulesh_hex.hpp"
#include "problem.hpp"

#include <Kokkos_Core.hpp>

namespace lulesh {

/// Initial volume and mass of each element; a share of its mass to each of
/// its eight nodes (scattered: the executor's race).
struct InitialMass {
  template <class X, class W, class M>
  KOKKOS_INLINE_FUNCTION void operator()(X x0, X x1, X x2, X x3, X x4, X x5, X x6, X x7, W volo,
                                         W mass, M m0, M m1, M m2, M m3, M m4, M m5, M m6,
                                         M m7) const {
    hex::Nodes p;
    hex::gather(p, x0, x1, x2, x3, x4, x5, x6, x7);
    const double v = hex::volume(p);
    volo(0) = v;
    mass(0) = v;
    M *m[8] = {&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7};
    for (int i = 0; i < 8; ++i)
      (*m[i])(0) += v / 8.0;
  }
};

/// Corner forces of one element, [component][node], before they are added
/// to the nodes.
using CornerForces = double[3][8];

/// IntegrateStressForElems for one element: the isotropic stress -(p + q)
/// times its node normals, added to `f`; returns the Jacobian determinant.
KOKKOS_INLINE_FUNCTION double stress_forces(const hex::Nodes &pos, double p, double q,
                                            CornerForces &f) {
  hex::Nodes b;
  const double det = hex::shape_derivatives(pos, b); // (b then becomes the normals)
  hex::node_normals(pos, b);
  const double sigma = -p - q;
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 8; ++i)
      f[k][i] += -(sigma * b[k][i]);
  return det;
}

/// CalcHourglassControlForElems and CalcFBHourglassForceForElems for one
/// element: Flanagan-Belytschko anti-hourglass forces from its node
/// positions and velocities, added to `f`.
KOKKOS_INLINE_FUNCTION void hourglass_forces(const hex::Nodes &pos, const hex::Nodes &vel,
                                             double hourg, double volo, double v, double ss,
                                             double mass, CornerForces &f) {
  // The four hourglass base vectors.
  constexpr double gamma[4][8] = {{1, 1, -1, -1, -1, -1, 1, 1},
                                  {1, -1, -1, 1, -1, 1, 1, -1},
                                  {1, -1, 1, -1, 1, -1, 1, -1},
                                  {-1, 1, -1, 1, 1, -1, 1, -1}};
  hex::Nodes dv;
  hex::volume_derivatives(pos, dv);
  const double determ = volo * v;
  const double volinv = 1.0 / determ;
  double hourgam[8][4];
  for (int m = 0; m < 4; ++m) {
    double mode[3];
    for (int k = 0; k < 3; ++k) {
      mode[k] = 0;
      for (int j = 0; j < 8; ++j)
        mode[k] += pos[k][j] * gamma[m][j];
    }
    for (int j = 0; j < 8; ++j)
      hourgam[j][m] =
          gamma[m][j] - volinv * (dv[0][j] * mode[0] + dv[1][j] * mode[1] + dv[2][j] * mode[2]);
  }
  const double coefficient = -hourg * 0.01 * ss * mass / std::cbrt(determ);
  for (int k = 0; k < 3; ++k) {
    double h[4];
    for (int m = 0; m < 4; ++m) {
      h[m] = 0;
      for (int j = 0; j < 8; ++j)
        h[m] += hourgam[j][m] * vel[k][j];
    }
    for (int i = 0; i < 8; ++i)
      f[k][i] += coefficient * (hourgam[i][0] * h[0] + hourgam[i][1] * h[1] + hourgam[i][2] * h[2] +
                                hourgam[i][3] * h[3]);
  }
}

/// Adds corner forces to the eight nodes' force accessors.
template <class F>
KOKKOS_INLINE_FUNCTION void add_forces(const CornerForces &f, F &f0, F &f1, F &f2, F &f3, F &f4,
                                       F &f5, F &f6, F &f7) {
  F *n[8] = {&f0, &f1, &f2, &f3, &f4, &f5, &f6, &f7};
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 3; ++k)
      (*n[i])(k) += f[k][i];
}

/// The stress forces alone (LULESH without hourglass control, hgcoef 0):
/// writes the Jacobian determinant and folds its minimum (a non-positive
/// one is LULESH's volume error).
struct StressForces {
  template <class S, class D, class X, class F, class G>
  KOKKOS_INLINE_FUNCTION void operator()(S p, S q, D determ, X x0, X x1, X x2, X x3, X x4, X x5,
                                         X x6, X x7, F f0, F f1, F f2, F f3, F f4, F f5, F f6, F f7,
                                         G det_min) const {
    hex::Nodes pos;
    hex::gather(pos, x0, x1, x2, x3, x4, x5, x6, x7);
    CornerForces f = {};
    const double det = stress_forces(pos, p(0), q(0), f);
    determ(0) = det;
    det_min(0) = det < det_min(0) ? det : det_min(0);
    add_forces(f, f0, f1, f2, f3, f4, f5, f6, f7);
  }
};

/// LULESH's volume forces in one loop, as its CUDA port computes them:
/// stress and hourglass forces of an element summed, then added to its
/// nodes once (one pass over the positions, one scatter).
struct VolumeForces {
  double hourg;
  template <class S, class D, class X, class U, class F, class G>
  KOKKOS_INLINE_FUNCTION void operator()(S p, S q, S volo, S v, S ss, S mass, D determ, X x0, X x1,
                                         X x2, X x3, X x4, X x5, X x6, X x7, U u0, U u1, U u2, U u3,
                                         U u4, U u5, U u6, U u7, F f0, F f1, F f2, F f3, F f4, F f5,
                                         F f6, F f7, G det_min) const {
    hex::Nodes pos, vel;
    hex::gather(pos, x0, x1, x2, x3, x4, x5, x6, x7);
    CornerForces f = {};
    const double det = stress_forces(pos, p(0), q(0), f);
    determ(0) = det;
    det_min(0) = det < det_min(0) ? det : det_min(0);
    hex::gather(vel, u0, u1, u2, u3, u4, u5, u6, u7);
    hourglass_forces(pos, vel, hourg, volo(0), v(0), ss(0), mass(0), f);
    add_forces(f, f0, f1, f2, f3, f4, f5, f6, f7);
  }
};

/// Acceleration (zero normal to the symmetry planes), velocity (tiny values
/// cut to zero) and position of each node for one time step. The step is
/// read from device memory (`dt`), not held: a CUDA graph replays a kernel
/// with the arguments it was recorded with.
struct NodeUpdate {
  const double *dt;
  double u_cut;
  template <class F, class M, class B, class U, class X>
  KOKKOS_INLINE_FUNCTION void operator()(F f, M mass, B symmetry, U xd, X x) const {
    const double step = *dt;
    for (int k = 0; k < 3; ++k) {
      const double a = (symmetry(0) >> k) & 1 ? 0.0 : f(k) / mass(0);
      double u = xd(k) + a * step;
      if (std::fabs(u) < u_cut)
        u = 0.0;
      xd(k) = u;
      x(k) = x(k) + u * step;
    }
  }
};

/// CalcKinematicsForElems and CalcMonotonicQGradientsForElems in one loop:
/// new relative volume, its change, the characteristic length, the volume
/// rate, and the velocity and position differences across the element in
/// its three logical directions (for the monotonic q). Folds the minimum
/// new volume (a non-positive one is LULESH's volume error). The step in
/// device memory, as NodeUpdate's.
struct Kinematics {
  const double *dt;
  template <class E, class X, class U, class W, class W3, class G>
  KOKKOS_INLINE_FUNCTION void operator()(E volo, E v, X x0, X x1, X x2, X x3, X x4, X x5, X x6,
                                         X x7, U u0, U u1, U u2, U u3, U u4, U u5, U u6, U u7,
                                         W vnew, W delv, W arealg, W vdov, W3 delv_dir, W3 delx_dir,
                                         G vnew_min) const {
    hex::Nodes pos, vel;
    hex::gather(pos, x0, x1, x2, x3, x4, x5, x6, x7);
    hex::gather(vel, u0, u1, u2, u3, u4, u5, u6, u7);
    const double volume = hex::volume(pos);
    const double relative = volume / volo(0);
    vnew(0) = relative;
    delv(0) = relative - v(0);
    vnew_min(0) = relative < vnew_min(0) ? relative : vnew_min(0);
    arealg(0) = hex::characteristic_length(pos, volume);
    // Velocity gradient at the half step back in time.
    hex::Nodes half, b = {}; // (zeroed: GCC cannot see shape_derivatives fill it)
    const double step = *dt;
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < 8; ++i)
        half[k][i] = pos[k][i] - 0.5 * step * vel[k][i];
    const double det = hex::shape_derivatives(half, b);
    vdov(0) = hex::velocity_divergence(vel, b, det);

    // Monotonic q gradients, at the current positions.
    constexpr double ptiny = 1.e-36;
    const double vol = volo(0) * relative;
    const double norm = 1.0 / (vol + ptiny);
    double di[3], dj[3], dk[3], vi[3], vj[3], vk[3];
    hex::logical_differences(pos, di, dj, dk);
    hex::logical_differences(vel, vi, vj, vk);
    // Direction d: the area vector of the two other directions' plane,
    // the length across and the velocity difference along it.
    auto along = [&](const double(&a)[3], const double(&b2)[3], const double(&dvel)[3], int d) {
      double n[3];
      hex::cross(a, b2, n);
      delx_dir(d) = vol / std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] + ptiny);
      delv_dir(d) = (n[0] * norm) * dvel[0] + (n[1] * norm) * dvel[1] + (n[2] * norm) * dvel[2];
    };
    along(dj, dk, vi, 0); // xi
    along(dk, di, vj, 1); // eta
    along(di, dj, vk, 2); // zeta
  }
};

/// CalcMonotonicQRegionForElems: the linear and quadratic artificial
/// viscosity terms from the velocity differences of the element and its
/// six face neighbours (limited, Christensen's monotonic q).
struct MonotonicQ {
  double limiter_mult, max_slope, qlc, qqc;
  // Limiter of one direction from the neighbours' values behind (m) and
  // ahead (p), or the element's own / zero at symmetry / free faces.
  KOKKOS_INLINE_FUNCTION double limiter(double own, double m, double p, int bc, int face) const {
    constexpr double ptiny = 1.e-36;
    const double norm = 1.0 / (own + ptiny);
    double dm = bc & symmetry_flag(face) ? own : bc & free_flag(face) ? 0.0 : m;
    double dp = bc & symmetry_flag(face + 1) ? own : bc & free_flag(face + 1) ? 0.0 : p;
    dm *= norm;
    dp *= norm;
    double phi = 0.5 * (dm + dp);
    dm *= limiter_mult;
    dp *= limiter_mult;
    if (dm < phi)
      phi = dm;
    if (dp < phi)
      phi = dp;
    if (phi < 0.0)
      phi = 0.0;
    if (phi > max_slope)
      phi = max_slope;
    return phi;
  }
  template <class D3, class I, class E, class N, class W>
  KOKKOS_INLINE_FUNCTION void operator()(D3 delv_dir, D3 delx_dir, I bc, E vdov, E mass, E volo,
                                         E vnew, N n0, N n1, N n2, N n3, N n4, N n5, W ql,
                                         W qq) const {
    const int flags = bc(0);
    const double phi[3] = {limiter(delv_dir(0), n0(0), n1(0), flags, xi_minus),
                           limiter(delv_dir(1), n2(1), n3(1), flags, eta_minus),
                           limiter(delv_dir(2), n4(2), n5(2), flags, zeta_minus)};
    double qlin = 0.0, qquad = 0.0;
    if (vdov(0) <= 0.0) {
      const double rho = mass(0) / (volo(0) * vnew(0));
      double lin = 0, quad = 0;
      for (int d = 0; d < 3; ++d) {
        double dvx = delv_dir(d) * delx_dir(d);
        if (dvx > 0.0)
          dvx = 0.0;
        lin += dvx * (1.0 - phi[d]);
        quad += dvx * dvx * (1.0 - phi[d] * phi[d]);
      }
      qlin = -qlc * rho * lin;
      qquad = qqc * rho * quad;
    }
    ql(0) = qlin;
    qq(0) = qquad;
  }
};

/// UpdateVolumesForElems and CalcTimeConstraintsForElems in one loop: the
/// new relative volume becomes current; folds the Courant and hydro time
/// limits (min) and the largest q (LULESH stops past qstop).
struct Constraints {
  double v_cut, qqc, dvovmax;
  template <class W, class E, class G, class Q>
  KOKKOS_INLINE_FUNCTION void operator()(W v, E vnew, E ss, E vdov, E arealg, E q, G dt_min,
                                         Q q_max) const {
    const double vn = vnew(0);
    v(0) = std::fabs(vn - 1.0) < v_cut ? 1.0 : vn;
    const double rate = vdov(0);
    if (rate != 0.0) {
      double dtf = ss(0) * ss(0);
      if (rate < 0.0)
        dtf += 64.0 * qqc * qqc * arealg(0) * arealg(0) * rate * rate;
      dtf = arealg(0) / std::sqrt(dtf);
      dt_min(0) = dtf < dt_min(0) ? dtf : dt_min(0);
      const double dth = dvovmax / (std::fabs(rate) + 1.e-20);
      dt_min(1) = dth < dt_min(1) ? dth : dt_min(1);
    }
    q_max(0) = q(0) > q_max(0) ? q(0) : q_max(0);
  }
};

} // namespace lulesh

#endif
