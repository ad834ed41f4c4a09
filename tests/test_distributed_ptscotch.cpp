// Owners dealt by PT-Scotch over the ranks (dist/ptscotch.hpp), on 1 to 4
// MPI ranks: the same owners on every rank, each element owned once,
// balanced, far fewer cut edges than slabs of a shuffled numbering, the same
// answer twice; a graph of which each rank passes only its own slice; bad
// slices refused on every rank; and in a build without PT-Scotch, refused.
#include "dist_support.hpp"

#include <umesh/dist/graph_slice.hpp>
#include <umesh/dist/owners.hpp>
#include <umesh/dist/ptscotch.hpp>

#include <cstdio>

namespace {

using namespace umesh;
using namespace dist_support;

std::int64_t cut_edges(const QuadMesh &m, const std::vector<int> &cell_owner) {
  return dist::cut_elements(HostConnectivity{m.edge_cells.data(), 2, 0, m.cells.size()},
                            m.edges.size(), cell_owner);
}

// Every owner in [0, size), at most `imbalance` times the mean per rank (and
// one item of slack), and the same on every rank as on rank 0.
void expect_owners(const std::vector<int> &owner, std::size_t n, int size, double imbalance) {
  // EXPECT, not ASSERT: a rank returning early would leave the others in
  // the collective below.
  EXPECT_EQ(owner.size(), n);
  std::vector<int> count(std::size_t(size), 0);
  for (int o : owner) {
    EXPECT_GE(o, 0);
    EXPECT_LT(o, size);
    if (o >= 0 && o < size)
      ++count[std::size_t(o)];
  }
  for (int r = 0; r < size; ++r)
    EXPECT_LE(count[std::size_t(r)], imbalance * double(n) / size + 1) << "rank " << r;
  std::vector<int> from0 = owner;
  MPI_Bcast(from0.data(), int(from0.size()), MPI_INT, 0, MPI_COMM_WORLD);
  EXPECT_EQ(from0, owner);
}

TEST(DistPtScotch, AgreesOverRanksBalancesAndCutsLessThanSlabs) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(40, 30, {true, 5});
  const HostConnectivity pecell{m.edge_cells.data(), 2, 0, m.cells.size()};
  if (!dist::has_ptscotch()) {
    EXPECT_THROW(dist::parse_owners("ptscotch"), Error);
    // Refused on every rank before any collective (none waits for another).
    expect_refused_everywhere(
        [&] {
          dist::point_owners(MPI_COMM_WORLD, dist::Owners::ptscotch, m.cells.size(), m.edges.size(),
                             {pecell});
        },
        "built without PT-Scotch");
    GTEST_SKIP() << "built without PT-Scotch";
  }
  EXPECT_EQ(dist::parse_owners("ptscotch"), dist::Owners::ptscotch);
  EXPECT_STREQ(dist::to_string(dist::Owners::ptscotch), "ptscotch");
  // Shuffled numbering: slabs of it are scattered cells; PT-Scotch looks at
  // the graph, not the numbering.
  const std::vector<int> cells = dist::point_owners(MPI_COMM_WORLD, dist::Owners::ptscotch,
                                                    m.cells.size(), m.edges.size(), {pecell});
  expect_owners(cells, std::size_t(m.cells.size()), size, 1.03);
  const std::int64_t cut = cut_edges(m, cells);
  const std::int64_t slab_cut = cut_edges(m, dist::contiguous_owners(m.cells.size(), size));
  if (size == 1) {
    EXPECT_EQ(cut, 0);
  } else {
    EXPECT_LT(cut, slab_cut / 4) << "ptscotch " << cut << ", slabs " << slab_cut;
  }
  // METIS beside it, for the record (not a check: either may win).
  std::int64_t metis_cut = -1;
  if (has_metis())
    metis_cut = cut_edges(m, dist::point_owners(MPI_COMM_WORLD, dist::Owners::metis, m.cells.size(),
                                                m.edges.size(), {pecell}));
  if (rank == 0)
    std::printf("[ cut edges ] 40 x 30 quads, %d ranks: PT-Scotch %lld, METIS %lld, slabs of "
                "the shuffled numbering %lld\n",
                size, (long long)cut, (long long)metis_cut, (long long)slab_cut);
  // The same answer again.
  EXPECT_EQ(dist::point_owners(MPI_COMM_WORLD, dist::Owners::ptscotch, m.cells.size(),
                               m.edges.size(), {pecell}),
            cells);
  // Elements through two maps: every edge owned once, the same everywhere.
  const HostConnectivity pedge{m.edge_nodes.data(), 2, 1, m.nodes.size()};
  const std::vector<int> edges =
      dist::element_owners(MPI_COMM_WORLD, dist::Owners::ptscotch, m.edges.size(), {pedge, pecell});
  expect_owners(edges, std::size_t(m.edges.size()), size, 1.03);
  EXPECT_EQ(dist::owners_label(dist::Owners::ptscotch, MPI_COMM_WORLD),
            size == 1 ? "one rank" : "PT-Scotch");
}

// An nx x ny grid graph (4 neighbours) of which this rank holds the vertices
// [first, last) only, as a rank that does not hold the whole mesh would.
Graph grid_slice(int nx, int ny, int first, int last) {
  Graph g;
  g.offsets.push_back(0);
  for (int v = first; v < last; ++v) {
    const int i = v % nx, j = v / nx;
    if (j > 0)
      g.adjacency.push_back(v - nx);
    if (i > 0)
      g.adjacency.push_back(v - 1);
    if (i < nx - 1)
      g.adjacency.push_back(v + 1);
    if (j < ny - 1)
      g.adjacency.push_back(v + nx);
    g.offsets.push_back(int(g.adjacency.size()));
  }
  return g;
}

// Each rank passes its own slice, of uneven sizes (the last rank none when
// there are two or more): parts for its vertices alone, which together
// cover the graph in balanced parts and cut few edges.
TEST(DistPtScotch, EachRankPassesItsOwnSlice) {
  if (!dist::has_ptscotch())
    GTEST_SKIP() << "built without PT-Scotch";
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int nx = 48, ny = 20, n = nx * ny;
  // Rank r holds a share proportional to r + 1 of the first size - 1 ranks.
  const int holders = std::max(1, size - 1);
  std::vector<int> first(std::size_t(size) + 1, n);
  int weights = 0;
  for (int r = 0; r < holders; ++r)
    weights += r + 1;
  int at = 0, sum = 0;
  for (int r = 0; r < holders; ++r) {
    first[std::size_t(r)] = at;
    sum += r + 1;
    at = int(std::int64_t(n) * sum / weights);
  }
  const Graph mine = grid_slice(nx, ny, first[std::size_t(rank)], first[std::size_t(rank) + 1]);
  std::vector<int> parts = dist::ptscotch_parts(MPI_COMM_WORLD, mine, size);
  // EXPECT, not ASSERT: the gather below is collective (a wrong size fails
  // the owners' check instead).
  EXPECT_EQ(parts.size(), std::size_t(mine.num_vertices()));
  parts.resize(std::size_t(mine.num_vertices()), -1);
  std::vector<int> counts(std::size_t(size), 0), starts(std::size_t(size), 0);
  for (int r = 0; r < size; ++r) {
    starts[std::size_t(r)] = first[std::size_t(r)];
    counts[std::size_t(r)] = first[std::size_t(r) + 1] - first[std::size_t(r)];
  }
  std::vector<int> all(std::size_t(n), -1);
  MPI_Allgatherv(parts.data(), int(parts.size()), MPI_INT, all.data(), counts.data(), starts.data(),
                 MPI_INT, MPI_COMM_WORLD);
  expect_owners(all, std::size_t(n), size, 1.03);
  std::int64_t cut = 0;
  for (int v = 0; v < n; ++v)
    cut += (v % nx < nx - 1 && all[v] != all[v + 1]) + (v / nx < ny - 1 && all[v] != all[v + nx]);
  // A straight cut between two parts crosses 20 edges; rows of vertices
  // dealt by number would cross 48 each.
  EXPECT_LE(cut, 30 * (size - 1)) << size << " parts";
  // No vertex on any rank: nothing to deal.
  EXPECT_TRUE(dist::ptscotch_parts(MPI_COMM_WORLD, Graph{{0}, {}}, size).empty());
  // Fewer parts than ranks works too.
  const std::vector<int> two = dist::ptscotch_parts(MPI_COMM_WORLD, mine, 2);
  for (int p : two)
    EXPECT_TRUE(p == 0 || p == 1) << p;
}

// A rank that holds only its own edges (a contiguous slice of them) and
// their rows builds its slice of the element graph: the whole mesh's graph's
// rows, and PT-Scotch's owners from it are element_owners' own.
TEST(DistPtScotch, SliceOfTheElementGraphFromARanksOwnRows) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(23, 17, {true, 6});
  const std::vector<HostConnectivity> maps{{m.edge_nodes.data(), 2, 1, m.nodes.size()},
                                           {m.edge_cells.data(), 2, 0, m.cells.size()}};
  const int n = m.edges.size();
  const int first = int((std::int64_t(rank) * n + size - 1) / size),
            last = int((std::int64_t(rank + 1) * n + size - 1) / size);
  std::vector<int> nodes(m.edge_nodes.begin() + 2 * first, m.edge_nodes.begin() + 2 * last),
      cells(m.edge_cells.begin() + 2 * first, m.edge_cells.begin() + 2 * last);
  const Graph mine = dist::element_graph_slice(
      MPI_COMM_WORLD, last - first,
      {{nodes.data(), 2, 1, m.nodes.size()}, {cells.data(), 2, 0, m.cells.size()}});
  const Graph whole = element_graph(n, maps);
  EXPECT_EQ(mine.num_vertices(), last - first); // (EXPECT: a collective follows)
  for (int e = first; e < last && mine.num_vertices() == last - first; ++e) {
    std::vector<int> want(whole.adjacency.begin() + whole.offsets[e],
                          whole.adjacency.begin() + whole.offsets[e + 1]);
    std::sort(want.begin(), want.end());
    const std::vector<int> got(mine.adjacency.begin() + mine.offsets[e - first],
                               mine.adjacency.begin() + mine.offsets[e - first + 1]);
    EXPECT_EQ(got, want) << "edge " << e;
  }
  // A point outside its set: refused on every rank, one names it.
  if (rank == size - 1 && !cells.empty())
    cells.back() = m.cells.size();
  expect_refused_everywhere(
      [&] {
        dist::element_graph_slice(MPI_COMM_WORLD, last - first,
                                  {{cells.data(), 2, 0, m.cells.size()}});
      },
      "holds point " + std::to_string(m.cells.size()));
  if (!dist::has_ptscotch())
    GTEST_SKIP() << "built without PT-Scotch";
  const std::vector<int> parts = dist::ptscotch_parts(MPI_COMM_WORLD, mine, size);
  const std::vector<int> owners =
      dist::element_owners(MPI_COMM_WORLD, dist::Owners::ptscotch, n, maps);
  EXPECT_EQ(parts, std::vector<int>(owners.begin() + first, owners.begin() + last));
}

// Slices that do not make a graph are refused on every rank (none is left
// waiting in PT-Scotch), the rank that found the problem naming it.
TEST(DistPtScotch, BadSlicesAreRefusedEverywhere) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (!dist::has_ptscotch()) {
    expect_refused_everywhere(
        [&] { dist::ptscotch_parts(MPI_COMM_WORLD, grid_slice(4, 4, 0, rank == 0 ? 16 : 0), 2); },
        "built without PT-Scotch");
    GTEST_SKIP() << "built without PT-Scotch";
  }
  const int nx = 8, ny = 6, n = nx * ny;
  const int first = int(std::int64_t(rank) * n / size),
            last = int(std::int64_t(rank + 1) * n / size);
  const int bad = size - 1; // the rank that passes the flaw
  Graph g = grid_slice(nx, ny, first, last);
  if (rank == bad)
    g.adjacency.back() = n;
  expect_refused_everywhere([&] { dist::ptscotch_parts(MPI_COMM_WORLD, g, size); },
                            "a neighbour " + std::to_string(n) + ", not a vertex");
  g = grid_slice(nx, ny, first, last);
  if (rank == bad)
    g.adjacency.back() = last - 1; // its last vertex's last neighbour: itself
  expect_refused_everywhere([&] { dist::ptscotch_parts(MPI_COMM_WORLD, g, size); },
                            "vertex " + std::to_string(last - 1) + " is its own neighbour");
  g = grid_slice(nx, ny, first, last);
  if (rank == bad)
    g.offsets.back() += 1;
  expect_refused_everywhere([&] { dist::ptscotch_parts(MPI_COMM_WORLD, g, size); },
                            "offsets do not span");
  expect_refused_everywhere(
      [&] { dist::ptscotch_parts(MPI_COMM_WORLD, grid_slice(nx, ny, first, last), 0); }, "0 parts");
  // An edge that goes one way only: PT-Scotch's own check finds it.
  g = grid_slice(nx, ny, first, last);
  if (rank == bad)
    g.adjacency.back() = 0; // (0 does not list it back)
  expect_refused_everywhere([&] { dist::ptscotch_parts(MPI_COMM_WORLD, g, size); },
                            "SCOTCH_dgraphCheck failed");
  // After the refusals, a good graph still partitions.
  const std::vector<int> parts =
      dist::ptscotch_parts(MPI_COMM_WORLD, grid_slice(nx, ny, first, last), size);
  EXPECT_EQ(parts.size(), std::size_t(last - first));
}

} // namespace

int main(int argc, char **argv) {
  return run_distributed_tests(argc, argv);
}
