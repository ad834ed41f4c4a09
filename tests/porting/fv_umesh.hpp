#ifndef UMESH_TESTS_PORTING_FV_UMESH_HPP
#define UMESH_TESTS_PORTING_FV_UMESH_HPP

// docs/porting.md's "after": fv_kokkos.hpp's code on umesh. The physics
// (euler.hpp) and the mesh arrays (fv_mesh.hpp) are unchanged; the loops
// become kernels with one accessor per argument, the edges with one cell
// become a set of their own, and any executor and ordering can run them.

#include "euler.hpp"
#include "fv_mesh.hpp"

#include <umesh/umesh.hpp>

#include <vector>

namespace fv {

// The loop bodies of fv_kokkos.hpp, each argument through an accessor.
struct TimeStep {
  double cfl;
  template <class Q, class A, class G>
  KOKKOS_INLINE_FUNCTION void operator()(Q q, A area, G dt) const {
    static_assert(Q::components == 4, "q: 4 conserved variables");
    const double qc[4] = {q(0), q(1), q(2), q(3)};
    dt(0) = umesh::math::min(dt(0), cfl * umesh::math::sqrt(area(0)) / wave_speed(qc));
  }
};
struct InteriorFlux {
  template <class N, class Q, class R>
  KOKKOS_INLINE_FUNCTION void operator()(N n, Q q0, Q q1, R r0, R r1) const {
    const double ql[4] = {q0(0), q0(1), q0(2), q0(3)}, qr[4] = {q1(0), q1(1), q1(2), q1(3)};
    double f[4];
    rusanov(ql, qr, n(0), n(1), f);
    for (int k = 0; k < 4; ++k) {
      r0(k) += f[k];
      r1(k) -= f[k];
    }
  }
};
struct WallFlux {
  template <class N, class Q, class R>
  KOKKOS_INLINE_FUNCTION void operator()(N n, Q q0, R r0) const {
    const double ql[4] = {q0(0), q0(1), q0(2), q0(3)};
    double qr[4], f[4];
    wall_state(ql, n(0), n(1), qr);
    rusanov(ql, qr, n(0), n(1), f);
    for (int k = 0; k < 4; ++k)
      r0(k) += f[k];
  }
};
struct Update {
  double dt;
  template <class A, class R, class Q>
  KOKKOS_INLINE_FUNCTION void operator()(A area, R res, Q q) const {
    for (int k = 0; k < 4; ++k)
      q(k) -= dt / area(0) * res(k);
  }
};

/// The mesh arrays as umesh sets, maps and dats: interior edges (two
/// cells) and walls (edges with one) as two sets, each with its map.
template <class Layout, class Mem> struct Port {
  template <int D> using DatT = umesh::Dat<double, D, Layout, Mem>;
  umesh::Set cells, edges, walls;
  umesh::Map<Mem> ecell, wcell;
  DatT<4> q, res;
  DatT<1> area;
  DatT<2> normal, wnormal;
  umesh::Renumbering r;
};

/// Builds the port from the mesh arrays and the state's Views (wrapped, not
/// copied, unless `method` renumbers the mesh).
template <class Layout, class Mem>
Port<Layout, Mem> make_port(const Mesh &m, Kokkos::View<double *[4], Layout, Mem> q0,
                            Kokkos::View<double *, Mem> area0, umesh::Reorder method) {
  std::vector<int> inner_cells, wall_cells;
  std::vector<double> inner_normal, wall_normal;
  for (int e = 0; e < m.nedges; ++e) {
    const bool wall = m.edge_cells[2 * e + 1] < 0;
    auto &cells = wall ? wall_cells : inner_cells;
    cells.insert(cells.end(), m.edge_cells.begin() + 2 * e,
                 m.edge_cells.begin() + 2 * e + (wall ? 1 : 2));
    auto &normal = wall ? wall_normal : inner_normal;
    normal.insert(normal.end(), m.edge_normal.begin() + 2 * e, m.edge_normal.begin() + 2 * e + 2);
  }
  umesh::Set cells("cells", m.ncells), edges("edges", int(inner_cells.size()) / 2),
      walls("walls", int(wall_cells.size()));
  umesh::Map<Mem> ecell("ecell", edges, cells, 2, inner_cells);
  umesh::Map<Mem> wcell("wcell", walls, cells, 1, wall_cells);
  using P = Port<Layout, Mem>;
  typename P::template DatT<4> q(cells, "q", q0); // no copy: the dat is the View
  typename P::template DatT<1> area(cells, "area", area0);
  typename P::template DatT<2> normal(edges, "normal"), wnormal(walls, "wnormal");
  umesh::copy_from_host(normal, inner_normal);
  umesh::copy_from_host(wnormal, wall_normal);
  umesh::Renumbering r;
  if (method != umesh::Reorder::none) {
    r = umesh::reorder(umesh::ReorderOptions{}.with_method(method), edges, ecell);
    ecell = r.apply(ecell); // edges and cells renumbered
    wcell = r.apply(wcell); // the walls keep their order, their cells move
    normal = r.apply(normal);
    q = r.apply(q); // copies in the new numbering
    area = r.apply(area);
  }
  typename P::template DatT<4> res(r.set(cells), "res"); // made on the new cells
  return P{cells, edges, walls, ecell, wcell, q, res, area, normal, wnormal, r};
}

template <class Exec, class Layout> class UmeshSolver {
public:
  using Space = Kokkos::DefaultExecutionSpace;
  using Mem = Space::memory_space;

  UmeshSolver(const Mesh &m, Kokkos::View<double *[4], Layout, Mem> q0,
              Kokkos::View<double *, Mem> area0, double cfl, umesh::Reorder method)
      : p_(make_port(m, q0, area0, method)), cfl_(cfl),
        flux_plan_(umesh::make_plan(Space(), Exec{}, p_.ecell.from(), p_.ecell)),
        wall_plan_(umesh::make_plan(Space(), Exec{}, p_.walls, p_.wcell)) {}

  /// One explicit step; returns its time step.
  double step() {
    using umesh::inc;
    using umesh::read;
    const umesh::Set &cells = p_.q.set();
    umesh::Global<double> dt("dt"); // a minimum from the largest double, as Kokkos::Min
    umesh::par_loop(Space(), umesh::exec::Atomic{}, cells, "dt", TimeStep{cfl_}, read(p_.q),
                    read(p_.area), umesh::reduce_min(dt));
    umesh::fill(Space(), p_.res.view(), 0.0);
    umesh::par_loop(flux_plan_, "flux", InteriorFlux{}, read(p_.normal), read(p_.q, p_.ecell, 0),
                    read(p_.q, p_.ecell, 1), inc(p_.res, p_.ecell, 0), inc(p_.res, p_.ecell, 1));
    umesh::par_loop(wall_plan_, "walls", WallFlux{}, read(p_.wnormal), read(p_.q, p_.wcell, 0),
                    inc(p_.res, p_.wcell, 0));
    umesh::par_loop(Space(), umesh::exec::Atomic{}, cells, "update", Update{dt.value()},
                    read(p_.area), read(p_.res), umesh::rw(p_.q));
    return dt.value();
  }

  /// The state on the host in the mesh's own numbering, [cell][4].
  std::vector<double> state() const {
    const auto q = p_.r.to_original(p_.q);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q.view());
    std::vector<double> out(4 * std::size_t(q.size()));
    for (int c = 0; c < q.size(); ++c)
      for (int k = 0; k < 4; ++k)
        out[4 * c + k] = h(c, k);
    return out;
  }

  const Port<Layout, Mem> &port() const { return p_; }

private:
  Port<Layout, Mem> p_;
  double cfl_;
  umesh::Plan<Exec, Space> flux_plan_, wall_plan_;
};

} // namespace fv

#endif
