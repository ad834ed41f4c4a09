// LULESH's IntegrateStressForElems on the hexes of a 3D mesh: reads each
// hex's eight node coordinates (hex -> 8 nodes) and its stresses, writes its
// volume, increments its eight nodes' forces through the same map.

#include "kernels.hpp"
#include "main_cases.hpp"
#include "main_mesh.hpp"
#include "main_run.hpp"

namespace umesh::perf {

template <class L>
std::vector<Row> integrate_stress(const Options &o, const std::string &label, const HexNodeMesh &m,
                                  const Map<Mem> &en, const Renumbering &ren, const Map<Mem> &en2,
                                  Plans &plans, const char *lname) {
  Dat<double, 3, L, Mem> x(m.nodes, "x"), f0(m.nodes, "f0");
  Dat<double, 3, L, Mem> sig(m.cells, "sig");
  Dat<double, 1, L, Mem> determ(m.cells, "determ");
  {
    // Nodes moved off the grid by up to a fifth of a cell, so that no face
    // normal is axis-aligned; stresses as LULESH sets them, -(p + q) on the
    // diagonal, with random pressure and viscosity per element.
    const double h = std::cbrt(1.0 / std::max(1, m.cells.size()));
    std::mt19937_64 rng(61);
    std::uniform_real_distribution<double> u(-1, 1);
    auto hx = Kokkos::create_mirror_view(x.view());
    for (int i = 0; i < m.nodes.size(); ++i)
      for (int k = 0; k < 3; ++k)
        hx(i, k) = m.node_coords[3 * std::size_t(i) + k] + 0.2 * h * u(rng);
    Kokkos::deep_copy(x.view(), hx);
    auto hs = Kokkos::create_mirror_view(sig.view());
    for (int c = 0; c < m.cells.size(); ++c) {
      const double pq = 1.5 + u(rng);
      for (int k = 0; k < 3; ++k)
        hs(c, k) = -pq;
    }
    Kokkos::deep_copy(sig.view(), hs);
  }
  randomise(f0, 62, -1, 1);
  const perf::IntegrateStress kernel{};

  auto hxd = clone_to<Kokkos::HostSpace>(x);
  auto hsig = clone_to<Kokkos::HostSpace>(sig);
  auto hdet = clone_to<Kokkos::HostSpace>(determ);
  auto ref = clone_to<Kokkos::HostSpace>(f0);
  auto hen = clone_to<Kokkos::HostSpace>(en);
  par_loop(HostSpace(), exec::Serial{}, m.cells, label, kernel, read(hsig), write(hdet),
           read(hxd, hen, 0), read(hxd, hen, 1), read(hxd, hen, 2), read(hxd, hen, 3),
           read(hxd, hen, 4), read(hxd, hen, 5), read(hxd, hen, 6), read(hxd, hen, 7),
           inc(ref, hen, 0), inc(ref, hen, 1), inc(ref, hen, 2), inc(ref, hen, 3), inc(ref, hen, 4),
           inc(ref, hen, 5), inc(ref, hen, 6), inc(ref, hen, 7));

  const auto x2 = ren.apply(x);
  const auto sig2 = ren.apply(sig);
  const auto det2 = ren.apply(determ);
  const auto f0_2 = ren.apply(f0);
  const auto f = ren.apply(f0);
  const auto ref2 = ren.apply(ref);
  const double bytes =
      8.0 * ((3 + 1) * double(m.cells.size()) + (3 + 2 * 3) * double(m.nodes.size())) +
      4.0 * 8 * double(m.cells.size());
  return run_all(o, label, lname, bytes, plans, f, ref2, f0_2, [&](auto &plan, auto options) {
    par_loop(plan, options, label, kernel, read(sig2), write(det2), read(x2, en2, 0),
             read(x2, en2, 1), read(x2, en2, 2), read(x2, en2, 3), read(x2, en2, 4),
             read(x2, en2, 5), read(x2, en2, 6), read(x2, en2, 7), inc(f, en2, 0), inc(f, en2, 1),
             inc(f, en2, 2), inc(f, en2, 3), inc(f, en2, 4), inc(f, en2, 5), inc(f, en2, 6),
             inc(f, en2, 7));
  });
}

/// Every executor, layout and reordering asked for on one mesh; rows and
/// plan metrics appended.
void run_integrate_stress(const Options &o, const std::string &label, const HexNodeMesh &m,
                          double mesh_s, std::vector<Row> &rows, std::vector<PlanRow> &plan_rows) {
  std::printf("%s: %s, %d nodes, %d cells [mesh %.1f s]\n", label.c_str(), m.description.c_str(),
              m.nodes.size(), m.cells.size(), mesh_s);
  Map<Mem> en("elem_nodes", m.cells, m.nodes, 8, m.cell_nodes);
  run_reorderings(
      o, label, rows, plan_rows,
      [&](auto layout, const Renumbering &ren, Plans &plans, const char *lname,
          const Map<Mem> &en2) {
        return integrate_stress<decltype(layout)>(o, label, m, en, ren, en2, plans, lname);
      },
      en);
}

} // namespace umesh::perf
