#ifndef UMESH_TEST_SWEEP_STEP_HPP
#define UMESH_TEST_SWEEP_STEP_HPP

// The sweep tests' kernel, the step (upwind finite-volume) closure, and the
// serial reference it is checked against: written from the schedule's
// inflow and lag flags alone (each direction's cells run once all they
// wait for have run, found by passes over the cells in number order), not
// from its levels or any executor.

#include <umesh/sweep_schedule.hpp>

#include <Kokkos_Core.hpp>

#include <vector>

namespace umesh::test {

struct Step {
  template <class Cell, class Sigma, class Q, class Vol>
  KOKKOS_INLINE_FUNCTION double operator()(const Cell &s, Sigma sigma, Q q, Vol vol) const {
    double num = q(s.group()) * vol(0), den = sigma(s.group()) * vol(0);
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

/// psi [cell][direction][group] after one step sweep from `before` (whose
/// values only lagged faces read); sigma and q [cell][group], vol [cell].
inline std::vector<double> step_reference(const SweepSchedule &s, int groups,
                                          const std::vector<double> &sigma,
                                          const std::vector<double> &q,
                                          const std::vector<double> &vol,
                                          const std::vector<double> &before) {
  const auto &t = s.tables();
  const int n = t.cells, f = t.faces, nd = t.directions;
  std::vector<double> psi = before;
  const auto at = [&](int c, int d, int g) { return (std::size_t(c) * nd + d) * groups + g; };
  for (int d = 0; d < nd; ++d) {
    std::vector<char> done(std::size_t(n), 0);
    for (int left = n; left > 0;) {
      const int was = left;
      for (int c = 0; c < n; ++c) {
        if (done[c])
          continue;
        bool ready = true;
        for (int k = 0; k < f; ++k) {
          const int nb = t.neighbours[std::size_t(c) * f + k];
          if (nb >= 0 && s.inflow(d, c, k) && !s.lagged(d, c, k) && !done[nb])
            ready = false;
        }
        if (!ready)
          continue;
        for (int g = 0; g < groups; ++g) {
          double num = q[std::size_t(c) * groups + g] * vol[c];
          double den = sigma[std::size_t(c) * groups + g] * vol[c];
          for (int k = 0; k < f; ++k) {
            const int nb = t.neighbours[std::size_t(c) * f + k];
            if (nb == sweep_no_face)
              continue;
            const double *nv = &t.normals[(std::size_t(c) * f + k) * 3];
            const double w =
                s.direction(d, 0) * nv[0] + s.direction(d, 1) * nv[1] + s.direction(d, 2) * nv[2];
            if (s.inflow(d, c, k)) {
              const double up = nb < 0              ? 0.0
                                : s.lagged(d, c, k) ? before[at(nb, d, g)]
                                                    : psi[at(nb, d, g)];
              num -= w * up;
            } else {
              den += w;
            }
          }
          psi[at(c, d, g)] = num / den;
        }
        done[c] = 1;
        --left;
      }
      if (left == was)
        return {}; // a cycle the lags do not break: the caller's test fails
    }
  }
  return psi;
}

} // namespace umesh::test

#endif
