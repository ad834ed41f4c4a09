// Colouring validity and inverse maps on random and generated meshes.
#include "test_main.hpp"

#include <set>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {
using namespace umesh;

void expect_valid(const Colouring &c, int n, const std::vector<HostConnectivity> &maps) {
  ASSERT_EQ(int(c.colour.size()), n);
  std::vector<int> sizes(c.num_colours(), 0);
  for (int e = 0; e < n; ++e) {
    ASSERT_GE(c.colour[e], 0);
    ASSERT_LT(c.colour[e], c.num_colours());
    ++sizes[c.colour[e]];
  }
  EXPECT_EQ(sizes, c.colour_sizes);
  // No point written twice within one colour (points of maps with one
  // target are the same points).
  std::set<std::tuple<int, int, int>> seen; // (colour, target, point)
  for (int e = 0; e < n; ++e) {
    std::set<std::pair<int, int>> own;
    for (const auto &m : maps)
      for (int s = 0; s < m.arity; ++s)
        own.insert({m.target, m.indices[std::size_t(e) * m.arity + s]});
    for (auto [t, p] : own)
      EXPECT_TRUE(seen.insert({c.colour[e], t, p}).second)
          << "element " << e << " shares point " << p << " within colour " << c.colour[e];
  }
}

TEST(Colouring, RandomMeshesAreValidAndBalanced) {
  for (int arity : {2, 4, 8}) {
    Set from("elems", 5000), to("pts", 1200);
    auto conn = make_random_connectivity(from, to, arity, 1000 + arity);
    std::vector<HostConnectivity> maps{{conn.data(), arity, 0, to.size()}};
    const Colouring c = greedy_colour(from.size(), maps);
    expect_valid(c, from.size(), maps);
    // Balanced: no colour but the last few is tiny.
    const int largest = *std::max_element(c.colour_sizes.begin(), c.colour_sizes.end());
    EXPECT_GE(c.colour_sizes[c.num_colours() / 2], largest / 4) << "arity " << arity;
  }
}

TEST(Colouring, TwoMapsToOneSetAndManyColours) {
  // A star: every element touches point 0, so each needs its own colour
  // (more than one 64-colour round).
  Set from("elems", 150), to("pts", 151);
  std::vector<int> a(150), b(150);
  for (int e = 0; e < 150; ++e) {
    a[e] = e + 1;
    b[e] = e == 0 ? 0 : (e % 7 == 0 ? 0 : e + 1);
  }
  std::vector<HostConnectivity> maps{{a.data(), 1, 0, 151}, {b.data(), 1, 0, 151}};
  const Colouring c = greedy_colour(150, maps);
  expect_valid(c, 150, maps);
  EXPECT_EQ(c.num_colours(), 22); // 150 / 7 rounded up + element 0
}

TEST(Colouring, QuadMeshEdgesNeedFewColours) {
  const QuadMesh m = make_quad_mesh(40, 30, {true, 1});
  std::vector<HostConnectivity> maps{{m.edge_cells.data(), 2, 0, m.cells.size()}};
  const Colouring c = greedy_colour(m.edges.size(), maps);
  expect_valid(c, m.edges.size(), maps);
  EXPECT_LE(c.num_colours(), 8);
}

TEST(InverseMap, ListsEveryReferenceOnce) {
  Set from("elems", 700), to("pts", 90);
  auto conn = make_random_connectivity(from, to, 3, 5);
  const InverseMap inv = invert_map(from.size(), conn.data(), 3, to.size());
  ASSERT_EQ(inv.offsets.size(), 91u);
  EXPECT_EQ(inv.offsets.back(), 2100);
  std::vector<int> hits(2100, 0);
  for (int p = 0; p < to.size(); ++p)
    for (int j = inv.offsets[p]; j < inv.offsets[p + 1]; ++j) {
      EXPECT_EQ(conn[inv.entries[j]], p);
      ++hits[inv.entries[j]];
    }
  for (int h : hits)
    EXPECT_EQ(h, 1);
}

// Built in parallel, each point's list still ascends (the order a
// sequential fill leaves, which plans depend on) on any thread count; an
// entry outside the target set is an error naming the first one.
TEST(InverseMap, ListsAscendOnAnyThreadCount) {
  Set from("elems", 20000), to("pts", 3000);
  auto conn = make_random_connectivity(from, to, 4, 8);
#ifdef _OPENMP
  const int original = omp_get_max_threads();
#endif
  for (int threads : {1, 2, 3, 4}) {
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
    const InverseMap inv = invert_map(from.size(), conn.data(), 4, to.size());
    std::vector<int> want_offsets(to.size() + 1, 0), want;
    for (int v : conn)
      ++want_offsets[v + 1];
    for (int p = 0; p < to.size(); ++p)
      want_offsets[p + 1] += want_offsets[p];
    std::vector<std::vector<int>> lists(to.size());
    for (std::size_t i = 0; i < conn.size(); ++i)
      lists[conn[i]].push_back(int(i));
    for (const auto &l : lists)
      want.insert(want.end(), l.begin(), l.end());
    EXPECT_EQ(inv.offsets, want_offsets) << threads << " threads";
    EXPECT_EQ(inv.entries, want) << threads << " threads";
  }
#ifdef _OPENMP
  omp_set_num_threads(original);
#endif
  conn[5000] = 3000;
  conn[7000] = -1;
  try {
    invert_map(from.size(), conn.data(), 4, to.size());
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("entry 5000 is 3000, outside [0, 3000)"),
              std::string::npos)
        << e.what();
  }
}

} // namespace
