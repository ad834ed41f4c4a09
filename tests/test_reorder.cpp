// Renumberings of meshes: permutations of sets and dats, the renumbering of
// a mesh's sets and maps by each method, and its errors. The orderings
// themselves are checked in test_orderings, plan files in test_plan_file;
// that every executor gives the serial answers on a reordered mesh, in
// test_executors.
#include "test_main.hpp"

#include <algorithm>
#include <array>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using namespace umesh;
using test::error_message;
using test::temp_path;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

const Reorder all_methods[] = {Reorder::none, Reorder::gps, Reorder::rcm, Reorder::metis,
                               Reorder::builtin};

struct IncOne {
  template <class R> KOKKOS_INLINE_FUNCTION void operator()(R r) const { r(0) += 1; }
};

TEST(Permutation, RejectsWhatIsNotABijection) {
  EXPECT_NO_THROW(Permutation({2, 0, 1}));
  EXPECT_NE(error_message([] { Permutation({0, 0, 1}); }).find("both map to 0"), std::string::npos);
  EXPECT_NE(error_message([] {
              Permutation({0, 3, 1});
            }).find("outside [0, 3)"),
            std::string::npos);
  EXPECT_NE(error_message([] { Permutation({0, -1}); }).find("outside"), std::string::npos);
  EXPECT_TRUE(Permutation::identity(5).is_identity());
  EXPECT_FALSE(Permutation({1, 0}).is_identity());
}

TEST(Permutation, MovesViewRowsBothWays) {
  const Permutation p({3, 0, 4, 1, 2});
  Kokkos::View<double *[2], Kokkos::LayoutLeft, Mem> v("v", 5);
  Kokkos::View<int *, Mem> w("w", 5);
  auto hv = Kokkos::create_mirror_view(v);
  auto hw = Kokkos::create_mirror_view(w);
  for (int i = 0; i < 5; ++i) {
    hv(i, 0) = 10 * i + 0.5;
    hv(i, 1) = -i;
    hw(i) = 7 * i + 1;
  }
  Kokkos::deep_copy(v, hv);
  Kokkos::deep_copy(w, hw);
  auto nv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.from_original(v));
  auto nw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.from_original(w));
  auto back =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.to_original(p.from_original(v)));
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(nv(p.new_index(i), 0), hv(i, 0));
    EXPECT_EQ(nv(p.new_index(i), 1), hv(i, 1));
    EXPECT_EQ(nw(p.new_index(i)), hw(i));
    EXPECT_EQ(back(i, 0), hv(i, 0));
    EXPECT_EQ(back(i, 1), hv(i, 1));
  }
  Kokkos::View<int *, Mem> wrong("wrong", 4);
  EXPECT_THROW(p.from_original(wrong), Error);
}

struct Mesh2 {
  QuadMesh m = make_quad_mesh(41, 29, {true, 9});
  Map<Mem> pedge{"pedge", m.edges, m.nodes, 2, m.edge_nodes};
  Map<Mem> pecell{"pecell", m.edges, m.cells, 2, m.edge_cells};
};

std::vector<int> host_rows(const Map<Mem> &map) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), map.view());
  return std::vector<int>(h.data(), h.data() + h.size());
}

TEST(Reorder, RenumberingsAreConsistentAndBlocksFit) {
  const Mesh2 g;
  const int block = 64;
  for (Reorder method : all_methods) {
    SCOPED_TRACE(reorder_name(method));
    if (!reorder_available(method)) {
      EXPECT_THROW(reorder(ReorderOptions{}.with_method(method), g.m.edges, g.pecell), Error);
      continue;
    }
    const Renumbering r = reorder(ReorderOptions{}.with_method(method).with_block_size(block),
                                  g.m.edges, g.pecell, read_only(g.pedge));
    const auto pc = r.apply(g.pecell), pe = r.apply(g.pedge);
    EXPECT_EQ(pc.from(), pe.from()); // one renumbered edge set
    EXPECT_EQ(pc.from(), r.set(g.m.edges));
    EXPECT_EQ(pc.to(), r.set(g.m.cells));
    EXPECT_EQ(pe.to(), r.set(g.m.nodes));
    // Row e' of the new map is row original_index(e') renumbered.
    const auto perm_e = r.permutation(g.m.edges), perm_c = r.permutation(g.m.cells);
    const auto old_rows = host_rows(g.pecell), new_rows = host_rows(pc);
    for (int e = 0; e < g.m.edges.size(); ++e)
      for (int s = 0; s < 2; ++s)
        ASSERT_EQ(new_rows[2 * perm_e.new_index(e) + s], perm_c.new_index(old_rows[2 * e + s]));
    if (method == Reorder::metis || method == Reorder::builtin) {
      ASSERT_TRUE(r.blocks());
      const auto &b = *r.blocks();
      std::vector<int> size;
      for (std::size_t i = 0; i < b.size(); ++i) {
        if (i) {
          ASSERT_GE(b[i], b[i - 1]) << "blocks are contiguous in the new numbering";
        }
        if (b[i] >= int(size.size()))
          size.resize(b[i] + 1, 0);
        ++size[b[i]];
      }
      for (int s : size)
        EXPECT_LE(s, block);
      // Points used by fewer blocks come first.
      std::vector<std::set<int>> users(g.m.cells.size());
      for (int e = 0; e < g.m.edges.size(); ++e)
        for (int s = 0; s < 2; ++s)
          users[new_rows[2 * e + s]].insert(b[e]);
      for (int c = 1; c < g.m.cells.size(); ++c)
        ASSERT_LE(users[c - 1].size(), users[c].size()) << "cell " << c;
    } else if (method != Reorder::none) {
      EXPECT_FALSE(r.blocks());
      // Elements sorted by their renumbered points (cells first, then nodes).
      const auto node_rows = host_rows(pe);
      auto key = [&](int e) {
        return std::array<int, 4>{std::min(new_rows[2 * e], new_rows[2 * e + 1]),
                                  std::max(new_rows[2 * e], new_rows[2 * e + 1]),
                                  std::min(node_rows[2 * e], node_rows[2 * e + 1]),
                                  std::max(node_rows[2 * e], node_rows[2 * e + 1])};
      };
      for (int e = 1; e < g.m.edges.size(); ++e)
        ASSERT_LE(key(e - 1), key(e)) << "edge " << e;
    }
  }
}

// gps and rcm sort elements by their renumbered points with a parallel
// radix sort: the order must be stable (elements with the same points keep
// their original order) and the same on any thread count, with points past
// one radix digit (2048).
TEST(Reorder, ElementSortIsStableOnAnyThreadCount) {
  const Set elems("elems", 30000), points("points", 9000);
  std::vector<int> rows;
  std::mt19937 rng(12);
  std::uniform_int_distribution<int> pick(0, points.size() - 1);
  for (int e = 0; e < 10000; ++e)
    rows.insert(rows.end(), {pick(rng), pick(rng), pick(rng)});
  for (int copy = 0; copy < 2; ++copy) // every row twice more: ties
    for (int e = 0; e < 10000; ++e)
      rows.insert(rows.end(), {rows[3 * e], rows[3 * e + 1], rows[3 * e + 2]});
  const Map<Mem> map("map", elems, points, 3, rows);
#ifdef _OPENMP
  const int original = omp_get_max_threads();
#endif
  for (Reorder method : {Reorder::rcm, Reorder::gps}) {
    SCOPED_TRACE(reorder_name(method));
    if (!reorder_available(method))
      continue;
    std::vector<int> first;
    for (int threads : {1, 2, 3, 4}) {
#ifdef _OPENMP
      omp_set_num_threads(threads);
#endif
      const Renumbering r = reorder(ReorderOptions{}.with_method(method), elems, map);
      const auto perm = r.permutation(elems);
      const auto new_rows = host_rows(r.apply(map));
      std::vector<int> order(elems.size());
      for (int e = 0; e < elems.size(); ++e)
        order[e] = perm.original_index(e);
      if (first.empty())
        first = order;
      EXPECT_EQ(order, first) << threads << " threads";
      auto key = [&](int e) {
        std::array<int, 3> k{new_rows[3 * e], new_rows[3 * e + 1], new_rows[3 * e + 2]};
        std::sort(k.begin(), k.end());
        return k;
      };
      for (int e = 1; e < elems.size(); ++e) {
        ASSERT_LE(key(e - 1), key(e)) << "element " << e << ", " << threads << " threads";
        if (key(e - 1) == key(e)) {
          ASSERT_LT(order[e - 1], order[e]) << "element " << e << ", " << threads << " threads";
        }
      }
    }
  }
#ifdef _OPENMP
  omp_set_num_threads(original);
#endif
}

TEST(Reorder, BlockRenumberingRaisesReuseOfAShuffledMesh) {
  const Mesh2 g;
  auto plan_of = [&](const Renumbering &r) {
    auto options = exec::Hierarchical{}.with_block_size(64);
    if (r.blocks())
      options.with_blocks(r.blocks());
    const auto pc = r.apply(g.pecell), pe = r.apply(g.pedge);
    return make_plan(Space(), options, pc.from(), pc, read_only(pe));
  };
  const double before = plan_of(reorder(ReorderOptions{}, g.m.edges, g.pecell)).blocks().reuse;
  const auto r = reorder(ReorderOptions{}.with_method(Reorder::builtin).with_block_size(64),
                         g.m.edges, g.pecell, read_only(g.pedge));
  const auto plan = plan_of(r);
  EXPECT_GT(plan.blocks().reuse, 2 * before);
  EXPECT_TRUE(plan.elements_in_block_order());
  EXPECT_EQ(plan.blocks().blocks_from, "given");
}

// Partition::builtin on a plan that does not renumber: same blocks as the
// renumbering's, reached through the element indirection.
TEST(Reorder, BuiltinPartitionOfAPlan) {
  const Mesh2 g;
  const auto contiguous = make_plan(Space(), exec::Hierarchical{}.with_block_size(64), g.m.edges,
                                    g.pecell, read_only(g.pedge));
  const auto builtin = make_plan(
      Space(), exec::Hierarchical{}.with_block_size(64).with_partition(exec::Partition::builtin),
      g.m.edges, g.pecell, read_only(g.pedge));
  EXPECT_EQ(builtin.blocks().blocks_from, "builtin");
  EXPECT_FALSE(builtin.elements_in_block_order());
  EXPECT_GT(builtin.blocks().reuse, 2 * contiguous.blocks().reuse);
  for (int b = 0; b < builtin.blocks().num_blocks(); ++b)
    EXPECT_LE(builtin.blocks().block_start[b + 1] - builtin.blocks().block_start[b], 64);
  ASSERT_FALSE(builtin.blocks().phases.empty());
  EXPECT_EQ(builtin.blocks().phases.front().name, "partition (built-in)");
}

// other_points first_touch: the first map's set as without it, elements
// sorted by its points alone, every other set numbered in the order the new
// elements first reach it; the maps stay consistent.
TEST(Reorder, FirstTouchNumbersTheOtherSetsAfterTheElements) {
  const Mesh2 g;
  for (Reorder method : {Reorder::gps, Reorder::rcm}) {
    SCOPED_TRACE(reorder_name(method));
    if (!reorder_available(method))
      continue;
    const auto plain =
        reorder(ReorderOptions{}.with_method(method), g.m.edges, g.pecell, read_only(g.pedge));
    const auto r =
        reorder(ReorderOptions{}.with_method(method).with_other_points(OtherPoints::first_touch),
                g.m.edges, g.pecell, read_only(g.pedge));
    const auto pc = r.apply(g.pecell), pe = r.apply(g.pedge);
    const auto pc_rows = host_rows(pc), pe_rows = host_rows(pe);
    const auto perm_e = r.permutation(g.m.edges), perm_c = r.permutation(g.m.cells),
               perm_n = r.permutation(g.m.nodes);
    for (int c = 0; c < g.m.cells.size(); ++c)
      ASSERT_EQ(perm_c.new_index(c), plain.permutation(g.m.cells).new_index(c)) << "cell " << c;
    const auto old_c = host_rows(g.pecell), old_n = host_rows(g.pedge);
    int next = 0;
    for (int e = 0; e < g.m.edges.size(); ++e) {
      const int o = perm_e.original_index(e);
      for (int s = 0; s < 2; ++s) {
        ASSERT_EQ(pc_rows[2 * e + s], perm_c.new_index(old_c[2 * o + s]));
        ASSERT_EQ(pe_rows[2 * e + s], perm_n.new_index(old_n[2 * o + s]));
        if (pe_rows[2 * e + s] >= next) { // a node's first reference numbers it
          ASSERT_EQ(pe_rows[2 * e + s], next) << "edge " << e;
          ++next;
        }
      }
      if (e > 0) { // sorted by cells alone
        auto key = [&](int x) { return std::minmax(pc_rows[2 * x], pc_rows[2 * x + 1]); };
        ASSERT_LE(key(e - 1), key(e)) << "edge " << e;
      }
    }
    const std::set<int> reached(old_n.begin(), old_n.end());
    EXPECT_EQ(next, int(reached.size()));
    for (int n = 0; n < g.m.nodes.size(); ++n) // nodes no edge reaches come last
      if (!reached.count(n)) {
        EXPECT_GE(perm_n.new_index(n), next) << "node " << n;
      }
  }
  for (Reorder method : {Reorder::none, Reorder::metis, Reorder::builtin})
    EXPECT_NE(
        error_message([&] {
          reorder(ReorderOptions{}.with_method(method).with_other_points(OtherPoints::first_touch),
                  g.m.edges, g.pecell, read_only(g.pedge));
        }).find("applies to gps and rcm only"),
        std::string::npos)
        << reorder_name(method);
  // A saved renumbering is only reused under the same options.
  const std::string file = temp_path("first_touch.plan");
  std::remove(file.c_str());
  const auto rcm = ReorderOptions{}.with_method(Reorder::rcm).with_plan_file(file);
  reorder(rcm, g.m.edges, g.pecell, read_only(g.pedge));
  EXPECT_THROW(reorder(ReorderOptions{rcm}.with_other_points(OtherPoints::first_touch), g.m.edges,
                       g.pecell, read_only(g.pedge)),
               Error);
  std::remove(file.c_str());
}

TEST(Reorder, MisuseIsAClearError) {
  const Mesh2 g;
  EXPECT_THROW(parse_reorder("spectral"), Error);
  EXPECT_EQ(parse_reorder("rcm"), Reorder::rcm);
  EXPECT_EQ(parse_reorder_options("rcm").other_points, OtherPoints::own_graph);
  EXPECT_EQ(parse_reorder_options("gps/first-touch").method, Reorder::gps);
  EXPECT_EQ(parse_reorder_options("rcm/first-touch").other_points, OtherPoints::first_touch);
  for (const char *bad : {"metis/first-touch", "rcm/first", "rcm/", "/first-touch"})
    EXPECT_THROW(parse_reorder_options(bad), Error) << bad;
  Set cells("cells", 3);
  Map<Mem> self("neighbours", cells, cells, 1, std::vector<int>{1, 2, 0});
  EXPECT_NE(error_message([&] {
              reorder(ReorderOptions{}.with_method(Reorder::rcm), cells, self);
            }).find("to itself"),
            std::string::npos);
  EXPECT_NE(error_message([&] {
              reorder(ReorderOptions{}.with_method(Reorder::rcm), g.m.cells, g.pedge);
            }).find("not from the element set"),
            std::string::npos);
  const auto r = reorder(ReorderOptions{}.with_method(Reorder::rcm), g.m.edges, g.pecell);
  const auto pc = r.apply(g.pecell);
  EXPECT_NE(error_message([&] { r.apply(pc); }).find("already in the new numbering"),
            std::string::npos);
  Dat<double, 4, AoS, Mem> res(g.m.cells, "res");
  EXPECT_NE(error_message([&] { r.to_original(res); }).find("already in the original"),
            std::string::npos);
  // Data left in the old numbering cannot meet a renumbered map.
  auto plan = make_plan(Space(), exec::Atomic{}, pc.from());
  EXPECT_THROW(par_loop(plan, "mixed", IncOne{}, inc(res, pc, 0)), Error);
  // Given blocks of the wrong length.
  auto blocks = std::make_shared<const std::vector<int>>(3, 0);
  EXPECT_THROW(make_plan(Space(), exec::Hierarchical{}.with_blocks(blocks), pc.from(), pc), Error);
}

} // namespace
