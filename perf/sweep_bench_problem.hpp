#ifndef UMESH_PERF_SWEEP_BENCH_PROBLEM_HPP
#define UMESH_PERF_SWEEP_BENCH_PROBLEM_HPP

// The sweep benchmark's problem: Tycho2's manufactured solution on the cube
// [0, L]^3 (psi = 1 - r / R inside the ball of radius R = 0.3 L about the
// centre, 0 outside, isotropic; its source q = Omega . grad psi +
// (sigma_t - sigma_s) psi), isotropic scattering sigma_s / (4 pi) phi, vacuum
// boundaries, and the step (upwind finite-volume) closure: a cell's value
// balances its source against what enters through its inflow faces and
// leaves through the others,
//   psi_c (sigma_t V + sum_out Omega.n_f) = (q + sigma_s phi_c / 4 pi) V - sum_in Omega.n_f psi_up.
// The serial reference runs each direction's cells in an order found from
// the plan's inflow flags alone (Kahn's, with a queue), with the same
// arithmetic as the kernel, directions spread over the host's threads.

#include <umesh/math.hpp>
#include <umesh/sweep_schedule.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

namespace umesh::perf {

struct StepTransport {
  double sigma_t = 10, sigma_s = 5, centre = 50, radius = 30;

  /// Tycho2's source at point x in direction w, without scattering.
  KOKKOS_INLINE_FUNCTION double source(double dx, double dy, double dz, double w0, double w1,
                                       double w2) const {
    const double r = math::sqrt(dx * dx + dy * dy + dz * dz);
    if (r > radius || r <= 0)
      return 0;
    return -(dx * w0 + dy * w1 + dz * w2) / (radius * r) + (sigma_t - sigma_s) * (1 - r / radius);
  }

  template <class Cell, class X, class Vol, class Phi>
  KOKKOS_INLINE_FUNCTION double operator()(const Cell &s, X x, Vol vol, Phi phi) const {
    const int g = s.group();
    const double q =
        source(x(0) - centre, x(1) - centre, x(2) - centre, s.omega(0), s.omega(1), s.omega(2)) +
        sigma_s / (4 * M_PI) * phi(g);
    double num = q * vol(0), den = sigma_t * vol(0);
    for (int f = 0; f < s.faces(); ++f) {
      if (!s.face(f))
        continue;
      const double w = s.dot(f);
      if (s.inflow(f))
        num -= w * s.upwind(f);
      else
        den += w;
    }
    return num / den;
  }
};

/// One sweep on the host: phi_out [cell][group] = sum_d w_d psi(c, d, g)
/// from the scalar flux phi_in; `lagged` holds, per lagged face and group,
/// the value it reads (the previous sweep's; replaced with this sweep's).
inline void reference_sweep(const SweepSchedule &s, const StepTransport &k, int groups,
                            const std::vector<double> &weights, const std::vector<double> &centroid,
                            const std::vector<double> &volume, const std::vector<double> &phi_in,
                            std::vector<double> &lagged, std::vector<double> &phi_out) {
  const auto &t = s.tables();
  const int n = t.cells, f = t.faces, nd = t.directions;
  const int threads = std::max(1, std::min(nd, int(std::thread::hardware_concurrency())));
  std::vector<std::vector<double>> partial(static_cast<std::size_t>(threads));
  std::vector<double> next_lagged(lagged.size());
  const auto work = [&](int id) {
    std::vector<double> psi(std::size_t(n) * groups), &phi = partial[id];
    phi.assign(std::size_t(n) * groups, 0.0);
    std::vector<int> waiting(static_cast<std::size_t>(n)), ready;
    for (int d = id; d < nd; d += threads) {
      const double w[3] = {s.direction(d, 0), s.direction(d, 1), s.direction(d, 2)};
      const std::uint16_t *flags = &t.flags[std::size_t(d) * n];
      const auto waits = [&](int c, int k) {
        return (flags[c] >> k & 1u) && !(flags[c] >> (8 + k) & 1u) &&
               t.neighbours[std::size_t(c) * f + k] >= 0;
      };
      ready.clear();
      for (int c = 0; c < n; ++c) {
        waiting[c] = 0;
        for (int k = 0; k < f; ++k)
          waiting[c] += waits(c, k);
        if (waiting[c] == 0)
          ready.push_back(c);
      }
      for (std::size_t i = 0; i < ready.size(); ++i) {
        const int c = ready[i];
        const double *x = &centroid[std::size_t(c) * 3];
        const double q0 =
            k.source(x[0] - k.centre, x[1] - k.centre, x[2] - k.centre, w[0], w[1], w[2]);
        for (int g = 0; g < groups; ++g) {
          const double q = q0 + k.sigma_s / (4 * M_PI) * phi_in[std::size_t(c) * groups + g];
          double num = q * volume[c], den = k.sigma_t * volume[c];
          for (int j = 0; j < f; ++j) {
            const int nb = t.neighbours[std::size_t(c) * f + j];
            if (nb == sweep_no_face)
              continue;
            const double *nv = &t.normals[(std::size_t(c) * f + j) * 3];
            const double dot = w[0] * nv[0] + w[1] * nv[1] + w[2] * nv[2];
            if (!(flags[c] >> j & 1u)) {
              den += dot;
              continue;
            }
            double up = 0;
            if (nb >= 0 && (flags[c] >> (8 + j) & 1u)) {
              const int key = c * f + j;
              const int at = int(std::lower_bound(t.lag_keys.begin() + t.lag_offsets[d],
                                                  t.lag_keys.begin() + t.lag_offsets[d + 1], key) -
                                 t.lag_keys.begin());
              up = lagged[std::size_t(at) * groups + g];
            } else if (nb >= 0) {
              up = psi[std::size_t(nb) * groups + g];
            }
            num -= dot * up;
          }
          psi[std::size_t(c) * groups + g] = num / den;
        }
        for (int j = 0; j < f; ++j) { // the cells waiting for c through a face not lagged
          const int m = t.neighbours[std::size_t(c) * f + j];
          if (m >= 0 && waits(m, t.partner[std::size_t(c) * f + j]) && --waiting[m] == 0)
            ready.push_back(m);
        }
      }
      for (int i = t.lag_offsets[d]; i < t.lag_offsets[d + 1]; ++i) {
        const int nb = t.neighbours[t.lag_keys[i]];
        for (int g = 0; g < groups; ++g)
          next_lagged[std::size_t(i) * groups + g] = psi[std::size_t(nb) * groups + g];
      }
      for (std::size_t i = 0; i < psi.size(); ++i)
        phi[i] += weights[d] * psi[i];
    }
  };
  std::vector<std::thread> pool;
  for (int id = 1; id < threads; ++id)
    pool.emplace_back(work, id);
  work(0);
  for (auto &th : pool)
    th.join();
  phi_out.assign(std::size_t(n) * groups, 0.0);
  for (const auto &p : partial)
    for (std::size_t i = 0; i < p.size(); ++i)
      phi_out[i] += p[i];
  lagged.swap(next_lagged);
}

} // namespace umesh::perf

#endif
