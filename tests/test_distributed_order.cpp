// How umesh::dist lays a mesh over 1, 2, 3... MPI ranks. Each rank's part
// renumbered for locality (Partition's local order): the loops give the
// serial reference's results, each rank holds the same elements and points
// as without renumbering, owned points before the halo, the halo as before.
// Owners dealt by slabs or METIS (dist/owners.hpp): the same on every rank,
// balanced, METIS cutting fewer edges than slabs of a shuffled numbering,
// and each rank's share adding up to the mesh.
#include "dist_support.hpp"

namespace {

using namespace umesh;
using namespace dist_support;

class DistLocalOrder : public ::testing::TestWithParam<Reorder> {};

// Edge loop, cell update, edge loop (as test_distributed's first test) under
// the atomic and hierarchical executors, on a partition whose ranks
// renumbered their parts.
TEST_P(DistLocalOrder, LoopsMatchSerialAndPartsHoldTheSamePoints) {
  const Reorder method = GetParam();
  if (!reorder_available(method))
    GTEST_SKIP() << reorder_name(method) << " is not built in";
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(31, 19, {true, 7});
  const auto q0 = random_values(3 * std::size_t(m.cells.size()), 21);
  const auto r0 = random_values(3 * std::size_t(m.cells.size()), 22);

  // Serial reference on the whole mesh, on the host.
  using H = Kokkos::HostSpace;
  Map<H> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  Map<H> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  umesh::Dat<double, 2, SoA, H> hx(m.nodes, "x");
  umesh::Dat<double, 3, SoA, H> hq(m.cells, "q"), hr(m.cells, "res");
  copy_from_host(hx, m.node_coords);
  copy_from_host(hq, q0);
  copy_from_host(hr, r0);
  Global<double> sum_ref("sum", 0.0), min_ref("min", 1.0);
  auto serial = make_plan(Kokkos::DefaultHostExecutionSpace(), exec::Serial{}, m.edges);
  auto serial_cells = make_plan(Kokkos::DefaultHostExecutionSpace(), exec::Serial{}, m.cells);
  for (int pass = 0; pass < 2; ++pass) {
    par_loop(serial, "edges", EdgeKernel{}, read(hx, pedge, 0), read(hx, pedge, 1),
             read(hq, pecell, 0), read(hq, pecell, 1), inc(hr, pecell, 0), inc(hr, pecell, 1),
             reduce_sum(sum_ref), reduce_min(min_ref));
    if (pass == 0)
      par_loop(serial_cells, "cells", CellUpdate{}, read(hr), rw(hq));
  }
  auto ref_q = Kokkos::create_mirror_view_and_copy(H(), hq.view());
  auto ref_r = Kokkos::create_mirror_view_and_copy(H(), hr.view());
  std::vector<double> want_q(3 * std::size_t(m.cells.size())), want_r(want_q.size());
  for (std::size_t i = 0; i < std::size_t(m.cells.size()); ++i)
    for (int k = 0; k < 3; ++k)
      want_q[3 * i + k] = ref_q(i, k), want_r[3 * i + k] = ref_r(i, k);

  // Edges dealt to ranks from a shuffled order: ragged parts, halos on every rank.
  const std::vector<int> owner = shuffled_owners(m.edges.size(), size, 9).owner;
  const std::vector<dist::MapSpec> maps{{"pedge", m.nodes, 2, m.edge_nodes},
                                        {"pecell", m.cells, 2, m.edge_cells}};
  const dist::Partition<Mem> plain(MPI_COMM_WORLD, m.edges, owner, maps);
  const dist::Partition<Mem> part(MPI_COMM_WORLD, m.edges, owner, maps,
                                  std::vector<dist::PointOwners>{}, dist::ElementOrder::global,
                                  ReorderOptions{}.with_method(method).with_block_size(32));

  // The same elements and points, renumbered; owned first; the halo as before.
  auto sorted = [](std::vector<int> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(sorted(part.elements()->global_ids), plain.elements()->global_ids);
  int moved = part.elements()->global_ids != plain.elements()->global_ids;
  for (const Set *s : {&m.nodes, &m.cells}) {
    const dist::SetPart &a = *plain.part(*s), &b = *part.part(*s);
    ASSERT_EQ(b.owned, a.owned) << s->name();
    ASSERT_EQ(b.local.size(), a.local.size()) << s->name();
    const std::vector<int> owned_a(a.global_ids.begin(), a.global_ids.begin() + a.owned),
        owned_b(b.global_ids.begin(), b.global_ids.begin() + b.owned);
    EXPECT_EQ(sorted(owned_b), owned_a) << s->name();
    EXPECT_TRUE(std::equal(b.global_ids.begin() + b.owned, b.global_ids.end(),
                           a.global_ids.begin() + a.owned))
        << s->name() << ": the halo moved";
    moved += owned_b != owned_a;
  }
  MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_GT(moved, 0) << "no rank renumbered anything";

  auto run = [&](auto exec_tag) {
    using E = decltype(exec_tag);
    const auto &cells = part.part(m.cells);
    dist::Dat<double, 2, SoA, Mem> x(part.part(m.nodes), "x");
    dist::Dat<double, 3, SoA, Mem> q(cells, "q"), res(cells, "res");
    x.set_global(m.node_coords);
    q.set_global(q0);
    res.set_global(r0);
    const Map<Mem> &lpedge = part.map("pedge"), &lpecell = part.map("pecell");
    auto plan = make_plan(Space(), test_exec<E>(), part.elements()->local, lpecell);
    auto cell_plan = make_plan(Space(), exec::Atomic{}, cells->local);
    Global<double> sum("sum", 0.0), mn("min", 1.0);
    for (int pass = 0; pass < 2; ++pass) {
      dist::par_loop(plan, "edges", EdgeKernel{}, dist::read(x, lpedge, 0),
                     dist::read(x, lpedge, 1), dist::read(q, lpecell, 0), dist::read(q, lpecell, 1),
                     dist::inc(res, lpecell, 0), dist::inc(res, lpecell, 1), dist::reduce_sum(sum),
                     dist::reduce_min(mn));
      if (pass == 0)
        dist::par_loop(cell_plan, "cells", CellUpdate{}, dist::read(res), dist::rw(q));
    }
    EXPECT_LT(max_rel_diff(res.gather_global(MPI_COMM_WORLD), want_r), 1e-12) << "rank " << rank;
    EXPECT_LT(max_rel_diff(q.gather_global(MPI_COMM_WORLD), want_q), 1e-12) << "rank " << rank;
    EXPECT_NEAR(sum.value(), sum_ref.value(), 1e-12 * std::fabs(sum_ref.value()) + 1e-14);
    EXPECT_EQ(mn.value(), min_ref.value());
  };
  run(exec::Atomic{});
  run(exec::Hierarchical{});
}

INSTANTIATE_TEST_SUITE_P(Methods, DistLocalOrder,
                         ::testing::Values(Reorder::rcm, Reorder::builtin, Reorder::gps,
                                           Reorder::metis),
                         [](const auto &info) { return std::string(reorder_name(info.param)); });

// What a local order cannot do is refused, naming why.
TEST(DistLocalOrderErrors, SelfMapsAndPlanFilesAreRefused) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(9, 7);
  std::vector<int> self(m.cells.size());
  for (std::size_t c = 0; c < self.size(); ++c)
    self[c] = int(c);
  const auto owners = dist::contiguous_owners(m.cells.size(), size);
  const auto rcm = ReorderOptions{}.with_method(Reorder::rcm);
  try {
    dist::Partition<Mem> p(MPI_COMM_WORLD, m.cells, owners, {{"self", m.cells, 1, self}},
                           std::vector<dist::PointOwners>{}, dist::ElementOrder::global, rcm);
    FAIL() << "a local order with a map from the elements to themselves was accepted";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("maps the elements to themselves"), std::string::npos)
        << e.what();
  }
  const std::vector<int> edge_owners = dist::contiguous_owners(m.edges.size(), size);
  EXPECT_THROW(dist::Partition<Mem>(MPI_COMM_WORLD, m.edges, edge_owners,
                                    {{"pecell", m.cells, 2, m.edge_cells}},
                                    std::vector<dist::PointOwners>{}, dist::ElementOrder::global,
                                    ReorderOptions(rcm).with_plan_file("/tmp/x.plan")),
               Error);
}

// Cut edges of an owner vector over cells (edges whose cells differ).
std::int64_t cut_edges(const QuadMesh &m, const std::vector<int> &cell_owner) {
  return dist::cut_elements(HostConnectivity{m.edge_cells.data(), 2, 0, m.cells.size()},
                            m.edges.size(), cell_owner);
}

TEST(DistOwners, SlabsAreContiguousOwners) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(13, 11, {true, 3});
  const HostConnectivity pecell{m.edge_cells.data(), 2, 0, m.cells.size()};
  EXPECT_EQ(dist::point_owners(MPI_COMM_WORLD, dist::Owners::slabs, m.cells.size(), m.edges.size(),
                               {pecell}),
            dist::contiguous_owners(m.cells.size(), size));
  EXPECT_EQ(dist::element_owners(MPI_COMM_WORLD, dist::Owners::slabs, m.edges.size(), {pecell}),
            dist::contiguous_owners(m.edges.size(), size));
  EXPECT_EQ(dist::parse_owners("slabs"), dist::Owners::slabs);
  EXPECT_THROW(dist::parse_owners("rows"), Error);
  EXPECT_THROW(dist::parse_owners(""), Error);
}

TEST(DistOwners, MetisAgreesOverRanksBalancesAndCutsLessThanSlabs) {
  if (!has_metis()) {
    EXPECT_THROW(dist::parse_owners("metis"), Error);
    GTEST_SKIP() << "built without METIS";
  }
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Shuffled numbering: slabs of it are scattered cells, as a mesh file's
  // order can be; METIS looks at the graph, not the numbering.
  const QuadMesh m = make_quad_mesh(40, 30, {true, 5});
  const HostConnectivity pecell{m.edge_cells.data(), 2, 0, m.cells.size()};
  const std::vector<int> cells = dist::point_owners(MPI_COMM_WORLD, dist::Owners::metis,
                                                    m.cells.size(), m.edges.size(), {pecell});
  ASSERT_EQ(cells.size(), std::size_t(m.cells.size()));
  std::vector<int> count(std::size_t(size), 0);
  for (int o : cells) {
    ASSERT_GE(o, 0);
    ASSERT_LT(o, size);
    ++count[std::size_t(o)];
  }
  for (int r = 0; r < size; ++r) // METIS' 3% imbalance, and a cell of slack
    EXPECT_LE(count[std::size_t(r)], 1.03 * m.cells.size() / size + 1) << "rank " << r;
  // Every rank holds rank 0's answer.
  std::vector<int> from0 = cells;
  MPI_Bcast(from0.data(), int(from0.size()), MPI_INT, 0, MPI_COMM_WORLD);
  EXPECT_EQ(from0, cells);
  const std::int64_t metis_cut = cut_edges(m, cells);
  const std::int64_t slab_cut = cut_edges(m, dist::contiguous_owners(m.cells.size(), size));
  if (size == 1) {
    EXPECT_EQ(metis_cut, 0);
  } else {
    EXPECT_LT(metis_cut, slab_cut / 4) << "metis " << metis_cut << ", slabs " << slab_cut;
  }
  // Elements through two maps: owners in range, the same everywhere.
  const HostConnectivity pedge{m.edge_nodes.data(), 2, 1, m.nodes.size()};
  std::vector<int> edges =
      dist::element_owners(MPI_COMM_WORLD, dist::Owners::metis, m.edges.size(), {pedge, pecell});
  ASSERT_EQ(edges.size(), std::size_t(m.edges.size()));
  EXPECT_TRUE(std::all_of(edges.begin(), edges.end(), [&](int o) { return o >= 0 && o < size; }));
  std::vector<int> edges0 = edges;
  MPI_Bcast(edges0.data(), int(edges0.size()), MPI_INT, 0, MPI_COMM_WORLD);
  EXPECT_EQ(edges0, edges);
}

// Cells on the given ranks, each edge on its first cell's rank (as miniAero
// deals faces).
dist::Partition<Mem> by_cell_owners(const QuadMesh &m, const std::vector<int> &cells) {
  std::vector<int> edges(m.edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e)
    edges[e] = cells[std::size_t(m.edge_cells[2 * e])];
  return dist::Partition<Mem>(MPI_COMM_WORLD, m.edges, edges,
                              {{"pecell", m.cells, 2, m.edge_cells}},
                              std::vector<dist::PointOwners>{{m.cells, cells}});
}

TEST(DistOwners, RankSharesAddUpToTheMesh) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(17, 9, {true, 4});
  const HostConnectivity pecell{m.edge_cells.data(), 2, 0, m.cells.size()};
  const auto how = dist::default_owners();
  const std::vector<int> cells =
      dist::point_owners(MPI_COMM_WORLD, how, m.cells.size(), m.edges.size(), {pecell});
  const dist::Partition<Mem> p = by_cell_owners(m, cells);
  const auto shares = dist::rank_shares(p);
  ASSERT_EQ(shares.size(), std::size_t(size));
  std::int64_t elements = 0, owned = 0;
  for (int r = 0; r < size; ++r) {
    const auto &s = shares[std::size_t(r)];
    elements += s.elements;
    ASSERT_EQ(s.targets.size(), 1u);
    EXPECT_EQ(s.targets[0].set, m.cells.name());
    owned += s.targets[0].owned;
    // A halo is received from someone; a rank without one may still send.
    EXPECT_TRUE(s.targets[0].halo == 0 || s.targets[0].neighbours > 0) << "rank " << r;
    EXPECT_LT(s.targets[0].neighbours, size);
    if (size == 1) {
      EXPECT_EQ(s.targets[0].halo, 0);
    }
  }
  EXPECT_EQ(elements, m.edges.size());
  EXPECT_EQ(owned, m.cells.size());
  // This rank's own share is what its parts hold.
  const auto &mine = shares[std::size_t(p.rank())];
  EXPECT_EQ(mine.elements, p.elements()->local.size());
  EXPECT_EQ(mine.targets[0].owned + mine.targets[0].halo, p.part(m.cells)->local.size());
  const std::string text = dist::describe(shares, "edges");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), size) << text;
  EXPECT_NE(text.find("rank 0: "), std::string::npos) << text;
}

// Each cell adds its edge neighbours' values.
struct NeighbourSum {
  template <class Q, class R> KOKKOS_INLINE_FUNCTION void operator()(Q q1, Q q2, R r1, R r2) const {
    r1(0) += q2(0);
    r2(0) += q1(0);
  }
};

// A rank with no elements (METIS may leave one empty on a small mesh, and
// slabs do when there are more ranks than elements): the loops still give
// the serial results and the shares count zero for it.
TEST(DistOwners, ARankWithoutElements) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2)
    GTEST_SKIP() << "needs two ranks";
  const QuadMesh m = make_quad_mesh(7, 5, {true, 8});
  // Cells on ranks 0 .. size-2; the last rank owns nothing.
  std::vector<int> cells = dist::contiguous_owners(m.cells.size(), size - 1);
  const dist::Partition<Mem> p = by_cell_owners(m, cells);
  const auto shares = dist::rank_shares(p);
  EXPECT_EQ(shares.back().elements, 0);
  EXPECT_EQ(shares.back().targets[0].owned, 0);
  EXPECT_EQ(shares.back().targets[0].halo, 0);
  // An edge loop incrementing cells, then the totals on every rank.
  const auto q0 = random_values(std::size_t(m.cells.size()), 31);
  const auto &cells_part = p.part(m.cells);
  dist::Dat<double, 1, SoA, Mem> q(cells_part, "q"), r(cells_part, "r");
  q.set_global(q0);
  r.set_global(std::vector<double>(q0.size(), 0.0));
  const Map<Mem> &pecell = p.map("pecell");
  auto plan = make_plan(Space(), exec::Atomic{}, p.elements()->local, pecell);
  dist::par_loop(plan, "edges", NeighbourSum{}, dist::read(q, pecell, 0), dist::read(q, pecell, 1),
                 dist::inc(r, pecell, 0), dist::inc(r, pecell, 1));
  std::vector<double> want(q0.size(), 0.0);
  for (std::size_t e = 0; e < std::size_t(m.edges.size()); ++e) {
    const int a = m.edge_cells[2 * e], b = m.edge_cells[2 * e + 1];
    want[std::size_t(a)] += q0[std::size_t(b)];
    want[std::size_t(b)] += q0[std::size_t(a)];
  }
  EXPECT_LT(max_rel_diff(r.gather_global(MPI_COMM_WORLD), want), 1e-12) << "rank " << rank;
}

// A Partition built from each rank's own part (OwnPart: its elements, their
// rows, the points it owns; no rank passes the whole mesh) is the one built
// from global data with the same owners: the same elements, owned points,
// halo and rows, with and without a local order, and its exchanges bring
// each halo point its owner's value.
class DistOwnPart : public ::testing::TestWithParam<Reorder> {};

TEST_P(DistOwnPart, SameAsFromGlobalData) {
  const Reorder method = GetParam();
  if (!reorder_available(method))
    GTEST_SKIP() << reorder_name(method) << " is not built in";
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(23, 17, {true, 5});
  const ShuffledOwners dealt = shuffled_owners(m.edges.size(), size, 13);
  const std::vector<int> &order = dealt.order, &owner = dealt.owner;
  const std::vector<dist::MapSpec> maps{{"pedge", m.nodes, 2, m.edge_nodes},
                                        {"pecell", m.cells, 2, m.edge_cells}};
  const auto local_order = ReorderOptions{}.with_method(method).with_block_size(32);
  const dist::Partition<Mem> whole(MPI_COMM_WORLD, m.edges, owner, maps,
                                   std::vector<dist::PointOwners>{}, dist::ElementOrder::global,
                                   local_order);
  // This rank's part alone: its edges in shuffled order, their rows, and the
  // points the partition above gave it, in reverse.
  dist::OwnPart own{m.edges, {}, {}, {}};
  for (int e : order)
    if (owner[e] == rank)
      own.element_ids.push_back(e);
  for (const auto &spec : maps) {
    dist::MapSpec rows{spec.name, spec.to, spec.arity, {}};
    for (int e : own.element_ids)
      for (int k = 0; k < spec.arity; ++k)
        rows.indices.push_back(spec.indices[std::size_t(e) * spec.arity + k]);
    own.maps.push_back(rows);
    const dist::SetPart &p = *whole.part(spec.to);
    own.owned.push_back(
        {spec.to, std::vector<int>(p.global_ids.rend() - p.owned, p.global_ids.rend())});
  }
  const dist::Partition<Mem> mine(MPI_COMM_WORLD, own, dist::ElementOrder::global, local_order);

  // Each constructor's steps, in order (the time of each is only not negative).
  auto step_names = [](const dist::Partition<Mem> &p) {
    std::vector<std::string> names;
    for (const auto &s : p.setup_steps()) {
      names.push_back(s.name);
      EXPECT_GE(s.seconds, 0.0) << s.name;
    }
    return names;
  };
  std::vector<std::string> rest{"halos", "local rows"};
  if (method != Reorder::none)
    rest.push_back("local order");
  rest.insert(rest.end(), {"exchanges", "maps"});
  std::vector<std::string> expected{"owners"};
  expected.insert(expected.end(), rest.begin(), rest.end());
  EXPECT_EQ(step_names(whole), expected);
  expected.front() = "elements sorted and checked";
  EXPECT_EQ(step_names(mine), expected);

  EXPECT_EQ(mine.elements()->global_ids, whole.elements()->global_ids);
  for (const Set *s : {&m.nodes, &m.cells}) {
    const dist::SetPart &a = *whole.part(*s), &b = *mine.part(*s);
    EXPECT_EQ(b.owned, a.owned) << s->name();
    EXPECT_EQ(b.global_ids, a.global_ids) << s->name();
  }
  for (const auto &spec : maps) {
    auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), whole.map(spec.name).view());
    auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mine.map(spec.name).view());
    ASSERT_EQ(a.extent(0), b.extent(0)) << spec.name;
    for (std::size_t i = 0; i < a.extent(0); ++i)
      for (int k = 0; k < spec.arity; ++k)
        ASSERT_EQ(b(i, k), a(i, k)) << spec.name << " element " << i;
  }
  // The exchange: owned values set by global id, halo imported.
  const auto q0 = random_values(3 * std::size_t(m.cells.size()), 31);
  const dist::SetPart &cells = *mine.part(m.cells);
  std::vector<int> ids(cells.global_ids.begin(), cells.global_ids.begin() + cells.owned);
  std::reverse(ids.begin(), ids.end());
  std::vector<double> values;
  for (int c : ids)
    values.insert(values.end(), q0.begin() + 3 * std::size_t(c),
                  q0.begin() + 3 * std::size_t(c) + 3);
  dist::Dat<double, 3, SoA, Mem> q(mine.part(m.cells), "q");
  q.fill_halo(-1.0);
  q.set_owned(ids, values);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q.local().view());
  for (int i = 0; i < cells.local.size(); ++i)
    for (int k = 0; k < 3; ++k)
      ASSERT_EQ(h(i, k), q0[3 * std::size_t(cells.global_ids[i]) + k])
          << "rank " << rank << " local cell " << i << (i < cells.owned ? " (owned)" : " (halo)");
}

INSTANTIATE_TEST_SUITE_P(Methods, DistOwnPart, ::testing::Values(Reorder::none, Reorder::rcm),
                         [](const auto &info) { return std::string(reorder_name(info.param)); });

// Further halo points an own part asks for (OwnPart::Owned::halo, a stencil
// over the points themselves) join the halo its elements reach, once each,
// and take their owners' values in an import; points it neither owns nor
// holds are -1 in SetPart::local_ids; a halo id outside the set is refused on
// every rank.
TEST(DistOwnPartHalo, ExtraPointsAreHeldAndImported) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(11, 9);
  const auto edge_owner = dist::contiguous_owners(m.edges.size(), size);
  const auto cell_owner = dist::contiguous_owners(m.cells.size(), size);
  dist::OwnPart own{m.edges, {}, {{"pecell", m.cells, 2, {}}}, {{m.cells, {}, {}}}};
  std::vector<char> reached(m.cells.size(), 0);
  for (int e = 0; e < m.edges.size(); ++e)
    if (edge_owner[e] == rank) {
      own.element_ids.push_back(e);
      for (int k = 0; k < 2; ++k) {
        own.maps[0].indices.push_back(m.edge_cells[2 * std::size_t(e) + k]);
        reached[m.edge_cells[2 * std::size_t(e) + k]] = 1;
      }
    }
  std::vector<int> extra; // every fifth cell, owned here or not, some twice
  for (int c = 0; c < m.cells.size(); ++c) {
    if (cell_owner[c] == rank)
      own.owned[0].ids.push_back(c);
    if (c % 5 == 0)
      extra.insert(extra.end(), {c, c});
  }
  own.owned[0].halo = extra;
  const dist::Partition<Mem> p(MPI_COMM_WORLD, own);
  const dist::SetPart &cells = *p.part(m.cells);
  std::vector<int> want;
  for (int c = 0; c < m.cells.size(); ++c)
    if (cell_owner[c] != rank && (reached[c] || c % 5 == 0))
      want.push_back(c);
  std::vector<int> halo(cells.global_ids.begin() + cells.owned, cells.global_ids.end());
  std::sort(halo.begin(), halo.end());
  EXPECT_EQ(halo, want) << "rank " << rank;
  const std::vector<int> local = cells.local_ids(extra);
  for (std::size_t i = 0; i < extra.size(); ++i)
    ASSERT_GE(local[i], 0) << "cell " << extra[i];
  std::vector<int> unheld;
  for (int c = 0; c < m.cells.size(); ++c)
    if (cell_owner[c] != rank && !reached[c] && c % 5 != 0)
      unheld.push_back(c);
  for (int l : cells.local_ids(unheld))
    EXPECT_EQ(l, -1);
  // Owners' values reach every halo copy, the extra ones too.
  const auto q0 = random_values(2 * std::size_t(m.cells.size()), 17);
  std::vector<int> ids(cells.global_ids.begin(), cells.global_ids.begin() + cells.owned);
  std::vector<double> values;
  for (int c : ids)
    values.insert(values.end(), q0.begin() + 2 * std::size_t(c),
                  q0.begin() + 2 * std::size_t(c) + 2);
  dist::Dat<double, 2, AoS, Mem> q(p.part(m.cells), "q");
  q.fill_halo(-1.0);
  q.set_owned(ids, values); // (imports the halo)
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q.local().view());
  for (int i = 0; i < cells.local.size(); ++i)
    for (int k = 0; k < 2; ++k)
      ASSERT_EQ(h(i, k), q0[2 * std::size_t(cells.global_ids[i]) + k])
          << "rank " << rank << " local cell " << i;
  // An id outside the set: every rank throws, one names it.
  own.owned[0].halo = {rank == size - 1 ? m.cells.size() : 0};
  expect_refused_everywhere([&] { dist::Partition<Mem> bad(MPI_COMM_WORLD, own); },
                            "halo point " + std::to_string(m.cells.size()));
}

// Parts that do not add up are refused on every rank, naming the problem.
TEST(DistOwnPartErrors, DoubleMissingAndUnownedAreRefusedEverywhere) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(9, 7);
  const auto cell_owner = dist::contiguous_owners(m.cells.size(), size);
  const auto edge_owner = dist::contiguous_owners(m.edges.size(), size);
  auto own = [&](bool double_edge, bool drop_edge, bool drop_cell) {
    dist::OwnPart o{m.edges, {}, {{"pecell", m.cells, 2, {}}}, {{m.cells, {}}}};
    for (int e = 0; e < m.edges.size(); ++e)
      if (edge_owner[e] == rank && !(drop_edge && e == 0)) {
        o.element_ids.push_back(e);
        o.maps[0].indices.push_back(m.edge_cells[2 * std::size_t(e)]);
        o.maps[0].indices.push_back(m.edge_cells[2 * std::size_t(e) + 1]);
      }
    if (double_edge && rank == size - 1) { // edge 1 also on the last rank
      o.element_ids.push_back(1);
      o.maps[0].indices.push_back(m.edge_cells[2]);
      o.maps[0].indices.push_back(m.edge_cells[3]);
    }
    for (int c = 0; c < m.cells.size(); ++c)
      if (cell_owner[c] == rank && !(drop_cell && c == m.edge_cells[0]))
        o.owned[0].ids.push_back(c);
    return o;
  };
  // Every rank throws; the rank that found the problem names it.
  auto expect_refused = [&](const dist::OwnPart &o, const std::string &what) {
    expect_refused_everywhere([&] { dist::Partition<Mem> p(MPI_COMM_WORLD, o); }, what);
  };
  expect_refused(own(true, false, false), "owned by ranks");
  expect_refused(own(false, true, false), "elements of set 'edges'");
  expect_refused(own(false, false, true), "owned by no rank");
}

// Owned points in blocks of consecutive ids are found without the directory
// (each rank's block, gathered): blocks that overlap are refused as well.
TEST(DistOwnPartErrors, OverlappingBlocksAreRefusedEverywhere) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2)
    GTEST_SKIP() << "one rank's block overlaps no other";
  const QuadMesh m = make_quad_mesh(9, 7);
  const auto cell_owner = dist::contiguous_owners(m.cells.size(), size);
  const auto edge_owner = dist::contiguous_owners(m.edges.size(), size);
  dist::OwnPart o{m.edges, {}, {{"pecell", m.cells, 2, {}}}, {{m.cells, {}}}};
  for (int e = 0; e < m.edges.size(); ++e)
    if (edge_owner[e] == rank) {
      o.element_ids.push_back(e);
      o.maps[0].indices.push_back(m.edge_cells[2 * std::size_t(e)]);
      o.maps[0].indices.push_back(m.edge_cells[2 * std::size_t(e) + 1]);
    }
  // The last rank's block starts one cell early: that cell is also the
  // rank before's.
  for (int c = 0; c < m.cells.size(); ++c)
    if (cell_owner[c] == rank || (rank == size - 1 && c + 1 < m.cells.size() &&
                                  cell_owner[c + 1] == rank && cell_owner[c] != rank))
      o.owned[0].ids.push_back(c);
  expect_refused_everywhere([&] { dist::Partition<Mem> p(MPI_COMM_WORLD, o); },
                            "owned by ranks " + std::to_string(size - 2) + " and " +
                                std::to_string(size - 1));
}

} // namespace

int main(int argc, char **argv) {
  return run_distributed_tests(argc, argv);
}
