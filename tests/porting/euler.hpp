#ifndef UMESH_TESTS_PORTING_EULER_HPP
#define UMESH_TESTS_PORTING_EULER_HPP

// The physics of docs/porting.md's example, a 2D Euler finite-volume code:
// plain Kokkos, shared unchanged by the original (fv_kokkos.hpp) and its
// port (fv_umesh.hpp). A port keeps functions like these as they are.

#include <Kokkos_Core.hpp>

namespace fv {

#if KOKKOS_VERSION >= 30700
namespace kmath = Kokkos;
#else
namespace kmath = Kokkos::Experimental;
#endif

constexpr double heat_ratio = 1.4; // gamma

KOKKOS_INLINE_FUNCTION double pressure(const double q[4]) {
  return (heat_ratio - 1) * (q[3] - 0.5 * (q[1] * q[1] + q[2] * q[2]) / q[0]);
}

/// The largest wave speed of state q: |u| + c.
KOKKOS_INLINE_FUNCTION double wave_speed(const double q[4]) {
  const double u = q[1] / q[0], v = q[2] / q[0];
  return kmath::sqrt(u * u + v * v) + kmath::sqrt(heat_ratio * pressure(q) / q[0]);
}

/// The state beyond a wall: q with its normal velocity reversed.
KOKKOS_INLINE_FUNCTION void wall_state(const double q[4], double nx, double ny, double out[4]) {
  const double nn = nx * nx + ny * ny, un = (q[1] * nx + q[2] * ny) / nn;
  out[0] = q[0];
  out[1] = q[1] - 2 * un * nx;
  out[2] = q[2] - 2 * un * ny;
  out[3] = q[3];
}

/// Rusanov flux through an edge of normal (nx, ny) (its length, pointing
/// from the left state ql to the right one qr).
KOKKOS_INLINE_FUNCTION void rusanov(const double ql[4], const double qr[4], double nx, double ny,
                                    double f[4]) {
  const double pl = pressure(ql), pr = pressure(qr);
  const double unl = (ql[1] * nx + ql[2] * ny) / ql[0], unr = (qr[1] * nx + qr[2] * ny) / qr[0];
  const double len = kmath::sqrt(nx * nx + ny * ny);
  const double s = kmath::fmax(kmath::fabs(unl) + kmath::sqrt(heat_ratio * pl / ql[0]) * len,
                               kmath::fabs(unr) + kmath::sqrt(heat_ratio * pr / qr[0]) * len);
  const double fl[4] = {ql[0] * unl, ql[1] * unl + pl * nx, ql[2] * unl + pl * ny,
                        (ql[3] + pl) * unl};
  const double fr[4] = {qr[0] * unr, qr[1] * unr + pr * nx, qr[2] * unr + pr * ny,
                        (qr[3] + pr) * unr};
  for (int k = 0; k < 4; ++k)
    f[k] = 0.5 * (fl[k] + fr[k]) - 0.5 * s * (qr[k] - ql[k]);
}

} // namespace fv

#endif
