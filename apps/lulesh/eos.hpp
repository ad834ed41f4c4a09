#ifndef UMESH_LULESH_EOS_HPP
#define UMESH_LULESH_EOS_HPP

// LULESH's equation of state (EvalEOSForElems, CalcEnergyForElems,
// CalcPressureForElems, CalcSoundSpeedForElems) for one element: an ideal
// gas, energy and artificial viscosity advanced over the step in LULESH's
// predictor-corrector order. Element-local: one umesh loop runs it over
// every region's elements (umesh::Subsets), region by region.

#include "problem.hpp"

#include <Kokkos_Core.hpp>

namespace lulesh {

/// New energy, pressure, viscosity and sound speed of one element.
struct EosState {
  double e, p, q, ss;
};

/// Inputs of one element's EOS: its state at the start of the step.
struct EosInput {
  double e, p, q, ql, qq, delv, vnew;
};

KOKKOS_INLINE_FUNCTION EosState evaluate_eos(const Constants &c, EosInput in) {
  constexpr double c1s = 2.0 / 3.0;
  // Relative volume kept within the EOS's range.
  double vnewc = in.vnew;
  if (c.eosvmin != 0.0 && vnewc < c.eosvmin)
    vnewc = c.eosvmin;
  if (c.eosvmax != 0.0 && vnewc > c.eosvmax)
    vnewc = c.eosvmax;
  const double delvc = in.delv;
  double p_old = in.p;
  double compression = 1.0 / vnewc - 1.0;
  double comp_half = 1.0 / (vnewc - delvc * 0.5) - 1.0;
  if (c.eosvmin != 0.0 && vnewc <= c.eosvmin)
    comp_half = compression;
  if (c.eosvmax != 0.0 && vnewc >= c.eosvmax) {
    p_old = 0.0;
    compression = 0.0;
    comp_half = 0.0;
  }
  const double work = 0.0;
  double bvc = 0, pbvc = 0;
  auto pressure = [&](double e, double comp) {
    bvc = c1s * (comp + 1.0);
    pbvc = c1s;
    double p = bvc * e;
    if (std::fabs(p) < c.p_cut)
      p = 0.0;
    if (vnewc >= c.eosvmax)
      p = 0.0;
    if (p < c.pmin)
      p = c.pmin;
    return p;
  };
  // Sound speed squared floored, then the q it gives with the old terms.
  auto sound_speed = [&](double e, double p, double v2) {
    const double ssc = (pbvc * e + v2 * bvc * p) / c.refdens;
    return ssc <= .1111111e-36 ? .3333333e-18 : std::sqrt(ssc);
  };
  auto cut = [&](double e) {
    if (std::fabs(e) < c.e_cut)
      e = 0.0;
    return e < c.emin ? c.emin : e;
  };

  double e_new = in.e - 0.5 * delvc * (p_old + in.q) + 0.5 * work;
  if (e_new < c.emin)
    e_new = c.emin;
  const double p_half = pressure(e_new, comp_half);
  const double vhalf = 1.0 / (1.0 + comp_half);
  double q_new = 0.0;
  if (delvc <= 0.0)
    q_new = sound_speed(e_new, p_half, vhalf * vhalf) * in.ql + in.qq;
  e_new = e_new + 0.5 * delvc * (3.0 * (p_old + in.q) - 4.0 * (p_half + q_new));
  e_new += 0.5 * work;
  e_new = cut(e_new);

  double p_new = pressure(e_new, compression);
  double q_tilde = 0.0;
  if (delvc <= 0.0)
    q_tilde = sound_speed(e_new, p_new, vnewc * vnewc) * in.ql + in.qq;
  e_new = e_new -
          (7.0 * (p_old + in.q) - 8.0 * (p_half + q_new) + (p_new + q_tilde)) * delvc * (1.0 / 6.0);
  e_new = cut(e_new);

  p_new = pressure(e_new, compression);
  if (delvc <= 0.0) {
    q_new = sound_speed(e_new, p_new, vnewc * vnewc) * in.ql + in.qq;
    if (std::fabs(q_new) < c.q_cut)
      q_new = 0.0;
  }
  return {e_new, p_new, q_new, sound_speed(e_new, p_new, vnewc * vnewc)};
}

/// The EOS of an element as a umesh kernel, repeated `reps` times (LULESH's
/// cost model: expensive regions evaluate their EOS again, each time from
/// the same state, in registers as LLNL's CUDA port does). The new state
/// goes to separate dats, swapped in after the loop.
struct Eos {
  Constants c;
  template <class R, class E, class W>
  KOKKOS_INLINE_FUNCTION void operator()(R reps, E e, E p, E q, E ql, E qq, E delv, E vnew, W e_new,
                                         W p_new, W q_new, W ss_new) const {
    const EosInput in{e(0), p(0), q(0), ql(0), qq(0), delv(0), vnew(0)};
    EosState s = evaluate_eos(c, in);
    for (int r = 1; r < reps(0); ++r)
      s = evaluate_eos(c, in);
    e_new(0) = s.e;
    p_new(0) = s.p;
    q_new(0) = s.q;
    ss_new(0) = s.ss;
  }
};

} // namespace lulesh

#endif
