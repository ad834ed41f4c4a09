// The orderings behind umesh::reorder: reverse Cuthill-McKee (bandwidth, and
// the one-queue order on any thread count) and the built-in partitioner's
// blocks (size, cover, reuse against METIS).
#include "test_main.hpp"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using namespace umesh;

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

} // namespace
