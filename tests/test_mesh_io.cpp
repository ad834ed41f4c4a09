// Exodus II and CGNS meshes: Gmsh meshes written in each format read back
// as the same mesh (nodes bit for bit, cells in order, each side and node
// set's faces and nodes); bad files and bad contents refused with the file
// and the problem named. The assembly of what a file holds (its blocks and
// sets, as the libraries hand them over) is tested apart, every check.
#include "test_main.hpp"

#include "../perf/main_mesh.hpp"
#include "../src/mesh_assembly.hpp"

#include <umesh/detail/isolated_read.hpp>
#include <umesh/mesh_file.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <new>
#include <set>
#include <tuple>

namespace {
using namespace umesh;
const std::string data = std::string(UMESH_TEST_DATA) + "/gmsh/";

std::string temp_path(const std::string &name) {
  return ::testing::TempDir() + "umesh_mesh_io_" + std::to_string(::getpid()) + "_" + name;
}

template <class F> std::string error_of(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "(no error)";
}
#define EXPECT_HAS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << (text)

int dimension(const std::string &type) {
  return type == "point" ? 0 : type == "line" ? 1 : type == "triangle" || type == "quad" ? 2 : 3;
}

// A mesh's sets as (block type, name, sorted nodes) in any order: the faces
// and points of each tag but 0 (none), which the formats number differently
// but name alike.
std::multiset<std::tuple<std::string, std::string, std::vector<int>>> named_sets(const GmshMesh &m,
                                                                                 int cell_dim) {
  std::multiset<std::tuple<std::string, std::string, std::vector<int>>> out;
  for (const auto &b : m.blocks) {
    const int dim = dimension(b.type);
    if (dim >= cell_dim)
      continue;
    const auto &names = m.format == "gmsh" ? m.physical_names
                        : dim == 0         ? m.node_set_names
                                           : m.side_set_names;
    for (std::size_t e = 0; e < b.physical.size(); ++e) {
      if (b.physical[e] == 0)
        continue;
      std::vector<int> nodes(b.nodes.begin() + long(e * b.nodes_per_element),
                             b.nodes.begin() + long((e + 1) * b.nodes_per_element));
      std::sort(nodes.begin(), nodes.end());
      const auto it = names.find(b.physical[e]);
      out.emplace(b.type, it == names.end() ? "(unnamed)" : it->second, nodes);
    }
  }
  return out;
}

// Same nodes bit for bit, same cells in the same order, each cell block's
// tags named alike, and the same named faces and points.
void expect_same_mesh(const GmshMesh &a, const GmshMesh &b, int cell_dim) {
  EXPECT_EQ(a.nodes.size(), b.nodes.size());
  EXPECT_EQ(a.coords, b.coords);
  for (const auto &ba : a.blocks) {
    if (dimension(ba.type) != cell_dim)
      continue;
    ASSERT_TRUE(b.has(ba.type)) << ba.type;
    const auto &bb = b.block(ba.type);
    EXPECT_EQ(ba.nodes, bb.nodes) << ba.type;
    ASSERT_EQ(ba.physical.size(), bb.physical.size());
    for (std::size_t e = 0; e < ba.physical.size(); ++e) {
      const auto name = [](const GmshMesh &m, int tag) {
        return m.physical_names.count(tag) ? m.physical_names.at(tag) : std::string();
      };
      EXPECT_EQ(name(a, ba.physical[e]), name(b, bb.physical[e])) << ba.type << " " << e;
    }
  }
  EXPECT_EQ(named_sets(a, cell_dim), named_sets(b, cell_dim));
}

// The test meshes: Gmsh's files, and a mesh of two wedges with a node set.
std::vector<std::pair<std::string, GmshMesh>> test_meshes() {
  std::vector<std::pair<std::string, GmshMesh>> out;
  out.emplace_back("cube", read_gmsh(data + "cube_v41.msh"));
  out.emplace_back("square", read_gmsh(data + "square_v22.msh"));
  std::istringstream wedges("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n3\n"
                            "0 3 \"corner\"\n2 4 \"bottom\"\n3 9 \"prisms\"\n$EndPhysicalNames\n"
                            "$Nodes\n8\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n5 0 0 1\n6 1 0 1\n"
                            "7 0 1 1\n8 1 1 1\n$EndNodes\n$Elements\n5\n"
                            "1 6 2 9 1 1 2 3 5 6 7\n2 6 2 9 1 2 4 3 6 8 7\n"
                            "3 2 2 4 2 1 3 2\n4 2 2 4 2 2 3 4\n5 15 2 3 1 1\n$EndElements\n");
  out.emplace_back("wedges", parse_gmsh(wedges, "wedges.msh"));
  return out;
}

int cell_dim_of(const GmshMesh &m) {
  return m.has("hex") || m.has("tet") || m.has("wedge") ? 3 : 2;
}

// Gmsh's prisms are wedges, checked as cells like hexes.
TEST(MeshIo, GmshWedges) {
  const GmshMesh m = test_meshes()[2].second;
  EXPECT_EQ(m.block("wedge").set.size(), 2);
  EXPECT_EQ(m.block("wedge").nodes_per_element, 6);
  std::istringstream inverted("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n6\n1 0 0 0\n"
                              "2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 0 1\n6 0 1 1\n$EndNodes\n"
                              "$Elements\n1\n1 6 0 4 5 6 1 2 3\n$EndElements\n");
  EXPECT_HAS(error_of([&] { parse_gmsh(inverted, "inverted.msh"); }),
             "gmsh file 'inverted.msh': wedge 1 (the 1st wedge) has a negative Jacobian");
}

TEST(MeshIo, FormatsByName) {
  EXPECT_EQ(mesh_format_of("a/b.msh"), MeshFormat::gmsh);
  EXPECT_EQ(mesh_format_of("b.EXO"), MeshFormat::exodus);
  EXPECT_EQ(mesh_format_of("b.g"), MeshFormat::exodus);
  EXPECT_EQ(mesh_format_of("b.cgns"), MeshFormat::cgns);
  EXPECT_HAS(error_of([] { mesh_format_of("mesh.vtk"); }), "'mesh.vtk': its name does not say");
  EXPECT_TRUE(mesh_format_built(MeshFormat::gmsh));
  for (auto f : {MeshFormat::exodus, MeshFormat::cgns})
    EXPECT_EQ(mesh_format_built(f), mesh_format_missing(f).empty());
}

#if defined(UMESH_TEST_EXODUS)
TEST(MeshIo, ExodusRoundTrip) {
  for (const auto &[name, gmsh] : test_meshes()) {
    SCOPED_TRACE(name);
    const std::string path = temp_path(name + ".exo");
    write_exodus_mesh(path, gmsh);
    const GmshMesh exo = read_mesh_file(path);
    EXPECT_EQ(exo.format, "exodus");
    expect_same_mesh(gmsh, exo, cell_dim_of(gmsh));
    std::remove(path.c_str());
  }
}

TEST(MeshIo, ExodusKeepsIdsAsTags) {
  const std::string path = temp_path("ids.exo");
  write_exodus_mesh(path, read_gmsh(data + "cube_v41.msh"));
  const GmshMesh m = read_exodus(path);
  // The hex block keeps tag 7; the tets' block (7 is taken) gets the next
  // free id and the same name; the inlet's side set keeps 5.
  EXPECT_EQ(m.block("hex").physical, (std::vector<int>{7}));
  EXPECT_EQ(m.physical_names.at(7), "volume");
  EXPECT_EQ(m.physical_names.at(m.block("tet").physical[0]), "volume");
  EXPECT_EQ(m.block("quad").physical, (std::vector<int>{5}));
  EXPECT_EQ(m.side_set_names.at(5), "inlet");
  EXPECT_EQ(m.block("hex").tags, (std::vector<long long>{1}));
  EXPECT_EQ(m.block("tet").tags, (std::vector<long long>{2, 3}));
  std::remove(path.c_str());
}

TEST(MeshIo, ExodusBadFiles) {
  const std::string missing = temp_path("missing.exo");
  EXPECT_HAS(error_of([&] { read_exodus(missing); }), "cannot open exodus file '" + missing);
  EXPECT_HAS(error_of([] { read_exodus(::testing::TempDir()); }), "is a folder");
  const std::string text = temp_path("text.exo");
  std::ofstream(text) << "$MeshFormat\n2.2 0 8\n";
  EXPECT_HAS(error_of([&] { read_exodus(text); }),
             "exodus file '" + text + "': not an Exodus II file");
  // A real file cut short: NetCDF's header promises data that is not there.
  const std::string whole = temp_path("whole.exo"), cut = temp_path("cut.exo");
  write_exodus_mesh(whole, read_gmsh(data + "cube_v41.msh"));
  std::string bytes;
  {
    std::ifstream in(whole, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(cut, std::ios::binary).write(bytes.data(), long(bytes.size() / 2));
  EXPECT_HAS(error_of([&] { read_exodus(cut); }), "exodus file '" + cut + "'");
  // An unwritable target fails without a trace.
  EXPECT_HAS(
      error_of([&] { write_exodus_mesh("/nonexistent/x.exo", read_gmsh(data + "cube_v41.msh")); }),
      "exodus file '/nonexistent/x.exo': cannot create a temporary");
  for (const auto &p : {text, whole, cut})
    std::remove(p.c_str());
}
#endif

#if defined(UMESH_TEST_CGNS)
TEST(MeshIo, CgnsRoundTrip) {
  for (const auto &[name, gmsh] : test_meshes()) {
    SCOPED_TRACE(name);
    const std::string path = temp_path(name + ".cgns");
    write_cgns_mesh(path, gmsh);
    const GmshMesh cgns = read_mesh_file(path);
    EXPECT_EQ(cgns.format, "cgns");
    expect_same_mesh(gmsh, cgns, cell_dim_of(gmsh));
    std::remove(path.c_str());
  }
}

TEST(MeshIo, CgnsBadFiles) {
  const std::string missing = temp_path("missing.cgns");
  EXPECT_HAS(error_of([&] { read_cgns(missing); }), "cannot open cgns file '" + missing);
  const std::string text = temp_path("text.cgns");
  std::ofstream(text) << "not a cgns file at all\n";
  EXPECT_HAS(error_of([&] { read_cgns(text); }), "cgns file '" + text + "': not a CGNS file");
  std::remove(text.c_str());
}
#endif

#if defined(UMESH_TEST_EXODUS) && defined(UMESH_TEST_CGNS)
// What umesh_main runs over (perf/main_mesh.hpp: edges or faces derived from
// the cells, normals, quads) is the same bit for bit from a Gmsh file and
// from its Exodus II and CGNS copies; with gmsh installed, on its mesh of a
// box of tets too (tests/data/gmsh/box_tets.geo).
TEST(MeshIo, MainJobMeshesTheSameFromEveryFormat) {
  std::vector<std::string> files{data + "cube_v41.msh", data + "square_v22.msh"};
#ifdef UMESH_GMSH_EXECUTABLE
  if (std::ifstream(UMESH_GMSH_EXECUTABLE).good()) {
    const std::string box = temp_path("box.msh");
    const std::string cmd = std::string(UMESH_GMSH_EXECUTABLE) + " -3 -format msh41 " + data +
                            "box_tets.geo -o " + box + " > /dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    files.push_back(box);
  }
#endif
  for (const auto &msh : files) {
    SCOPED_TRACE(msh);
    const perf::FileMeshes want = perf::read_file_meshes(msh);
    for (const char *ext : {".exo", ".cgns"}) {
      const std::string copy = temp_path(std::string("copy") + ext);
      const GmshMesh g = read_gmsh(msh);
      std::string(ext) == ".exo" ? write_exodus_mesh(copy, g) : write_cgns_mesh(copy, g);
      const perf::FileMeshes got = perf::read_file_meshes(copy);
      ASSERT_EQ(bool(want.faces), bool(got.faces));
      ASSERT_EQ(bool(want.edges), bool(got.edges));
      ASSERT_EQ(bool(want.quads), bool(got.quads));
      if (want.faces) {
        EXPECT_EQ(want.faces->face_cells, got.faces->face_cells) << ext;
        EXPECT_EQ(want.faces->face_normals, got.faces->face_normals) << ext;
        EXPECT_EQ(want.faces->cells.size(), got.faces->cells.size());
      }
      if (want.edges) {
        EXPECT_EQ(want.edges->edge_nodes, got.edges->edge_nodes) << ext;
        EXPECT_EQ(want.edges->edge_cells, got.edges->edge_cells) << ext;
        EXPECT_EQ(want.edges->node_coords, got.edges->node_coords) << ext;
      }
      if (want.quads) {
        EXPECT_EQ(want.quads->cell_nodes, got.quads->cell_nodes) << ext;
      }
      std::remove(copy.c_str());
    }
  }
}
#endif

// ---- the assembly of a file's contents, every refusal ----------------------

detail::RawMesh two_hexes() {
  detail::RawMesh r;
  r.format = "exodus";
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x)
        r.coords.insert(r.coords.end(), {double(x), double(y), double(z)});
  detail::RawMesh::Block b;
  b.type = "hex", b.file_type = "HEX8", b.id = 10, b.name = "solid", b.nodes_per_element = 8;
  b.nodes = {1, 2, 4, 3, 5, 6, 8, 7, 5, 6, 8, 7, 9, 10, 12, 11};
  r.blocks.push_back(b);
  r.side_sets.push_back({3, "bottom", {1}, {5}});
  r.side_sets.push_back({4, "walls", {1, 2, 1}, {1, 1, 5}}); // overlaps "bottom"
  r.node_sets.push_back({3, "origin", {1}});
  return r;
}

TEST(MeshIo, AssemblySidesAndSets) {
  const GmshMesh m = detail::assemble_mesh(two_hexes(), "two.exo");
  EXPECT_EQ(m.block("hex").physical, (std::vector<int>{10, 10}));
  EXPECT_EQ(m.physical_names.at(10), "solid");
  const auto &q = m.block("quad");
  EXPECT_EQ(q.physical, (std::vector<int>{3, 4, 4, 4}));
  // Side 5 of hex 1 (Exodus II: nodes 1, 4, 3, 2), pointing out of it.
  EXPECT_EQ(std::vector<int>(q.nodes.begin(), q.nodes.begin() + 4), (std::vector<int>{0, 2, 3, 1}));
  EXPECT_EQ(m.side_set_names.at(4), "walls");
  EXPECT_EQ(m.block("point").physical, (std::vector<int>{3}));
  EXPECT_EQ(m.node_set_names.at(3), "origin");
}

TEST(MeshIo, AssemblyRefusesBadContents) {
  const auto refused = [](auto change, const char *part) {
    detail::RawMesh r = two_hexes();
    change(r);
    const std::string msg = error_of([&] { detail::assemble_mesh(r, "bad.exo"); });
    EXPECT_HAS(msg, "exodus file 'bad.exo': ");
    EXPECT_HAS(msg, part);
  };
  refused([](auto &r) { r.blocks[0].nodes[3] = 13; }, "element block 10's element 1 uses node 13");
  refused([](auto &r) { r.blocks[0].nodes[3] = 0; }, "uses node 0; the file has nodes 1 to 12");
  refused([](auto &r) { r.coords[4] = std::nan(""); }, "node 2 has the coordinate nan");
  refused([](auto &r) { r.side_sets[0].sides[0] = 7; }, "names side 7 of element 1, a hex");
  refused([](auto &r) { r.side_sets[0].elements[0] = 3; }, "names element 3, which the file");
  refused([](auto &r) { r.side_sets[0].sides.pop_back(); }, "lists 1 elements and 0 sides");
  refused([](auto &r) { r.node_sets[0].nodes[0] = 99; }, "node set 3 'origin' names node 99");
  refused([](auto &r) { r.blocks[0].id = 1LL << 40; }, "past the 32-bit tags");
  refused([](auto &r) { r.blocks[0].type = "", r.blocks[0].file_type = "HEX20"; },
          "holds HEX20 elements with 8 nodes; umesh reads");
  refused([](auto &r) { r.blocks[0].nodes.pop_back(); }, "15 node numbers for hex elements");
  refused([](auto &r) { r.dim = 4; }, "4-dimensional");
  // A face twice in one set is a duplicate; an inverted hex fails its check.
  refused([](auto &r) { r.side_sets[1].elements[2] = 1, r.side_sets[1].sides[2] = 1; },
          "a duplicate cell");
  refused([](auto &r) { std::swap(r.blocks[0].nodes[0], r.blocks[0].nodes[4]); },
          "negative Jacobian");
}

// A library that crashes, aborts or throws while reading a file (as HDF5,
// NetCDF and CGNS's ADF code do on forged files) ends only the child that
// read first: the caller gets an Error naming the file, the library and how
// it ended. A read that refuses the file with umesh's own Error gives that
// Error; one that comes back lets the caller read the file.
TEST(MeshIo, LibraryFailuresEndOnlyTheChildThatReadFirst) {
  const auto guarded = [](auto read) {
    return error_of(
        [&] { detail::read_in_child_first("x.exo", "exodus file 'x.exo'", "NetCDF", read); });
  };
  const std::string segv = guarded([] { std::raise(SIGSEGV); });
  EXPECT_HAS(segv, "exodus file 'x.exo': reading it, the NetCDF library ended its process");
  EXPECT_HAS(segv, "signal " + std::to_string(SIGSEGV));
  EXPECT_HAS(segv, "damaged");
  EXPECT_HAS(guarded([] { std::abort(); }), "signal " + std::to_string(SIGABRT));
  EXPECT_HAS(guarded([] { throw std::bad_alloc(); }), "running out of memory");
  EXPECT_HAS(guarded([] { std::_Exit(9); }), "exit status 9");
  // A header that claims gigabytes: the child's allocation fails (x.exo does
  // not exist: an allowance of 1 GiB).
  const std::string huge = guarded([] {
    void *volatile names = std::malloc(std::size_t(8) << 30);
    if (!names)
      throw std::bad_alloc();
    std::memset(names, 1, std::size_t(8) << 30);
  });
  EXPECT_HAS(huge, "exodus file 'x.exo': reading it, the NetCDF library");
  EXPECT_HAS(huge, "at most 1025 MiB of memory");
  EXPECT_EQ(guarded([] { fail("what the file holds is refused"); }),
            "umesh: what the file holds is refused");
  int here = 0;
  EXPECT_EQ(guarded([&] { here = 1; }), "(no error)");
  EXPECT_EQ(here, 0) << "the read ran in the child, not here";
}

TEST(MeshIo, ExodusTypeNames) {
  EXPECT_EQ(detail::exodus_type("HEX8", 8), "hex");
  EXPECT_EQ(detail::exodus_type("hex", 8), "hex");
  EXPECT_EQ(detail::exodus_type("HEX20", 20), "");
  EXPECT_EQ(detail::exodus_type("TETRA", 4), "tet");
  EXPECT_EQ(detail::exodus_type("SHELL4", 4), "quad");
  EXPECT_EQ(detail::exodus_type("WEDGE6", 6), "wedge");
  EXPECT_EQ(detail::exodus_type("TRI3", 3), "triangle");
  EXPECT_EQ(detail::exodus_type("PYRAMID", 5), "");
}

} // namespace
