#ifndef UMESH_PERF_ELEMENT_BENCH_COLUMNS_HPP
#define UMESH_PERF_ELEMENT_BENCH_COLUMNS_HPP

// The element benchmark's column case: LFRic's local-matrix matvec on an
// extruded quad mesh, y(l, i) += sum_j A_l(i, j) x(l, j) for every layer l of
// every column, with the layer and dof loops collapsed onto lanes (LFRic's
// OpenACC fix) and every colour in one launch. Continuous dofs: 8 a cell
// (Q1: the cell's 4 nodes at its bottom and top) or 27 (Q2: a 3 x 3 lattice
// of base nodes at 3 heights), numbered column by column, so layers share
// their top and bottom dofs and neighbouring columns their sides.

#include "element_bench_run.hpp"

#include <umesh/umesh.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace umesh::perf {

// The matvec of one column, (layer, dof) pairs on lanes.
template <int N> struct ColumnMatVec {
  template <class Team, class A, class X, class Y>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, A a, X x, Y y) const {
    t.lanes(x.layers() * N, [&](int li) {
      const int l = li / N, i = li % N;
      double v = 0;
      for (int j = 0; j < N; ++j)
        v += a(l, 0, i * N + j) * x(l, j, 0);
      y(l, i, 0) += v;
    });
  }
};

/// The first layer's dofs of every column: N = 8 (Q1) or 27 (Q2) a cell of
/// an nx x ny quad base, `layers` layers; `dofs` gets the dof count.
inline std::vector<int> column_dofs(int nx, int ny, int layers, int n, int &dofs) {
  const int p = n == 8 ? 1 : 2, side = p * nx + 1, levels = p * layers + 1;
  dofs = side * (p * ny + 1) * levels;
  std::vector<int> bottom;
  for (int cy = 0; cy < ny; ++cy)
    for (int cx = 0; cx < nx; ++cx)
      for (int h = 0; h <= p; ++h)
        for (int b = 0; b <= p; ++b)
          for (int a = 0; a <= p; ++a)
            bottom.push_back(((p * cy + b) * side + p * cx + a) * levels + h);
  return bottom;
}

template <int N> void run_matvec(const BenchOptions &o, double copy, std::vector<BenchRow> &rows) {
  using Mem = BenchMem;
  Kokkos::Timer timer;
  const Set base("columns", std::int64_t(o.base_nx) * o.base_ny);
  const ExtrudedSet cells("cells", base, o.layers);
  int dofs = 0;
  const std::vector<int> bottom = column_dofs(o.base_nx, o.base_ny, o.layers, N, dofs);
  const int p = N == 8 ? 1 : 2;
  const Set dof_set("dofs", dofs);
  ExtrudedMap<Mem> cell_dofs("cell_dofs", cells, dof_set, N, bottom, std::vector<int>(N, p));
  const ExtrudedMap<Mem> own = column_map<Mem>(cells);
  Dat<double, N * N, AoS, Mem> a(cells.set(), "A");
  Dat<double, 1, AoS, Mem> x(dof_set, "x"), y(dof_set, "y"), y_ref(dof_set, "y_ref");
  const int n = cells.set().size();
  const std::vector<double> ha = random_values(std::size_t(n) * N * N, 5),
                            hx = random_values(std::size_t(dofs), 6),
                            y0 = random_values(std::size_t(dofs), 7);
  copy_from_host(a, ha);
  copy_from_host(x, hx);
  std::vector<double> ref = y0;
  for (int b = 0; b < base.size(); ++b)
    for (int l = 0; l < o.layers; ++l)
      for (int i = 0; i < N; ++i) {
        double v = 0;
        for (int j = 0; j < N; ++j)
          v += ha[(std::size_t(b) * o.layers + l) * N * N + i * N + j] *
               hx[bottom[b * N + j] + l * p];
        ref[bottom[b * N + i] + l * p] += v;
      }
  copy_from_host(y_ref, ref);
  std::printf("# matvec %d dofs: %d x %d columns of %d layers, %d dofs [setup %.1f s]\n", N,
              o.base_nx, o.base_ny, o.layers, dofs, timer.seconds());
  BenchRow row;
  row.op = "matvec";
  row.shape = "hex-column";
  row.p = p;
  row.nodes_per_element = N;
  row.qpoints = 0;
  row.elements = n;
  row.nodes = dofs;
  row.copy_gbps = copy;
  const double bytes = 8.0 * n * N * N + 24.0 * dofs + 4.0 * base.size() * N;
  for (const std::string &strategy : o.strategies) {
    if (strategy == "gather")
      continue; // (no column folds yet)
    row.strategy = strategy;
    auto go = [&](auto &plan) {
      sweep(
          o, row, 32, 0, bytes,
          [&](const ElementTeams &t) {
            element_loop(plan, "matvec", t, ColumnMatVec<N>{}, read_row(a, own),
                         read_row<N>(x, cell_dofs), inc_row<N>(y, cell_dofs));
          },
          [&] { copy_from_host(y, y0); }, [&] { return device_max_err(y, y_ref); }, rows);
    };
    if (strategy == "atomic") {
      auto plan = make_element_plan(BenchSpace(), exec::ElementAtomic{}, base, cell_dofs);
      go(plan);
    } else {
      exec::ElementColour tag;
      tag.with_per_colour_launches(strategy == "colour-per");
      auto plan = make_element_plan(BenchSpace(), tag, base, cell_dofs);
      row.colours = plan.num_colours();
      go(plan);
      row.colours = 0;
    }
  }
}

} // namespace umesh::perf

#endif
