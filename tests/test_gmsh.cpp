// Gmsh reader: fixture files of both versions, malformed and truncated
// files, and (when gmsh is installed) meshes gmsh itself writes.
#include "test_main.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace {
using namespace umesh;
const std::string data = std::string(UMESH_TEST_DATA) + "/gmsh/";

TEST(Gmsh, Version22Mixed2D) {
  const GmshMesh m = read_gmsh(data + "square_v22.msh");
  EXPECT_EQ(m.format_version, "2.2");
  EXPECT_EQ(m.nodes.size(), 6);
  ASSERT_EQ(m.coords.size(), 18u);
  EXPECT_EQ(m.coords[3 * 5 + 0], 2.0);
  const auto &tri = m.block("triangle");
  EXPECT_EQ(tri.set.size(), 2);
  EXPECT_EQ(tri.nodes, (std::vector<int>{0, 1, 4, 0, 4, 3}));
  EXPECT_EQ(tri.physical, (std::vector<int>{20, 20}));
  const auto &quad = m.block("quad");
  EXPECT_EQ(quad.nodes, (std::vector<int>{1, 2, 5, 4}));
  EXPECT_EQ(quad.physical, (std::vector<int>{21}));
  EXPECT_EQ(m.block("line").set.size(), 2);
  EXPECT_EQ(m.block("point").set.size(), 1);
  EXPECT_EQ(m.physical_names.at(10), "wall");
  EXPECT_EQ(m.physical_names.at(21), "solid");
  EXPECT_FALSE(m.has("hex"));
  try {
    m.block("hex");
    ADD_FAILURE();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("triangle"), std::string::npos);
  }
  // The blocks build maps directly.
  Map<Kokkos::HostSpace> tn("tri_nodes", tri.set, m.nodes, 3, tri.nodes);
  EXPECT_EQ(tn.view()(1, 2), 3);
}

TEST(Gmsh, Version41HexAndTets) {
  const GmshMesh m = read_gmsh(data + "cube_v41.msh");
  EXPECT_EQ(m.format_version, "4.1");
  EXPECT_EQ(m.nodes.size(), 9);
  const auto &hex = m.block("hex");
  EXPECT_EQ(hex.nodes, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(hex.physical, (std::vector<int>{7}));
  const auto &tet = m.block("tet");
  EXPECT_EQ(tet.set.size(), 2);
  EXPECT_EQ(tet.nodes, (std::vector<int>{4, 5, 6, 8, 5, 6, 7, 8}));
  EXPECT_EQ(tet.physical, (std::vector<int>{7, 7}));
  EXPECT_EQ(m.block("quad").physical, (std::vector<int>{5}));
  EXPECT_EQ(m.physical_names.at(7), "volume");
  EXPECT_DOUBLE_EQ(m.coords[3 * 8 + 2], 2.0);
}

void expect_parse_error(const std::string &text, std::initializer_list<const char *> frags) {
  std::istringstream in(text);
  try {
    parse_gmsh(in, "inline.msh");
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const Error &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("inline.msh"), std::string::npos) << msg;
    for (const char *f : frags)
      EXPECT_NE(msg.find(f), std::string::npos) << msg << "\nmissing: " << f;
  }
}

TEST(Gmsh, BadFiles) {
  const std::string fmt = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  const std::string nodes = "$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n";
  expect_parse_error("", {"empty file"});
  expect_parse_error("hello world\n", {"line 1", "$MeshFormat"});
  expect_parse_error("$MeshFormat\n2.2 1 8\n$EndMeshFormat\n", {"binary"});
  expect_parse_error("$MeshFormat\n3.0 0 8\n$EndMeshFormat\n", {"version 3.0"});
  expect_parse_error(fmt + "$Nodes\n2\n1 0 0 0\n2 1 x 0\n$EndNodes\n", {"line 7", "'x'"});
  expect_parse_error(fmt + nodes + "$Elements\n1\n1 2 0 1 2 7\n$EndElements\n", {"node 7"});
  expect_parse_error(fmt + nodes + "$Elements\n1\n1 11 0 1 2 3\n$EndElements\n",
                     {"unsupported element type 11"});
  expect_parse_error(fmt + nodes + "$Elements\n2\n1 2 0 1 2 3\n", {"truncated"});
  expect_parse_error(fmt + nodes, {"without a $Elements"});
  expect_parse_error(fmt + "$Nodes\n2\n1 0 0 0\n1 1 0 0\n$EndNodes\n",
                     {"node tag 1 appears twice"});
  expect_parse_error(fmt + "$Comments\nanything at all\n", {"$Comments", "truncated"});
  expect_parse_error(fmt + "$Nodes\n-3\n$EndNodes\n", {"out of range"});
}

// A file is untrusted input: counts it declares bound nothing it allocates
// (a few lines declaring two billion nodes end at the file's end, not in an
// allocation of 16 GB), numbers past their type are refused rather than
// clamped or wrapped onto another tag or type, and coordinates are finite.
TEST(Gmsh, UntrustedCountsAndNumbers) {
  const std::string fmt2 = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  const std::string fmt4 = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n";
  const std::string nodes = "$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n";
  expect_parse_error(fmt4 +
                         "$Nodes\n1 2000000000 1 2000000000\n2 1 0 2000000000\n1\n2\n$EndNodes\n",
                     {"line 9", "expected a node tag"});
  expect_parse_error(fmt2 + "$Nodes\n2\n1 0 0 0\n2 1 nan 0\n$EndNodes\n",
                     {"line 7", "y 'nan' is not a finite number"});
  expect_parse_error(fmt2 + "$Nodes\n2\n1 0 0 0\n2 inf 0 0\n$EndNodes\n",
                     {"x 'inf' is not a finite number"});
  expect_parse_error(fmt2 + nodes + "$Elements\n1\n1 4294967298 0 1 2 3\n$EndElements\n",
                     {"unsupported element type 4294967298"});
  expect_parse_error(fmt2 + nodes + "$Elements\n1\n99999999999999999999 2 0 1 2 3\n$EndElements\n",
                     {"an element tag 99999999999999999999 is out of range"});
  expect_parse_error(fmt2 + nodes + "$Elements\n1\n1 2 1 4294967297 1 2 3\n$EndElements\n",
                     {"physical tag 4294967297 is out of range"});
  // Words are bounded: a pipe that never ends one would take all memory.
  expect_parse_error(fmt2 + "$Nodes\n1\n1 " + std::string(5000, '1') + " 0 0\n$EndNodes\n",
                     {"line 6", "a word longer than 4096 characters ('1111"});
  expect_parse_error(fmt2 + "$PhysicalNames\n1\n1 1 \"" + std::string(5000, 'a') + "\"\n",
                     {"line 6", "a word longer than 4096 characters"});
}

// Tags start at 1 in Gmsh, and each section that defines the mesh comes
// once: a node tag 0 or a second $Nodes section (which would renumber the
// nodes elements already point at) is a corrupt file, refused at its line.
// Numbers are decimal: strtod alone reads "0x1p3" as 8.
TEST(Gmsh, TagsSectionsAndDecimalNumbers) {
  const std::string fmt2 = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  const std::string fmt4 = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n";
  const std::string nodes = "$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n";
  const std::string elements = "$Elements\n1\n1 2 0 1 2 3\n$EndElements\n";
  expect_parse_error(fmt2 + "$Nodes\n2\n0 0 0 0\n1 1 0 0\n$EndNodes\n",
                     {"line 6", "node tag 0 is not positive"});
  expect_parse_error(fmt2 + "$Nodes\n2\n1 0 0 0\n-4 1 0 0\n$EndNodes\n",
                     {"line 7", "node tag -4 is not positive"});
  expect_parse_error(fmt4 + "$Nodes\n1 2 0 1\n2 1 0 2\n0\n1\n0 0 0\n1 0 0\n$EndNodes\n",
                     {"node tag 0 is not positive"});
  expect_parse_error(fmt2 + nodes + "$Elements\n1\n0 2 0 1 2 3\n$EndElements\n",
                     {"line 12", "element tag 0 is not positive"});
  expect_parse_error(fmt2 + nodes + nodes + elements, {"line 10", "a second $Nodes section"});
  expect_parse_error(fmt2 + nodes + elements + nodes, {"line 14", "a second $Nodes section"});
  expect_parse_error(fmt2 + nodes + elements + elements, {"line 14", "a second $Elements"});
  expect_parse_error(fmt2 + fmt4 + nodes + elements, {"line 4", "a second $MeshFormat"});
  expect_parse_error(fmt2 + "$PhysicalNames\n0\n$EndPhysicalNames\n$PhysicalNames\n",
                     {"line 7", "a second $PhysicalNames"});
  expect_parse_error(fmt2 + "$Nodes\n1\n1 0x1p3 0 0\n$EndNodes\n",
                     {"line 6", "x '0x1p3' is not a decimal number"});
  expect_parse_error(fmt2 + "$Nodes\n1\n1 0 0 infinity\n$EndNodes\n",
                     {"line 6", "z 'infinity' is not a finite number"});
  // Decimal spellings still read.
  std::istringstream ok(fmt2 + "$Nodes\n3\n1 .5 0 0\n2 1. -0 0\n3 +1e0 1E-0 0\n$EndNodes\n" +
                        elements);
  const GmshMesh m = parse_gmsh(ok, "ok.msh", GmshOptions().checks(false));
  EXPECT_EQ(m.coords[0], 0.5);
  EXPECT_EQ(m.coords[7], 1.0);
}

// Control bytes are no part of a text .msh file: a NUL inside a number
// ended it ("1<NUL>5" read as 1), as a separator would; each is refused at
// its line, naming the byte.
TEST(Gmsh, ControlBytesAreRefused) {
  const std::string fmt2 = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  const std::string nul(1, '\0');
  expect_parse_error(fmt2 + "$Nodes\n2\n1 0 0 0\n2 1" + nul + "5 0 0\n$EndNodes\n",
                     {"line 7", "a NUL byte (0x00) in a field after '1'"});
  expect_parse_error(fmt2 + "$Nodes\n2\n1 0 0 0\n2 1 " + nul + " 0 0\n$EndNodes\n",
                     {"line 7", "a NUL byte (0x00) in a field: not a text .msh file?"});
  expect_parse_error(fmt2 + "$Nodes\n1\n1 0\x1b[2J 0 0\n$EndNodes\n",
                     {"line 6", "a control byte (0x1b) in a field after '0'"});
  expect_parse_error(fmt2 + "$PhysicalNames\n1\n2 5 \"bot" + nul + "tom\"\n$EndPhysicalNames\n",
                     {"line 6", "a NUL byte (0x00) in a field after 'bot'"});
  expect_parse_error(fmt2 + "$Nodes\n1\n1 0 0 0\x7f\n$EndNodes\n",
                     {"line 6", "a control byte (0x7f)"});
  // Tabs and CRLF line ends are whitespace, as before.
  std::istringstream ok(fmt2 + "$Nodes\r\n3\r\n1\t0 0 0\r\n2 1 0 0\n3 0 1 0\n$EndNodes\n" +
                        "$Elements\n1\n1 2 0 1 2 3\n$EndElements\n");
  EXPECT_EQ(parse_gmsh(ok, "ok.msh").nodes.size(), 3);
}

// A 2.2 file writes an element once per physical group it is in, each copy
// right after the one before: elements_once keeps the first (its group and
// tag). A 4.1 file has no such copies, and repeats further apart are not
// copies (check_gmsh refuses them): both come back as they are.
TEST(Gmsh, ElementsOnceDropsGroupCopies) {
  const std::string nodes = "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n$EndNodes\n";
  std::istringstream in("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n" + nodes +
                        "$Elements\n5\n1 2 2 7 1 1 2 3\n2 2 2 8 1 1 2 3\n3 2 2 9 1 1 2 3\n"
                        "4 2 2 7 1 2 4 3\n5 2 2 8 1 2 4 3\n$EndElements\n");
  const GmshMesh m = parse_gmsh(in, "groups.msh");
  const GmshMesh::Block &b = m.block("triangle");
  ASSERT_EQ(b.set.size(), 5);
  const GmshMesh::Block once = elements_once(b, m.format_version);
  EXPECT_EQ(once.set.size(), 2);
  EXPECT_EQ(once.set.name(), b.set.name());
  EXPECT_EQ(once.nodes, (std::vector<int>{0, 1, 2, 1, 3, 2}));
  EXPECT_EQ(once.physical, (std::vector<int>{7, 7}));
  EXPECT_EQ(once.tags, (std::vector<long long>{1, 4}));
  EXPECT_EQ(elements_once(b, "4.1").set.size(), 5);
  GmshMesh::Block apart = b; // the same cell, not right after itself
  apart.nodes = {0, 1, 2, 1, 3, 2, 0, 1, 2, 1, 3, 2, 0, 1, 2};
  EXPECT_EQ(elements_once(apart, "2.2").set.size(), 5);
}

TEST(Gmsh, BadFixtureFiles) {
  EXPECT_THROW(read_gmsh(data + "no_such_file.msh"), Error);
  try {
    read_gmsh(data + "unsupported_type.msh");
    ADD_FAILURE();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("unsupported element type 9"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("line 12"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_gmsh(data + "truncated.msh"), Error);
  try { // a folder opens as a stream on Linux, and reads as an empty file
    read_gmsh(data);
    ADD_FAILURE();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("is a folder, not a file"), std::string::npos) << e.what();
  }
}

#ifdef UMESH_GMSH_EXECUTABLE
// gmsh meshes a .geo headless; both output versions read back the same mesh.
TEST(Gmsh, MeshesWrittenByGmsh) {
  if (!std::ifstream(UMESH_GMSH_EXECUTABLE).good()) // built where gmsh was, run where it is not
    GTEST_SKIP() << UMESH_GMSH_EXECUTABLE << " is not on this machine";
  const std::string dir = ::testing::TempDir();
  const std::string geo = dir + "umesh_box.geo";
  {
    std::ofstream out(geo);
    out << "SetFactory(\"Built-in\");\nPoint(1)={0,0,0,0.3};Point(2)={1,0,0,0.3};\n"
           "Point(3)={1,1,0,0.3};Point(4)={0,1,0,0.3};\nLine(1)={1,2};Line(2)={2,3};"
           "Line(3)={3,4};Line(4)={4,1};\nCurve Loop(1)={1,2,3,4};Plane Surface(1)={1};\n"
           "Physical Curve(\"wall\",10)={1,2,3,4};Physical Surface(\"fluid\",20)={1};\n";
  }
  std::vector<GmshMesh> meshes;
  for (const char *format : {"msh22", "msh41"}) {
    const std::string msh = dir + "umesh_box_" + format + ".msh";
    const std::string cmd = std::string(UMESH_GMSH_EXECUTABLE) + " -2 -format " + format + " " +
                            geo + " -o " + msh + " > /dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    meshes.push_back(read_gmsh(msh));
  }
  for (const auto &m : meshes) {
    const auto &tri = m.block("triangle");
    EXPECT_GT(tri.set.size(), 10);
    for (int p : tri.physical)
      EXPECT_EQ(p, 20);
    for (int p : m.block("line").physical)
      EXPECT_EQ(p, 10);
    EXPECT_EQ(m.physical_names.at(20), "fluid");
    // Every node referenced, area adds up to one.
    double area = 0;
    for (int t = 0; t < tri.set.size(); ++t) {
      const double *a = &m.coords[3 * tri.nodes[3 * t]], *b = &m.coords[3 * tri.nodes[3 * t + 1]],
                   *c = &m.coords[3 * tri.nodes[3 * t + 2]];
      area += 0.5 * std::fabs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]));
    }
    EXPECT_NEAR(area, 1.0, 1e-12);
  }
  EXPECT_EQ(meshes[0].nodes.size(), meshes[1].nodes.size());
  EXPECT_EQ(meshes[0].block("triangle").set.size(), meshes[1].block("triangle").set.size());
}
#endif

} // namespace
