#ifndef UMESH_TESTS_PORTING_FV_KOKKOS_HPP
#define UMESH_TESTS_PORTING_FV_KOKKOS_HPP

// docs/porting.md's "before": the finite-volume code in plain Kokkos. An
// edge loop adds each edge's Rusanov flux to its cells with atomics (a wall
// where an edge has one cell), a cell loop updates the state, and the time
// step is a minimum reduction over the cells.

#include "euler.hpp"
#include "fv_mesh.hpp"

#include <Kokkos_Core.hpp>

#include <vector>

namespace fv {

struct KokkosSolver {
  using Mem = Kokkos::DefaultExecutionSpace::memory_space;
  int ncells, nedges;
  double cfl;
  Kokkos::View<double *[4], Mem> q, res;
  Kokkos::View<int *[2], Mem> edge_cells; // -1: no cell (a wall)
  Kokkos::View<double *[2], Mem> normal;
  Kokkos::View<double *, Mem> area;

  KokkosSolver(const Mesh &m, double cfl_)
      : ncells(m.ncells), nedges(m.nedges), cfl(cfl_), q("q", ncells), res("res", ncells),
        edge_cells("edge_cells", nedges), normal("normal", nedges), area("area", ncells) {
    auto hq = Kokkos::create_mirror_view(q);
    const std::vector<double> q0 = initial_state(m);
    for (int c = 0; c < ncells; ++c)
      for (int k = 0; k < 4; ++k)
        hq(c, k) = q0[4 * c + k];
    Kokkos::deep_copy(q, hq);
    auto hc = Kokkos::create_mirror_view(edge_cells);
    auto hn = Kokkos::create_mirror_view(normal);
    for (int e = 0; e < nedges; ++e)
      for (int k = 0; k < 2; ++k) {
        hc(e, k) = m.edge_cells[2 * e + k];
        hn(e, k) = m.edge_normal[2 * e + k];
      }
    Kokkos::deep_copy(edge_cells, hc);
    Kokkos::deep_copy(normal, hn);
    auto ha = Kokkos::create_mirror_view(area);
    for (int c = 0; c < ncells; ++c)
      ha(c) = m.cell_area[c];
    Kokkos::deep_copy(area, ha);
  }

  /// One explicit step; returns its time step.
  double step() {
    auto q = this->q, res = this->res;
    auto edge_cells = this->edge_cells;
    auto normal = this->normal;
    auto area = this->area;
    const double cfl = this->cfl;
    double dt = 0;
    Kokkos::parallel_reduce(
        "dt", ncells,
        KOKKOS_LAMBDA(int c, double &lo) {
          const double qc[4] = {q(c, 0), q(c, 1), q(c, 2), q(c, 3)};
          const double dtc = cfl * kmath::sqrt(area(c)) / wave_speed(qc);
          lo = dtc < lo ? dtc : lo;
        },
        Kokkos::Min<double>(dt));
    Kokkos::deep_copy(res, 0.0);
    Kokkos::parallel_for(
        "flux", nedges, KOKKOS_LAMBDA(int e) {
          const int c0 = edge_cells(e, 0), c1 = edge_cells(e, 1);
          const double nx = normal(e, 0), ny = normal(e, 1);
          const double ql[4] = {q(c0, 0), q(c0, 1), q(c0, 2), q(c0, 3)};
          double qr[4], f[4];
          if (c1 >= 0)
            for (int k = 0; k < 4; ++k)
              qr[k] = q(c1, k);
          else
            wall_state(ql, nx, ny, qr);
          rusanov(ql, qr, nx, ny, f);
          for (int k = 0; k < 4; ++k) {
            Kokkos::atomic_add(&res(c0, k), f[k]);
            if (c1 >= 0)
              Kokkos::atomic_add(&res(c1, k), -f[k]);
          }
        });
    Kokkos::parallel_for(
        "update", ncells, KOKKOS_LAMBDA(int c) {
          for (int k = 0; k < 4; ++k)
            q(c, k) -= dt / area(c) * res(c, k);
        });
    return dt;
  }

  /// The state on the host, [cell][4].
  std::vector<double> state() const {
    auto hq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
    std::vector<double> out(4 * std::size_t(ncells));
    for (int c = 0; c < ncells; ++c)
      for (int k = 0; k < 4; ++k)
        out[4 * c + k] = hq(c, k);
    return out;
  }
};

} // namespace fv

#endif
