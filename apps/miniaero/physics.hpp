#ifndef UMESH_MINIAERO_PHYSICS_HPP
#define UMESH_MINIAERO_PHYSICS_HPP

// Pointwise numerics of miniAero (Sandia's explicit RK4 finite-volume
// mini-app), written for umesh: ideal gas, Roe's approximate Riemann flux,
// the Newtonian viscous flux and the Venkatakrishnan limiter. The constants
// are miniAero's, including its Cp = 1004 next to R = 287.05 and gamma = 1.4,
// so that its regression results can be reproduced.

#include <umesh/math.hpp>

#include <Kokkos_Core.hpp>

namespace miniaero {

constexpr double kGamma = 1.4;
constexpr double kRgas = 287.05;
constexpr double kCp = 1004.0;        // enthalpy h = Cp T (miniAero's value)
constexpr double kCpThermal = 1006.0; // in the thermal conductivity
constexpr double kPrandtl = 0.71;

/// Conservative (rho, rho u, rho v, rho w, rho E) -> primitive (rho, u, v, w, T).
KOKKOS_INLINE_FUNCTION void to_primitive(const double U[5], double V[5]) {
  const double rho = U[0], inv = 1.0 / rho;
  const double u = U[1] * inv, v = U[2] * inv, w = U[3] * inv;
  const double e = U[4] * inv - 0.5 * (u * u + v * v + w * w);
  V[0] = rho;
  V[1] = u;
  V[2] = v;
  V[3] = w;
  V[4] = e * (kGamma - 1.0) / kRgas;
}

/// Primitive state of a cell read through an accessor `u(k)`.
template <class A> KOKKOS_INLINE_FUNCTION void primitive_of(const A &u, double V[5]) {
  const double U[5] = {u(0), u(1), u(2), u(3), u(4)};
  to_primitive(U, V);
}

KOKKOS_INLINE_FUNCTION double pressure(const double V[5]) {
  return V[0] * kRgas * V[4];
}

KOKKOS_INLINE_FUNCTION double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/// Roe flux through a face with area vector n (not unit), tangents t and b,
/// from left state VL to right state VR (primitives). Entropy fix on the
/// eigenvalues at 0.1 of the spectral radius, as miniAero does.
KOKKOS_INLINE_FUNCTION void roe_flux(const double VL[5], const double VR[5], const double n[3],
                                     const double t[3], const double b[3], double F[5]) {
  constexpr double gm1 = kGamma - 1.0, efix = 0.1;
  const double pL = pressure(VL), pR = pressure(VR);
  const double hL = kCp * VL[4], hR = kCp * VR[4];
  const double kL = 0.5 * (VL[1] * VL[1] + VL[2] * VL[2] + VL[3] * VL[3]);
  const double kR = 0.5 * (VR[1] * VR[1] + VR[2] * VR[2] + VR[3] * VR[3]);
  const double HL = hL + kL, HR = hR + kR;
  const double mL = VL[0] * dot3(n, VL + 1), mR = VR[0] * dot3(n, VR + 1);
  // Central part.
  F[0] = 0.5 * (mL + mR);
  for (int d = 0; d < 3; ++d)
    F[1 + d] = 0.5 * (mL * VL[1 + d] + mR * VR[1 + d] + n[d] * (pL + pR));
  F[4] = 0.5 * (mL * HL + mR * HR);

  // Unit frame of the face.
  const double nn = umesh::math::sqrt(dot3(n, n));
  const double tn = umesh::math::sqrt(dot3(t, t));
  const double bn = umesh::math::sqrt(dot3(b, b));
  const double nu[3] = {n[0] / nn, n[1] / nn, n[2] / nn};
  const double tu[3] = {t[0] / tn, t[1] / tn, t[2] / tn};
  const double bu[3] = {b[0] / bn, b[1] / bn, b[2] / bn};

  // Roe averages (miniAero averages the static enthalpy).
  const double sL = umesh::math::sqrt(VL[0]), sR = umesh::math::sqrt(VR[0]);
  const double wl = sL / (sL + sR), wr = 1.0 - wl;
  const double vel[3] = {wl * VL[1] + wr * VR[1], wl * VL[2] + wr * VR[2], wl * VL[3] + wr * VR[3]};
  double du2 = 0;
  for (int d = 0; d < 3; ++d)
    du2 += (VR[1 + d] - VL[1 + d]) * (VR[1 + d] - VL[1 + d]);
  const double h = wl * hL + wr * hR + 0.5 * wl * wr * du2;
  const double c = umesh::math::sqrt(gm1 * h);
  const double ke = 0.5 * dot3(vel, vel);
  const double un = dot3(vel, nu), ut = dot3(vel, tu), ub = dot3(vel, bu);
  const double ic2 = 1.0 / (c * c), hic2 = 0.5 * ic2;

  // Eigenvalues scaled by the face area, with the entropy fix.
  const double ubar = dot3(vel, n), cbar = c * nn;
  const double eps = efix * (umesh::math::fabs(ubar) + cbar);
  auto fixed = [eps](double lambda) {
    const double a = umesh::math::fabs(lambda);
    return a < eps ? 0.5 * (lambda * lambda + eps * eps) / eps : a;
  };
  const double lam[5] = {fixed(ubar + cbar), fixed(ubar - cbar), fixed(ubar), fixed(ubar),
                         fixed(ubar)};

  // Jump of the conservative variables (energy as rho H - p).
  const double dU[5] = {VR[0] - VL[0], VR[0] * VR[1] - VL[0] * VL[1], VR[0] * VR[2] - VL[0] * VL[2],
                        VR[0] * VR[3] - VL[0] * VL[3], (VR[0] * HR - pR) - (VL[0] * HL - pL)};

  // Characteristic amplitudes: rows of the left eigenvector matrix.
  const double base = gm1 * (ke - h);
  double w[5];
  w[0] = (base + c * (c - un)) * dU[0] + (c * nu[0] - gm1 * vel[0]) * dU[1] +
         (c * nu[1] - gm1 * vel[1]) * dU[2] + (c * nu[2] - gm1 * vel[2]) * dU[3] + gm1 * dU[4];
  w[1] = (base + c * (c + un)) * dU[0] + (-c * nu[0] - gm1 * vel[0]) * dU[1] +
         (-c * nu[1] - gm1 * vel[1]) * dU[2] + (-c * nu[2] - gm1 * vel[2]) * dU[3] + gm1 * dU[4];
  w[2] = (ke - h) * dU[0] - vel[0] * dU[1] - vel[1] * dU[2] - vel[2] * dU[3] + dU[4];
  w[3] = -ut * dU[0] + tu[0] * dU[1] + tu[1] * dU[2] + tu[2] * dU[3];
  w[4] = -ub * dU[0] + bu[0] * dU[1] + bu[1] * dU[2] + bu[2] * dU[3];
  for (int k = 0; k < 5; ++k)
    w[k] *= lam[k];

  // Back through the right eigenvectors; half the dissipation is subtracted.
  const double Htot = h + ke;
  double D[5];
  D[0] = hic2 * (w[0] + w[1]) - gm1 * ic2 * w[2];
  for (int d = 0; d < 3; ++d)
    D[1 + d] = (vel[d] + nu[d] * c) * hic2 * w[0] + (vel[d] - nu[d] * c) * hic2 * w[1] -
               gm1 * vel[d] * ic2 * w[2] + tu[d] * w[3] + bu[d] * w[4];
  D[4] = (Htot + c * un) * hic2 * w[0] + (Htot - c * un) * hic2 * w[1] +
         (c * c - gm1 * Htot) * ic2 * w[2] + ut * w[3] + ub * w[4];
  for (int k = 0; k < 5; ++k)
    F[k] -= 0.5 * D[k];
}

/// Sutherland's law.
KOKKOS_INLINE_FUNCTION double viscosity(double T) {
  return 1.458e-6 * T * umesh::math::sqrt(T) / (T + 110.4);
}

/// Newtonian viscous flux through area vector n, from the face state V and
/// the gradients G[component][direction] of the primitives.
KOKKOS_INLINE_FUNCTION void viscous_flux(const double G[5][3], const double V[5], const double n[3],
                                         double F[5]) {
  const double mu = viscosity(V[4]);
  const double kappa = mu * kCpThermal / kPrandtl;
  const double div = G[1][0] + G[2][1] + G[3][2];
  for (int k = 0; k < 5; ++k)
    F[k] = 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const double tau = 2 * mu * (0.5 * (G[1 + i][j] + G[1 + j][i]) - (i == j ? div / 3.0 : 0.0));
      F[1 + i] += tau * n[j];
      F[4] += tau * V[1 + i] * n[j];
    }
    F[4] += kappa * G[4][i] * n[i];
  }
}

/// Venkatakrishnan's limiter for a face: du the reconstructed change, dmax
/// and dmin the room to the stencil's max and min, dx2 the squared distance.
KOKKOS_INLINE_FUNCTION double venkat(double dmax, double dmin, double du, double dx2) {
  const double eps2 = dx2; // (K dx)^3 with K = 1, as miniAero
  if (du > 1e-40)
    return ((dmax * dmax + eps2) * du + 2 * du * du * dmax) /
           (du * (dmax * dmax + 2 * du * du + dmax * du + eps2));
  if (du < -1e-40)
    return ((dmin * dmin + eps2) * du + 2 * du * du * dmin) /
           (du * (dmin * dmin + 2 * du * du + dmin * du + eps2));
  return 1.0;
}

/// The wall state of a slip (tangent) boundary: the normal velocity mirrored.
KOKKOS_INLINE_FUNCTION void mirror_state(const double V[5], const double n[3], double W[5]) {
  const double nn = umesh::math::sqrt(dot3(n, n));
  const double un = dot3(V + 1, n) / nn;
  W[0] = V[0];
  for (int d = 0; d < 3; ++d)
    W[1 + d] = V[1 + d] - 2 * un * n[d] / nn;
  W[4] = V[4];
}

} // namespace miniaero

#endif
