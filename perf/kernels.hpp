#ifndef UMESH_PERF_KERNELS_HPP
#define UMESH_PERF_KERNELS_HPP

// The main job's kernels, written once for every executor and layout.

#include "common/lulesh_hex.hpp"

#include <umesh/umesh.hpp>

namespace umesh::perf {

/// Airfoil-style residual on an edge: reads both nodes' coordinates, both
/// cells' state and time step, increments both cells' residual.
struct ResCalc {
  double gm1, eps;
  template <class X, class Q, class A, class R>
  KOKKOS_INLINE_FUNCTION void operator()(X x1, X x2, Q q1, Q q2, A adt1, A adt2, R res1,
                                         R res2) const {
    const double dx = x1(0) - x2(0), dy = x1(1) - x2(1);
    double ri = 1.0 / q1(0);
    const double p1 = gm1 * (q1(3) - 0.5 * ri * (q1(1) * q1(1) + q1(2) * q1(2)));
    const double vol1 = ri * (q1(1) * dy - q1(2) * dx);
    ri = 1.0 / q2(0);
    const double p2 = gm1 * (q2(3) - 0.5 * ri * (q2(1) * q2(1) + q2(2) * q2(2)));
    const double vol2 = ri * (q2(1) * dy - q2(2) * dx);
    const double mu = 0.5 * (adt1(0) + adt2(0)) * eps;
    double f = 0.5 * (vol1 * q1(0) + vol2 * q2(0)) + mu * (q1(0) - q2(0));
    res1(0) += f;
    res2(0) -= f;
    f = 0.5 * (vol1 * q1(1) + p1 * dy + vol2 * q2(1) + p2 * dy) + mu * (q1(1) - q2(1));
    res1(1) += f;
    res2(1) -= f;
    f = 0.5 * (vol1 * q1(2) - p1 * dx + vol2 * q2(2) - p2 * dx) + mu * (q1(2) - q2(2));
    res1(2) += f;
    res2(2) -= f;
    f = 0.5 * (vol1 * (q1(3) + p1) + vol2 * (q2(3) + p2)) + mu * (q1(3) - q2(3));
    res1(3) += f;
    res2(3) -= f;
  }
};

/// Inviscid face flux (Rusanov) between two hex cells of a 3D Euler state
/// (rho, rho u, rho v, rho w, E): reads the face's area vector and both
/// states, increments both cells' flux.
struct FaceFlux {
  double gamma;
  template <class N, class U, class F>
  KOKKOS_INLINE_FUNCTION void operator()(N n, U ul, U ur, F fl, F fr) const {
    const double area = math::sqrt(n(0) * n(0) + n(1) * n(1) + n(2) * n(2));
    const double nx = n(0) / area, ny = n(1) / area, nz = n(2) / area;
    double flux[5];
    double smax = 0;
    for (int side = 0; side < 2; ++side) {
      const U &u = side == 0 ? ul : ur;
      const double rho = u(0), ri = 1.0 / rho;
      const double vx = u(1) * ri, vy = u(2) * ri, vz = u(3) * ri;
      const double p = (gamma - 1) * (u(4) - 0.5 * rho * (vx * vx + vy * vy + vz * vz));
      const double vn = vx * nx + vy * ny + vz * nz;
      const double c = math::sqrt(gamma * p * ri);
      smax = math::fmax(smax, math::fabs(vn) + c);
      const double f[5] = {rho * vn, u(1) * vn + p * nx, u(2) * vn + p * ny, u(3) * vn + p * nz,
                           (u(4) + p) * vn};
      for (int k = 0; k < 5; ++k)
        flux[k] = side == 0 ? 0.5 * f[k] : flux[k] + 0.5 * f[k];
    }
    for (int k = 0; k < 5; ++k) {
      const double total = area * (flux[k] - 0.5 * smax * (ur(k) - ul(k)));
      fl(k) -= total;
      fr(k) += total;
    }
  }
};

/// BookLeaf's acceleration scatter (getacc): each quad adds to its four
/// nodes its corner masses, weights and forces. An empty corner (mass not
/// above `zerocut`) gives its predecessor corner's mass instead, or, when
/// that is empty too, density times its own weight. Node values: mass,
/// weight (area), force x, force y.
struct GetaccScatter {
  double zerocut;
  template <class C, class R, class N>
  KOKKOS_INLINE_FUNCTION void corner(const C &cnmass, const R &rho, const C &cnwt, const C &cnfx,
                                     const C &cnfy, N &node, int j) const {
    const int prev = (j + 3) % 4;
    node(0) += cnmass(j) > zerocut      ? cnmass(j)
               : cnmass(prev) > zerocut ? cnmass(prev)
                                        : rho(0) * cnwt(j);
    node(1) += cnwt(j);
    node(2) += cnfx(j);
    node(3) += cnfy(j);
  }
  template <class C, class R, class N>
  KOKKOS_INLINE_FUNCTION void operator()(C cnmass, R rho, C cnwt, C cnfx, C cnfy, N n0, N n1, N n2,
                                         N n3) const {
    corner(cnmass, rho, cnwt, cnfx, cnfy, n0, 0);
    corner(cnmass, rho, cnwt, cnfx, cnfy, n1, 1);
    corner(cnmass, rho, cnwt, cnfx, cnfy, n2, 2);
    corner(cnmass, rho, cnwt, cnfx, cnfy, n3, 3);
  }
};

/// Volna's SpaceDiscretization (shallow water, single precision): each edge
/// adds its numerical flux and bathymetry source, divided by the cell's
/// area, to the state change of its two cells: subtracted on the left cell,
/// added on the right one unless the edge is on the boundary. Components:
/// water height and the two momenta; the fourth (bathymetry) is untouched.
struct VolnaSpaceDiscretization {
  template <class F, class B, class N, class I, class V, class O>
  KOKKOS_INLINE_FUNCTION void operator()(F flux, B bathy, N normal, I is_boundary, V vol_left,
                                         V vol_right, O left, O right) const {
    left(0) -= flux(0) / vol_left(0);
    left(1) -= (flux(1) + bathy(0) * normal(0)) / vol_left(0);
    left(2) -= (flux(2) + bathy(0) * normal(1)) / vol_left(0);
    if (!is_boundary(0)) {
      right(0) += flux(0) / vol_right(0);
      right(1) += (flux(1) + bathy(1) * normal(0)) / vol_right(0);
      right(2) += (flux(2) + bathy(1) * normal(1)) / vol_right(0);
    }
  }
};

/// LULESH's IntegrateStressForElems on one hex (nodes in LULESH's order:
/// bottom face 0-3, top face 4-7 above them): writes the element's volume
/// (the Jacobian determinant of its trilinear map) and adds to each of its
/// eight nodes the force -stress x the node's normal, a quarter of the area
/// vectors of the three element faces through the node. The geometry is
/// umesh_lulesh's (apps/common/lulesh_hex.hpp).
struct IntegrateStress {
  template <class S, class D, class X, class F>
  KOKKOS_INLINE_FUNCTION void operator()(S sig, D determ, X x0, X x1, X x2, X x3, X x4, X x5, X x6,
                                         X x7, F f0, F f1, F f2, F f3, F f4, F f5, F f6,
                                         F f7) const {
    lulesh::hex::Nodes p, n;
    lulesh::hex::gather(p, x0, x1, x2, x3, x4, x5, x6, x7);
    determ(0) = lulesh::hex::shape_derivatives(p, n);
    lulesh::hex::node_normals(p, n);
    F *f[8] = {&f0, &f1, &f2, &f3, &f4, &f5, &f6, &f7};
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < 3; ++k)
        (*f[i])(k) += -(sig(k) * n[k][i]);
  }
};

} // namespace umesh::perf

#endif
