#ifndef UMESH_PERF_BP_CHECKS_HPP
#define UMESH_PERF_BP_CHECKS_HPP

// umesh_bp_bench's checks of each order on small meshes (3 x 3 x 3 hexes),
// before anything is timed: the numbering is continuous; the host's
// sum-factorised reference equals the assembled matrix times a random
// vector; the device's team and one-thread forms equal the reference under
// every strategy and several team shapes; and the operators agree with the
// continuous ones: the mass of a distorted mesh is its volume (1), the
// diffusion of a linear function vanishes in interior rows, and on an
// affine mesh x^T M x and x^T A x are the exact integrals of u^2 and
// |grad u|^2 for a polynomial u of degree p in each variable.

#include "bp_device.hpp"
#include "bp_reference.hpp"
#include "bp_report.hpp"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace umesh::perf {

inline double max_rel_diff(const std::vector<double> &a, const std::vector<double> &b) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::isnan(a[i]) ? INFINITY : std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
  }
  return diff / (scale > 0 ? scale : 1);
}

inline double dot(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

/// f(plan, name) for each strategy's plan over the mesh's elements.
template <int P, class F> void with_every_strategy(const BpDevice<P> &m, F &&f) {
  const BpSpace s;
  auto atomic = make_element_plan(s, exec::ElementAtomic{}, m.elements, m.element_nodes);
  f(atomic, "atomic");
  auto colour = make_element_plan(s, exec::ElementColour{}, m.elements, m.element_nodes);
  f(colour, "colour");
  auto per = make_element_plan(s, exec::ElementColour{}.with_per_colour_launches(), m.elements,
                               m.element_nodes);
  f(per, "colour-per");
  auto gather = make_element_plan(s, exec::ElementGather{}, m.elements, m.element_nodes);
  f(gather, "gather");
}

template <int P> class BpChecks {
public:
  static constexpr int p = P - 1;
  explicit BpChecks(const BpMeshOptions &mesh) : basis_(p), mesh_(mesh) {}

  /// Runs every check, one line each; returns how many failed.
  int run() {
    BpMeshOptions distorted = mesh_;
    distorted.distort = 0.3;
    const H1Mesh m = make_bp_mesh(3, p, distorted);
    double mismatch = 0;
    const std::vector<double> pos = node_positions(basis_, m, mismatch);
    const int expected = (3 * p + 1) * (3 * p + 1) * (3 * p + 1);
    report("numbering: (3p+1)^3 nodes", m.dofs == expected ? 0 : 1, 0);
    report("numbering: one position per node", mismatch, 1e-13);
    const BpDevice<P> dev(m, basis_);
    operators<1>(m, dev, pos);
    operators<3>(m, dev, pos);
    BpMeshOptions affine = mesh_;
    affine.distort = 0;
    exact_integrals(make_bp_mesh(3, p, affine));
    return failed_;
  }

private:
  void report(const std::string &what, double value, double tolerance) {
    const bool ok = value <= tolerance;
    failed_ += !ok;
    std::printf("# check p%d %-52s %.2e %s\n", p, what.c_str(), value, ok ? "ok" : "FAILED");
  }

  template <int BP>
  void operators(const H1Mesh &m, const BpDevice<P> &dev, const std::vector<double> &pos) {
    const std::string bp = "bp" + std::to_string(BP) + ": ";
    std::mt19937 rng(100 + BP);
    std::uniform_real_distribution<double> uni(-1, 1);
    std::vector<double> x(m.dofs);
    for (double &v : x)
      v = uni(rng);
    const std::vector<double> ref = apply_reference<P, BP>(basis_, m, x);
    report(bp + "sum factorisation = assembled matrix",
           max_rel_diff(ref, multiply(assemble_reference<BP>(basis_, m), x)), 1e-12);
    const BpOperator<P, BP> op(dev);
    NodeDat xd(dev.nodes, "x"), yd(dev.nodes, "y");
    copy_from_host(xd, x);
    double worst = 0;
    int ran = 0;
    with_every_strategy(dev, [&](auto &plan, const char *strategy) {
      for (const bool thread : {false, true})
        for (const auto &[e, l] : {std::pair<int, int>{1, 1}, {3, 8}, {8, 32}}) {
          fill(BpSpace(), yd.view(), std::nan(""));
          const ElementTeams t =
              thread ? ElementTeams{}.with_elements_per_team(e).with_lanes(1) : op.team_shape(e, l);
          try {
            op.apply(plan, "check", t, thread, xd, yd);
          } catch (const Error &) { // a shape this device cannot launch (scratch)
            continue;
          }
          ++ran;
          const double err = max_rel_diff(to_host(yd), ref);
          if (err > 1e-12)
            std::printf("#   %s %s %d x %d: %.2e\n", strategy, thread ? "thread" : "team", e,
                        thread ? 1 : l, err);
          worst = std::max(worst, err);
        }
    });
    report(bp + "device (every strategy, form, shape) = reference", ran > 0 ? worst : INFINITY,
           1e-12);
    auto plan = make_element_plan(BpSpace(), exec::ElementAtomic{}, dev.elements);
    std::vector<double> in(m.dofs);
    if constexpr (BP == 1) {
      std::fill(in.begin(), in.end(), 1.0);
      const std::vector<double> y = apply(op, plan, in);
      double sum = 0;
      for (double v : y)
        sum += v;
      report(bp + "1^T M 1 = volume of the distorted cube", std::fabs(sum - 1), 1e-12);
    } else {
      double interior = 0;
      for (int i = 0; i < m.dofs; ++i)
        in[i] = 1 + 2 * pos[3 * i] - 3 * pos[3 * i + 1] + 0.5 * pos[3 * i + 2];
      const std::vector<double> y = apply(op, plan, in);
      double scale = 0;
      for (int i = 0; i < m.dofs; ++i) {
        const double *c = &pos[3 * i];
        const bool inside =
            std::all_of(c, c + 3, [](double v) { return v > 1e-9 && v < 1 - 1e-9; });
        scale = std::max(scale, std::fabs(y[i]));
        if (inside)
          interior = std::max(interior, std::fabs(y[i]));
      }
      report(bp + "A (linear) = 0 in interior rows (distorted)", interior / scale, 1e-12);
    }
  }

  template <class Op, class Plan>
  std::vector<double> apply(const Op &op, Plan &plan, const std::vector<double> &in) {
    NodeDat x(op.m.nodes, "x"), y(op.m.nodes, "y");
    copy_from_host(x, in);
    op.apply(plan, "check_exact", op.team_shape(4, 16), false, x, y);
    return to_host(y);
  }

  void exact_integrals(const H1Mesh &m) {
    double mismatch = 0;
    const std::vector<double> pos = node_positions(basis_, m, mismatch);
    const Poly u = test_polynomial(p);
    std::vector<double> x(m.dofs);
    for (int i = 0; i < m.dofs; ++i)
      x[i] = evaluate(u, &pos[3 * i]);
    const BpDevice<P> dev(m, basis_);
    auto plan = make_element_plan(BpSpace(), exec::ElementAtomic{}, dev.elements);
    const double mass = dot(x, apply(BpOperator<P, 1>(dev), plan, x));
    const double exact_mass = integral_of_product(u, u);
    report("bp1: x^T M x = int u^2 (affine)", std::fabs(mass - exact_mass) / exact_mass, 1e-12);
    const double stiff = dot(x, apply(BpOperator<P, 3>(dev), plan, x));
    double exact_stiff = 0;
    for (int k = 0; k < 3; ++k)
      exact_stiff += integral_of_product(derivative(u, k), derivative(u, k));
    report("bp3: x^T A x = int |grad u|^2 (affine)", std::fabs(stiff - exact_stiff) / exact_stiff,
           1e-12);
  }

  BpBasis basis_;
  BpMeshOptions mesh_;
  int failed_ = 0;
};

} // namespace umesh::perf

#endif
