// umesh::dist loops that overlap halo exchange with computation (OverlapPlan,
// Partition with ElementOrder::overlap) on 1, 2, 3... MPI ranks, under every
// executor and layout, against the serial reference on the whole mesh.
// Edges go to ranks in strips (large core pieces) and from a shuffled
// numbering (ragged halos, small cores); a direct read of per-edge data and
// global reductions ride along. Where NCCL is built and every rank has a GPU
// of its own, each case runs with the exchange through NCCL too.
#include "dist_support.hpp"

#include <string>

namespace {

using namespace umesh;
using namespace dist_support;

template <class T> struct DistOverlap : ::testing::Test {};
TYPED_TEST_SUITE(DistOverlap, Configs);

// EdgeKernel with a direct per-edge weight on the flux.
struct WeightedEdge {
  template <class W, class X, class Q, class R, class S, class M>
  KOKKOS_INLINE_FUNCTION void operator()(W w, X x1, X x2, Q q1, Q q2, R r1, R r2, S sum,
                                         M mn) const {
    const double dx = x2(0) - x1(0), dy = x2(1) - x1(1);
    for (int k = 0; k < 3; ++k) {
      const double f = w(0) * (0.5 * (q1(k) + q2(k)) * dx + (k + 1) * dy * q1((k + 1) % 3));
      r1(k) += f;
      r2(k) -= 0.5 * f;
    }
    sum(0) += dx * dy * w(0);
    const double lo = q1(0) - q2(0);
    mn(0) = lo < mn(0) ? lo : mn(0);
  }
};

struct ReadsOnly {
  template <class A, class B> KOKKOS_INLINE_FUNCTION void operator()(A, B) const {}
};
struct ReadsBoth {
  template <class A, class B> KOKKOS_INLINE_FUNCTION void operator()(A, A, B, B) const {}
};

enum class Deal { strips, shuffled };

std::vector<int> edge_owners(int n, int size, Deal deal) {
  if (deal == Deal::strips)
    return dist::contiguous_owners(n, size);
  std::vector<int> order(n), owner(n);
  for (int i = 0; i < n; ++i)
    order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  for (int i = 0; i < n; ++i)
    owner[order[i]] = int(std::int64_t(i) * size / n);
  return owner;
}

template <class L, class M> std::vector<double> host_values(const umesh::Dat<double, 3, L, M> &d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.view());
  std::vector<double> v(std::size_t(d.size()) * 3);
  for (std::size_t i = 0; i < std::size_t(d.size()); ++i)
    for (int k = 0; k < 3; ++k)
      v[3 * i + k] = h(i, k);
  return v;
}

// Copies q into the min and max dats (direct on cells).
struct CopyTo {
  template <class Q, class A, class B>
  KOKKOS_INLINE_FUNCTION void operator()(Q q, A lo, B hi) const {
    for (int k = 0; k < 3; ++k) {
      lo(k) = q(k);
      hi(k) = q(k);
    }
  }
};

TYPED_TEST(DistOverlap, EdgeLoopsCellUpdateAndMinMaxMatchSerial) {
  using E = typename TypeParam::exec;
  using L = typename TypeParam::layout;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(31, 17);
  const auto q0 = random_values(3 * std::size_t(m.cells.size()), 31);
  const auto r0 = random_values(3 * std::size_t(m.cells.size()), 32);
  const auto w0 = random_values(std::size_t(m.edges.size()), 33);

  // Serial reference on the whole mesh: edges, cells, edges, then the
  // neighbour min/max.
  using H = Kokkos::HostSpace;
  Map<H> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  Map<H> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  umesh::Dat<double, 2, L, H> hx(m.nodes, "x");
  umesh::Dat<double, 1, L, H> hw(m.edges, "w");
  umesh::Dat<double, 3, L, H> hq(m.cells, "q"), hr(m.cells, "res"), hlo(m.cells, "lo"),
      hhi(m.cells, "hi");
  copy_from_host(hx, m.node_coords);
  copy_from_host(hw, w0);
  copy_from_host(hq, q0);
  copy_from_host(hr, r0);
  Global<double> sum_ref("sum", 2.0), min_ref("min", 0.5);
  auto serial = make_plan(Kokkos::DefaultHostExecutionSpace(), exec::Serial{}, m.edges);
  auto serial_cells = make_plan(Kokkos::DefaultHostExecutionSpace(), exec::Serial{}, m.cells);
  auto edges_ref = [&] {
    par_loop(serial, "edges", WeightedEdge{}, read(hw), read(hx, pedge, 0), read(hx, pedge, 1),
             read(hq, pecell, 0), read(hq, pecell, 1), inc(hr, pecell, 0), inc(hr, pecell, 1),
             reduce_sum(sum_ref), reduce_min(min_ref));
  };
  edges_ref();
  par_loop(serial_cells, "cells", CellUpdate{}, read(hr), rw(hq));
  edges_ref();
  copy_values(hlo, hq);
  copy_values(hhi, hq);
  par_loop(serial, "minmax", MinMax{}, read(hq, pecell, 0), read(hq, pecell, 1),
           umesh::min(hlo, pecell, 0), umesh::min(hlo, pecell, 1), umesh::max(hhi, pecell, 0),
           umesh::max(hhi, pecell, 1));
  const auto want_res = host_values(hr), want_q = host_values(hq), want_lo = host_values(hlo),
             want_hi = host_values(hhi);

  std::vector<bool> transports{false}; // through the host; and NCCL where it can run
  if (dist::nccl_available() && dist::most_ranks_per_device(MPI_COMM_WORLD) == 1)
    transports.push_back(true);
  for (const bool nccl : transports)
    for (Deal deal : {Deal::strips, Deal::shuffled}) {
      // Shuffled deals also time their exchanges on the device (fences
      // between the halves of each overlapped loop): the same results.
      const bool timed = deal == Deal::shuffled;
      const std::string how = std::string(deal == Deal::strips ? "strips" : "shuffled") +
                              (nccl ? ", nccl" : "") + (timed ? ", timed on the device" : "");
      dist::Partition<Mem> part(
          MPI_COMM_WORLD, m.edges, edge_owners(m.edges.size(), size, deal),
          {{"pedge", m.nodes, 2, m.edge_nodes}, {"pecell", m.cells, 2, m.edge_cells}},
          std::vector<dist::PointOwners>{}, dist::ElementOrder::overlap);
      if (nccl)
        part.use_nccl();
      part.time_exchanges_on_device(timed);
      const auto &cells = part.part(m.cells);
      const auto &nodes = part.part(m.nodes);
      const Map<Mem> &lpe = part.map("pedge"), &lpc = part.map("pecell");

      // The pieces: in order, covering the elements; boundary ones, and only
      // they, reach a halo point.
      EXPECT_EQ(part.order(), dist::ElementOrder::overlap);
      const auto &pieces = part.pieces();
      ASSERT_EQ(pieces.size(), 3u);
      auto hpe = Kokkos::create_mirror_view_and_copy(H(), lpe.view());
      auto hpc = Kokkos::create_mirror_view_and_copy(H(), lpc.view());
      int next = 0, misplaced = 0;
      for (int p = 0; p < 3; ++p) {
        EXPECT_EQ(pieces[p].first, next);
        for (int e = next; e < next + pieces[p].set.size(); ++e) {
          bool halo = false;
          for (int s = 0; s < 2; ++s)
            halo = halo || hpe(e, s) >= nodes->owned || hpc(e, s) >= cells->owned;
          misplaced += halo != (p == 1);
        }
        next += pieces[p].set.size();
      }
      EXPECT_EQ(next, part.elements()->owned);
      EXPECT_EQ(misplaced, 0) << how << ", rank " << rank;
      // A rank has boundary elements iff it has a halo (rank 0 of strips owns
      // every point its edges reach); strips leave cores on every rank.
      const bool has_halo =
          cells->owned < cells->local.size() || nodes->owned < nodes->local.size();
      EXPECT_EQ(pieces[1].set.size() > 0, has_halo) << how << ", rank " << rank;
      if (deal == Deal::strips) {
        EXPECT_GT(pieces[0].set.size(), 0) << how << ", rank " << rank;
        EXPECT_GT(pieces[2].set.size(), 0) << how << ", rank " << rank;
        EXPECT_TRUE(has_halo || rank == 0) << how << ", rank " << rank;
      }

      dist::Dat<double, 2, L, Mem> x(nodes, "x");
      dist::Dat<double, 1, L, Mem> w(part.elements(), "w");
      dist::Dat<double, 3, L, Mem> q(cells, "q"), res(cells, "res"), lo(cells, "lo"),
          hi(cells, "hi");
      x.set_global(m.node_coords);
      w.set_global(w0);
      q.set_global(q0);
      res.set_global(r0);
      // Poison: halo copies of every cell dat hold NaN until a loop fills
      // them; a missed import or export shows in the results.
      for (const auto *d : {&q, &res})
        d->fill_halo(std::nan(""));
      q.mark_halo_stale();
      auto plan = dist::make_overlap_plan(Space(), test_exec<E>(), part, lpc);
      auto cell_plan = make_plan(Space(), exec::Atomic{}, cells->local);
      Global<double> sum("sum", 2.0), mn("min", 0.5);
      auto edges = [&] {
        dist::par_loop(plan, "edges", WeightedEdge{}, dist::read(w), dist::read(x, lpe, 0),
                       dist::read(x, lpe, 1), dist::read(q, lpc, 0), dist::read(q, lpc, 1),
                       dist::inc(res, lpc, 0), dist::inc(res, lpc, 1), dist::reduce_sum(sum),
                       dist::reduce_min(mn));
      };
      edges();
      EXPECT_TRUE(res.halo_stale() || size == 1);
      dist::par_loop(cell_plan, "cells", CellUpdate{}, dist::read(res), dist::rw(q));
      EXPECT_TRUE(q.halo_stale() || size == 1);
      edges();
      EXPECT_FALSE(q.halo_stale()); // imported by the second edge loop
      dist::par_loop(cell_plan, "copy", CopyTo{}, dist::read(q), dist::write(lo), dist::write(hi));
      dist::par_loop(plan, "minmax", MinMax{}, dist::read(q, lpc, 0), dist::read(q, lpc, 1),
                     dist::min(lo, lpc, 0), dist::min(lo, lpc, 1), dist::max(hi, lpc, 0),
                     dist::max(hi, lpc, 1));

      EXPECT_LT(max_rel_diff(res.gather_global(MPI_COMM_WORLD), want_res), 1e-12)
          << how << ", rank " << rank;
      EXPECT_LT(max_rel_diff(q.gather_global(MPI_COMM_WORLD), want_q), 1e-12)
          << how << ", rank " << rank;
      // (q's sums differ from the reference's in order, so min and max of q
      // to within rounding too.)
      EXPECT_LT(max_rel_diff(lo.gather_global(MPI_COMM_WORLD), want_lo), 1e-12)
          << how << ", rank " << rank;
      EXPECT_LT(max_rel_diff(hi.gather_global(MPI_COMM_WORLD), want_hi), 1e-12)
          << how << ", rank " << rank;
      EXPECT_NEAR(sum.value(), sum_ref.value(), 1e-12 * std::fabs(sum_ref.value()) + 1e-14) << how;
      EXPECT_EQ(mn.value(), min_ref.value()) << how;
      EXPECT_LT(mn.value(), 0.5) << how; // the loops reached the global
    }
}

// What an overlap plan cannot take is a clear error.
TEST(DistOverlapErrors, MisuseIsAClearError) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(8, 6);
  const std::vector<int> owner = dist::contiguous_owners(m.edges.size(), size);
  const std::vector<dist::MapSpec> maps{{"pecell", m.cells, 2, m.edge_cells}};
  auto error_of = [](const auto &f) -> std::string {
    try {
      f();
    } catch (const Error &e) {
      return e.what();
    }
    return "no error";
  };
  auto contains = [](const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
  };
  // A Partition in global order has no pieces.
  dist::Partition<Mem> plain(MPI_COMM_WORLD, m.edges, owner, maps);
  EXPECT_EQ(plain.order(), dist::ElementOrder::global);
  const std::string no_pieces = error_of(
      [&] { dist::make_overlap_plan(Space(), exec::Atomic{}, plain, plain.map("pecell")); });
  EXPECT_TRUE(contains(no_pieces, "construct it with ElementOrder::overlap")) << no_pieces;

  dist::Partition<Mem> part(MPI_COMM_WORLD, m.edges, owner, maps, std::vector<dist::PointOwners>{},
                            dist::ElementOrder::overlap);
  const auto &cells = part.part(m.cells);
  dist::Dat<double, 3, AoS, Mem> q(cells, "q"), r(cells, "r");
  // A map of another Partition, to the plan or to a loop.
  const std::string foreign = error_of(
      [&] { dist::make_overlap_plan(Space(), exec::Atomic{}, part, plain.map("pecell")); });
  EXPECT_TRUE(contains(foreign, "dist::make_overlap_plan: map 'pecell' is not a local map of "
                                "the Partition"))
      << foreign;
  auto plan = dist::make_overlap_plan(Space(), exec::Atomic{}, part, part.map("pecell"));
  const Map<Mem> &other = plain.map("pecell");
  if (plain.elements()->owned == part.elements()->owned) { // a dat of the same size fits other
    const std::string loop_map = error_of([&] {
      dist::par_loop(plan, "edges", MinMax{}, dist::read(q, other, 0), dist::read(q, other, 1),
                     dist::min(r, other, 0), dist::min(r, other, 1), dist::max(r, other, 0),
                     dist::max(r, other, 1));
    });
    EXPECT_TRUE(contains(loop_map, "dist::par_loop 'edges': map 'pecell' is not a local map"))
        << loop_map;
  }
  // A direct argument that is not the loop's elements' data.
  const std::string direct =
      error_of([&] { dist::par_loop(plan, "cells", ReadsOnly{}, dist::read(r), dist::read(q)); });
  EXPECT_TRUE(contains(direct, "dat 'r' is direct but not on the loop's elements")) << direct;
  // NCCL where it cannot run.
  if (!dist::nccl_available()) {
    const std::string nccl = error_of([&] { part.use_nccl(); });
    EXPECT_TRUE(contains(nccl, "umesh was built without NCCL")) << nccl;
  } else if (dist::most_ranks_per_device(MPI_COMM_WORLD) > 1) {
    const std::string nccl = error_of([&] { part.use_nccl(); });
    EXPECT_TRUE(contains(nccl, "NCCL exchange needs one rank per GPU")) << nccl;
  }
}

// Several dats exchanged as one ExchangeGroup (one NCCL launch where NCCL
// runs): dats of both layouts and several widths, imports and adding
// exports, counted as one exchange of their rows together; a dist::par_loop
// that reads two stale dats imports them as one group too.
TEST(DistExchangeGroup, SeveralDatsAsOneExchange) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(13, 11, {true, 4});
  const auto s = shuffled_owners(m.edges.size(), size, 7);
  std::vector<bool> transports{false};
  if (dist::nccl_available() && dist::most_ranks_per_device(MPI_COMM_WORLD) == 1)
    transports.push_back(true);
  for (const bool nccl : transports)
    for (const bool timed : {false, true}) {
      const std::string how = std::string(nccl ? "nccl" : "host") + (timed ? ", timed" : "");
      dist::Partition<Mem> part(MPI_COMM_WORLD, m.edges, s.owner,
                                {{"pecell", m.cells, 2, m.edge_cells}});
      if (nccl)
        part.use_nccl();
      part.time_exchanges_on_device(timed);
      const auto &cells = part.part(m.cells);
      const dist::Exchange &ex = *cells->halo;
      const int n = cells->local.size(), owned = cells->owned, global = m.cells.size();
      dist::Dat<double, 3, SoA, Mem> a(cells, "a");
      dist::Dat<double, 2, AoS, Mem> b(cells, "b");
      dist::Dat<double, 5, SoA, Mem> c(cells, "c");
      auto value = [](int d, int g, int k) { return 1000.0 * d + 7.0 * g + k; };
      auto set = [&](const auto &dat, int d, auto &&of) { // of(local point, k)
        auto h = Kokkos::create_mirror_view(dat.local().view());
        for (int i = 0; i < n; ++i)
          for (int k = 0; k < int(h.extent(1)); ++k)
            h(i, k) = of(d, i, k);
        Kokkos::deep_copy(dat.local().view(), h);
      };
      // Each point of each dat (over `points` local points) as `want`.
      auto count_wrong = [&](const auto &dat, int d, int points, auto &&want) {
        auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dat.local().view());
        int wrong = 0;
        for (int i = 0; i < points; ++i)
          for (int k = 0; k < int(h.extent(1)); ++k)
            wrong += !(h(i, k) == want(d, i, k));
        return wrong;
      };
      auto owned_only = [&](int d, int i, int k) {
        return i < owned ? value(d, cells->global_ids[i], k) : std::nan("");
      };
      auto everywhere = [&](int d, int i, int k) { return value(d, cells->global_ids[i], k); };
      const std::size_t before = ex.exchanges();
      const auto rows_before = ex.rows();
      set(a, 0, owned_only), set(b, 1, owned_only), set(c, 2, owned_only);
      {
        dist::ExchangeGroup g(ex);
        g.start(a.local(), false, dist::Exchange::Combine::add);
        g.start(b.local(), false, dist::Exchange::Combine::add);
        g.start(c.local(), false, dist::Exchange::Combine::add);
        g.finish();
      }
      EXPECT_EQ(count_wrong(a, 0, n, everywhere) + count_wrong(b, 1, n, everywhere) +
                    count_wrong(c, 2, n, everywhere),
                0)
          << "imports, " << how;
      const std::size_t row = (3 + 2 + 5) * sizeof(double);
      EXPECT_EQ(ex.exchanges(), before + (size > 1 ? 1 : 0)) << how;
      if (size > 1) {
        EXPECT_EQ(ex.rows().at(row), (rows_before.count(row) ? rows_before.at(row) : 0) + 1) << how;
        if (timed) {
          EXPECT_GT(ex.seconds(), 0.0) << how;
        }
      }

      // Adding exports: owned points 0, halo copies their values; each owner
      // then holds its value times the ranks that hold the point as halo.
      std::vector<int> copies(global, 0);
      for (int i = owned; i < n; ++i)
        ++copies[cells->global_ids[i]];
      MPI_Allreduce(MPI_IN_PLACE, copies.data(), global, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      auto halo_only = [&](int d, int i, int k) { return i < owned ? 0.0 : everywhere(d, i, k); };
      set(a, 0, halo_only), set(b, 1, halo_only), set(c, 2, halo_only);
      {
        dist::ExchangeGroup g(ex);
        g.start(a.local(), true, dist::Exchange::Combine::add);
        g.start(b.local(), true, dist::Exchange::Combine::add);
        g.start(c.local(), true, dist::Exchange::Combine::add);
      } // finished by the destructor
      auto times_copies = [&](int d, int i, int k) {
        return copies[cells->global_ids[i]] * everywhere(d, i, k);
      };
      EXPECT_EQ(count_wrong(a, 0, owned, times_copies) + count_wrong(b, 1, owned, times_copies) +
                    count_wrong(c, 2, owned, times_copies),
                0)
          << "exports, " << how;

      // dist::par_loop: a loop reading two stale dats through the map
      // imports both as one exchange.
      set(a, 0, owned_only), set(b, 1, owned_only);
      a.mark_halo_stale(), b.mark_halo_stale();
      const std::size_t loop_before = ex.exchanges();
      auto plan = make_plan(Space(), exec::Atomic{}, part.elements()->local);
      const Map<Mem> &pc = part.map("pecell");
      dist::par_loop(plan, "reads", ReadsBoth{}, dist::read(a, pc, 0), dist::read(a, pc, 1),
                     dist::read(b, pc, 0), dist::read(b, pc, 1));
      EXPECT_EQ(ex.exchanges(), loop_before + (size > 1 ? 1 : 0)) << how;
      EXPECT_EQ(count_wrong(a, 0, n, everywhere) + count_wrong(b, 1, n, everywhere), 0)
          << "a loop's imports, " << how;
    }
}

} // namespace

int main(int argc, char **argv) {
  return run_distributed_tests(argc, argv);
}
