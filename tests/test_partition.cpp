// Optional METIS and Scotch wrappers: they work when built in, and say they
// are not built in otherwise.
#include "test_main.hpp"

#include <numeric>
#include <set>

namespace {
using namespace umesh;

TEST(Partition, ElementGraphOfQuadMeshEdges) {
  const QuadMesh m = make_quad_mesh(4, 3);
  const Graph g = element_graph(m.edges.size(), m.edge_cells.data(), 2, m.cells.size());
  ASSERT_EQ(g.num_vertices(), m.edges.size());
  for (int e = 0; e < g.num_vertices(); ++e)
    for (int j = g.offsets[e]; j < g.offsets[e + 1]; ++j) {
      const int f = g.adjacency[j];
      EXPECT_NE(f, e);
      std::set<int> ce{m.edge_cells[2 * e], m.edge_cells[2 * e + 1]};
      EXPECT_TRUE(ce.count(m.edge_cells[2 * f]) || ce.count(m.edge_cells[2 * f + 1]));
    }
}

TEST(Partition, ElementGraphOverTwoMapsIsTheUnion) {
  const QuadMesh m = make_quad_mesh(5, 4, {true, 8});
  const int n = m.edges.size();
  const Graph cells = element_graph(n, m.edge_cells.data(), 2, m.cells.size());
  const Graph nodes = element_graph(n, m.edge_nodes.data(), 2, m.nodes.size());
  const Graph both = element_graph(n, {{m.edge_cells.data(), 2, 0, m.cells.size()},
                                       {m.edge_nodes.data(), 2, 1, m.nodes.size()}});
  for (int e = 0; e < n; ++e) {
    std::set<int> want(cells.adjacency.begin() + cells.offsets[e],
                       cells.adjacency.begin() + cells.offsets[e + 1]);
    want.insert(nodes.adjacency.begin() + nodes.offsets[e],
                nodes.adjacency.begin() + nodes.offsets[e + 1]);
    const std::vector<int> got(both.adjacency.begin() + both.offsets[e],
                               both.adjacency.begin() + both.offsets[e + 1]);
    EXPECT_EQ(std::set<int>(got.begin(), got.end()), want) << "edge " << e;
    EXPECT_EQ(got.size(), want.size()) << "edge " << e << " lists a neighbour twice";
  }
}

TEST(Partition, MetisKway) {
  const QuadMesh m = make_quad_mesh(30, 20, {true, 2});
  const Graph g = element_graph(m.edges.size(), m.edge_cells.data(), 2, m.cells.size());
  if (!has_metis()) {
    EXPECT_THROW(partition_kway(g, 8), Error);
    GTEST_SKIP() << "built without METIS";
  }
  const auto part = partition_kway(g, 8);
  ASSERT_EQ(int(part.size()), g.num_vertices());
  std::vector<int> sizes(8, 0);
  for (int p : part) {
    ASSERT_GE(p, 0);
    ASSERT_LT(p, 8);
    ++sizes[p];
  }
  for (int s : sizes)
    EXPECT_GT(s, g.num_vertices() / 8 / 2);
}

TEST(Partition, ScotchGps) {
  const QuadMesh m = make_quad_mesh(30, 20, {true, 3});
  const Graph g = element_graph(m.edges.size(), m.edge_cells.data(), 2, m.cells.size());
  if (!has_scotch()) {
    EXPECT_THROW(order_gps(g), Error);
    GTEST_SKIP() << "built without Scotch";
  }
  const auto perm = order_gps(g);
  std::vector<int> sorted(perm);
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> iota(perm.size());
  std::iota(iota.begin(), iota.end(), 0);
  EXPECT_EQ(sorted, iota); // a permutation
  // GPS shrinks the bandwidth of the shuffled graph.
  auto bandwidth = [&](const std::vector<int> *p) {
    long long bw = 0;
    for (int v = 0; v < g.num_vertices(); ++v)
      for (int j = g.offsets[v]; j < g.offsets[v + 1]; ++j) {
        const int a = p ? (*p)[v] : v, b = p ? (*p)[g.adjacency[j]] : g.adjacency[j];
        bw = std::max<long long>(bw, std::abs(a - b));
      }
    return bw;
  };
  EXPECT_LT(bandwidth(&perm) * 4, bandwidth(nullptr));
}

} // namespace
