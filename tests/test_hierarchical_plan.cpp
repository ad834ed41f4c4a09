// The hierarchical executor's block plan on the host, beside
// test_hierarchical.cpp (one program, compiled in parallel): its invariants
// on random meshes, and the same plan on one thread as on several.
#include "test_support.hpp"

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {
using namespace umesh;

// Host-side plan invariants on random meshes.
TEST(BlockPlan, Invariants) {
  for (int arity : {2, 4, 8})
    for (int block : {1, 5, 64, 300}) {
      Set from("elems", 1500), to("pts", 400), to2("cells", 350);
      auto c1 = make_random_connectivity(from, to, arity, 11 * arity + block);
      auto c2 = make_random_connectivity(from, to2, 2, 13 * arity + block);
      std::vector<BlockPlanMap> maps{{{c1.data(), arity, 0, 400}, true},
                                     {{c2.data(), 2, 1, 350}, false}};
      for (bool parted : {false, true}) {
        // Parts of random sizes (some empty, some over block_size) must come
        // out as blocks inside one part each, none over block_size.
        std::vector<int> part;
        if (parted) {
          std::mt19937 rng(block * 7 + arity);
          for (int e = 0; e < 1500; ++e)
            part.push_back(int(rng() % 40) * 2); // odd part ids stay empty
        }
        const BlockPlan p = build_block_plan(1500, maps, block, part);
        const int nb = p.num_blocks();
        if (!parted) {
          ASSERT_EQ(nb, (1500 + block - 1) / block);
        }
        for (int b = 0; parted && b < nb; ++b)
          for (int i = p.block_start[b]; i < p.block_start[b + 1]; ++i)
            ASSERT_EQ(part[p.elem[i]], part[p.elem[p.block_start[b]]]) << "block " << b;
        // elem is a permutation; blocks are contiguous and within block_size.
        std::vector<int> seen(1500, 0);
        for (int e : p.elem)
          ++seen[e];
        for (int s : seen)
          ASSERT_EQ(s, 1);
        for (int b = 0; b < nb; ++b)
          ASSERT_LE(p.block_start[b + 1] - p.block_start[b], block);
        // Block colouring: blocks of one colour write disjoint points.
        std::set<std::pair<int, int>> written; // (colour, point)
        for (int b = 0; b < nb; ++b) {
          std::set<int> own;
          for (int i = p.block_start[b]; i < p.block_start[b + 1]; ++i)
            for (int s = 0; s < arity; ++s)
              own.insert(c1[std::size_t(p.elem[i]) * arity + s]);
          for (int pt : own)
            EXPECT_TRUE(written.insert({p.block_colour[b], pt}).second)
                << "blocks of colour " << p.block_colour[b] << " share point " << pt;
        }
        std::vector<int> order(p.block_order);
        std::sort(order.begin(), order.end());
        for (int b = 0; b < nb; ++b)
          ASSERT_EQ(order[b], b);
        for (int c = 0; c < p.num_block_colours(); ++c)
          for (int j = p.block_colour_offsets[c]; j < p.block_colour_offsets[c + 1]; ++j)
            EXPECT_EQ(p.block_colour[p.block_order[j]], c);
        // Thread colouring valid in every block; threads sorted by colour with
        // colour_start matching.
        for (int b = 0; b < nb; ++b) {
          const int c0 = p.thread_colour_offsets[b];
          const int ncol = p.thread_colour_offsets[b + 1] - c0 - 1;
          ASSERT_GE(ncol, 1);
          EXPECT_EQ(p.colour_start[c0], p.block_start[b]);
          EXPECT_EQ(p.colour_start[c0 + ncol], p.block_start[b + 1]);
          std::set<std::pair<int, int>> tw;
          for (int c = 0; c < ncol; ++c)
            for (int i = p.colour_start[c0 + c]; i < p.colour_start[c0 + c + 1]; ++i) {
              EXPECT_EQ(p.thread_colour[i], c);
              std::set<int> own;
              for (int s = 0; s < arity; ++s)
                own.insert(c1[std::size_t(p.elem[i]) * arity + s]);
              for (int pt : own)
                EXPECT_TRUE(tw.insert({c, pt}).second) << "block " << b << " colour " << c;
            }
          EXPECT_LE(ncol, p.max_thread_colours);
        }
        // Staged lists: distinct; the block's own points (in no other list
        // of the written map) first, then the shared ones, each ascending;
        // every access found at its local index, every staged point accessed.
        std::vector<int> lists_of(400, 0);
        for (int pt : p.staged[0].points)
          ++lists_of[pt];
        for (std::size_t m = 0; m < maps.size(); ++m) {
          const auto &st = p.staged[m];
          const auto &conn = m == 0 ? c1 : c2;
          const int ar = maps[m].conn.arity;
          ASSERT_EQ(int(st.owned.size()), nb);
          for (int b = 0; b < nb; ++b) {
            const int first = st.point_offsets[b], np = st.point_offsets[b + 1] - first;
            EXPECT_LE(np, st.max_points);
            std::vector<int> hits(np, 0);
            const int own = st.owned[b];
            ASSERT_GE(own, 0);
            ASSERT_LE(own, np);
            if (!maps[m].written) {
              EXPECT_EQ(own, np); // never written back
            }
            for (int j = 0; maps[m].written && j < np; ++j)
              EXPECT_EQ(lists_of[st.points[first + j]] == 1, j < own) << "block " << b;
            for (int j = 1; j < np; ++j) {
              if (j != own) {
                EXPECT_LT(st.points[first + j - 1], st.points[first + j]);
              }
            }
            for (int i = p.block_start[b]; i < p.block_start[b + 1]; ++i)
              for (int s = 0; s < ar; ++s) {
                const int l = st.local[std::size_t(i) * ar + s];
                ASSERT_GE(l, 0);
                ASSERT_LT(l, np);
                EXPECT_EQ(st.points[first + l], conn[std::size_t(p.elem[i]) * ar + s]);
                ++hits[l];
              }
            for (int h : hits)
              EXPECT_GT(h, 0);
          }
        }
        EXPECT_GE(p.reuse, 1.0);
      }
    }
}

// The plan is built in parallel over blocks (OpenMP where built): it must be
// the same plan on one thread as on several, field by field, for contiguous
// and parted blocks, two written maps to one set and a read-only map.
TEST(BlockPlan, SameOnOneThreadAsOnSeveral) {
#ifdef _OPENMP
  const int original = omp_get_max_threads(), threads = std::max(2, original);
#else
  GTEST_SKIP() << "built without OpenMP: plans are built by one thread";
#endif
  Set from("elems", 20000), to("pts", 3000), to2("cells", 2500);
  const auto c1 = make_random_connectivity(from, to, 4, 3);
  const auto c2 = make_random_connectivity(from, to, 2, 4);
  const auto c3 = make_random_connectivity(from, to2, 3, 5);
  const std::vector<BlockPlanMap> maps{{{c1.data(), 4, 0, 3000}, true},
                                       {{c2.data(), 2, 0, 3000}, true},
                                       {{c3.data(), 3, 1, 2500}, false}};
  std::vector<int> part(20000);
  std::mt19937 rng(6);
  for (int &p : part)
    p = int(rng() % 150);
  for (const auto &parts : {std::vector<int>{}, part})
    for (int block : {7, 128, 1000}) {
#ifdef _OPENMP
      omp_set_num_threads(1);
#endif
      const BlockPlan one = build_block_plan(20000, maps, block, parts);
#ifdef _OPENMP
      omp_set_num_threads(threads);
#endif
      const BlockPlan many = build_block_plan(20000, maps, block, parts);
      SCOPED_TRACE("block " + std::to_string(block) + (parts.empty() ? "" : ", parted"));
      EXPECT_EQ(one.elem, many.elem);
      EXPECT_EQ(one.block_start, many.block_start);
      EXPECT_EQ(one.thread_colour, many.thread_colour);
      EXPECT_EQ(one.thread_colour_offsets, many.thread_colour_offsets);
      EXPECT_EQ(one.colour_start, many.colour_start);
      EXPECT_EQ(one.block_colour, many.block_colour);
      EXPECT_EQ(one.block_order, many.block_order);
      EXPECT_EQ(one.block_colour_offsets, many.block_colour_offsets);
      ASSERT_EQ(one.staged.size(), 3u);
      ASSERT_EQ(many.staged.size(), 3u);
      for (std::size_t m = 0; m < 3; ++m) {
        EXPECT_EQ(one.staged[m].point_offsets, many.staged[m].point_offsets) << "map " << m;
        EXPECT_EQ(one.staged[m].points, many.staged[m].points) << "map " << m;
        EXPECT_EQ(one.staged[m].owned, many.staged[m].owned) << "map " << m;
        EXPECT_EQ(one.staged[m].local, many.staged[m].local) << "map " << m;
        EXPECT_EQ(one.staged[m].max_points, many.staged[m].max_points) << "map " << m;
      }
      EXPECT_EQ(one.max_thread_colours, many.max_thread_colours);
      EXPECT_EQ(one.mean_thread_colours, many.mean_thread_colours);
      EXPECT_EQ(one.reuse, many.reuse);
      EXPECT_EQ(one.mean_cache_lines, many.mean_cache_lines);
      EXPECT_GT(one.num_block_colours(), 1); // random maps: blocks do conflict
    }
#ifdef _OPENMP
  omp_set_num_threads(original);
#endif
}

} // namespace
