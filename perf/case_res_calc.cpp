// Airfoil's res_calc on the edges of a 2D mesh: reads node coordinates and
// cell states through edge -> 2 nodes and edge -> 2 cells, increments both
// cells' residuals.

#include "kernels.hpp"
#include "main_cases.hpp"
#include "main_mesh.hpp"
#include "main_run.hpp"

namespace umesh::perf {

template <class L>
std::vector<Row> res_calc(const Options &o, const std::string &label, const EdgeFluxMesh &m,
                          const Map<Mem> &pedge, const Map<Mem> &pecell, const Renumbering &ren,
                          const Map<Mem> &pe, const Map<Mem> &pc, Plans &plans, const char *lname) {
  Dat<double, 2, L, Mem> x(m.nodes, "x");
  Dat<double, 4, L, Mem> q(m.cells, "q"), res0(m.cells, "res0");
  Dat<double, 1, L, Mem> adt(m.cells, "adt");
  copy_from_host(x, m.node_coords);
  // Plausible flow states (positive density and pressure), random per cell.
  auto hq = Kokkos::create_mirror_view(q.view());
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0, 1);
  for (int c = 0; c < m.cells.size(); ++c) {
    hq(c, 0) = 0.8 + 0.4 * u(rng);
    hq(c, 1) = 0.3 * (u(rng) - 0.5);
    hq(c, 2) = 0.3 * (u(rng) - 0.5);
    hq(c, 3) = 2.0 + u(rng);
  }
  Kokkos::deep_copy(q.view(), hq);
  randomise(adt, 43, 0.5, 1.5);
  randomise(res0, 44, -1, 1);
  const perf::ResCalc kernel{0.4, 0.05};

  // Reference: the serial executor on host copies of the same inputs.
  auto hx = clone_to<Kokkos::HostSpace>(x);
  auto hqd = clone_to<Kokkos::HostSpace>(q);
  auto hadt = clone_to<Kokkos::HostSpace>(adt);
  auto ref = clone_to<Kokkos::HostSpace>(res0);
  auto hpedge = clone_to<Kokkos::HostSpace>(pedge);
  auto hpecell = clone_to<Kokkos::HostSpace>(pecell);
  par_loop(HostSpace(), exec::Serial{}, m.edges, label, kernel, read(hx, hpedge, 0),
           read(hx, hpedge, 1), read(hqd, hpecell, 0), read(hqd, hpecell, 1),
           read(hadt, hpecell, 0), read(hadt, hpecell, 1), inc(ref, hpecell, 0),
           inc(ref, hpecell, 1));

  // Everything moves into the renumbering's numbering (pe, pc: the maps
  // there); so does the reference, which was computed in the original one.
  const auto x2 = ren.apply(x);
  const auto q2 = ren.apply(q);
  const auto adt2 = ren.apply(adt);
  const auto res0_2 = ren.apply(res0);
  const auto res = ren.apply(res0);
  const auto ref2 = ren.apply(ref);
  const double bytes =
      8.0 * (2 * m.nodes.size() + 4 * m.cells.size() + m.cells.size() + 2 * 4 * m.cells.size()) +
      2 * 4.0 * 2 * m.edges.size();
  return run_all(o, label, lname, bytes, plans, res, ref2, res0_2, [&](auto &plan, auto options) {
    par_loop(plan, options, label, kernel, read(x2, pe, 0), read(x2, pe, 1), read(q2, pc, 0),
             read(q2, pc, 1), read(adt2, pc, 0), read(adt2, pc, 1), inc(res, pc, 0),
             inc(res, pc, 1));
  });
}

/// Every executor, layout and reordering asked for on one mesh; rows and
/// plan metrics appended.
void run_res_calc(const Options &o, const std::string &label, const EdgeFluxMesh &m, double mesh_s,
                  std::vector<Row> &rows, std::vector<PlanRow> &plan_rows) {
  std::printf("%s: %s, %d nodes, %d cells, %d edges [mesh %.1f s]\n", label.c_str(),
              m.description.c_str(), m.nodes.size(), m.cells.size(), m.edges.size(), mesh_s);
  Map<Mem> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  run_reorderings(
      o, label, rows, plan_rows,
      [&](auto layout, const Renumbering &ren, Plans &plans, const char *lname, const Map<Mem> &pc,
          const Map<Mem> &pe) {
        return res_calc<decltype(layout)>(o, label, m, pedge, pecell, ren, pe, pc, plans, lname);
      },
      pecell, pedge);
}

} // namespace umesh::perf
