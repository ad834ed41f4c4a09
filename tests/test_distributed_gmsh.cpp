// dist::read_gmsh_part on 1, 2, 3... MPI ranks: rank 0 reads a Gmsh file
// and deals its hexes; each rank's elements, rows, owned nodes and their
// coordinates are the file's, every element and node is on exactly one
// rank, the Partition built from the parts equals the one built from global
// data with the same owners, and bad input is an error on every rank (none
// waits for a rank that failed).
#include "dist_support.hpp"

#include <umesh/gmsh.hpp>

#include <fstream>
#include <numeric>
#include <unistd.h>

namespace {

using namespace umesh;
using namespace dist_support;

// A box of nx*ny*nz hexes written by rank 0 as Gmsh 2.2, the hexes in a
// shuffled order (so slabs of the file are not slabs of the box), the
// quads of its bottom face (physical 5 "bottom") and a point element on a
// node no hex reaches; every rank gets the file's path. With `groups`, each
// hex is in physical groups 7 and 8, and Gmsh 2.2 writes it once per group.
std::string write_box(int nx, int ny, int nz, bool groups = false) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long long pid = (long long)getpid();
  MPI_Bcast(&pid, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  const std::string path = ::testing::TempDir() + "umesh_dist_gmsh_" + std::to_string(pid) + ".msh";
  if (rank == 0) {
    auto node = [&](int i, int j, int k) { return 1 + i + (nx + 1) * (j + (ny + 1) * k); };
    const int nodes = (nx + 1) * (ny + 1) * (nz + 1) + 1;
    std::ofstream out(path);
    out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n2\n2 5 \"bottom\"\n"
        << "3 7 \"the volume\"\n$EndPhysicalNames\n$Nodes\n"
        << nodes << '\n';
    for (int k = 0; k <= nz; ++k)
      for (int j = 0; j <= ny; ++j)
        for (int i = 0; i <= nx; ++i)
          out << node(i, j, k) << ' ' << i << ' ' << 0.5 * j << ' ' << 0.25 * k << '\n';
    out << nodes << " 10 10 10\n$EndNodes\n$Elements\n";
    std::vector<int> order(std::size_t(nx * ny * nz));
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(5));
    const int copies = groups ? 2 : 1;
    out << std::size_t(copies) * order.size() + std::size_t(nx * ny) + 1 << '\n';
    int id = 1;
    for (int c : order)
      for (int group = 7; group < 7 + copies; ++group) {
        const int i = c % nx, j = c / nx % ny, k = c / (nx * ny);
        out << id++ << " 5 2 " << group << " 1";
        for (int kk : {k, k + 1})
          out << ' ' << node(i, j, kk) << ' ' << node(i + 1, j, kk) << ' ' << node(i + 1, j + 1, kk)
              << ' ' << node(i, j + 1, kk);
        out << '\n';
      }
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        out << id++ << " 3 2 5 2 " << node(i, j, 0) << ' ' << node(i + 1, j, 0) << ' '
            << node(i + 1, j + 1, 0) << ' ' << node(i, j + 1, 0) << '\n';
    out << id << " 15 2 0 3 " << nodes << "\n$EndElements\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

class DistGmshPart : public ::testing::TestWithParam<dist::Owners> {};

TEST_P(DistGmshPart, PartsAreTheFilesAndPartitionAsFromGlobalData) {
  const dist::Owners how = GetParam();
  if (how == dist::Owners::metis && !has_metis())
    GTEST_SKIP() << "METIS is not built in";
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string path = write_box(7, 5, 4);
  dist::GmshPart part = dist::read_gmsh_part(MPI_COMM_WORLD, path, "hex", how);
  // The whole file, read here only to check against.
  const GmshMesh g = read_gmsh(path);
  const GmshMesh::Block &hexes = g.block("hex");
  EXPECT_EQ(part.type, "hex");
  EXPECT_EQ(part.elements.name(), hexes.set.name());
  EXPECT_EQ(part.elements.size(), hexes.set.size());
  EXPECT_EQ(part.nodes.size(), g.nodes.size());
  EXPECT_EQ(part.nodes_per_element, 8);
  EXPECT_EQ(part.physical_names, g.physical_names);
  EXPECT_EQ(part.physical_names.at(7), "the volume");

  // Each element once over the ranks, with the file's rows and group.
  std::vector<int> owner(std::size_t(hexes.set.size()), -1);
  ASSERT_EQ(part.element_nodes.size(), 8 * part.element_ids.size());
  ASSERT_EQ(part.physical.size(), part.element_ids.size());
  ASSERT_TRUE(std::is_sorted(part.element_ids.begin(), part.element_ids.end()));
  for (std::size_t i = 0; i < part.element_ids.size(); ++i) {
    const int e = part.element_ids[i];
    owner[std::size_t(e)] = rank;
    for (int k = 0; k < 8; ++k)
      ASSERT_EQ(part.element_nodes[8 * i + k], hexes.nodes[8 * std::size_t(e) + k]) << e;
    EXPECT_EQ(part.physical[i], 7);
  }
  std::vector<int> count(owner.size());
  for (std::size_t e = 0; e < owner.size(); ++e)
    count[e] = owner[e] >= 0;
  MPI_Allreduce(MPI_IN_PLACE, owner.data(), int(owner.size()), MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, count.data(), int(count.size()), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (std::size_t e = 0; e < owner.size(); ++e)
    ASSERT_EQ(count[e], 1) << "element " << e;
  if (how == dist::Owners::slabs) {
    EXPECT_EQ(owner, dist::contiguous_owners(hexes.set.size(), size));
  }
  // Owned nodes with their coordinates; every node once.
  ASSERT_EQ(part.coords.size(), 3 * part.node_ids.size());
  for (std::size_t i = 0; i < part.node_ids.size(); ++i)
    for (int k = 0; k < 3; ++k)
      ASSERT_EQ(part.coords[3 * i + k], g.coords[3 * std::size_t(part.node_ids[i]) + k]);
  long long nodes = (long long)part.node_ids.size();
  MPI_Allreduce(MPI_IN_PLACE, &nodes, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(nodes, g.nodes.size());

  // The Partition from the parts is the one from global data.
  const Set node_set = part.nodes; // (sets compare by identity, not name)
  const std::vector<dist::MapSpec> maps{{"hex_nodes", node_set, 8, hexes.nodes}};
  const dist::Partition<Mem> whole(MPI_COMM_WORLD, part.elements, owner, maps);
  const dist::Partition<Mem> mine(MPI_COMM_WORLD, std::move(part).own_part("hex_nodes"));
  EXPECT_EQ(mine.elements()->global_ids, whole.elements()->global_ids);
  const dist::SetPart &a = *whole.part(node_set), &b = *mine.part(node_set);
  EXPECT_EQ(b.owned, a.owned);
  EXPECT_EQ(b.global_ids, a.global_ids);
  auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), whole.map("hex_nodes").view());
  auto y = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mine.map("hex_nodes").view());
  ASSERT_EQ(x.extent(0), y.extent(0));
  for (std::size_t i = 0; i < x.extent(0); ++i)
    for (int k = 0; k < 8; ++k)
      ASSERT_EQ(y(i, k), x(i, k)) << "element " << i;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(Owners, DistGmshPart,
                         ::testing::Values(dist::Owners::slabs, dist::Owners::metis),
                         [](const auto &info) { return std::string(dist::to_string(info.param)); });

// Gmsh 2.2 writes an element once per physical group it is in: every hex
// is dealt once, as the one-process reader counts it (elements_once: what
// the main job's --mesh runs over), not once per group.
TEST(DistGmshPartGroups, EachElementOnceAsTheOneProcessReader) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string path = write_box(4, 3, 2, /*groups=*/true);
  const dist::GmshPart part = dist::read_gmsh_part(MPI_COMM_WORLD, path, "hex");
  const GmshMesh g = read_gmsh(path);
  ASSERT_EQ(g.block("hex").set.size(), 2 * 24) << "the file writes each hex twice";
  const GmshMesh::Block once = elements_once(g.block("hex"), g.format_version);
  ASSERT_EQ(once.set.size(), 24);
  EXPECT_EQ(part.elements.size(), once.set.size());
  long long dealt = (long long)part.element_ids.size();
  MPI_Allreduce(MPI_IN_PLACE, &dealt, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(dealt, 24);
  for (std::size_t i = 0; i < part.element_ids.size(); ++i) {
    const std::size_t e = std::size_t(part.element_ids[i]);
    for (int k = 0; k < 8; ++k)
      ASSERT_EQ(part.element_nodes[8 * i + k], once.nodes[8 * e + k]) << e;
    EXPECT_EQ(part.physical[i], 7) << "the first copy's group";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    std::remove(path.c_str());
}

// What rank 0 cannot read is an error on every rank, naming the file.
TEST(DistGmshPartErrors, BadInputIsAnErrorOnEveryRank) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto message = [](auto &&call) {
    try {
      call();
    } catch (const umesh::Error &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string missing = ::testing::TempDir() + "umesh_no_such_mesh.msh";
  std::string m = message([&] { dist::read_gmsh_part(MPI_COMM_WORLD, missing, "hex"); });
  EXPECT_NE(m.find(missing), std::string::npos) << m;
  EXPECT_NE(m.find("on rank 0"), std::string::npos) << m;
  const std::string path = write_box(2, 2, 2);
  m = message([&] { dist::read_gmsh_part(MPI_COMM_WORLD, path, "tet"); });
  EXPECT_NE(m.find("tet"), std::string::npos) << m;
  EXPECT_NE(m.find("hex"), std::string::npos) << m; // the types the file has
  m = message([&] { dist::read_gmsh_part(MPI_COMM_WORLD, path, "hex", dist::Owners::ptscotch); });
  EXPECT_NE(m.find("slabs or metis"), std::string::npos) << m;
  const std::string truncated = std::string(UMESH_TEST_DATA) + "/gmsh/truncated.msh";
  m = message([&] { dist::read_gmsh_part(MPI_COMM_WORLD, truncated, "quad"); });
  EXPECT_NE(m.find("truncated.msh"), std::string::npos) << m;
  // Every rank still takes part in the next collective call.
  const dist::GmshPart quads = dist::read_gmsh_part(MPI_COMM_WORLD, path, "quad");
  long long n = (long long)quads.element_ids.size();
  MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(n, 4);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    std::remove(path.c_str());
}

} // namespace

int main(int argc, char **argv) {
  return run_distributed_tests(argc, argv);
}
