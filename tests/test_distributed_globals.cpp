// Device globals over MPI ranks (umesh::dist::reset and fetch) on 1, 2, 3...
// ranks: each rank folds its own elements into its share, the fetch combines
// the shares, and a sum's initial value counts once, against the serial
// reference's host Globals on the whole mesh.
#include "dist_support.hpp"

namespace {

using namespace umesh;
using namespace dist_support;

TEST(DistDeviceGlobals, SharesCombineToTheSerialValues) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(23, 13, {true, 8});
  const auto q0 = random_values(3 * std::size_t(m.cells.size()), 31);

  using H = Kokkos::HostSpace;
  Map<H> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  Map<H> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  umesh::Dat<double, 2, SoA, H> hx(m.nodes, "x");
  umesh::Dat<double, 3, SoA, H> hq(m.cells, "q"), hr(m.cells, "res");
  copy_from_host(hx, m.node_coords);
  copy_from_host(hq, q0);
  // From the device globals' initial values, as they fold.
  Global<double> sum_ref("sum", 2.5), min_ref("min", 0.5);
  auto serial = make_plan(Kokkos::DefaultHostExecutionSpace(), exec::Serial{}, m.edges);
  par_loop(serial, "edges", EdgeKernel{}, read(hx, pedge, 0), read(hx, pedge, 1),
           read(hq, pecell, 0), read(hq, pecell, 1), inc(hr, pecell, 0), inc(hr, pecell, 1),
           reduce_sum(sum_ref, combine_with_held), reduce_min(min_ref, combine_with_held));

  const std::vector<int> owner = dist::contiguous_owners(m.edges.size(), size);
  const dist::Partition<Mem> part(
      MPI_COMM_WORLD, m.edges, owner,
      {{"pedge", m.nodes, 2, m.edge_nodes}, {"pecell", m.cells, 2, m.edge_cells}});
  dist::Dat<double, 2, SoA, Mem> x(part.part(m.nodes), "x");
  dist::Dat<double, 3, SoA, Mem> q(part.part(m.cells), "q"), res(part.part(m.cells), "res");
  x.set_global(m.node_coords);
  q.set_global(q0);
  const Map<Mem> &lpedge = part.map("pedge"), &lpecell = part.map("pecell");
  auto plan = make_plan(Space(), exec::Atomic{}, part.elements()->local, lpecell);
  DeviceGlobalStore<double> store("dist");
  auto sum = store.sum("sum", 2.5);
  auto mn = store.min("min", 0.5);
  auto loop = [&] {
    dist::par_loop(plan, "edges", EdgeKernel{}, dist::read(x, lpedge, 0), dist::read(x, lpedge, 1),
                   dist::read(q, lpecell, 0), dist::read(q, lpecell, 1), dist::inc(res, lpecell, 0),
                   dist::inc(res, lpecell, 1), reduce_sum(sum), reduce_min(mn));
  };

  // Reset on each rank alone, a sum would count its initial value per rank:
  // refused (whatever the rank count, so the check itself is tested).
  store.reset();
  loop();
  EXPECT_THROW(dist::fetch(store, MPI_COMM_WORLD), Error);

  for (int pass = 0; pass < 2; ++pass) { // the second from a fresh reset
    dist::reset(store, MPI_COMM_WORLD);
    res.set_global(std::vector<double>(3 * std::size_t(m.cells.size()), 0.0));
    loop();
    dist::fetch(store, MPI_COMM_WORLD);
    EXPECT_NEAR(sum.value(), sum_ref.value(), 1e-12 * std::fabs(sum_ref.value()))
        << "rank " << rank << ", pass " << pass;
    EXPECT_EQ(mn.value(), min_ref.value()) << "rank " << rank;
  }
  EXPECT_LT(mn.value(), 0.5); // the loop reached it
}

} // namespace

int main(int argc, char **argv) {
  return run_distributed_tests(argc, argv);
}
