// Offsets past 2^31 without the whole mesh: the 64-bit prefix sums that the
// element graph, the built-in partitioner and the plan's lists use, tested
// on synthetic counts whose sum passes 2^31; and every check that stops a
// total before it is narrowed to 32 bits (the plan's int tables, inverse
// maps, the greedy colouring, METIS's and Scotch's index types), each on
// synthetic sizes, before any index is read.
#include "test_main.hpp"

#include <umesh/detail/offsets.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::test {

constexpr std::int64_t big = std::int64_t(1) << 30;

TEST(Offsets, SumsPastTwoToThe31) {
  const std::vector<int> counts{int(big), int(big), int(big), 7, 0};
  const std::vector<std::int64_t> off = detail::offsets_from_counts(counts);
  ASSERT_EQ(off.size(), counts.size() + 1);
  EXPECT_EQ(off[0], 0);
  EXPECT_EQ(off[1], big);
  EXPECT_EQ(off[3], 3 * big);
  EXPECT_EQ(off[4], 3 * big + 7);
  EXPECT_EQ(off.back(), 3 * big + 7);
  EXPECT_GT(off.back(), detail::int_limit); // where int offsets wrapped to negative

  std::vector<std::int64_t> in_place{0, big, big, big, 7};
  detail::counts_to_offsets(in_place);
  EXPECT_EQ(in_place, (std::vector<std::int64_t>{0, big, 2 * big, 3 * big, 3 * big + 7}));
}

TEST(Offsets, NarrowingPastTheLimitIsAnError) {
  const std::vector<std::int64_t> fits{0, 5, detail::int_limit};
  EXPECT_EQ(detail::narrow_offsets(fits, "lists", "int offsets", "")[2], 2147483647);
  const std::string why = error_message([&] {
    detail::narrow_offsets({0, big, 3 * big}, "the blocks' staged points", "the plan's int offsets",
                           "use larger blocks");
  });
  EXPECT_NE(why.find("the blocks' staged points: 3221225472 entries, more than the 2147483647 "
                     "that the plan's int offsets holds: use larger blocks"),
            std::string::npos)
      << why;
}

// Elements x arity past 2^31 - 1: refused before the (absent) indices are read.
TEST(Offsets, InverseMapAndColouringRefuseBeforeReading) {
  const int n = int(big / 2 * 3); // 1610612736 elements
  const std::string inv = error_message([&] { invert_map(n, nullptr, 2, 10); });
  EXPECT_NE(inv.find("invert_map of 1610612736 elements x arity 2: 3221225472 entries, more "
                     "than the 2147483647"),
            std::string::npos)
      << inv;
  const std::string col = error_message([&] {
    greedy_colour(n / 2, {{nullptr, 2, 0, 10}, {nullptr, 1, 1, 10}});
  });
  EXPECT_NE(col.find("greedy colouring of 805306368 elements (every map's points per element: "
                     "3): 2415919104 entries, more than the 2147483647"),
            std::string::npos)
      << col;
}

// A graph whose offsets say more adjacency than the library's index type
// holds (the adjacency itself left out: the count is checked first).
TEST(Offsets, PartitionersNameTheirIndexLimit) {
  Graph g;
  g.offsets = {0, 3 * big};
  const std::string metis = error_message([&] { partition_kway(g, 2); });
  if (has_metis()) {
    EXPECT_NE(metis.find("partition_kway: the graph's adjacency: 3221225472 entries, more than the "
                         "2147483647 that METIS's idx_t (IDXTYPEWIDTH 32 in this build) holds"),
              std::string::npos)
        << metis;
  } else {
    EXPECT_NE(metis.find("without METIS"), std::string::npos) << metis;
  }
  const std::string scotch = error_message([&] { order_gps(g); });
  if (has_scotch()) {
    EXPECT_NE(scotch.find("order_gps: the graph's adjacency: 3221225472 entries, more than the "
                          "2147483647 that Scotch's SCOTCH_Num (32 bits in this build) holds"),
              std::string::npos)
        << scotch;
  } else {
    EXPECT_NE(scotch.find("without Scotch"), std::string::npos) << scotch;
  }
  // Offsets that do not span the adjacency are refused too.
  Graph short_graph;
  short_graph.offsets = {0, 3};
  short_graph.adjacency = {0, 0};
  if (has_metis()) {
    EXPECT_NE(error_message([&] { partition_kway(short_graph, 2); }).find("do not span"),
              std::string::npos);
  }
}

// The graphs built here carry 64-bit offsets that still describe them.
TEST(Offsets, ElementGraphOffsetsSpanItsAdjacency) {
  const QuadMesh m = make_quad_mesh(9, 7);
  const Graph g = element_graph(m.edges.size(), m.edge_nodes.data(), 2, m.nodes.size());
  static_assert(std::is_same<decltype(g.offsets)::value_type, std::int64_t>::value);
  ASSERT_EQ(g.num_vertices(), m.edges.size());
  EXPECT_EQ(g.offsets.front(), 0);
  EXPECT_EQ(std::size_t(g.offsets.back()), g.adjacency.size());
  for (int v = 0; v < g.num_vertices(); ++v)
    EXPECT_LE(g.offsets[v], g.offsets[v + 1]);
  const std::vector<int> order = order_rcm(g);
  std::vector<int> sorted(order);
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < g.num_vertices(); ++i)
    ASSERT_EQ(sorted[i], i); // a permutation
}

} // namespace umesh::test
