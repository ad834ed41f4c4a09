#ifndef UMESH_PERF_SWEEP_BENCH_FLUX_HPP
#define UMESH_PERF_SWEEP_BENCH_FLUX_HPP

// Device side of the sweep benchmark around the sweep: the scalar flux (the
// weighted sum of the angular flux over directions), the relative change
// between two scalar fluxes (source iteration's test, Tycho2's), and the
// relative L2 error against the manufactured solution (Tycho2's
// "L2 Relative Error", on cell values at centroids).

#include "sweep_bench_problem.hpp"

#include <umesh/math.hpp>

#include <Kokkos_Core.hpp>

namespace umesh::perf {

template <class PsiView, class Mem> struct ScalarFlux {
  PsiView psi;
  Kokkos::View<const double *, Mem> weights;
  double *phi; // [cell][group]
  int groups, directions;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const int c = int(i / groups), g = int(i % groups);
    double s = 0;
    for (int d = 0; d < directions; ++d)
      s += weights(d) * psi(c, d, g);
    phi[i] = s;
  }
};

struct FluxChange {
  const double *now, *before;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, double &diff, double &norm) const {
    diff += math::abs(now[i] - before[i]);
    norm += math::abs(now[i]);
  }
};

template <class PsiView> struct HatError {
  PsiView psi;
  const double *centroid;
  StepTransport k;
  int directions, groups;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, double &diff, double &norm) const {
    const int c = int(i / (std::int64_t(directions) * groups));
    const int rest = int(i % (std::int64_t(directions) * groups));
    const double dx = centroid[3 * c] - k.centre, dy = centroid[3 * c + 1] - k.centre,
                 dz = centroid[3 * c + 2] - k.centre;
    const double r = math::sqrt(dx * dx + dy * dy + dz * dz);
    const double exact = r <= k.radius ? 1 - r / k.radius : 0;
    const double v = psi(c, rest / groups, rest % groups);
    diff += (v - exact) * (v - exact);
    norm += v * v;
  }
};

} // namespace umesh::perf

#endif
