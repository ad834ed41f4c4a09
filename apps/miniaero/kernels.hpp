#ifndef UMESH_MINIAERO_KERNELS_HPP
#define UMESH_MINIAERO_KERNELS_HPP

// miniAero's loops as umesh kernels: each is written once and runs under
// every executor and layout. Accessors: `u(k)` reads, `f(k) += v`
// increments, `lo(k).update(v)` folds into a min or max. Suffixes l and r
// are a face's two cells; b is a boundary face's cell.

#include "physics.hpp"

namespace miniaero {

/// Copies a face's 3-vector argument.
template <class A> KOKKOS_INLINE_FUNCTION void load3(const A &a, double v[3]) {
  v[0] = a(0);
  v[1] = a(1);
  v[2] = a(2);
}

/// Green-Gauss: the face average of the primitives times the area vector,
/// divided by each cell's volume, into both cells' gradients [5][3].
struct GradientFace {
  template <class U, class Vol, class N, class G>
  KOKKOS_INLINE_FUNCTION void operator()(U ul, U ur, Vol vl, Vol vr, N n, G gl, G gr) const {
    double VL[5], VR[5];
    primitive_of(ul, VL);
    primitive_of(ur, VR);
    const double il = 1.0 / vl(0), ir = 1.0 / vr(0);
    for (int d = 0; d < 3; ++d)
      for (int k = 0; k < 5; ++k) {
        const double g = 0.5 * (VL[k] + VR[k]) * n(d);
        gl(3 * k + d) += g * il;
        gr(3 * k + d) -= g * ir;
      }
  }
};

/// Green-Gauss on a boundary face: the cell's own value on the face.
struct GradientBoundary {
  template <class U, class Vol, class N, class G>
  KOKKOS_INLINE_FUNCTION void operator()(U ub, Vol vb, N n, G gb) const {
    double V[5];
    primitive_of(ub, V);
    const double inv = 1.0 / vb(0);
    for (int k = 0; k < 5; ++k)
      for (int d = 0; d < 3; ++d)
        gb(3 * k + d) += V[k] * n(d) * inv;
  }
};

/// The limiter's stencil: min and max of the primitives over a cell and its
/// face neighbours.
struct StencilFace {
  template <class U, class Lo, class Hi>
  KOKKOS_INLINE_FUNCTION void operator()(U ul, U ur, Lo lol, Lo lor, Hi hil, Hi hir) const {
    double VL[5], VR[5];
    primitive_of(ul, VL);
    primitive_of(ur, VR);
    for (int k = 0; k < 5; ++k) {
      const double lo = VL[k] < VR[k] ? VL[k] : VR[k];
      const double hi = VL[k] < VR[k] ? VR[k] : VL[k];
      lol(k).update(lo);
      lor(k).update(lo);
      hil(k).update(hi);
      hir(k).update(hi);
    }
  }
};

struct StencilBoundary {
  template <class U, class Lo, class Hi>
  KOKKOS_INLINE_FUNCTION void operator()(U ub, Lo lo, Hi hi) const {
    double V[5];
    primitive_of(ub, V);
    for (int k = 0; k < 5; ++k) {
      lo(k).update(V[k]);
      hi(k).update(V[k]);
    }
  }
};

/// The same stencil per cell (--stencil cells): the cell's own primitive
/// values and its neighbours' through a cell-to-cell map (a missing neighbour
/// is the cell itself). Each cell writes only its own min and max, so no
/// combining is needed; min and max are exact, so the numbers equal those of
/// StencilFace with StencilBoundary bit for bit.
struct StencilCell {
  template <class U, class Lo, class Hi, class... N>
  KOKKOS_INLINE_FUNCTION void operator()(U u, Lo lo, Hi hi, N... neighbours) const {
    double L[5], H[5];
    primitive_of(u, L);
    for (int k = 0; k < 5; ++k)
      H[k] = L[k];
    (fold(neighbours, L, H), ...);
    for (int k = 0; k < 5; ++k) {
      lo(k) = L[k];
      hi(k) = H[k];
    }
  }
  template <class N> KOKKOS_INLINE_FUNCTION static void fold(const N &n, double *L, double *H) {
    double V[5];
    primitive_of(n, V);
    for (int k = 0; k < 5; ++k) {
      L[k] = V[k] < L[k] ? V[k] : L[k];
      H[k] = V[k] > H[k] ? V[k] : H[k];
    }
  }
};

/// Venkatakrishnan limiter of one cell at one face: the smallest over its
/// faces is the cell's limiter.
template <class U, class X, class G, class Lo, class Hi, class L>
KOKKOS_INLINE_FUNCTION void limit_at_face(const double xf[3], const U &u, const X &xc, const G &g,
                                          const Lo &lo, const Hi &hi, const L &lim) {
  double V[5];
  primitive_of(u, V);
  const double dx[3] = {xf[0] - xc(0), xf[1] - xc(1), xf[2] - xc(2)};
  const double dist2 = dot3(dx, dx);
  for (int k = 0; k < 5; ++k) {
    const double du = dx[0] * g(3 * k) + dx[1] * g(3 * k + 1) + dx[2] * g(3 * k + 2);
    lim(k).update(venkat(hi(k) - V[k], lo(k) - V[k], du, dist2));
  }
}

struct LimiterFace {
  template <class XF, class U, class X, class G, class Lo, class Hi, class L>
  KOKKOS_INLINE_FUNCTION void operator()(XF xf, U ul, U ur, X xl, X xr, G gl, G gr, Lo lol, Lo lor,
                                         Hi hil, Hi hir, L liml, L limr) const {
    double f[3];
    load3(xf, f);
    limit_at_face(f, ul, xl, gl, lol, hil, liml);
    limit_at_face(f, ur, xr, gr, lor, hir, limr);
  }
};

struct LimiterBoundary {
  template <class XF, class U, class X, class G, class Lo, class Hi, class L>
  KOKKOS_INLINE_FUNCTION void operator()(XF xf, U ub, X xb, G gb, Lo lo, Hi hi, L lim) const {
    double f[3];
    load3(xf, f);
    limit_at_face(f, ub, xb, gb, lo, hi, lim);
  }
};

/// The limiter of one cell from all its faces at once (--stencil cells):
/// each cell's face centroids were gathered beforehand (`xf`, [6][3]; a
/// cell with fewer faces repeats one), so the loop reads and writes only its
/// own cell, with nothing to combine. The same minimum, of the same values,
/// as LimiterFace and LimiterBoundary folded into a limiter filled with 1.
struct LimiterCell {
  template <class U, class X, class G, class Lo, class Hi, class XF, class L>
  KOKKOS_INLINE_FUNCTION void operator()(U u, X xc, G g, Lo lo, Hi hi, XF xf, L lim) const {
    double V[5], m[5] = {1.0, 1.0, 1.0, 1.0, 1.0};
    primitive_of(u, V);
    for (int f = 0; f < 6; ++f) {
      const double dx[3] = {xf(3 * f) - xc(0), xf(3 * f + 1) - xc(1), xf(3 * f + 2) - xc(2)};
      const double dist2 = dot3(dx, dx);
      for (int k = 0; k < 5; ++k) {
        const double du = dx[0] * g(3 * k) + dx[1] * g(3 * k + 1) + dx[2] * g(3 * k + 2);
        const double v = venkat(hi(k) - V[k], lo(k) - V[k], du, dist2);
        m[k] = v < m[k] ? v : m[k];
      }
    }
    for (int k = 0; k < 5; ++k)
      lim(k) = m[k];
  }
};

/// First-order inviscid face flux: the left cell loses it, the right gains.
struct FaceFluxFirstOrder {
  template <class N, class U, class F>
  KOKKOS_INLINE_FUNCTION void operator()(N n, N t, N b, U ul, U ur, F fl, F fr) const {
    double VL[5], VR[5], nv[3], tv[3], bv[3], flux[5];
    primitive_of(ul, VL);
    primitive_of(ur, VR);
    load3(n, nv);
    load3(t, tv);
    load3(b, bv);
    roe_flux(VL, VR, nv, tv, bv, flux);
    for (int k = 0; k < 5; ++k) {
      fl(k) -= flux[k];
      fr(k) += flux[k];
    }
  }
};

/// Face flux with limited linear reconstruction (SecondOrder) and/or the
/// viscous flux from the averaged cell gradients (Viscous).
template <bool SecondOrder, bool Viscous> struct FaceFlux {
  template <class N, class U, class X, class G, class L, class F>
  KOKKOS_INLINE_FUNCTION void operator()(N xf, N n, N t, N b, U ul, U ur, X xl, X xr, G gl, G gr,
                                         L liml, L limr, F fl, F fr) const {
    double VL[5], VR[5], f[3], nv[3], tv[3], bv[3], flux[5];
    primitive_of(ul, VL);
    primitive_of(ur, VR);
    load3(xf, f);
    load3(n, nv);
    load3(t, tv);
    load3(b, bv);
    if constexpr (SecondOrder) {
      const double dl[3] = {f[0] - xl(0), f[1] - xl(1), f[2] - xl(2)};
      const double dr[3] = {f[0] - xr(0), f[1] - xr(1), f[2] - xr(2)};
      for (int k = 0; k < 5; ++k) {
        VL[k] += (dl[0] * gl(3 * k) + dl[1] * gl(3 * k + 1) + dl[2] * gl(3 * k + 2)) * liml(k);
        VR[k] += (dr[0] * gr(3 * k) + dr[1] * gr(3 * k + 1) + dr[2] * gr(3 * k + 2)) * limr(k);
      }
    }
    roe_flux(VL, VR, nv, tv, bv, flux);
    if constexpr (Viscous) {
      double Vf[5], grad[5][3], vflux[5];
      for (int k = 0; k < 5; ++k) {
        Vf[k] = 0.5 * (VL[k] + VR[k]);
        for (int d = 0; d < 3; ++d)
          grad[k][d] = 0.5 * (gl(3 * k + d) + gr(3 * k + d));
      }
      viscous_flux(grad, Vf, nv, vflux);
      for (int k = 0; k < 5; ++k)
        flux[k] -= vflux[k];
    }
    for (int k = 0; k < 5; ++k) {
      fl(k) -= flux[k];
      fr(k) += flux[k];
    }
  }
};

/// Boundary faces: the outside state by condition, then the Roe flux (and
/// for a no-slip wall the viscous flux from a one-sided wall gradient).
struct ExtrapolateBc {
  template <class N, class U, class F>
  KOKKOS_INLINE_FUNCTION void operator()(N n, N t, N b, U ub, F fb) const {
    double V[5], nv[3], tv[3], bv[3], flux[5];
    primitive_of(ub, V);
    load3(n, nv);
    load3(t, tv);
    load3(b, bv);
    roe_flux(V, V, nv, tv, bv, flux);
    for (int k = 0; k < 5; ++k)
      fb(k) -= flux[k];
  }
};

struct TangentBc {
  template <class N, class U, class F>
  KOKKOS_INLINE_FUNCTION void operator()(N n, N t, N b, U ub, F fb) const {
    double V[5], W[5], nv[3], tv[3], bv[3], flux[5];
    primitive_of(ub, V);
    load3(n, nv);
    load3(t, tv);
    load3(b, bv);
    mirror_state(V, nv, W);
    roe_flux(V, W, nv, tv, bv, flux);
    for (int k = 0; k < 5; ++k)
      fb(k) -= flux[k];
  }
};

struct InflowBc {
  double state[5]; // conservative inflow state
  template <class N, class U, class F>
  KOKKOS_INLINE_FUNCTION void operator()(N n, N t, N b, U ub, F fb) const {
    double V[5], W[5], nv[3], tv[3], bv[3], flux[5];
    primitive_of(ub, V);
    to_primitive(state, W);
    load3(n, nv);
    load3(t, tv);
    load3(b, bv);
    roe_flux(V, W, nv, tv, bv, flux);
    for (int k = 0; k < 5; ++k)
      fb(k) -= flux[k];
  }
};

struct NoSlipBc {
  template <class N, class U, class X, class F>
  KOKKOS_INLINE_FUNCTION void operator()(N xf, N n, N t, N b, U ub, X xb, F fb) const {
    double V[5], W[5], f[3], nv[3], tv[3], bv[3], flux[5];
    primitive_of(ub, V);
    load3(xf, f);
    load3(n, nv);
    load3(t, tv);
    load3(b, bv);
    mirror_state(V, nv, W);
    roe_flux(V, W, nv, tv, bv, flux);
    // Wall state: no velocity, the cell's density and temperature; the
    // gradient is the one-sided difference along the unit normal.
    const double area = umesh::math::sqrt(dot3(nv, nv));
    const double d[3] = {f[0] - xb(0), f[1] - xb(1), f[2] - xb(2)};
    const double inv_dist = 1.0 / umesh::math::sqrt(dot3(d, d));
    const double Vw[5] = {V[0], 0.0, 0.0, 0.0, V[4]};
    double G[5][3], vflux[5];
    for (int k = 0; k < 5; ++k)
      for (int j = 0; j < 3; ++j)
        G[k][j] = (Vw[k] - V[k]) * nv[j] / area * inv_dist;
    viscous_flux(G, Vw, nv, vflux);
    for (int k = 0; k < 5; ++k)
      fb(k) += -flux[k] + vflux[k];
  }
};

/// Direct cell loops of the RK4 update.
struct StageState { // U_stage = U_n + alpha * R
  double alpha;
  template <class A, class R, class W>
  KOKKOS_INLINE_FUNCTION void operator()(A un, R res, W ustage) const {
    for (int k = 0; k < 5; ++k)
      ustage(k) = un(k) + alpha * res(k);
  }
};
struct Residual { // R = dt / V * flux
  double dt;
  template <class V, class F, class R>
  KOKKOS_INLINE_FUNCTION void operator()(V vol, F flux, R res) const {
    for (int k = 0; k < 5; ++k)
      res(k) = dt / vol(0) * flux(k);
  }
};
struct Accumulate { // U_{n+1} += beta * R
  double beta;
  template <class R, class W> KOKKOS_INLINE_FUNCTION void operator()(R res, W unp1) const {
    for (int k = 0; k < 5; ++k)
      unp1(k) += beta * res(k);
  }
};

} // namespace miniaero

#endif
