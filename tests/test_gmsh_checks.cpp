// Gmsh reader's mesh checks (check_gmsh): duplicate, inverted and
// degenerate cells are refused naming the file, the element and the value;
// valid meshes, both orientations of a surface, and a 2.2 file's copies of
// an element in several physical groups load; GmshOptions skips the checks.
#include "test_support.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace {
using namespace umesh;

// A 2.2 file: the unit cube's corners (tags 1-8: z = 0 counter-clockwise,
// then z = 1), its centre (9) and a point beside it (10), then `elements`
// (one "tag type ntags tags... nodes..." line each).
std::string file22(const std::vector<std::string> &elements) {
  std::string s = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n10\n"
                  "1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0 0 1\n6 1 0 1\n7 1 1 1\n8 0 1 1\n"
                  "9 0.5 0.5 0.5\n10 0.2 0.2 0\n$EndNodes\n$Elements\n" +
                  std::to_string(elements.size()) + "\n";
  for (const auto &e : elements)
    s += e + "\n";
  return s + "$EndElements\n";
}

GmshMesh parse(const std::string &text, GmshOptions options = {}) {
  std::istringstream in(text);
  return parse_gmsh(in, "checks.msh", options);
}

void expect_refused(const std::string &text, std::initializer_list<const char *> frags) {
  try {
    parse(text);
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const Error &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("gmsh file 'checks.msh'"), std::string::npos) << msg;
    for (const char *f : frags)
      EXPECT_NE(msg.find(f), std::string::npos) << msg << "\nmissing: " << f;
  }
}

const std::string hex = "5 0 1 2 3 4 5 6 7 8";

TEST(GmshChecks, ValidCellsLoad) {
  const GmshMesh m = parse(file22({"1 " + hex, "2 4 0 1 2 4 5", "3 3 0 1 2 3 4", "4 2 0 1 2 3",
                                   "5 3 0 5 8 7 6", // a quad turning the other way, in 3D
                                   "6 1 0 1 2", "7 15 0 1"}));
  EXPECT_EQ(m.block("hex").tags, (std::vector<long long>{1}));
  EXPECT_EQ(m.block("quad").set.size(), 2);
  // A planar mesh that turns clockwise throughout is a valid mesh.
  parse(file22({"1 2 0 1 4 3", "2 2 0 1 3 2"}));
}

TEST(GmshChecks, DuplicateCells) {
  expect_refused(file22({"1 " + hex, "2 " + hex}),
                 {"hex 2 (the 2nd hex) has the nodes of hex 1 (the 1st hex): a duplicate cell"});
  // The same cell in another (still valid) order: a hex turned about z, a
  // tet's base rotated, a triangle and a quad run backwards.
  expect_refused(file22({"1 " + hex, "2 5 0 2 3 4 1 6 7 8 5"}),
                 {"hex 2", "the nodes of hex 1 (the 1st hex) in another order"});
  expect_refused(file22({"1 4 0 1 2 4 5", "2 4 0 2 4 1 5"}), {"tet 2", "in another order"});
  expect_refused(file22({"1 2 0 1 2 3", "2 2 0 3 2 1"}), {"triangle 2", "in another order"});
  expect_refused(file22({"1 3 0 1 2 3 4", "2 3 0 1 4 3 2"}), {"quad 2", "in another order"});
  expect_refused(file22({"1 15 0 1", "2 15 0 1"}), {"point 2", "a duplicate cell"});
  // A 2.2 file's copies of one element, one per physical group: allowed
  // right after each other with other physical tags, and only so.
  const GmshMesh m = parse(file22({"1 5 1 10 1 2 3 4 5 6 7 8", "2 5 1 11 1 2 3 4 5 6 7 8"}));
  EXPECT_EQ(m.block("hex").physical, (std::vector<int>{10, 11}));
  expect_refused(
      file22({"1 5 1 10 1 2 3 4 5 6 7 8", "2 5 1 11 1 2 3 4 5 6 7 8", "3 5 1 10 1 2 3 4 5 6 7 8"}),
      {"hex 3", "the nodes of hex 1", "a duplicate cell"});
  expect_refused(file22({"1 2 1 10 1 2 3", "2 2 1 10 1 3 4", "3 2 1 11 1 2 3"}),
                 {"triangle 3 (the 3rd triangle) has the nodes of triangle 1", "duplicate"});
  expect_refused(file22({"1 5 1 10 1 2 3 4 5 6 7 8", "2 5 1 11 2 3 4 1 6 7 8 5"}),
                 {"hex 2", "in another order"});
  // 4.1 files write an element once.
  expect_refused("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 3 1 3\n2 1 0 3\n1\n2\n3\n"
                 "0 0 0\n1 0 0\n0 1 0\n$EndNodes\n$Elements\n1 2 1 2\n2 1 2 2\n1 1 2 3\n"
                 "2 2 3 1\n$EndElements\n",
                 {"triangle 2", "in another order"});
}

TEST(GmshChecks, InvertedAndDegenerateCells) {
  const char *negative = "negative Jacobian at its corner 1";
  expect_refused(file22({"1 5 0 5 6 7 8 1 2 3 4"}), {"hex 1 (the 1st hex) has a", negative});
  expect_refused(file22({"1 5 0 1 4 3 2 5 8 7 6"}), {"hex 1", negative}); // mirrored
  expect_refused(file22({"1 5 0 1 2 4 3 5 6 7 8"}), // two nodes swapped: tangled
                 {"hex 1", "negative Jacobian at its corner 3", "inverted or tangled"});
  expect_refused(file22({"1 4 0 1 4 2 5"}), {"tet 1", negative});
  expect_refused(file22({"1 4 0 1 2 3 4"}), {"tet 1", "has a zero volume", "degenerate"});
  expect_refused(file22({"1 5 0 1 2 3 3 5 6 7 8"}),
                 {"hex 1", "lists one node twice (its nodes 3 and 4)"});
  expect_refused(file22({"1 2 0 1 9 7"}), {"triangle 1", "has a zero area"}); // collinear
  expect_refused(file22({"1 3 0 1 2 4 3"}), {"quad 1", "zero area", "bow-tied"});
  expect_refused(file22({"1 3 0 1 2 10 4"}), {"quad 1", "negative Jacobian at its corner 3"});
  expect_refused(file22({"1 1 0 1 1"}), {"line 1", "lists one node twice"});
  // A planar mesh with one cell turned the other way is folded.
  expect_refused(file22({"1 2 0 1 2 3", "2 3 0 2 3 4 10", "3 2 0 1 4 10"}),
                 {"triangle 3 (the 2nd triangle) turns clockwise in the plane z = 0",
                  "where triangle 1 (the 1st triangle) turns counter-clockwise"});
}

TEST(GmshChecks, SizesPastADouble) {
  const auto tet = [](const char *a) {
    return std::string("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 ") + a +
           " 0 0\n3 0 " + a + " 0\n4 0 0 " + a + "\n$EndNodes\n$Elements\n1\n1 4 0 1 2 3 4\n" +
           "$EndElements\n";
  };
  parse(tet("1e-90"));
  parse(tet("1e90"));
  expect_refused(tet("1e-200"), {"tet 1", "underflows a double"});
  expect_refused(tet("1e200"), {"tet 1", "overflows a double"});
  expect_refused("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2\n1 -1e308 0 0\n2 1e308 0 0\n"
                 "$EndNodes\n$Elements\n1\n1 1 0 1 2\n$EndElements\n",
                 {"line 1", "so far apart that their distance overflows a double"});
}

TEST(GmshChecks, SkippedForTrustedFiles) {
  const std::string inverted = file22({"1 5 0 5 6 7 8 1 2 3 4", "2 5 0 5 6 7 8 1 2 3 4"});
  const GmshMesh m = parse(inverted, GmshOptions().checks(false));
  EXPECT_EQ(m.block("hex").set.size(), 2);
  EXPECT_THROW(check_gmsh(m, "trusted.msh"), Error);
  // A mesh built by hand is checked as one read from a file.
  GmshMesh hand = m;
  hand.blocks[0].tags.pop_back();
  try {
    check_gmsh(hand, "by hand");
    ADD_FAILURE();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("arrays disagree in size"), std::string::npos) << e.what();
  }
}

#ifdef UMESH_GMSH_EXECUTABLE
// What gmsh itself writes passes: hexes, tets with a volume in two physical
// groups (2.2 then writes each tet twice), recombined quads, and a surface
// meshed clockwise.
TEST(GmshChecks, MeshesWrittenByGmshPass) {
  if (!std::ifstream(UMESH_GMSH_EXECUTABLE).good())
    GTEST_SKIP() << UMESH_GMSH_EXECUTABLE << " is not on this machine";
  const std::string dir = ::testing::TempDir();
  const std::pair<const char *, const char *> geos[] = {
      {"hex", "Point(1)={0,0,0};Point(2)={1,0,0};Point(3)={1,1,0};Point(4)={0,1,0};\n"
              "Line(1)={1,2};Line(2)={2,3};Line(3)={3,4};Line(4)={4,1};\n"
              "Curve Loop(1)={1,2,3,4};Plane Surface(1)={1};\n"
              "Transfinite Curve{1,2,3,4}=4;Transfinite Surface{1};Recombine Surface{1};\n"
              "Extrude{0,0,1}{Surface{1}; Layers{3}; Recombine;}\n"},
      {"tet", "SetFactory(\"OpenCASCADE\");Box(1)={0,0,0,1,1,1};\n"
              "Mesh.CharacteristicLengthMax=0.4;\n"
              "Physical Volume(\"a\",1)={1};Physical Volume(\"b\",2)={1};\n"
              "Physical Surface(\"w\",3)={1,2,3,4,5,6};Physical Surface(\"z\",4)={5};\n"},
      {"quad", "Point(1)={0,0,0,0.3};Point(2)={1,0,0,0.3};Point(3)={1,1,0,0.3};\n"
               "Point(4)={0,1,0,0.3};Line(1)={1,2};Line(2)={2,3};Line(3)={3,4};Line(4)={4,1};\n"
               "Curve Loop(1)={-4,-3,-2,-1};Plane Surface(1)={1};Recombine Surface{1};\n"}};
  for (const auto &[name, text] : geos) {
    const std::string geo = dir + "umesh_checks_" + name + ".geo";
    std::ofstream(geo) << text;
    for (const char *format : {"msh22", "msh41"}) {
      const std::string msh = dir + "umesh_checks_" + name + "_" + format + ".msh";
      const std::string cmd = std::string(UMESH_GMSH_EXECUTABLE) + " -" +
                              (std::string(name) == "quad" ? "2" : "3") + " -format " + format +
                              " " + geo + " -o " + msh + " > /dev/null 2>&1";
      ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
      const GmshMesh m = read_gmsh(msh);
      EXPECT_TRUE(m.has(name)) << msh;
    }
  }
}
#endif

} // namespace
