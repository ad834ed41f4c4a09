// LULESH's generated mesh: the same on any number of threads, and each
// rank's own slab (make_mesh_part) or its elements dealt any way
// (make_mesh_elements) a piece of the whole mesh: its elements
// with their nodes, neighbours and flags, the nodes it owns (those whose
// lowest-numbered element is in the slab) with their coordinates, and its
// elements of every region; every element and node on exactly one rank.
#include "problem.hpp"

#include <umesh/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace lulesh;

Params params(int size, int regions, int balance) {
  Params p;
  p.size = size;
  p.regions = regions;
  p.balance = balance;
  return p;
}

TEST(LuleshMesh, SameOnAnyNumberOfThreads) {
  const Params p = params(7, 11, 1);
  const Mesh one = make_mesh(p, 1), three = make_mesh(p, 3);
  EXPECT_EQ(one.coords, three.coords);
  EXPECT_EQ(one.elem_nodes, three.elem_nodes);
  EXPECT_EQ(one.neighbours, three.neighbours);
  EXPECT_EQ(one.elem_bc, three.elem_bc);
  EXPECT_EQ(one.node_symmetry, three.node_symmetry);
  EXPECT_EQ(one.regions, three.regions);
  EXPECT_EQ(one.region_reps, three.region_reps);
}

// The i-th of `items` rows of width w of `whole`, from global row `lo` on.
template <class T>
std::vector<T> rows(const std::vector<T> &whole, int w, int lo, std::size_t items) {
  const auto first = whole.begin() + std::ptrdiff_t(lo) * w;
  return std::vector<T>(first, first + std::ptrdiff_t(items) * w);
}

TEST(LuleshMesh, SlabsArePiecesOfTheWholeMesh) {
  for (const Params &p :
       {params(1, 11, 1), params(5, 11, 1), params(9, 11, 2), params(12, 3, 0), params(12, 1, 1)}) {
    const Mesh whole = make_mesh(p);
    for (int ranks = 1; ranks <= std::min(p.size, 5); ++ranks) {
      SCOPED_TRACE("-s " + std::to_string(p.size) + " -r " + std::to_string(p.regions) + ", " +
                   std::to_string(ranks) + " ranks");
      int next_elem = 0, next_node = 0;
      std::vector<std::vector<int>> regions(whole.regions.size());
      // A node's owner under the dealing from global data: the rank of its
      // lowest-numbered element.
      const int s = p.size, e = s + 1;
      std::vector<int> node_owner(whole.num_nodes, -1), elem_owner(whole.num_elems);
      for (int r = 0; r < ranks; ++r) {
        const Mesh m = make_mesh_part(p, r, ranks, 2);
        ASSERT_TRUE(m.part);
        EXPECT_EQ(m.num_elems, whole.num_elems);
        EXPECT_EQ(m.num_nodes, whole.num_nodes);
        EXPECT_LT(m.plane_lo, m.plane_hi);
        EXPECT_EQ(m.elem_lo, next_elem); // contiguous, in order
        EXPECT_EQ(m.node_lo, next_node);
        next_elem = m.elem_hi;
        next_node = m.node_hi;
        const std::size_t elems = std::size_t(m.elem_hi - m.elem_lo);
        const std::size_t nodes = std::size_t(m.node_hi - m.node_lo);
        EXPECT_EQ(m.elem_nodes, rows(whole.elem_nodes, 8, m.elem_lo, elems));
        EXPECT_EQ(m.neighbours, rows(whole.neighbours, 6, m.elem_lo, elems));
        EXPECT_EQ(m.elem_bc, rows(whole.elem_bc, 1, m.elem_lo, elems));
        EXPECT_EQ(m.coords, rows(whole.coords, 3, m.node_lo, nodes));
        EXPECT_EQ(m.node_symmetry, rows(whole.node_symmetry, 1, m.node_lo, nodes));
        ASSERT_EQ(m.regions.size(), whole.regions.size());
        EXPECT_EQ(m.region_reps, whole.region_reps);
        for (std::size_t k = 0; k < m.regions.size(); ++k)
          regions[k].insert(regions[k].end(), m.regions[k].begin(), m.regions[k].end());
        for (int el = m.elem_lo; el < m.elem_hi; ++el)
          elem_owner[el] = r;
        for (int n = m.node_lo; n < m.node_hi; ++n)
          node_owner[n] = r;
      }
      EXPECT_EQ(next_elem, whole.num_elems);
      EXPECT_EQ(next_node, whole.num_nodes);
      EXPECT_EQ(regions, whole.regions);
      for (int n = 0; n < whole.num_nodes; ++n) {
        const int i = n % e, j = n / e % e, k = n / (e * e);
        const int lowest = (std::max(k - 1, 0) * s + std::max(j - 1, 0)) * s + std::max(i - 1, 0);
        ASSERT_EQ(node_owner[n], elem_owner[lowest]) << "node " << n;
      }
    }
  }
}

// Elements dealt in any way (a partitioner's parts; here at random): each
// rank's make_mesh_elements holds its elements' rows, the nodes whose
// lowest-numbered element it holds with their values, and its elements of
// every region, as the whole mesh has them; every node on one rank.
TEST(LuleshMesh, ElementsDealtAnyWayArePiecesOfTheWholeMesh) {
  for (const Params &p : {params(1, 11, 1), params(6, 11, 1), params(9, 3, 2)}) {
    const Mesh whole = make_mesh(p);
    const int s = p.size, e = s + 1;
    for (int ranks = 1; ranks <= 5; ++ranks) {
      SCOPED_TRACE("-s " + std::to_string(s) + ", " + std::to_string(ranks) + " ranks");
      std::mt19937 pick(unsigned(7 * ranks + s));
      std::vector<int> elem_owner(std::size_t(whole.num_elems)), node_owner(whole.num_nodes, -1);
      std::vector<std::vector<int>> dealt(static_cast<std::size_t>(ranks));
      for (int el = 0; el < whole.num_elems; ++el) {
        elem_owner[std::size_t(el)] = int(pick() % unsigned(ranks));
        dealt[std::size_t(elem_owner[std::size_t(el)])].push_back(el);
      }
      std::vector<std::vector<int>> regions(whole.regions.size());
      for (int r = 0; r < ranks; ++r) {
        std::vector<int> ids = dealt[std::size_t(r)];
        std::shuffle(ids.begin(), ids.end(), pick); // any order in, ascending out
        const Mesh m = make_mesh_elements(p, ids, 2);
        ASSERT_TRUE(m.part);
        EXPECT_EQ(element_ids(m), dealt[std::size_t(r)]);
        std::vector<int> rows8, rows6, bc;
        for (int el : dealt[std::size_t(r)]) {
          ASSERT_EQ(element_ids(m)[std::size_t(element_row(m, el))], el);
          rows8.insert(rows8.end(), whole.elem_nodes.begin() + 8 * el,
                       whole.elem_nodes.begin() + 8 * el + 8);
          rows6.insert(rows6.end(), whole.neighbours.begin() + 6 * el,
                       whole.neighbours.begin() + 6 * el + 6);
          bc.push_back(whole.elem_bc[std::size_t(el)]);
        }
        EXPECT_EQ(m.elem_nodes, rows8);
        EXPECT_EQ(m.neighbours, rows6);
        EXPECT_EQ(m.elem_bc, bc);
        const std::vector<int> nodes = node_ids(m);
        ASSERT_TRUE(std::is_sorted(nodes.begin(), nodes.end()));
        ASSERT_EQ(m.coords.size(), 3 * nodes.size());
        for (std::size_t k = 0; k < nodes.size(); ++k) {
          const int n = nodes[k];
          EXPECT_EQ(node_owner[std::size_t(n)], -1) << "node " << n << " on two ranks";
          node_owner[std::size_t(n)] = r;
          for (int c = 0; c < 3; ++c)
            EXPECT_EQ(m.coords[3 * k + c], whole.coords[3 * std::size_t(n) + c]);
          EXPECT_EQ(m.node_symmetry[k], whole.node_symmetry[std::size_t(n)]);
        }
        ASSERT_EQ(m.regions.size(), whole.regions.size());
        EXPECT_EQ(m.region_reps, whole.region_reps);
        for (std::size_t k = 0; k < m.regions.size(); ++k)
          regions[k].insert(regions[k].end(), m.regions[k].begin(), m.regions[k].end());
      }
      for (auto &r : regions)
        std::sort(r.begin(), r.end());
      EXPECT_EQ(regions, whole.regions);
      for (int n = 0; n < whole.num_nodes; ++n) {
        const int i = n % e, j = n / e % e, k = n / (e * e);
        const int lowest = (std::max(k - 1, 0) * s + std::max(j - 1, 0)) * s + std::max(i - 1, 0);
        ASSERT_EQ(node_owner[std::size_t(n)], elem_owner[std::size_t(lowest)]) << "node " << n;
      }
    }
  }
  EXPECT_THROW(make_mesh_elements(params(3, 11, 1), {0, 27}), umesh::Error);
  const Mesh none = make_mesh_elements(params(3, 11, 1), {});
  EXPECT_TRUE(none.part);
  EXPECT_TRUE(element_ids(none).empty());
  EXPECT_TRUE(node_ids(none).empty());
}

// The element graph from the mesh's structure is umesh::element_graph's over
// the whole mesh (neighbours ascending), row by row.
TEST(LuleshMesh, ElementGraphRowsAreTheWholeGraphs) {
  for (int s : {1, 2, 5}) {
    const Mesh whole = make_mesh(params(s, 11, 1));
    const umesh::Graph g =
        umesh::element_graph(whole.num_elems, whole.elem_nodes.data(), 8, whole.num_nodes);
    for (auto [first, last] :
         {std::pair{0, whole.num_elems}, std::pair{whole.num_elems / 3, whole.num_elems}}) {
      const umesh::Graph rows = element_graph_rows(s, first, last);
      ASSERT_EQ(rows.num_vertices(), last - first);
      for (int v = first; v < last; ++v) {
        std::vector<int> expected(g.adjacency.begin() + g.offsets[std::size_t(v)],
                                  g.adjacency.begin() + g.offsets[std::size_t(v) + 1]);
        std::sort(expected.begin(), expected.end());
        const std::vector<int> got(rows.adjacency.begin() + rows.offsets[std::size_t(v - first)],
                                   rows.adjacency.begin() +
                                       rows.offsets[std::size_t(v - first) + 1]);
        ASSERT_EQ(got, expected) << "-s " << s << " element " << v;
      }
    }
  }
}

TEST(LuleshMesh, MoreRanksThanPlanesIsRefused) {
  try {
    make_mesh_part(params(2, 11, 1), 0, 3, 1);
    FAIL() << "3 ranks on 2 planes accepted";
  } catch (const umesh::Error &e) {
    EXPECT_NE(std::string(e.what()).find("3 ranks cannot share the 2 z-planes"), std::string::npos)
        << e.what();
  }
}

} // namespace
