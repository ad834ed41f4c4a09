// The smallest complete umesh program: an edge loop on a quad mesh that
// increments both cells of every edge, run under the atomic and colouring
// executors and checked against the serial reference.
#include <umesh/kokkos_args.hpp>
#include <umesh/umesh.hpp>

#include <cmath>
#include <cstdio>
#include <string>

// Written once; every executor and layout runs it unchanged.
struct EdgeFlux {
  template <class X, class Q, class R>
  KOKKOS_INLINE_FUNCTION void operator()(X x1, X x2, Q q1, Q q2, R r1, R r2) const {
    const double dx = x2(0) - x1(0), dy = x2(1) - x1(1);
    const double f = 0.5 * (q1(0) + q2(0)) * dx + dy;
    r1(0) += f;
    r2(0) -= f;
  }
};

int main(int argc, char **argv) {
  // Kokkos' own arguments and thread count, checked before Kokkos reads
  // them: it aborts on some and crashes on others (umesh/kokkos_args.hpp).
  if (const std::string why = umesh::kokkos_arguments_problem(argc, argv); !why.empty()) {
    std::fprintf(stderr, "umesh_quickstart: %s\n", why.c_str());
    return 2;
  }
  Kokkos::ScopeGuard guard(argc, argv);
  using Space = Kokkos::DefaultExecutionSpace;
  using Mem = Space::memory_space;

  umesh::QuadMesh mesh = umesh::make_quad_mesh(64, 32, {/*shuffle=*/true});
  umesh::Map<Mem> pedge("pedge", mesh.edges, mesh.nodes, 2, mesh.edge_nodes);
  umesh::Map<Mem> pecell("pecell", mesh.edges, mesh.cells, 2, mesh.edge_cells);

  umesh::Dat<double, 2, umesh::AoS, Mem> x(mesh.nodes, "x");
  umesh::Dat<double, 1, umesh::AoS, Mem> q(mesh.cells, "q");
  umesh::copy_from_host(x, mesh.node_coords);
  auto qh = Kokkos::create_mirror_view(q.view());
  for (int c = 0; c < mesh.cells.size(); ++c)
    qh(c, 0) = 1.0 + 0.01 * c;
  Kokkos::deep_copy(q.view(), qh);

  auto run = [&](auto &plan) { // the plan carries its executor
    umesh::Dat<double, 1, umesh::AoS, Mem> res(mesh.cells, "res");
    umesh::par_loop(plan, "edge_flux", EdgeFlux{}, umesh::read(x, pedge, 0),
                    umesh::read(x, pedge, 1), umesh::read(q, pecell, 0), umesh::read(q, pecell, 1),
                    umesh::inc(res, pecell, 0), umesh::inc(res, pecell, 1));
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), res.view());
  };
  Space space;
  auto serial_plan = umesh::make_plan(space, umesh::exec::Serial{}, mesh.edges);
  auto atomic_plan = umesh::make_plan(space, umesh::exec::Atomic{}, mesh.edges);
  auto colour_plan = umesh::make_plan(space, umesh::exec::GlobalColour{}, mesh.edges, pecell);
  auto ref = run(serial_plan);
  auto at = run(atomic_plan);
  auto co = run(colour_plan);
  double err = 0;
  for (int c = 0; c < mesh.cells.size(); ++c)
    err =
        std::fmax(err, std::fmax(std::fabs(at(c, 0) - ref(c, 0)), std::fabs(co(c, 0) - ref(c, 0))));
  std::printf("quickstart: %d edges, %d colours, max |error| vs serial = %.3e\n", mesh.edges.size(),
              colour_plan.num_colours(), err);
  return err < 1e-9 ? 0 : 1;
}
