// Volna's SpaceDiscretization on the edges of a triangle mesh, in single
// precision: reads each edge's flux, bathymetry source, normal and boundary
// flag and both cells' areas, increments both cells' state change through
// edge -> 2 cells. Boundary edges are in the loop too, as in Volna: their
// second cell is their first, and the flag keeps the kernel off it.

#include "kernels.hpp"
#include "main_cases.hpp"
#include "main_mesh.hpp"
#include "main_run.hpp"

#include <umesh/connectivity.hpp>

#include <cmath>

namespace umesh::perf {

template <class L>
std::vector<Row> volna(const Options &o, const std::string &label, const VolnaMesh &m,
                       const Map<Mem> &ec, const Renumbering &ren, const Map<Mem> &ec2,
                       Plans &plans, const char *lname) {
  Dat<float, 3, L, Mem> flux(m.edges, "edge_fluxes");
  Dat<float, 2, L, Mem> bathy(m.edges, "bathy_source"), normal(m.edges, "edge_normals");
  Dat<int, 1, L, Mem> boundary(m.edges, "is_boundary");
  Dat<float, 1, L, Mem> area(m.cells, "cell_volumes");
  Dat<float, 4, L, Mem> out0(m.cells, "out0");
  {
    // Fluxes and sources come from Volna's earlier loops, which scale them
    // by the edge's length: random values times the length here.
    std::mt19937_64 rng(51);
    std::uniform_real_distribution<double> u(-1, 1);
    auto hf = Kokkos::create_mirror_view(flux.view());
    auto hs = Kokkos::create_mirror_view(bathy.view());
    auto hn = Kokkos::create_mirror_view(normal.view());
    auto hb = Kokkos::create_mirror_view(boundary.view());
    for (int e = 0; e < m.edges.size(); ++e) {
      for (int k = 0; k < 3; ++k)
        hf(e, k) = float(u(rng) * m.edge_lengths[e]);
      for (int k = 0; k < 2; ++k)
        hs(e, k) = float(0.1 * u(rng) * m.edge_lengths[e]);
      hn(e, 0) = float(m.edge_normals[2 * e]);
      hn(e, 1) = float(m.edge_normals[2 * e + 1]);
      hb(e, 0) = m.is_boundary[e];
    }
    Kokkos::deep_copy(flux.view(), hf);
    Kokkos::deep_copy(bathy.view(), hs);
    Kokkos::deep_copy(normal.view(), hn);
    Kokkos::deep_copy(boundary.view(), hb);
    auto ha = Kokkos::create_mirror_view(area.view());
    for (int c = 0; c < m.cells.size(); ++c)
      ha(c, 0) = float(m.cell_areas[c]);
    Kokkos::deep_copy(area.view(), ha);
  }
  randomise(out0, 53, -1, 1);
  const perf::VolnaSpaceDiscretization kernel{};

  auto hflux = clone_to<Kokkos::HostSpace>(flux);
  auto hbathy = clone_to<Kokkos::HostSpace>(bathy);
  auto hnormal = clone_to<Kokkos::HostSpace>(normal);
  auto hboundary = clone_to<Kokkos::HostSpace>(boundary);
  auto harea = clone_to<Kokkos::HostSpace>(area);
  auto ref = clone_to<Kokkos::HostSpace>(out0);
  auto hec = clone_to<Kokkos::HostSpace>(ec);
  par_loop(HostSpace(), exec::Serial{}, m.edges, label, kernel, read(hflux), read(hbathy),
           read(hnormal), read(hboundary), read(harea, hec, 0), read(harea, hec, 1),
           inc(ref, hec, 0), inc(ref, hec, 1));

  const auto flux2 = ren.apply(flux);
  const auto bathy2 = ren.apply(bathy);
  const auto normal2 = ren.apply(normal);
  const auto boundary2 = ren.apply(boundary);
  const auto area2 = ren.apply(area);
  const auto out0_2 = ren.apply(out0);
  const auto out = ren.apply(out0);
  const auto ref2 = ren.apply(ref);
  const double bytes =
      4.0 * ((3 + 2 + 2 + 1 + 2) * double(m.edges.size()) + (1 + 2 * 4) * double(m.cells.size()));
  return run_all(o, label, lname, bytes, plans, out, ref2, out0_2, [&](auto &plan, auto options) {
    par_loop(plan, options, label, kernel, read(flux2), read(bathy2), read(normal2),
             read(boundary2), read(area2, ec2, 0), read(area2, ec2, 1), inc(out, ec2, 0),
             inc(out, ec2, 1));
  });
}

/// Every executor, layout and reordering asked for on one mesh; rows and
/// plan metrics appended.
void run_volna(const Options &o, const std::string &label, const VolnaMesh &m, double mesh_s,
               std::vector<Row> &rows, std::vector<PlanRow> &plan_rows) {
  std::printf("%s: %s, %d cells, %d edges, single precision [mesh %.1f s]\n", label.c_str(),
              m.description.c_str(), m.cells.size(), m.edges.size(), mesh_s);
  Map<Mem> ec("edge_cells", m.edges, m.cells, 2, m.edge_cells);
  run_reorderings(
      o, label, rows, plan_rows,
      [&](auto layout, const Renumbering &ren, Plans &plans, const char *lname,
          const Map<Mem> &ec2) {
        return volna<decltype(layout)>(o, label, m, ec, ren, ec2, plans, lname);
      },
      ec);
}

} // namespace umesh::perf
