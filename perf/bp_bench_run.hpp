#ifndef UMESH_PERF_BP_BENCH_RUN_HPP
#define UMESH_PERF_BP_BENCH_RUN_HPP

// umesh_bp_bench's timed rows: for one order and size, the mesh and the
// host references once, then per problem every strategy x team shape of the
// team form, every elements per team of the one-thread-per-element form,
// and exec::ElementAuto's pick; each row validated against the host
// reference, then timed (median of --repeats applications, y zeroed in
// each, as an operator's application does).

#include "bp_device.hpp"
#include "bp_export.hpp"
#include "bp_reference.hpp"
#include "bp_report.hpp"

#include <umesh/umesh.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace umesh::perf {

/// Runs `apply` once, checks it (`err()`), then times it: fills `row`.
template <class Apply, class Err>
void time_row(const BpOptions &o, BpRow &row, double bytes, Apply &&apply, Err &&err) {
  try {
    apply();
    Kokkos::fence();
  } catch (const Error &e) { // a shape this kernel cannot launch
    row.status = "skipped";
    row.note = e.what();
    return;
  }
  row.max_rel_err = err();
  row.status = row.max_rel_err < 1e-11 ? "ok" : "FAILED";
  for (int w = 0; w < o.warmup; ++w)
    apply();
  std::vector<double> t;
  for (int r = 0; r < o.repeats; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    apply();
    Kokkos::fence();
    t.push_back(timer.seconds());
  }
  std::sort(t.begin(), t.end());
  const double median =
      t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
  row.ms = 1e3 * median;
  row.gdofs = row.dofs / median / 1e9;
  row.gbps = bytes / median / 1e9;
}

/// The plans of one mesh, shared by its problems: colouring a large mesh
/// takes seconds, and exec::ElementAuto keeps one colouring for its loops.
template <int P> struct BpPlans {
  ElementPlan<exec::ElementAtomic, BpSpace> atomic;
  ElementPlan<exec::ElementColour, BpSpace> colour; // one launch or per colour
  std::unique_ptr<ElementPlan<exec::ElementGather, BpSpace>> gather;
  ElementPlan<exec::ElementAuto, BpSpace> tuned; // over the team form's shapes

  BpPlans(const BpOptions &o, const BpDevice<P> &m)
      : atomic(make_element_plan(BpSpace(), exec::ElementAtomic{}, m.elements, m.element_nodes)),
        colour(make_element_plan(BpSpace(), exec::ElementColour{}, m.elements, m.element_nodes)),
        tuned(make_element_plan(BpSpace(),
                                exec::ElementAuto{}
                                    .with_elements_per_team(o.per_team)
                                    .with_lanes(o.lanes)
                                    .with_work(BpSizes<P, P + 1>::Q3),
                                m.elements, m.element_nodes)) {
    if (std::count(o.strategies.begin(), o.strategies.end(), "gather"))
      gather = std::make_unique<ElementPlan<exec::ElementGather, BpSpace>>(
          make_element_plan(BpSpace(), exec::ElementGather{}, m.elements, m.element_nodes));
  }
  /// f(plan, colours) with the plan of `strategy`.
  template <class F> void with(const std::string &strategy, F &&f) {
    if (strategy == "atomic")
      return f(atomic, 0);
    if (strategy == "gather")
      return f(*gather, 0);
    colour.set_options(exec::ElementColour{}.with_per_colour_launches(strategy == "colour-per"));
    f(colour, colour.num_colours());
  }
};

template <int P, int BP> class BpRun {
public:
  BpRun(const BpOptions &o, const BpDevice<P> &dev, BpPlans<P> &plans, const NodeDat &x,
        const NodeDat &y, const NodeDat &y_ref, BpRow base, std::vector<BpRow> &rows)
      : o_(o), op_(dev), plans_(plans), x_(x), y_(y), y_ref_(y_ref), base_(base), rows_(rows) {
    base_.bp = BP;
  }

  void run() {
    const std::string team = "bp" + std::to_string(BP) + "_team",
                      thread = "bp" + std::to_string(BP) + "_thread";
    for (const std::string &strategy : o_.strategies)
      plans_.with(strategy, [&](auto &plan, int colours) {
        for (int lanes : o_.lanes)
          for (int e : o_.per_team)
            add("team", strategy, colours, e, lanes,
                [&] { op_.apply(plan, team, op_.team_shape(e, lanes), false, x_, y_); });
        for (int e : o_.thread_per_team)
          add("thread", strategy, colours, e, 1, [&] {
            op_.apply(plan, thread, ElementTeams{}.with_elements_per_team(e).with_lanes(1), true,
                      x_, y_);
          });
      });
    if (o_.tune)
      tuned();
  }

private:
  template <class Apply>
  void add(const char *form, const std::string &strategy, int colours, int per_team, int lanes,
           Apply &&apply) {
    BpRow row = base_;
    row.form = form;
    row.strategy = strategy;
    row.colours = colours;
    row.per_team = per_team;
    row.lanes = lanes;
    time_row(o_, row, op_.bytes(), apply, [&] { return relative_difference(y_, y_ref_); });
    emit(row);
  }

  // exec::ElementAuto over the same shapes: tuned on the first application
  // (validated: one execution's result), then timed.
  void tuned() {
    auto &plan = plans_.tuned;
    const std::string name = "bp" + std::to_string(BP) + "_auto";
    BpRow row = base_;
    row.form = "auto";
    time_row(
        o_, row, op_.bytes(), [&] { op_.apply(plan, name, op_.team_shape(1, 1), false, x_, y_); },
        [&] { return relative_difference(y_, y_ref_); });
    if (row.status != "skipped") {
      const ElementTeams t = plan.chosen_teams(name);
      row.strategy = plan.chosen_strategy(name);
      row.per_team = t.elements_per_team;
      row.lanes = t.lanes;
      row.note = plan.choice(name) + " tuned in " + std::to_string(plan.tuning_seconds(name)) +
                 " s" + (plan.from_tuning_file(name) ? " (from the tuning file)" : "");
    }
    emit(row);
  }

  void emit(const BpRow &row) {
    rows_.push_back(row);
    std::printf("%s\n", format_row(row).c_str());
    std::fflush(stdout);
  }

  const BpOptions &o_;
  BpOperator<P, BP> op_;
  BpPlans<P> &plans_;
  const NodeDat &x_, &y_, &y_ref_;
  BpRow base_;
  std::vector<BpRow> &rows_;
};

/// Every problem of order P - 1 at about `target` nodes.
template <int P>
void run_size(const BpOptions &o, long target, double copy, std::vector<BpRow> &rows) {
  constexpr int p = P - 1;
  Kokkos::Timer timer;
  const BpBasis basis(p);
  const int n = bp_mesh_side(target, p);
  const H1Mesh m = make_bp_mesh(n, p, {o.shuffle, o.rotate, o.distort, 7});
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uni(-1, 1);
  std::vector<double> hx(m.dofs);
  for (double &v : hx)
    v = uni(rng);
  std::vector<std::vector<double>> refs;
  for (int bp : o.bps)
    refs.push_back(bp == 1 ? apply_reference<P, 1>(basis, m, hx)
                           : apply_reference<P, 3>(basis, m, hx));
  std::printf("# p%d: %d elements (%d a side), %d nodes, %d nodes and %d points an element "
              "[setup and host references %.1f s]\n",
              p, m.elements, n, m.dofs, P * P * P, (P + 1) * (P + 1) * (P + 1), timer.seconds());
  if (!o.export_dir.empty())
    std::printf("# wrote %s\n", export_bp_mesh(o.export_dir, m, hx, o.bps, refs).c_str());
  if (o.export_only)
    return;
  const BpDevice<P> dev(m, basis);
  NodeDat x(dev.nodes, "x"), y(dev.nodes, "y"), y_ref(dev.nodes, "y_ref");
  copy_from_host(x, hx);
  BpRow base;
  base.p = p;
  base.q = P + 1;
  base.dofs = m.dofs;
  base.elements = m.elements;
  base.copy_gbps = copy;
  BpPlans<P> plans(o, dev);
  for (std::size_t i = 0; i < o.bps.size(); ++i) {
    copy_from_host(y_ref, refs[i]);
    if (o.bps[i] == 1)
      BpRun<P, 1>(o, dev, plans, x, y, y_ref, base, rows).run();
    else
      BpRun<P, 3>(o, dev, plans, x, y, y_ref, base, rows).run();
  }
}

} // namespace umesh::perf

#endif
