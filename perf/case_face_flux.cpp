// A finite-volume face flux on the faces of a 3D mesh: reads the normal
// and both cells' states, increments both cells' fluxes.

#include "kernels.hpp"
#include "main_cases.hpp"
#include "main_mesh.hpp"
#include "main_run.hpp"

namespace umesh::perf {

template <class L>
std::vector<Row> face_flux(const Options &o, const std::string &label, const FaceFluxMesh &m,
                           const Map<Mem> &fc, const Renumbering &ren, const Map<Mem> &fc2,
                           Plans &plans, const char *lname) {
  Dat<double, 3, L, Mem> normal(m.faces, "normal");
  Dat<double, 5, L, Mem> state(m.cells, "u"), flux0(m.cells, "flux0");
  copy_from_host(normal, m.face_normals);
  auto hu = Kokkos::create_mirror_view(state.view());
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  for (int c = 0; c < m.cells.size(); ++c) {
    const double rho = 0.8 + 0.4 * u(rng);
    const double v[3] = {u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5};
    hu(c, 0) = rho;
    for (int k = 0; k < 3; ++k)
      hu(c, 1 + k) = rho * v[k];
    hu(c, 4) = 2.5 + u(rng) + 0.5 * rho * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
  Kokkos::deep_copy(state.view(), hu);
  randomise(flux0, 8, -1, 1);
  const perf::FaceFlux kernel{1.4};

  auto hn = clone_to<Kokkos::HostSpace>(normal);
  auto hs = clone_to<Kokkos::HostSpace>(state);
  auto ref = clone_to<Kokkos::HostSpace>(flux0);
  auto hfc = clone_to<Kokkos::HostSpace>(fc);
  par_loop(HostSpace(), exec::Serial{}, m.faces, label, kernel, read(hn), read(hs, hfc, 0),
           read(hs, hfc, 1), inc(ref, hfc, 0), inc(ref, hfc, 1));

  const auto normal2 = ren.apply(normal);
  const auto state2 = ren.apply(state);
  const auto flux0_2 = ren.apply(flux0);
  const auto flux = ren.apply(flux0);
  const auto ref2 = ren.apply(ref);
  const double bytes = 8.0 * (3 * m.faces.size() + 5 * m.cells.size() + 2 * 5 * m.cells.size()) +
                       4.0 * 2 * m.faces.size();
  return run_all(o, label, lname, bytes, plans, flux, ref2, flux0_2, [&](auto &plan, auto options) {
    par_loop(plan, options, label, kernel, read(normal2), read(state2, fc2, 0),
             read(state2, fc2, 1), inc(flux, fc2, 0), inc(flux, fc2, 1));
  });
}

/// Every executor, layout and reordering asked for on one mesh; rows and
/// plan metrics appended.
void run_face_flux(const Options &o, const std::string &label, const FaceFluxMesh &m, double mesh_s,
                   std::vector<Row> &rows, std::vector<PlanRow> &plan_rows) {
  std::printf("%s: %s, %d cells, %d faces [mesh %.1f s]\n", label.c_str(), m.description.c_str(),
              m.cells.size(), m.faces.size(), mesh_s);
  Map<Mem> fc("face_cells", m.faces, m.cells, 2, m.face_cells);
  run_reorderings(
      o, label, rows, plan_rows,
      [&](auto layout, const Renumbering &ren, Plans &plans, const char *lname,
          const Map<Mem> &fc2) {
        return face_flux<decltype(layout)>(o, label, m, fc, ren, fc2, plans, lname);
      },
      fc);
}

} // namespace umesh::perf
