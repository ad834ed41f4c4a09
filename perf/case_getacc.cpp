// BookLeaf's getacc scatter on the quads of a 2D mesh: reads each quad's
// corner masses, weights and forces and its density, increments its four
// nodes through quad -> 4 nodes.

#include "kernels.hpp"
#include "main_cases.hpp"
#include "main_mesh.hpp"
#include "main_run.hpp"

namespace umesh::perf {

template <class L>
std::vector<Row> getacc(const Options &o, const std::string &label, const QuadNodeMesh &m,
                        const Map<Mem> &cn, const Renumbering &ren, const Map<Mem> &cn2,
                        Plans &plans, const char *lname) {
  Dat<double, 4, L, Mem> cnmass(m.cells, "cnmass"), cnwt(m.cells, "cnwt"), cnfx(m.cells, "cnfx"),
      cnfy(m.cells, "cnfy");
  Dat<double, 1, L, Mem> rho(m.cells, "rho");
  Dat<double, 4, L, Mem> nd0(m.nodes, "nd0");
  // Corner masses: a quarter empty, so both fallbacks (the previous corner,
  // density x weight) are taken.
  auto hm = Kokkos::create_mirror_view(cnmass.view());
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(0, 1);
  for (int c = 0; c < m.cells.size(); ++c)
    for (int j = 0; j < 4; ++j)
      hm(c, j) = u(rng) < 0.25 ? 0.0 : 0.1 + u(rng);
  Kokkos::deep_copy(cnmass.view(), hm);
  randomise(cnwt, 18, 0.1, 1.0);
  randomise(cnfx, 19, -1, 1);
  randomise(cnfy, 20, -1, 1);
  randomise(rho, 21, 0.5, 1.5);
  randomise(nd0, 22, -1, 1);
  const perf::GetaccScatter kernel{1.0e-40};

  auto hmass = clone_to<Kokkos::HostSpace>(cnmass);
  auto hwt = clone_to<Kokkos::HostSpace>(cnwt);
  auto hfx = clone_to<Kokkos::HostSpace>(cnfx);
  auto hfy = clone_to<Kokkos::HostSpace>(cnfy);
  auto hrho = clone_to<Kokkos::HostSpace>(rho);
  auto ref = clone_to<Kokkos::HostSpace>(nd0);
  auto hcn = clone_to<Kokkos::HostSpace>(cn);
  par_loop(HostSpace(), exec::Serial{}, m.cells, label, kernel, read(hmass), read(hrho), read(hwt),
           read(hfx), read(hfy), inc(ref, hcn, 0), inc(ref, hcn, 1), inc(ref, hcn, 2),
           inc(ref, hcn, 3));

  const auto mass2 = ren.apply(cnmass);
  const auto wt2 = ren.apply(cnwt);
  const auto fx2 = ren.apply(cnfx);
  const auto fy2 = ren.apply(cnfy);
  const auto rho2 = ren.apply(rho);
  const auto nd0_2 = ren.apply(nd0);
  const auto nd = ren.apply(nd0);
  const auto ref2 = ren.apply(ref);
  const double bytes =
      8.0 * (17 * m.cells.size() + 2 * 4 * m.nodes.size()) + 4.0 * 4 * m.cells.size();
  return run_all(o, label, lname, bytes, plans, nd, ref2, nd0_2, [&](auto &plan, auto options) {
    par_loop(plan, options, label, kernel, read(mass2), read(rho2), read(wt2), read(fx2), read(fy2),
             inc(nd, cn2, 0), inc(nd, cn2, 1), inc(nd, cn2, 2), inc(nd, cn2, 3));
  });
}

/// Every executor, layout and reordering asked for on one mesh; rows and
/// plan metrics appended.
void run_getacc(const Options &o, const std::string &label, const QuadNodeMesh &m, double mesh_s,
                std::vector<Row> &rows, std::vector<PlanRow> &plan_rows) {
  std::printf("%s: %s, %d nodes, %d cells [mesh %.1f s]\n", label.c_str(), m.description.c_str(),
              m.nodes.size(), m.cells.size(), mesh_s);
  Map<Mem> cn("cell_nodes", m.cells, m.nodes, 4, m.cell_nodes);
  run_reorderings(
      o, label, rows, plan_rows,
      [&](auto layout, const Renumbering &ren, Plans &plans, const char *lname,
          const Map<Mem> &cn2) {
        return getacc<decltype(layout)>(o, label, m, cn, ren, cn2, plans, lname);
      },
      cn);
}

} // namespace umesh::perf
