// umesh::dist on 1, 2, 3... MPI ranks (ctest runs it under mpiexec): loops
// over a distributed mesh, under every executor and layout, against the
// serial reference on the whole mesh. Elements are dealt to ranks from a
// shuffled numbering, so halos are ragged and every rank has neighbours.
#include "dist_support.hpp"

namespace {

using namespace umesh;
using namespace dist_support;

template <class T> struct Dist : ::testing::Test {};
TYPED_TEST_SUITE(Dist, Configs);

// Edge loop, cell update, edge loop again: the second edge loop must import
// the updated q (stale halo) and the increments of both must reach owners.
TYPED_TEST(Dist, EdgeLoopsAndCellUpdateMatchSerial) {
  using E = typename TypeParam::exec;
  using L = typename TypeParam::layout;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(29, 17, {true, 3});
  const auto x0 = m.node_coords;
  const auto q0 = random_values(3 * std::size_t(m.cells.size()), 11);
  const auto r0 = random_values(3 * std::size_t(m.cells.size()), 12);

  // Serial reference on the whole mesh, on the host.
  using H = Kokkos::HostSpace;
  Map<H> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  Map<H> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  umesh::Dat<double, 2, L, H> hx(m.nodes, "x");
  umesh::Dat<double, 3, L, H> hq(m.cells, "q"), hr(m.cells, "res");
  copy_from_host(hx, x0);
  copy_from_host(hq, q0);
  copy_from_host(hr, r0);
  Global<double> sum_ref("sum", 2.0), min_ref("min", 0.5);
  auto serial = make_plan(Kokkos::DefaultHostExecutionSpace(), exec::Serial{}, m.edges);
  auto serial_cells = make_plan(Kokkos::DefaultHostExecutionSpace(), exec::Serial{}, m.cells);
  auto edge_loop_ref = [&] {
    par_loop(serial, "edges", EdgeKernel{}, read(hx, pedge, 0), read(hx, pedge, 1),
             read(hq, pecell, 0), read(hq, pecell, 1), inc(hr, pecell, 0), inc(hr, pecell, 1),
             reduce_sum(sum_ref), reduce_min(min_ref));
  };
  edge_loop_ref();
  par_loop(serial_cells, "cells", CellUpdate{}, read(hr), rw(hq));
  edge_loop_ref();

  // Distributed: edges dealt to ranks from a shuffled order.
  std::vector<int> owner(m.edges.size());
  std::vector<int> order(owner.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = int(i);
  std::shuffle(order.begin(), order.end(), std::mt19937(5));
  for (std::size_t i = 0; i < order.size(); ++i)
    owner[order[i]] = int(i * size / order.size());
  dist::Partition<Mem> part(
      MPI_COMM_WORLD, m.edges, owner,
      {{"pedge", m.nodes, 2, m.edge_nodes}, {"pecell", m.cells, 2, m.edge_cells}});
  const auto &cells = part.part(m.cells);
  dist::Dat<double, 2, L, Mem> x(part.part(m.nodes), "x");
  dist::Dat<double, 3, L, Mem> q(cells, "q"), res(cells, "res");
  x.set_global(x0);
  q.set_global(q0);
  res.set_global(r0);
  const Map<Mem> &lpedge = part.map("pedge"), &lpecell = part.map("pecell");
  auto plan = make_plan(Space(), test_exec<E>(), part.elements()->local, lpecell);
  auto cell_plan = make_plan(Space(), exec::Atomic{}, cells->local);
  Global<double> sum("sum", 2.0), mn("min", 0.5);
  auto edge_loop = [&] {
    dist::par_loop(plan, "edges", EdgeKernel{}, dist::read(x, lpedge, 0), dist::read(x, lpedge, 1),
                   dist::read(q, lpecell, 0), dist::read(q, lpecell, 1), dist::inc(res, lpecell, 0),
                   dist::inc(res, lpecell, 1), dist::reduce_sum(sum), dist::reduce_min(mn));
  };
  edge_loop();
  EXPECT_TRUE(res.halo_stale() || size == 1);
  dist::par_loop(cell_plan, "cells", CellUpdate{}, dist::read(res), dist::rw(q));
  EXPECT_TRUE(q.halo_stale() || size == 1);
  edge_loop();
  EXPECT_FALSE(q.halo_stale()); // imported by the second edge loop

  auto ref_res = Kokkos::create_mirror_view_and_copy(H(), hr.view());
  auto ref_q = Kokkos::create_mirror_view_and_copy(H(), hq.view());
  std::vector<double> want_res(std::size_t(hr.size()) * 3), want_q(want_res.size());
  for (std::size_t i = 0; i < std::size_t(hr.size()); ++i)
    for (int k = 0; k < 3; ++k)
      want_res[3 * i + k] = ref_res(i, k), want_q[3 * i + k] = ref_q(i, k);
  EXPECT_LT(max_rel_diff(res.gather_global(MPI_COMM_WORLD), want_res), 1e-12) << "rank " << rank;
  EXPECT_LT(max_rel_diff(q.gather_global(MPI_COMM_WORLD), want_q), 1e-12) << "rank " << rank;
  EXPECT_NEAR(sum.value(), sum_ref.value(), 1e-12 * std::fabs(sum_ref.value()) + 1e-14);
  EXPECT_EQ(mn.value(), min_ref.value());
  EXPECT_LT(mn.value(), 0.5); // the loops reached the global
  if (size > 1) {             // every rank has a halo to exchange
    EXPECT_GT(cells->halo->neighbours(), 0) << "rank " << rank;
    // The exchange's time, split into its phases.
    const auto ph = cells->halo->phases();
    EXPECT_GE(ph.pack, 0.0);
    EXPECT_GE(ph.wait, 0.0);
    EXPECT_GE(ph.unpack, 0.0);
    EXPECT_GT(cells->halo->seconds(), 0.0);
    EXPECT_DOUBLE_EQ(ph.pack + ph.wait + ph.unpack, cells->halo->seconds());
    // res exported after each edge loop, q imported by the second (the cell
    // loop left it stale); x's halo, set once, never travels.
    EXPECT_EQ(cells->halo->exchanges(), 3u) << "rank " << rank;
    EXPECT_EQ(part.part(m.nodes)->halo->exchanges(), 0u) << "rank " << rank;
    // Their bytes: each export sends the halo's rows, the import the owned
    // rows the neighbours hold; three doubles a row.
    EXPECT_EQ(cells->halo->bytes_sent(),
              3 * sizeof(double) * (2 * cells->halo->halo_points() + cells->halo->sent_points()))
        << "rank " << rank;
  } else {
    EXPECT_EQ(cells->halo->exchanges(), 0u); // no neighbour, nothing sent
  }
}

// Timing exchanges on the device (fences around each half) changes when the
// host waits, not the values: the same loops agree with it on and off (to
// rounding: atomics add in any order), and every halo is told.
TEST(DistExchange, TimingOnTheDeviceKeepsResultsAndCountsTime) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(13, 11, {true, 4});
  std::vector<int> owner(m.edges.size());
  for (std::size_t e = 0; e < owner.size(); ++e)
    owner[e] = int(e * std::size_t(size) / owner.size());
  const auto x0 = m.node_coords;
  const auto q0 = random_values(3 * std::size_t(m.cells.size()), 21);
  std::vector<std::vector<double>> res_of;
  for (const bool on_device : {false, true}) {
    dist::Partition<Mem> part(
        MPI_COMM_WORLD, m.edges, owner,
        {{"pedge", m.nodes, 2, m.edge_nodes}, {"pecell", m.cells, 2, m.edge_cells}});
    part.time_exchanges_on_device(on_device);
    const auto &cells = part.part(m.cells);
    EXPECT_EQ(cells->halo->times_on_device(), on_device);
    EXPECT_EQ(part.part(m.nodes)->halo->times_on_device(), on_device);
    dist::Dat<double, 2, SoA, Mem> x(part.part(m.nodes), "x");
    dist::Dat<double, 3, SoA, Mem> q(cells, "q"), res(cells, "res");
    x.set_global(x0);
    q.set_global(q0);
    res.set_global(std::vector<double>(q0.size(), 0.0));
    const Map<Mem> &lpedge = part.map("pedge"), &lpecell = part.map("pecell");
    auto plan = make_plan(Space(), exec::Atomic{}, part.elements()->local);
    auto cell_plan = make_plan(Space(), exec::Atomic{}, cells->local);
    Global<double> sum("sum"), mn("min", 0.5);
    auto edge_loop = [&] {
      dist::par_loop(plan, "edges", EdgeKernel{}, dist::read(x, lpedge, 0),
                     dist::read(x, lpedge, 1), dist::read(q, lpecell, 0), dist::read(q, lpecell, 1),
                     dist::inc(res, lpecell, 0), dist::inc(res, lpecell, 1), dist::reduce_sum(sum),
                     dist::reduce_min(mn));
    };
    edge_loop();
    dist::par_loop(cell_plan, "cells", CellUpdate{}, dist::read(res), dist::rw(q));
    edge_loop();
    if (size > 1) {
      EXPECT_GT(cells->halo->seconds(), 0.0);
    }
    res_of.push_back(res.gather_global(MPI_COMM_WORLD));
    res_of.push_back(q.gather_global(MPI_COMM_WORLD));
  }
  EXPECT_LT(max_rel_diff(res_of[2], res_of[0]), 1e-12);
  EXPECT_LT(max_rel_diff(res_of[3], res_of[1]), 1e-12);
}

// Several exchanges under way at once (as an overlapped loop has them: one
// per combined dat), each started before any finishes: every exchange's
// buffers stay where MPI reads and writes them while the later ones take
// theirs (a set of buffers that moved when the next was added freed the
// host buffer MPI was still receiving into, under Kokkos 4: wrong halos and
// a corrupted heap). Imports, then exports that add, each dat its own values.
TEST(DistExchange, ManyExchangesUnderWayAtOnce) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(13, 11, {true, 4});
  const auto s = shuffled_owners(m.edges.size(), size, 5);
  dist::Partition<Mem> part(MPI_COMM_WORLD, m.edges, s.owner,
                            {{"pecell", m.cells, 2, m.edge_cells}});
  const auto &cells = part.part(m.cells);
  const dist::Exchange &ex = *cells->halo;
  const int n = cells->local.size(), owned = cells->owned, global = m.cells.size();
  constexpr int dats = 9; // slots 1 -> 9: the slot table grows several times
  auto value = [](int d, int g, int k) { return 1000.0 * d + 3.0 * g + k; };
  std::vector<dist::Dat<double, 3, AoS, Mem>> q;
  for (int d = 0; d < dats; ++d)
    q.emplace_back(cells, "q" + std::to_string(d));
  auto set = [&](int d, auto &&of) { // of(local point, k)
    auto h = Kokkos::create_mirror_view(q[d].local().view());
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k)
        h(i, k) = of(i, k);
    Kokkos::deep_copy(q[d].local().view(), h);
  };
  auto run_all = [&](bool to_owners) {
    std::vector<dist::Exchange::Pending> pending;
    for (int d = 0; d < dats; ++d)
      pending.push_back(ex.start(q[d].local(), to_owners, dist::Exchange::Combine::add));
    for (int d = 0; d < dats; ++d)
      ex.finish(q[d].local(), pending[d]);
  };

  // Imports: halo copies poisoned, owned points their values.
  for (int d = 0; d < dats; ++d)
    set(d,
        [&](int i, int k) { return i < owned ? value(d, cells->global_ids[i], k) : std::nan(""); });
  run_all(/*to_owners=*/false);
  int wrong = 0;
  for (int d = 0; d < dats; ++d) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q[d].local().view());
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k)
        wrong += !(h(i, k) == value(d, cells->global_ids[i], k));
  }
  EXPECT_EQ(wrong, 0) << "imports";

  // Exports that add: owned points 0, halo copies their values; each owner
  // then holds its value times the ranks that hold the point as halo.
  std::vector<int> copies(global, 0);
  for (int i = owned; i < n; ++i)
    ++copies[cells->global_ids[i]];
  MPI_Allreduce(MPI_IN_PLACE, copies.data(), global, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int d = 0; d < dats; ++d)
    set(d, [&](int i, int k) { return i < owned ? 0.0 : value(d, cells->global_ids[i], k); });
  run_all(/*to_owners=*/true);
  for (int d = 0; d < dats; ++d) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q[d].local().view());
    for (int i = 0; i < owned; ++i) {
      const int g = cells->global_ids[i];
      for (int k = 0; k < 3; ++k)
        wrong += !(h(i, k) == copies[g] * value(d, g, k));
    }
  }
  EXPECT_EQ(wrong, 0) << "exports";
}

// A reduction over a point set would count its halo copies twice: refused.
TEST(DistPartition, ReductionOverHaloPointsIsAnError) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(6, 5, {true, 2});
  std::vector<int> owner(m.edges.size());
  for (std::size_t e = 0; e < owner.size(); ++e)
    owner[e] = int(e % std::size_t(size));
  dist::Partition<Mem> part(MPI_COMM_WORLD, m.edges, owner, {{"pecell", m.cells, 2, m.edge_cells}});
  const auto &cells = part.part(m.cells);
  dist::Dat<double, 3, AoS, Mem> q(cells, "q"), r(cells, "r");
  auto plan = make_plan(Space(), exec::Atomic{}, cells->local);
  Global<double> total("total");
  auto loop = [&] { dist::par_loop(plan, "cells", CellUpdate{}, dist::read(r), dist::rw(q)); };
  loop(); // no reduction: fine
  if (cells->owned == cells->local.size())
    return; // one rank: no halo
  try {
    dist::par_loop(plan, "cell_sum", CellSum{}, dist::read(q), dist::reduce_sum(total));
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("global reductions over a set with halo points"),
              std::string::npos)
        << e.what();
  }
}

// Indirect min and max: halo copies start from the identity and are folded
// into their owners with min/max, on every executor.
TYPED_TEST(Dist, IndirectMinMaxMatchSerial) {
  using E = typename TypeParam::exec;
  using L = typename TypeParam::layout;
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(23, 19, {true, 4});
  const auto q0 = random_values(3 * std::size_t(m.cells.size()), 21);
  using H = Kokkos::HostSpace;
  Map<H> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  umesh::Dat<double, 3, L, H> hq(m.cells, "q"), hlo(m.cells, "lo"), hhi(m.cells, "hi");
  copy_from_host(hq, q0);
  copy_from_host(hlo, q0);
  copy_from_host(hhi, q0);
  auto serial = make_plan(Kokkos::DefaultHostExecutionSpace(), exec::Serial{}, m.edges);
  par_loop(serial, "minmax", MinMax{}, read(hq, pecell, 0), read(hq, pecell, 1),
           umesh::min(hlo, pecell, 0), umesh::min(hlo, pecell, 1), umesh::max(hhi, pecell, 0),
           umesh::max(hhi, pecell, 1));

  std::vector<int> owner(m.edges.size());
  for (std::size_t e = 0; e < owner.size(); ++e)
    owner[e] = int((e * 7919) % owner.size() * size / owner.size());
  dist::Partition<Mem> part(MPI_COMM_WORLD, m.edges, owner, {{"pecell", m.cells, 2, m.edge_cells}});
  const auto &cells = part.part(m.cells);
  dist::Dat<double, 3, L, Mem> q(cells, "q"), lo(cells, "lo"), hi(cells, "hi");
  q.set_global(q0);
  lo.set_global(q0);
  hi.set_global(q0);
  const Map<Mem> &pc = part.map("pecell");
  auto plan = make_plan(Space(), test_exec<E>(), part.elements()->local, pc);
  dist::par_loop(plan, "minmax", MinMax{}, dist::read(q, pc, 0), dist::read(q, pc, 1),
                 dist::min(lo, pc, 0), dist::min(lo, pc, 1), dist::max(hi, pc, 0),
                 dist::max(hi, pc, 1));
  auto want_lo = Kokkos::create_mirror_view_and_copy(H(), hlo.view());
  auto want_hi = Kokkos::create_mirror_view_and_copy(H(), hhi.view());
  const auto got_lo = lo.gather_global(MPI_COMM_WORLD), got_hi = hi.gather_global(MPI_COMM_WORLD);
  int bad = 0;
  for (int c = 0; c < m.cells.size(); ++c)
    for (int k = 0; k < 3; ++k)
      bad += got_lo[3 * std::size_t(c) + k] != want_lo(c, k) ||
             got_hi[3 * std::size_t(c) + k] != want_hi(c, k);
  EXPECT_EQ(bad, 0);
}

// Every point is owned by exactly one rank, and a rank holds (owned or as
// halo) exactly the points its elements reach plus the ones it owns.
TEST(DistPartition, OwnershipAndHalosCoverTheMesh) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(13, 11, {true, 9});
  std::vector<int> owner(m.edges.size());
  for (std::size_t e = 0; e < owner.size(); ++e)
    owner[e] = int((e * 31) % std::size_t(size));
  dist::Partition<Mem> part(
      MPI_COMM_WORLD, m.edges, owner,
      {{"pedge", m.nodes, 2, m.edge_nodes}, {"pecell", m.cells, 2, m.edge_cells}});
  for (const auto &[set, map] :
       {std::make_pair(m.nodes, &m.edge_nodes), std::make_pair(m.cells, &m.edge_cells)}) {
    const auto &pt = part.part(set);
    // Owned everywhere: each point exactly once over the ranks.
    std::vector<int> mine(set.size(), 0), all(set.size(), 0);
    for (int i = 0; i < pt->owned; ++i)
      mine[pt->global_ids[i]] = 1;
    MPI_Allreduce(mine.data(), all.data(), set.size(), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(std::count(all.begin(), all.end(), 1), set.size()) << set.name();
    // Held here: owned points and the points this rank's elements reach.
    std::vector<char> reached(set.size(), 0), held(set.size(), 0);
    for (std::size_t e = 0; e < owner.size(); ++e)
      if (owner[e] == rank)
        for (int k = 0; k < 2; ++k)
          reached[(*map)[2 * e + k]] = 1;
    for (int i = 0; i < pt->local.size(); ++i) {
      EXPECT_EQ(held[pt->global_ids[i]], 0) << "point held twice";
      held[pt->global_ids[i]] = 1;
      if (i >= pt->owned) {
        EXPECT_TRUE(reached[pt->global_ids[i]]) << "halo point no element here reaches";
      }
    }
    for (int p = 0; p < set.size(); ++p) {
      if (reached[p]) {
        EXPECT_TRUE(held[p]) << set.name() << " point " << p << " reached but not held";
      }
    }
    EXPECT_EQ(int(pt->global_ids.size()), pt->local.size());
  }
}

struct AddOne {
  template <class A> KOKKOS_INLINE_FUNCTION void operator()(A a) const { a(0) += 1.0; }
};

// Cells in slabs as given owners; a second element set (one element per
// cell, on its cell's rank) over the first partition's parts: the same
// halo, a loop through it adds 1 to every cell exactly once. An element on
// a rank that does not hold its point is an error.
TEST(DistPartition, GivenOwnersAndAFurtherElementSet) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(12, 9);
  const int nc = m.cells.size();
  std::vector<int> cell_owner(nc), edge_owner(m.edges.size()), self(nc);
  for (int c = 0; c < nc; ++c)
    cell_owner[c] = int(std::int64_t(c) * size / nc), self[c] = c;
  for (std::size_t e = 0; e < edge_owner.size(); ++e)
    edge_owner[e] = cell_owner[m.edge_cells[2 * e + 1]];
  dist::Partition<Mem> part(MPI_COMM_WORLD, m.edges, edge_owner,
                            {{"pecell", m.cells, 2, m.edge_cells}}, {{m.cells, cell_owner}});
  const auto &cells = part.part(m.cells);
  for (int i = 0; i < cells->owned; ++i)
    EXPECT_EQ(cell_owner[cells->global_ids[i]], rank);
  int owned = cells->owned, total = 0;
  MPI_Allreduce(&owned, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, nc);

  const Set per_cell("per_cell", nc);
  dist::Partition<Mem> second(MPI_COMM_WORLD, per_cell, cell_owner, {{"self", m.cells, 1, self}},
                              part.targets());
  EXPECT_EQ(second.part(m.cells).get(), cells.get()); // the same part, the same halo
  dist::Dat<double, 1, AoS, Mem> d(cells, "d");
  d.set_global(std::vector<double>(nc, 2.0));
  auto plan = make_plan(Space(), exec::Atomic{}, second.elements()->local);
  dist::par_loop(plan, "add_one", AddOne{}, dist::inc(d, second.map("self"), 0));
  for (double v : d.gather_global(MPI_COMM_WORLD))
    EXPECT_EQ(v, 3.0);

  if (size > 1) { // cells dealt to the next rank: some are not held there
    std::vector<int> wrong(nc);
    for (int c = 0; c < nc; ++c)
      wrong[c] = (cell_owner[c] + 1) % size;
    int threw = 0, any = 0;
    try {
      dist::Partition<Mem> bad(MPI_COMM_WORLD, per_cell, wrong, {{"self", m.cells, 1, self}},
                               part.targets());
    } catch (const Error &e) {
      threw = 1;
      EXPECT_NE(std::string(e.what()).find("neither owned nor in the halo"), std::string::npos)
          << e.what();
    }
    MPI_Allreduce(&threw, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(any, 1);
  }
}

struct AddOneToBoth {
  template <class A, class B> KOKKOS_INLINE_FUNCTION void operator()(A a, B b) const {
    a(0) += 1.0;
    b(0) += 1.0;
  }
};

// Each edge lives with its second cell, so the map to that cell reaches no
// halo on any rank, while the map to both cells does (on 2+ ranks). A loop
// through the first alone exchanges nothing; one incrementing a dat through
// both (the halo-free one first) still zeroes its halo and exports it, with
// a plain plan and with an overlap plan, and the sums match the serial count.
TEST(DistPartition, MapsThatReachNoHaloExchangeNothing) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(14, 9, {true, 5});
  const int nc = m.cells.size(), ne = m.edges.size();
  std::vector<int> cell_owner(nc), edge_owner(ne), second(ne);
  for (int c = 0; c < nc; ++c)
    cell_owner[c] = int(std::int64_t(c) * size / nc);
  for (int e = 0; e < ne; ++e) {
    second[e] = m.edge_cells[2 * std::size_t(e) + 1];
    edge_owner[e] = cell_owner[second[e]];
  }
  std::vector<double> want(nc, 2.0), want_second(nc, 2.0);
  for (int e = 0; e < ne; ++e) {
    want[second[e]] += 1.0;
    want[m.edge_cells[2 * std::size_t(e)]] += 1.0;
    want_second[second[e]] += 1.0;
  }
  for (const auto order : {dist::ElementOrder::global, dist::ElementOrder::overlap}) {
    dist::Partition<Mem> part(
        MPI_COMM_WORLD, m.edges, edge_owner,
        {{"second", m.cells, 1, second}, {"pecell", m.cells, 2, m.edge_cells}},
        std::vector<dist::PointOwners>{{m.cells, cell_owner}}, order);
    const auto &cells = part.part(m.cells);
    const Map<Mem> &lsecond = part.map("second"), &lpecell = part.map("pecell");
    EXPECT_FALSE(cells->reaches_halo(lsecond));
    EXPECT_FALSE(cells->reaches_halo(Map<Mem>(lsecond))); // a copy is known too
    EXPECT_EQ(cells->reaches_halo(lpecell), size > 1);
    // A map the partition did not make: exchanged, as before.
    const Map<Mem> other("other", part.elements()->local, cells->local, 1,
                         std::vector<int>(std::size_t(part.elements()->owned), 0));
    EXPECT_TRUE(cells->reaches_halo(other));

    dist::Dat<double, 1, AoS, Mem> d(cells, "d"), e(cells, "e");
    d.set_global(std::vector<double>(nc, 2.0));
    e.set_global(std::vector<double>(nc, 2.0));
    const std::size_t before = cells->halo->exchanges();
    auto run = [&](auto &plan) {
      dist::par_loop(plan, "second_only", AddOne{}, dist::inc(e, lsecond, 0));
      EXPECT_EQ(cells->halo->exchanges(), before) << "nothing to send";
      dist::par_loop(plan, "both", AddOneToBoth{}, dist::inc(d, lsecond, 0),
                     dist::inc(d, lpecell, 0));
      EXPECT_EQ(cells->halo->exchanges(), before + (size > 1 ? 1 : 0)) << "d exported once";
    };
    if (order == dist::ElementOrder::overlap) {
      auto plan = dist::make_overlap_plan(Space(), exec::Atomic{}, part, lsecond, lpecell);
      run(plan);
    } else {
      auto plan = make_plan(Space(), exec::Atomic{}, part.elements()->local);
      run(plan);
    }
    EXPECT_EQ(d.gather_global(MPI_COMM_WORLD), want);
    EXPECT_EQ(e.gather_global(MPI_COMM_WORLD), want_second);
  }
}

TEST(DistPartition, BadOwnersAreErrors) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(4, 3);
  std::vector<int> owner(m.edges.size(), 0);
  owner[2] = size; // no such rank
  try {
    dist::Partition<Mem> part(MPI_COMM_WORLD, m.edges, owner,
                              {{"pecell", m.cells, 2, m.edge_cells}});
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("element 2 of 'edges' owned by rank"), std::string::npos)
        << e.what();
  }
  owner.pop_back();
  EXPECT_THROW(
      dist::Partition<Mem>(MPI_COMM_WORLD, m.edges, owner, {{"pecell", m.cells, 2, m.edge_cells}}),
      Error);
}

// Ranks that Kokkos put on one GPU are counted; host backends share none.
TEST(DistDevices, RanksSharingADeviceAreCounted) {
  const int most = umesh::dist::most_ranks_per_device(MPI_COMM_WORLD);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 1;
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  if (umesh::dist::device_id() < 0) {
    EXPECT_EQ(most, 1);
    return;
  }
#if defined(KOKKOS_ENABLE_CUDA)
  // Kokkos 3.4 deals a node's ranks to its GPUs round-robin by local rank.
  const int gpus = Kokkos::Cuda::detect_device_count();
  ASSERT_GT(gpus, 0);
  EXPECT_LT(umesh::dist::device_id(), gpus);
  EXPECT_EQ(most, (local + gpus - 1) / gpus) << local << " ranks on " << gpus << " GPUs";
#endif
}

} // namespace

int main(int argc, char **argv) {
  return run_distributed_tests(argc, argv);
}
