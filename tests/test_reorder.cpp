// Reordering: permutations, RCM, the built-in partitioner, renumberings of
// meshes, plan files and their errors. That every executor gives the serial
// answers on a reordered mesh is checked in test_executors.
#include "test_main.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
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
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

const Reorder all_methods[] = {Reorder::none, Reorder::gps, Reorder::rcm, Reorder::metis,
                               Reorder::builtin};

std::string temp_path(const std::string &name) {
  const std::string path = ::testing::TempDir() + "umesh_" + name;
  std::remove(path.c_str());
  return path;
}

template <class F> std::string error_of(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "no error";
}

struct TwoCellKernel {
  template <class Q, class R> KOKKOS_INLINE_FUNCTION void operator()(Q q1, Q q2, R r1, R r2) const {
    for (int k = 0; k < 4; ++k) {
      r1(k) += q1(k) - 2 * q2(k);
      r2(k) -= q2(k) * q1(k);
    }
  }
};

struct IncOne {
  template <class R> KOKKOS_INLINE_FUNCTION void operator()(R r) const { r(0) += 1; }
};

TEST(Permutation, RejectsWhatIsNotABijection) {
  EXPECT_NO_THROW(Permutation({2, 0, 1}));
  EXPECT_NE(error_of([] { Permutation({0, 0, 1}); }).find("both map to 0"), std::string::npos);
  EXPECT_NE(error_of([] { Permutation({0, 3, 1}); }).find("outside [0, 3)"), std::string::npos);
  EXPECT_NE(error_of([] { Permutation({0, -1}); }).find("outside"), std::string::npos);
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

int bandwidth(const Graph &g, const std::vector<int> &new_of_old) {
  int b = 0;
  for (int v = 0; v < g.num_vertices(); ++v)
    for (int j = g.offsets[v]; j < g.offsets[v + 1]; ++j)
      b = std::max(b, std::abs(new_of_old[v] - new_of_old[g.adjacency[j]]));
  return b;
}

TEST(Reorder, RcmIsABijectionAndNarrowsTheBandwidth) {
  const QuadMesh m = make_quad_mesh(60, 40, {true, 3});
  const Graph g = point_graph(m.edges.size(), {{m.edge_nodes.data(), 2, 0, m.nodes.size()}});
  std::vector<int> identity(g.num_vertices());
  for (int i = 0; i < g.num_vertices(); ++i)
    identity[i] = i;
  const auto rcm = order_rcm(g);
  EXPECT_NO_THROW(Permutation{rcm});
  // A 61 x 41 node grid has bandwidth about 41 in the best ordering.
  EXPECT_LT(bandwidth(g, rcm), 80);
  EXPECT_GT(bandwidth(g, identity), 1000);
  // Several components: each is ordered, nothing is lost.
  const std::vector<int> two = {0, 1, 1, 2, 3, 4, 4, 5};
  const Graph g2 = point_graph(4, {{two.data(), 2, 0, 6}});
  EXPECT_NO_THROW(Permutation{order_rcm(g2)});
}

// Reverse Cuthill-McKee as one queue: the order order_rcm must give, built
// the plain way (roots as order_rcm documents them).
std::vector<int> one_queue_rcm(const Graph &g) {
  const int n = g.num_vertices();
  auto degree = [&](int v) { return g.offsets[v + 1] - g.offsets[v]; };
  std::vector<int> mark(n, -1), level(n, 0); // mark: the sweep that reached a vertex
  // Breadth-first from root, marking with `stamp`; appends to out; returns
  // the depth.
  auto sweep = [&](int root, int stamp, bool by_degree, std::vector<int> &out) {
    const std::size_t first = out.size();
    out.push_back(root);
    mark[root] = stamp;
    level[root] = 0;
    for (std::size_t h = first; h < out.size(); ++h) {
      const int u = out[h];
      const std::size_t group = out.size();
      for (int j = g.offsets[u]; j < g.offsets[u + 1]; ++j) {
        const int w = g.adjacency[j];
        if (mark[w] != stamp) {
          mark[w] = stamp;
          level[w] = level[u] + 1;
          out.push_back(w);
        }
      }
      if (by_degree)
        std::stable_sort(out.begin() + group, out.end(),
                         [&](int a, int b) { return degree(a) < degree(b); });
    }
    return level[out.back()];
  };
  const int placed = -2;
  std::vector<int> sequence, visit;
  int stamp = 0;
  for (int start = 0; start < n; ++start) {
    if (mark[start] == placed)
      continue;
    int root = start, depth = -1;
    for (int it = 0; it < 8; ++it) {
      visit.clear();
      const int d = sweep(root, stamp++, false, visit);
      if (d <= depth)
        break;
      depth = d;
      int best = visit.back();
      for (auto v = visit.rbegin(); v != visit.rend() && level[*v] == d; ++v)
        if (degree(*v) < degree(best))
          best = *v;
      root = best;
    }
    sweep(root, placed, true, sequence);
  }
  std::vector<int> new_of_old(n);
  for (int i = 0; i < n; ++i)
    new_of_old[sequence[i]] = n - 1 - i;
  return new_of_old;
}

// order_rcm builds wide breadth-first levels in parallel: the order must be
// the one-queue order whatever the thread count, on graphs whose levels are
// wide (random cliques, a star), with repeated neighbours and self loops,
// and with many components.
TEST(Reorder, RcmIsTheOneQueueOrderOnAnyThreadCount) {
  std::vector<std::pair<std::string, Graph>> graphs;
  for (int seed = 0; seed < 2; ++seed) {
    Set e("e", 30000), p("p", 50000);
    const auto c = make_random_connectivity(e, p, 4, 100 + seed);
    graphs.push_back({"random cliques", point_graph(e.size(), {{c.data(), 4, 0, p.size()}})});
  }
  {
    std::vector<int> star;
    for (int i = 1; i < 10000; ++i)
      star.insert(star.end(), {0, i});
    graphs.push_back({"star", point_graph(9999, {{star.data(), 2, 0, 10003}})});
  }
  {
    Set e("e", 40000), p("p", 20000);
    const auto c = make_random_connectivity(e, p, 3, 77);
    const Graph g = point_graph(e.size(), {{c.data(), 3, 0, p.size()}});
    Graph d;
    d.offsets = {0};
    for (int v = 0; v < g.num_vertices(); ++v) {
      for (int j = g.offsets[v]; j < g.offsets[v + 1]; ++j) {
        d.adjacency.push_back(g.adjacency[j]);
        if (j % 3 == 0)
          d.adjacency.push_back(g.adjacency[j]); // repeated
      }
      d.adjacency.push_back(v); // self loop
      d.offsets.push_back(int(d.adjacency.size()));
    }
    graphs.push_back({"repeats and self loops", d});
  }
  {
    Set e("e", 20000), p("p", 60000); // sparse: many small components
    const auto c = make_random_connectivity(e, p, 2, 5);
    graphs.push_back({"components", point_graph(e.size(), {{c.data(), 2, 0, p.size()}})});
  }
  const HexMesh m = make_hex_mesh(30, 30, 30, {true, 4});
  graphs.push_back(
      {"hex nodes", point_graph(m.cells.size(), {{m.cell_nodes.data(), 8, 0, m.nodes.size()}})});
#ifdef _OPENMP
  const int original = omp_get_max_threads();
#endif
  for (const auto &[name, g] : graphs) {
    const std::vector<int> expected = one_queue_rcm(g);
    for (int threads : {1, 2, 3, 4}) { // the parallel levels need 3 or more
#ifdef _OPENMP
      omp_set_num_threads(threads);
#endif
      EXPECT_EQ(order_rcm(g), expected) << name << ", " << threads << " threads";
    }
  }
#ifdef _OPENMP
  omp_set_num_threads(original);
#endif
}

TEST(Reorder, BuiltinPartsRespectTheBlockSizeAndCoverEveryElement) {
  const HexMesh m = make_hex_mesh(13, 11, 9, {true, 4});
  const int n = m.faces.size(), block = 96;
  const auto part = grow_block_parts(n, {{m.face_cells.data(), 2, 0, m.cells.size()}}, block);
  ASSERT_EQ(int(part.size()), n);
  const int nparts = *std::max_element(part.begin(), part.end()) + 1;
  std::vector<int> size(nparts, 0);
  for (int p : part) {
    ASSERT_GE(p, 0);
    ++size[p];
  }
  for (int s : size) {
    EXPECT_GE(s, 1);
    EXPECT_LE(s, block);
  }
  EXPECT_LE(nparts, (n + block - 1) / block + 2); // every part but the last few is full
}

// The partitioner's purpose: reuse close to METIS's, far above contiguous
// blocks of a shuffled numbering.
TEST(Reorder, BuiltinReuseIsCloseToMetis) {
  const QuadMesh m = make_quad_mesh(150, 120, {true, 5});
  const int n = m.edges.size(), block = 128;
  const std::vector<BlockPlanMap> maps = {{{m.edge_cells.data(), 2, 0, m.cells.size()}, true},
                                          {{m.edge_nodes.data(), 2, 1, m.nodes.size()}, false}};
  const double contiguous = build_block_plan(n, maps, block).reuse;
  const double builtin =
      build_block_plan(n, maps, block, builtin_block_parts(n, maps, block)).reuse;
  EXPECT_GT(builtin, 2.5 * contiguous);
  if (!has_metis())
    GTEST_SKIP() << "built without METIS: compared with contiguous blocks only";
  const double metis =
      build_block_plan(n, maps, block, metis_block_parts(n, maps, block, 0.1)).reuse;
  EXPECT_GT(builtin, 0.95 * metis) << "builtin " << builtin << " metis " << metis;
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
        error_of([&] {
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
  EXPECT_NE(error_of([&] {
              reorder(ReorderOptions{}.with_method(Reorder::rcm), cells, self);
            }).find("to itself"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              reorder(ReorderOptions{}.with_method(Reorder::rcm), g.m.cells, g.pedge);
            }).find("not from the element set"),
            std::string::npos);
  const auto r = reorder(ReorderOptions{}.with_method(Reorder::rcm), g.m.edges, g.pecell);
  const auto pc = r.apply(g.pecell);
  EXPECT_NE(error_of([&] { r.apply(pc); }).find("already in the new numbering"), std::string::npos);
  Dat<double, 4, AoS, Mem> res(g.m.cells, "res");
  EXPECT_NE(error_of([&] { r.to_original(res); }).find("already in the original"),
            std::string::npos);
  // Data left in the old numbering cannot meet a renumbered map.
  auto plan = make_plan(Space(), exec::Atomic{}, pc.from());
  EXPECT_THROW(par_loop(exec::Atomic{}, plan, "mixed", IncOne{}, inc(res, pc, 0)), Error);
  // Given blocks of the wrong length.
  auto blocks = std::make_shared<const std::vector<int>>(3, 0);
  EXPECT_THROW(make_plan(Space(), exec::Hierarchical{}.with_blocks(blocks), pc.from(), pc), Error);
}

TEST(PlanFile, HierarchicalPlanRoundTrip) {
  const Mesh2 g;
  const std::string file = temp_path("hier.plan");
  const auto options = exec::Hierarchical{}.with_block_size(64).with_plan_file(file);
  auto built = make_plan(Space(), options, g.m.edges, g.pecell, read_only(g.pedge));
  EXPECT_NE(built.summary().find("saved to"), std::string::npos);
  auto loaded = make_plan(Space(), options, g.m.edges, g.pecell, read_only(g.pedge));
  EXPECT_NE(loaded.summary().find("loaded from"), std::string::npos);
  EXPECT_EQ(loaded.blocks().elem, built.blocks().elem);
  EXPECT_EQ(loaded.blocks().block_start, built.blocks().block_start);
  EXPECT_EQ(loaded.blocks().block_colour, built.blocks().block_colour);
  EXPECT_EQ(loaded.blocks().reuse, built.blocks().reuse);
  // Both give the serial answers.
  Dat<double, 4, SoA, Mem> q(g.m.cells, "q"), a(g.m.cells, "a"), b(g.m.cells, "b");
  test::randomise(q, 1);
  test::randomise(a, 2);
  copy_values(b, a);
  const TwoCellKernel kernel;

  par_loop(exec::Hierarchical{}, built, "k", kernel, read(q, g.pecell, 0), read(q, g.pecell, 1),
           inc(a, g.pecell, 0), inc(a, g.pecell, 1));
  par_loop(exec::Hierarchical{}, loaded, "k", kernel, read(q, g.pecell, 0), read(q, g.pecell, 1),
           inc(b, g.pecell, 0), inc(b, g.pecell, 1));
  EXPECT_EQ(test::max_rel_err(a, b), 0.0);
  std::remove(file.c_str());
}

TEST(PlanFile, RenumberingRoundTrip) {
  const Mesh2 g;
  const std::string file = temp_path("renumbering.plan");
  const auto options =
      ReorderOptions{}.with_method(Reorder::builtin).with_block_size(64).with_plan_file(file);
  const auto built = reorder(options, g.m.edges, g.pecell, read_only(g.pedge));
  EXPECT_EQ(built.file_note(), "saved to " + file);
  const auto loaded = reorder(options, g.m.edges, g.pecell, read_only(g.pedge));
  EXPECT_EQ(loaded.file_note(), "loaded from " + file);
  for (const Set &s : {g.m.edges, g.m.cells, g.m.nodes})
    EXPECT_EQ(loaded.permutation(s).new_of_old(), built.permutation(s).new_of_old());
  EXPECT_EQ(*loaded.blocks(), *built.blocks());
  std::remove(file.c_str());
}

std::vector<char> read_bytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
void write_bytes(const std::string &path, const std::vector<char> &bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

TEST(PlanFile, StaleOrDamagedFilesAreErrors) {
  const Mesh2 g;
  const std::string file = temp_path("damaged.plan");
  const auto options = exec::Hierarchical{}.with_block_size(64).with_plan_file(file);
  make_plan(Space(), options, g.m.edges, g.pecell);
  const auto good = read_bytes(file);
  auto load = [&](const exec::Hierarchical &o, const Map<Mem> &map) {
    return error_of([&] { make_plan(Space(), o, map.from(), map); });
  };
  auto has = [](const std::string &what, const std::string &part) {
    return what.find(part) != std::string::npos;
  };
  EXPECT_EQ(load(options, g.pecell), "no error");
  // Other maps of the same sizes.
  const QuadMesh other = make_quad_mesh(41, 29, {true, 10});
  Map<Mem> pecell2("pecell", g.m.edges, g.m.cells, 2, other.edge_cells);
  EXPECT_TRUE(has(load(options, pecell2), "different maps")) << load(options, pecell2);
  // Other options.
  auto options96 = options;
  options96.with_block_size(96);
  EXPECT_TRUE(has(load(options96, g.pecell), "built with options"));
  // A flipped byte in the payload, a truncated file, not a plan file, a
  // future format version.
  auto bytes = good;
  bytes[bytes.size() / 2] ^= 0x40;
  write_bytes(file, bytes);
  EXPECT_TRUE(has(load(options, g.pecell), "corrupted")) << load(options, g.pecell);
  bytes = good;
  bytes.resize(bytes.size() - 100);
  write_bytes(file, bytes);
  EXPECT_TRUE(has(load(options, g.pecell), "truncated")) << load(options, g.pecell);
  write_bytes(file, {'$', 'M', 'e', 's', 'h', 'F', 'o', 'r', 'm', 'a', 't'});
  EXPECT_TRUE(has(load(options, g.pecell), "not a umesh plan file"));
  bytes = good;
  bytes[8] = 99;
  write_bytes(file, bytes);
  EXPECT_TRUE(has(load(options, g.pecell), "format version 99"));
  // A renumbering file is not a plan.
  std::remove(file.c_str());
  reorder(ReorderOptions{}.with_method(Reorder::rcm).with_plan_file(file), g.m.edges, g.pecell);
  EXPECT_TRUE(has(load(options, g.pecell), "holds a renumbering"));
  std::remove(file.c_str());
}

} // namespace
