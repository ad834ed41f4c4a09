// Edges and faces derived from cell meshes: they match the generators'
// interior edges and faces (and their normals), close every cell, count what
// Gmsh's own files and meshes imply, and bad cells are clear errors.
#include <umesh/connectivity.hpp>
#include <umesh/error.hpp>
#include <umesh/gmsh.hpp>
#include <umesh/mesh.hpp>

#include "test_main.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace {
using namespace umesh;

using Pair = std::pair<int, int>;
Pair sorted(int a, int b) {
  return {std::min(a, b), std::max(a, b)};
}

// (sorted node pair -> sorted cell pair) of every interior edge.
std::map<Pair, Pair> edge_table(const std::vector<int> &edge_nodes,
                                const std::vector<int> &edge_cells) {
  std::map<Pair, Pair> t;
  for (std::size_t e = 0; e < edge_nodes.size() / 2; ++e)
    t[sorted(edge_nodes[2 * e], edge_nodes[2 * e + 1])] =
        sorted(edge_cells[2 * e], edge_cells[2 * e + 1]);
  return t;
}

template <class M> void expect_generator_edges(const M &m, int corners, int boundary) {
  const CellSides s = derive_edges(m.cells, corners, m.cell_nodes, m.nodes);
  EXPECT_EQ(s.nodes_per_side, 2);
  EXPECT_EQ(s.sides.size(), m.edges.size());
  EXPECT_EQ(s.boundary.size(), boundary);
  EXPECT_EQ(edge_table(s.side_nodes, s.side_cells), edge_table(m.edge_nodes, m.edge_cells));
  EXPECT_EQ(int(s.boundary_cells.size()), boundary);
  // Nodes in the first cell's counter-clockwise order: the first cell lies
  // to the left of every interior edge, the second to the right.
  for (int e = 0; e < s.sides.size(); ++e) {
    const double *a = &m.node_coords[2 * s.side_nodes[2 * e]];
    const double *b = &m.node_coords[2 * s.side_nodes[2 * e + 1]];
    for (int k = 0; k < 2; ++k) {
      const int c = s.side_cells[2 * e + k];
      double cx = 0, cy = 0;
      for (int j = 0; j < corners; ++j) {
        cx += m.node_coords[2 * m.cell_nodes[c * corners + j]] / corners;
        cy += m.node_coords[2 * m.cell_nodes[c * corners + j] + 1] / corners;
      }
      const double side = (b[0] - a[0]) * (cy - a[1]) - (b[1] - a[1]) * (cx - a[0]);
      EXPECT_EQ(side > 0, k == 0) << "edge " << e << " cell " << c;
    }
  }
}

TEST(DeriveEdges, QuadGridMatchesTheGenerator) {
  for (bool shuffle : {false, true}) {
    const QuadMesh m = make_quad_mesh(7, 5, {shuffle, 3});
    expect_generator_edges(m, 4, 2 * (7 + 5));
  }
}

TEST(DeriveEdges, TriangleGridMatchesTheGenerator) {
  for (bool shuffle : {false, true}) {
    const TriMesh m = make_tri_mesh(6, 4, {shuffle, 5});
    expect_generator_edges(m, 3, 2 * (6 + 4));
  }
}

// Every cell's faces, taken outward (interior faces negated for their
// second cell, boundary faces as they are), sum to zero: a closed surface.
void expect_closed_cells(const CellSides &s, const std::vector<double> &coords, int cells) {
  const auto n = side_normals(s, coords), nb = side_normals(s, coords, true);
  std::vector<std::array<double, 3>> sum(cells, {0, 0, 0});
  double largest = 0;
  for (int f = 0; f < s.sides.size(); ++f)
    for (int k = 0; k < 3; ++k) {
      sum[s.side_cells[2 * f]][k] += n[3 * f + k];
      sum[s.side_cells[2 * f + 1]][k] -= n[3 * f + k];
      largest = std::max(largest, std::fabs(n[3 * f + k]));
    }
  for (int f = 0; f < s.boundary.size(); ++f)
    for (int k = 0; k < 3; ++k) {
      sum[s.boundary_cells[f]][k] += nb[3 * f + k];
      largest = std::max(largest, std::fabs(nb[3 * f + k]));
    }
  ASSERT_GT(largest, 0);
  for (int c = 0; c < cells; ++c)
    for (int k = 0; k < 3; ++k)
      ASSERT_NEAR(sum[c][k], 0, 1e-12 * largest) << "cell " << c;
}

TEST(DeriveFaces, HexGridMatchesTheGeneratorAndItsNormals) {
  for (bool shuffle : {false, true}) {
    const int nx = 4, ny = 3, nz = 5;
    const HexMesh m = make_hex_mesh(nx, ny, nz, {shuffle, 9});
    const CellSides s = derive_faces(m.cells, 8, m.cell_nodes, m.nodes);
    EXPECT_EQ(s.nodes_per_side, 4);
    ASSERT_EQ(s.sides.size(), m.faces.size());
    EXPECT_EQ(s.boundary.size(), 2 * (nx * ny + ny * nz + nx * nz));
    // Two hexes share at most one face: the cell pair names it.
    std::map<Pair, std::array<double, 3>> want;
    for (int f = 0; f < m.faces.size(); ++f) {
      const int a = m.face_cells[2 * f], b = m.face_cells[2 * f + 1];
      const double sign = a < b ? 1 : -1;
      want[sorted(a, b)] = {sign * m.face_normals[3 * f], sign * m.face_normals[3 * f + 1],
                            sign * m.face_normals[3 * f + 2]};
    }
    const auto normals = side_normals(s, m.node_coords);
    for (int f = 0; f < s.sides.size(); ++f) {
      const int a = s.side_cells[2 * f], b = s.side_cells[2 * f + 1];
      const auto it = want.find(sorted(a, b));
      ASSERT_NE(it, want.end()) << "face " << f << " joins cells " << a << ", " << b;
      const double sign = a < b ? 1 : -1;
      for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(sign * normals[3 * f + k], it->second[k], 1e-12) << "face " << f;
    }
    expect_closed_cells(s, m.node_coords, m.cells.size());
  }
}

// Six positively oriented tets per hex (split along each hex's 0-6 diagonal:
// neighbours agree on the shared faces' diagonals).
std::vector<int> tets_of(const HexMesh &m) {
  static const int split[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                                  {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
  std::vector<int> t;
  for (int c = 0; c < m.cells.size(); ++c)
    for (const auto &s : split) {
      int v[4];
      for (int j = 0; j < 4; ++j)
        v[j] = m.cell_nodes[8 * c + s[j]];
      auto x = [&](int j, int k) {
        return m.node_coords[3 * v[j] + k] - m.node_coords[3 * v[0] + k];
      };
      const double vol = x(1, 0) * (x(2, 1) * x(3, 2) - x(2, 2) * x(3, 1)) -
                         x(1, 1) * (x(2, 0) * x(3, 2) - x(2, 2) * x(3, 0)) +
                         x(1, 2) * (x(2, 0) * x(3, 1) - x(2, 1) * x(3, 0));
      if (vol < 0)
        std::swap(v[1], v[2]);
      t.insert(t.end(), v, v + 4);
    }
  return t;
}

TEST(DeriveFaces, TetsCloseEveryCellAndCountAsTheyShould) {
  const int nx = 3, ny = 4, nz = 2;
  const HexMesh m = make_hex_mesh(nx, ny, nz, {true, 11});
  const std::vector<int> tets = tets_of(m);
  const Set cells("tets", int(tets.size() / 4));
  const CellSides s = derive_faces(cells, 4, tets, m.nodes);
  const int boundary = 2 * 2 * (nx * ny + ny * nz + nx * nz);
  EXPECT_EQ(s.boundary.size(), boundary);
  EXPECT_EQ(s.sides.size(), (4 * cells.size() - boundary) / 2);
  EXPECT_EQ(s.sides.name(), "tets_faces");
  EXPECT_EQ(s.boundary.name(), "tets_boundary_faces");
  // An interior face's three nodes belong to both its cells.
  for (int f = 0; f < s.sides.size(); ++f)
    for (int k = 0; k < 2; ++k) {
      const int *c = &tets[4 * s.side_cells[2 * f + k]];
      for (int j = 0; j < 3; ++j)
        EXPECT_NE(std::find(c, c + 4, s.side_nodes[3 * f + j]), c + 4);
    }
  expect_closed_cells(s, m.node_coords, cells.size());
}

TEST(DeriveFromGmsh, CommittedMeshes) {
  const GmshMesh sq = read_gmsh(std::string(UMESH_TEST_DATA) + "/gmsh/square_v22.msh");
  const auto &tri = sq.block("triangle");
  const CellSides te = derive_edges(tri.set, 3, tri.nodes, sq.nodes);
  EXPECT_EQ(te.sides.size(), 1); // the two triangles share their diagonal
  EXPECT_EQ(te.boundary.size(), 4);
  EXPECT_EQ(sorted(te.side_nodes[0], te.side_nodes[1]), sorted(0, 4));
  const auto &quad = sq.block("quad");
  const CellSides qe = derive_edges(quad.set, 4, quad.nodes, sq.nodes);
  EXPECT_EQ(qe.sides.size(), 0);
  EXPECT_EQ(qe.boundary.size(), 4);

  const GmshMesh cube = read_gmsh(std::string(UMESH_TEST_DATA) + "/gmsh/cube_v41.msh");
  const auto &hex = cube.block("hex");
  const CellSides hf = derive_faces(hex.set, 8, hex.nodes, cube.nodes);
  EXPECT_EQ(hf.sides.size(), 0);
  EXPECT_EQ(hf.boundary.size(), 6);
  expect_closed_cells(hf, cube.coords, 1);
  const auto &tet = cube.block("tet");
  const CellSides tf = derive_faces(tet.set, 4, tet.nodes, cube.nodes);
  EXPECT_EQ(tf.sides.size(), 1);
  EXPECT_EQ(tf.boundary.size(), 6);
  // (The fixture's two tets overlap: it tests the reader, not geometry, so
  // their faces are counted but not closed.)
}

// Blocks of two cell types in one set: triangles and quads share edges;
// a hex and tets on its top share no face (a quad is not a triangle), and
// the triangles among quad faces close their cells too.
TEST(DeriveFromGmsh, MixedCellTypes) {
  const GmshMesh sq = read_gmsh(std::string(UMESH_TEST_DATA) + "/gmsh/square_v22.msh");
  const auto &tri = sq.block("triangle"), &quad = sq.block("quad");
  const Set cells2("cells", tri.set.size() + quad.set.size());
  const CellSides e = derive_edges(cells2, {{3, tri.nodes}, {4, quad.nodes}}, sq.nodes);
  EXPECT_EQ(e.sides.size(), 2);
  EXPECT_EQ(e.boundary.size(), 6);
  std::set<Pair> interior;
  for (int s = 0; s < e.sides.size(); ++s)
    interior.insert(sorted(e.side_cells[2 * s], e.side_cells[2 * s + 1]));
  EXPECT_EQ(interior, (std::set<Pair>{{0, 1}, {0, 2}})); // the quad is cell 2

  const GmshMesh cube = read_gmsh(std::string(UMESH_TEST_DATA) + "/gmsh/cube_v41.msh");
  const auto &hex = cube.block("hex"), &tet = cube.block("tet");
  const Set cells3("cells", hex.set.size() + tet.set.size());
  const CellSides f = derive_faces(cells3, {{8, hex.nodes}, {4, tet.nodes}}, cube.nodes);
  EXPECT_EQ(f.nodes_per_side, 4);
  EXPECT_EQ(f.sides.size(), 1);
  EXPECT_EQ(f.boundary.size(), 12);
  EXPECT_EQ(sorted(f.side_cells[0], f.side_cells[1]), sorted(1, 2));
  EXPECT_EQ(f.side_nodes[3], -1);
  // The hex's six quads and the tets' triangles, padded with -1, side by side.
  EXPECT_EQ(std::count(f.boundary_nodes.begin(), f.boundary_nodes.end(), -1), 6);
  EXPECT_THROW(derive_faces(Set("cells", 4), {{8, hex.nodes}, {4, tet.nodes}}, cube.nodes), Error);
}

#ifdef UMESH_GMSH_EXECUTABLE
std::string run_gmsh(const std::string &name, const std::string &geo, int dim) {
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream out(dir + name + ".geo");
    out << geo;
  }
  const std::string msh = dir + name + ".msh";
  const std::string cmd = std::string(UMESH_GMSH_EXECUTABLE) + " -" + std::to_string(dim) +
                          " -format msh41 " + dir + name + ".geo -o " + msh + " > /dev/null 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return msh;
}

// A unit cube of some 100k+ tets from gmsh: every cell closes, the boundary
// is the cube's surface (area 6, and as many triangles as gmsh wrote on it).
TEST(DeriveFromGmsh, GmshTetMeshOfAUnitCube) {
  if (!std::ifstream(UMESH_GMSH_EXECUTABLE).good()) // built where gmsh was, run where it is not
    GTEST_SKIP() << UMESH_GMSH_EXECUTABLE << " is not on this machine";
  const std::string msh =
      run_gmsh("umesh_cube",
               "SetFactory(\"OpenCASCADE\");\nBox(1)={0,0,0,1,1,1};\nMesh.MeshSizeMax=0.033;\n"
               "Physical Surface(\"wall\",1)={1,2,3,4,5,6};\nPhysical Volume(\"fluid\",2)={1};\n",
               3);
  const GmshMesh m = read_gmsh(msh);
  const auto &tet = m.block("tet");
  EXPECT_GT(tet.set.size(), 100000);
  const CellSides s = derive_faces(tet.set, 4, tet.nodes, m.nodes);
  EXPECT_EQ(s.boundary.size(), m.block("triangle").set.size());
  EXPECT_EQ(4 * tet.set.size(), 2 * s.sides.size() + s.boundary.size());
  expect_closed_cells(s, m.coords, tet.set.size());
  double area = 0;
  const auto nb = side_normals(s, m.coords, true);
  for (int f = 0; f < s.boundary.size(); ++f)
    area += std::sqrt(nb[3 * f] * nb[3 * f] + nb[3 * f + 1] * nb[3 * f + 1] +
                      nb[3 * f + 2] * nb[3 * f + 2]);
  EXPECT_NEAR(area, 6.0, 1e-9);
}

// Quads from gmsh (recombined): the boundary edges are the lines it wrote.
TEST(DeriveFromGmsh, GmshQuadMesh) {
  if (!std::ifstream(UMESH_GMSH_EXECUTABLE).good()) // built where gmsh was, run where it is not
    GTEST_SKIP() << UMESH_GMSH_EXECUTABLE << " is not on this machine";
  const std::string msh =
      run_gmsh("umesh_quads",
               "SetFactory(\"Built-in\");\nPoint(1)={0,0,0,0.05};Point(2)={2,0,0,0.05};\n"
               "Point(3)={2,1,0,0.05};Point(4)={0,1,0,0.05};\nLine(1)={1,2};Line(2)={2,3};"
               "Line(3)={3,4};Line(4)={4,1};\nCurve Loop(1)={1,2,3,4};Plane Surface(1)={1};\n"
               "Recombine Surface{1};\nPhysical Curve(\"wall\",10)={1,2,3,4};"
               "Physical Surface(\"fluid\",20)={1};\n",
               2);
  const GmshMesh m = read_gmsh(msh);
  const auto &quad = m.block("quad");
  EXPECT_GT(quad.set.size(), 100);
  const CellSides s = derive_edges(quad.set, 4, quad.nodes, m.nodes);
  EXPECT_EQ(s.boundary.size(), m.block("line").set.size());
  std::set<Pair> lines, boundary;
  const auto &line = m.block("line");
  for (int l = 0; l < line.set.size(); ++l)
    lines.insert(sorted(line.nodes[2 * l], line.nodes[2 * l + 1]));
  for (int b = 0; b < s.boundary.size(); ++b)
    boundary.insert(sorted(s.boundary_nodes[2 * b], s.boundary_nodes[2 * b + 1]));
  EXPECT_EQ(lines, boundary);
}
#endif

TEST(DeriveErrors, BadCellsAreClearErrors) {
  const Set nodes("nodes", 5), tris("tris", 3);
  // Three triangles on the edge 0-1.
  EXPECT_NE(test::error_message([&] {
              derive_edges(tris, 3, {0, 1, 2, 1, 0, 3, 0, 1, 4}, nodes);
            }).find("belongs to 3 cells"),
            std::string::npos);
  EXPECT_NE(test::error_message([&] {
              derive_edges(tris, 3, {0, 1, 2, 1, 0, 3, 0, 1}, nodes);
            }).find("8 node indices, not a multiple of 3"),
            std::string::npos);
  EXPECT_NE(test::error_message([&] {
              derive_edges(tris, 3, {0, 1, 2, 1, 0, 3}, nodes);
            }).find("has 3 cells but the blocks 2"),
            std::string::npos);
  EXPECT_NE(test::error_message([&] {
              derive_edges(tris, 3, {0, 1, 2, 1, 0, 3, 0, 1, 5}, nodes);
            }).find("has node 5, outside set 'nodes'"),
            std::string::npos);
  EXPECT_NE(test::error_message([&] {
              derive_edges(tris, 3, {0, 1, 2, 1, 0, 3, 4, 4, 2}, nodes);
            }).find("repeats node 4"),
            std::string::npos);
  EXPECT_NE(test::error_message([&] { derive_faces(tris, 5, {}, nodes); }).find("cells of 5 nodes"),
            std::string::npos);
  // 256 one-triangle blocks: more than a side can name.
  const std::vector<int> one{0, 1, 2};
  const std::vector<CellBlock> many(256, CellBlock{3, one});
  EXPECT_NE(
      test::error_message([&] { derive_edges(Set("t", 256), many, nodes); }).find("at most 255"),
      std::string::npos);
  const CellSides edges = derive_edges(Set("t", 1), 3, {0, 1, 2}, nodes);
  EXPECT_NE(test::error_message([&] {
              side_normals(edges, std::vector<double>(15, 0.0));
            }).find("normals are computed for 3D faces"),
            std::string::npos);
  const CellSides faces = derive_faces(Set("t", 1), 4, {0, 1, 2, 3}, nodes);
  EXPECT_NE(test::error_message([&] {
              side_normals(faces, std::vector<double>(6, 0.0), true);
            }).find("has no coordinates"),
            std::string::npos);
}

} // namespace
