#ifndef UMESH_PERF_ELEMENT_BENCH_RUN_HPP
#define UMESH_PERF_ELEMENT_BENCH_RUN_HPP

// The element benchmark's runs: one element shape and order at a time, its
// mesh, data and serial references built once, then every operator,
// strategy, lanes and elements per team as a validated, timed row.

#include "element_bench_report.hpp"
#include "element_kernels.hpp"
#include "element_meshes.hpp"

#include <umesh/umesh.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace umesh::perf {

using BenchSpace = Kokkos::DefaultExecutionSpace;
using BenchMem = BenchSpace::memory_space;

// Largest |a - b| / max(1, |b|) over a dat's points; infinity for a NaN.
template <class V> struct MaxErr {
  V a, b;
  KOKKOS_INLINE_FUNCTION void operator()(int i, double &m) const {
    for (int k = 0; k < int(a.extent(1)); ++k) {
      const double x = a(i, k), y = b(i, k), d = x > y ? x - y : y - x, ay = y < 0 ? -y : y;
      const double e = (x == x && y == y) ? d / (ay > 1 ? ay : 1) : 1e300; // NaN: unwritten
      m = e > m ? e : m;
    }
  }
};
template <class DatT> double device_max_err(const DatT &a, const DatT &b) {
  double err = 0;
  Kokkos::parallel_reduce(
      "umesh_element_bench::check", Kokkos::RangePolicy<BenchSpace>(0, a.size()),
      MaxErr<typename DatT::view_type>{a.view(), b.view()}, Kokkos::Max<double>(err));
  return err;
}

/// Fixed pseudo-random tables (values in [-1, 1), weights in [0, 1)).
inline ElementTables make_tables(int nn, int nq, int d) {
  ElementTables t{nn, nq, d, {}, {}, {}};
  std::mt19937 rng(2024 + 100 * nn + nq);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int x = 0; x < nq * nn; ++x)
    t.phi.push_back(u(rng));
  for (int x = 0; x < nq * nn * d; ++x)
    t.dphi.push_back(u(rng));
  for (int q = 0; q < nq; ++q)
    t.w.push_back(0.5 * (u(rng) + 1));
  return t;
}

inline std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(n);
  for (double &x : v)
    x = u(rng);
  return v;
}

/// Lanes of an element with `nn` nodes and `nq` points: the power of two
/// covering both, at most 32.
inline int own_lanes(int nn, int nq) {
  int l = 1;
  while (l < std::max(nn, nq) && l < 32)
    l *= 2;
  return l;
}

/// One row, validated by `check()` after one run (`reset()` first), then
/// timed; a team shape the kernel cannot launch is a row marked skipped.
template <class Launch, class Reset, class Check>
void measure(const BenchOptions &o, BenchRow &row, const ElementTeams &teams, double bytes,
             Launch &&launch, Reset &&reset, Check &&check) {
  try {
    reset();
    launch(teams);
    Kokkos::fence();
  } catch (const Error &e) { // a team shape this kernel cannot launch
    row.status = "skipped";
    row.note = e.what();
    return;
  }
  row.max_rel_err = check();
  row.status = row.max_rel_err < 1e-10 ? "ok" : "FAILED";
  for (int w = 0; w < o.warmup; ++w)
    launch(teams);
  std::vector<double> t;
  for (int r = 0; r < o.repeats; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    launch(teams);
    Kokkos::fence();
    t.push_back(timer.seconds());
  }
  std::sort(t.begin(), t.end());
  const double median =
      t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
  row.ms = 1e3 * median;
  row.gbps = bytes / median / 1e9;
}

inline void emit(const BenchRow &row, std::vector<BenchRow> &rows) {
  rows.push_back(row);
  std::printf("%s\n", format_row(row).c_str());
  std::fflush(stdout);
}

/// One row per lanes x elements per team (`base` holds the row's fixed
/// columns; `bytes` its traffic).
template <class Launch, class Reset, class Check>
void sweep(const BenchOptions &o, BenchRow base, int own, int scratch_doubles, double bytes,
           Launch &&launch, Reset &&reset, Check &&check, std::vector<BenchRow> &rows) {
  for (int lanes : o.lanes)
    for (int per_team : o.per_team) {
      BenchRow row = base;
      row.lanes = lanes == 0 ? own : lanes;
      row.per_team = per_team;
      const ElementTeams teams = ElementTeams{}
                                     .with_elements_per_team(per_team)
                                     .with_lanes(row.lanes)
                                     .with_scratch<double>(scratch_doubles);
      measure(o, row, teams, bytes, launch, reset, check);
      emit(row, rows);
    }
}

/// The options' lanes with 0 (the element's own) resolved.
inline std::vector<int> lanes_tried(const BenchOptions &o, int own) {
  std::vector<int> out;
  for (int l : o.lanes)
    out.push_back(l == 0 ? own : l);
  return out;
}

/// exec::ElementAuto's row under `plan` (over the sweep's shapes): tuned on
/// its first run, validated, timed; its choice in the row.
template <class Plan, class Launch, class Reset, class Check>
void tuned_row(const BenchOptions &o, BenchRow row, Plan &plan, const std::string &loop,
               int scratch_doubles, double bytes, Launch &&launch, Reset &&reset, Check &&check,
               std::vector<BenchRow> &rows) {
  row.strategy = "auto";
  measure(o, row, ElementTeams{}.with_scratch<double>(scratch_doubles), bytes, launch, reset,
          check);
  if (row.status != "skipped") {
    const ElementTeams t = plan.chosen_teams(loop);
    row.per_team = t.elements_per_team;
    row.lanes = t.lanes;
    row.note = plan.choice(loop) + " tuned in " + std::to_string(plan.tuning_seconds(loop)) + " s";
  }
  emit(row, rows);
}

/// The tables' device copies (phi [q][i], dphi [q][i][c], w [q]).
template <class Phi, class DPhi, class W>
void upload_tables(const ElementTables &tab, const Phi &phi, const DPhi &dphi, const W &w) {
  auto hp = Kokkos::create_mirror_view(phi);
  auto hd = Kokkos::create_mirror_view(dphi);
  auto hw = Kokkos::create_mirror_view(w);
  for (int q = 0; q < tab.nq; ++q) {
    hw(q) = tab.w[q];
    for (int i = 0; i < tab.nn; ++i) {
      hp(q, i) = tab.phi[q * tab.nn + i];
      for (int c = 0; c < tab.d; ++c)
        hd(q, i, c) = tab.dphi[(q * tab.nn + i) * tab.d + c];
    }
  }
  Kokkos::deep_copy(phi, hp);
  Kokkos::deep_copy(dphi, hd);
  Kokkos::deep_copy(w, hw);
}

template <Shape S, int P>
void run_case(const BenchOptions &o, double copy, std::vector<BenchRow> &rows) {
  constexpr int NN = shape_nodes(S, P), NQ = shape_qpoints(S, P), D = shape_dim(S);
  constexpr int NF = NQ * (1 + D);
  using Mem = BenchMem;
  Kokkos::Timer timer;
  const ElementMesh mesh = make_element_mesh(S, P, o.elements);
  const int n = mesh.elements.size(), nodes = mesh.nodes.size();
  Map<Mem> map("element_nodes", mesh.elements, mesh.nodes, NN, mesh.rows);
  const ElementTables tab = make_tables(NN, NQ, D);
  Kokkos::View<double **, Mem> phi("phi", NQ, NN);
  Kokkos::View<double ***, Mem> dphi("dphi", NQ, NN, D);
  Kokkos::View<double *, Mem> w("w", NQ);
  upload_tables(tab, phi, dphi, w);
  Dat<double, D * D, AoS, Mem> jinv(mesh.elements, "jinv");
  Dat<double, 1, AoS, Mem> u(mesh.nodes, "u"), r(mesh.nodes, "r"), r_ref(mesh.nodes, "r_ref");
  Dat<double, NF, AoS, Mem> out(mesh.elements, "uq"), out_ref(mesh.elements, "uq_ref"),
      f(mesh.elements, "f");
  const std::vector<double> hj = random_values(std::size_t(n) * D * D, 1),
                            hu = random_values(std::size_t(nodes), 2),
                            hf = random_values(std::size_t(n) * NF, 3),
                            r0 = random_values(std::size_t(nodes), 4);
  copy_from_host(jinv, hj);
  copy_from_host(u, hu);
  copy_from_host(f, hf);
  std::vector<double> ho, hr = r0;
  interpolate_reference(tab, mesh.rows, hj, hu, ho);
  transpose_reference(tab, mesh.rows, hj, hf, hr);
  copy_from_host(out_ref, ho);
  copy_from_host(r_ref, hr);
  std::printf("# %s p%d: %d elements (%d a side), %d nodes, %d nodes and %d points an element "
              "[setup %.1f s]\n",
              shape_name(S), P, n, mesh.side, nodes, NN, NQ, timer.seconds());
  BenchRow base;
  base.shape = shape_name(S);
  base.p = P;
  base.nodes_per_element = NN;
  base.qpoints = NQ;
  base.elements = n;
  base.nodes = nodes;
  base.copy_gbps = copy;
  const int own = own_lanes(NN, NQ);
  const double map_bytes = 4.0 * n * NN, jinv_bytes = 8.0 * n * D * D, quad_bytes = 8.0 * n * NF;
  for (const std::string &op : o.ops) {
    base.op = op;
    if (op == "interp") {
      auto plan = make_element_plan(BenchSpace(), exec::ElementAtomic{}, mesh.elements);
      base.strategy = "none";
      sweep(
          o, base, own, Interpolate<NN, NQ, D>::scratch_doubles(),
          8.0 * nodes + map_bytes + jinv_bytes + quad_bytes,
          [&](const ElementTeams &t) {
            element_loop(plan, "interp", t, Interpolate<NN, NQ, D>{}, table(phi), table(dphi),
                         read(jinv), read_row<NN>(u, map), write(out));
          },
          [&] { fill(BenchSpace(), out.view(), std::numeric_limits<double>::quiet_NaN()); },
          [&] { return device_max_err(out, out_ref); }, rows);
      if (o.tune) {
        auto tuned = make_element_plan(BenchSpace(),
                                       exec::ElementAutoOf<exec::ElementAtomic>{}
                                           .with_elements_per_team(o.per_team)
                                           .with_lanes(lanes_tried(o, own)),
                                       mesh.elements);
        tuned_row(
            o, base, tuned, "interp", Interpolate<NN, NQ, D>::scratch_doubles(),
            8.0 * nodes + map_bytes + jinv_bytes + quad_bytes,
            [&](const ElementTeams &t) {
              element_loop(tuned, "interp", t, Interpolate<NN, NQ, D>{}, table(phi), table(dphi),
                           read(jinv), read_row<NN>(u, map), write(out));
            },
            [&] { fill(BenchSpace(), out.view(), std::numeric_limits<double>::quiet_NaN()); },
            [&] { return device_max_err(out, out_ref); }, rows);
      }
      continue;
    }
    for (const std::string &strategy : o.strategies) {
      base.strategy = strategy;
      auto go = [&](auto &plan) {
        sweep(
            o, base, own, Transpose<NN, NQ, D>::scratch_doubles(),
            quad_bytes + jinv_bytes + map_bytes + 16.0 * nodes,
            [&](const ElementTeams &t) {
              element_loop(plan, "transpose", t, Transpose<NN, NQ, D>{}, table(phi), table(dphi),
                           table(w), read(jinv), read(f), inc_row<NN>(r, map));
            },
            [&] { copy_from_host(r, r0); }, [&] { return device_max_err(r, r_ref); }, rows);
      };
      if (strategy == "atomic") {
        auto plan = make_element_plan(BenchSpace(), exec::ElementAtomic{}, mesh.elements, map);
        go(plan);
      } else if (strategy == "gather") {
        auto plan = make_element_plan(BenchSpace(), exec::ElementGather{}, mesh.elements, map);
        go(plan);
      } else {
        exec::ElementColour tag;
        tag.with_per_colour_launches(strategy == "colour-per");
        auto plan = make_element_plan(BenchSpace(), tag, mesh.elements, map);
        base.colours = plan.num_colours();
        go(plan);
        base.colours = 0;
      }
    }
    if (o.tune) { // atomic and both colourings, over the sweep's shapes
      auto tuned = make_element_plan(
          BenchSpace(),
          exec::ElementAuto{}.with_elements_per_team(o.per_team).with_lanes(lanes_tried(o, own)),
          mesh.elements, map);
      tuned_row(
          o, base, tuned, "transpose", Transpose<NN, NQ, D>::scratch_doubles(),
          quad_bytes + jinv_bytes + map_bytes + 16.0 * nodes,
          [&](const ElementTeams &t) {
            element_loop(tuned, "transpose", t, Transpose<NN, NQ, D>{}, table(phi), table(dphi),
                         table(w), read(jinv), read(f), inc_row<NN>(r, map));
          },
          [&] { copy_from_host(r, r0); }, [&] { return device_max_err(r, r_ref); }, rows);
    }
  }
}

inline void run_shape(const BenchOptions &o, const std::string &shape, int p, double copy,
                      std::vector<BenchRow> &rows) {
  auto order = [&](auto s) {
    constexpr Shape S = decltype(s)::value;
    if (p == 1)
      run_case<S, 1>(o, copy, rows);
    else if (p == 2)
      run_case<S, 2>(o, copy, rows);
    else
      run_case<S, 3>(o, copy, rows);
  };
  if (shape == "tri")
    order(std::integral_constant<Shape, Shape::tri>{});
  else if (shape == "quad")
    order(std::integral_constant<Shape, Shape::quad>{});
  else if (shape == "tet")
    order(std::integral_constant<Shape, Shape::tet>{});
  else
    order(std::integral_constant<Shape, Shape::hex>{});
}

} // namespace umesh::perf

#endif
