// Mesh generators: sizes, connectivity, and that shuffling keeps the mesh.
#include "test_main.hpp"

#include <map>
#include <set>

namespace {
using namespace umesh;

TEST(Mesh, QuadMeshSizesMatchAirfoilFormula) {
  const QuadMesh m = make_quad_mesh(24, 12);
  EXPECT_EQ(m.nodes.size(), 25 * 13);
  EXPECT_EQ(m.cells.size(), 24 * 12);
  EXPECT_EQ(m.edges.size(), 23 * 12 + 24 * 11);
  EXPECT_EQ(m.edge_nodes.size(), 2u * m.edges.size());
  EXPECT_EQ(m.node_coords.size(), 2u * m.nodes.size());
}

// Every edge's two nodes are both corners of both its cells.
template <class M> void expect_edges_consistent(const M &m, int corners) {
  for (int e = 0; e < m.edges.size(); ++e) {
    const int c1 = m.edge_cells[2 * e], c2 = m.edge_cells[2 * e + 1];
    ASSERT_NE(c1, c2);
    for (int s = 0; s < 2; ++s) {
      const int n = m.edge_nodes[2 * e + s];
      for (int c : {c1, c2}) {
        bool found = false;
        for (int k = 0; k < corners; ++k)
          found |= m.cell_nodes[corners * c + k] == n;
        EXPECT_TRUE(found) << "edge " << e << " node " << n << " not in cell " << c;
      }
    }
  }
}

TEST(Mesh, QuadAndTriMeshesAreConsistentShuffledOrNot) {
  for (bool shuffle : {false, true}) {
    expect_edges_consistent(make_quad_mesh(7, 5, {shuffle, 3}), 4);
    expect_edges_consistent(make_tri_mesh(6, 4, {shuffle, 4}), 3);
  }
  const TriMesh t = make_tri_mesh(6, 4);
  EXPECT_EQ(t.cells.size(), 48);
  EXPECT_EQ(t.edges.size(), 6 * 4 + 5 * 4 + 6 * 3); // diagonals + verticals + horizontals
}

TEST(Mesh, HexMeshFacesAndNormals) {
  const HexMesh m = make_hex_mesh(5, 4, 3, {true, 9});
  EXPECT_EQ(m.cells.size(), 60);
  EXPECT_EQ(m.nodes.size(), 6 * 5 * 4);
  EXPECT_EQ(m.faces.size(), 4 * 4 * 3 + 5 * 3 * 3 + 5 * 4 * 2);
  // Two cells of a face share exactly four nodes; the normal points along
  // the axis where their centroids differ.
  for (int f = 0; f < m.faces.size(); ++f) {
    const int a = m.face_cells[2 * f], b = m.face_cells[2 * f + 1];
    std::set<int> na(m.cell_nodes.begin() + 8 * a, m.cell_nodes.begin() + 8 * a + 8);
    int shared = 0;
    for (int k = 0; k < 8; ++k)
      shared += na.count(m.cell_nodes[8 * b + k]);
    EXPECT_EQ(shared, 4);
    double ca[3] = {0, 0, 0}, cb[3] = {0, 0, 0};
    for (int k = 0; k < 8; ++k)
      for (int d = 0; d < 3; ++d) {
        ca[d] += m.node_coords[3 * m.cell_nodes[8 * a + k] + d] / 8;
        cb[d] += m.node_coords[3 * m.cell_nodes[8 * b + k] + d] / 8;
      }
    double dot = 0;
    for (int d = 0; d < 3; ++d)
      dot += (cb[d] - ca[d]) * m.face_normals[3 * f + d];
    EXPECT_GT(dot, 0);
  }
}

TEST(Mesh, ShuffleIsAPermutation) {
  const QuadMesh a = make_quad_mesh(8, 6), b = make_quad_mesh(8, 6, {true, 17});
  EXPECT_NE(a.edge_cells, b.edge_cells);
  std::map<std::pair<double, double>, int> degree_a, degree_b;
  auto degrees = [](const QuadMesh &m, auto &out) {
    for (int v : m.edge_nodes)
      ++out[{m.node_coords[2 * v], m.node_coords[2 * v + 1]}];
  };
  degrees(a, degree_a);
  degrees(b, degree_b);
  EXPECT_EQ(degree_a, degree_b); // same nodes (by position), same edges
}

TEST(Mesh, BadDimensions) {
  EXPECT_THROW(make_quad_mesh(0, 3), Error);
  EXPECT_THROW(make_hex_mesh(2, -1, 2), Error);
}

} // namespace
