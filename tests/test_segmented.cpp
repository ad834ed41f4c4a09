// exec::Segmented: its segment tables (as its plan holds them), results with every reference
// staged, with none and with some (the global-atomic path), block sizes from 1 to 1024, and its
// errors. test_executors checks it beside every other executor.
#include "test_main.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace umesh;

struct EdgeKernel {
  template <class W, class Q, class R>
  KOKKOS_INLINE_FUNCTION void operator()(W w, Q q0, Q q1, R r0, R r1) const {
    for (int k = 0; k < 4; ++k) {
      const double f = w(0) * (q0(k) - 2 * q1(k));
      r0(k) += f;
      r1(k) -= 0.5 * f;
    }
  }
};
struct AddOne {
  template <class A> KOKKOS_INLINE_FUNCTION void operator()(A a) const { a(0) += 1; }
};

using DefaultMem = Kokkos::DefaultExecutionSpace::memory_space;

template <class V> std::vector<int> to_host(const V &v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<int>(h.data(), h.data() + h.size());
}

// The segment table of a segmented plan over `idx` (n elements, arity 2,
// onto `points` points): its sizes and metrics (plan.host_table) with its
// runs read back from the device (plan.table).
auto segment_table(int n, int points, const std::vector<int> &idx, int block, int segments) {
  const Set elems("elems", n), to("points", points);
  const Map<DefaultMem> map("map", elems, to, 2, idx);
  auto plan =
      make_plan(Kokkos::DefaultExecutionSpace(),
                exec::Segmented{}.with_block_size(block).with_max_segments(segments), elems, map);
  SegmentTable t = plan.host_table(0); // (umesh/segment_table.hpp)
  t.first = to_host(plan.table(0).first);
  t.offset = to_host(plan.table(0).offset);
  return t;
}

TEST(SegmentTable, RunsOfAGivenMapAreItsBlocksPoints) {
  // Block 0 reaches 10..12 and 20; block 1 reaches 5, 7, 8 and 9.
  const std::vector<int> idx{10, 11, 12, 20, 5, 7, 8, 9};
  const auto t = segment_table(4, 30, idx, 2, 4);
  ASSERT_EQ(t.num_blocks, 2);
  EXPECT_EQ(std::vector<int>(t.first.begin(), t.first.begin() + 2), (std::vector<int>{10, 20}));
  EXPECT_EQ(std::vector<int>(t.offset.begin(), t.offset.begin() + 5),
            (std::vector<int>{0, 3, 4, 4, 4}));
  EXPECT_EQ(std::vector<int>(t.first.begin() + 4, t.first.begin() + 6), (std::vector<int>{5, 7}));
  EXPECT_EQ(std::vector<int>(t.offset.begin() + 5, t.offset.end()),
            (std::vector<int>{0, 1, 4, 4, 4}));
  EXPECT_EQ(t.max_points, 4);
  EXPECT_EQ(t.staged_references, 8);
  EXPECT_EQ(t.max_runs, 2);
  EXPECT_EQ(t.max_refs, 1);
  // Point 3 reached twice through slot 0 and once through slot 1.
  const std::vector<int> rep{3, 4, 3, 3};
  const auto t2 = segment_table(2, 5, rep, 2, 4);
  EXPECT_EQ(t2.max_refs, 3);
  EXPECT_EQ(t2.max_refs_per_slot, (std::vector<int>{2, 1}));

  // One segment: each block keeps its longest run; the rest are not staged.
  const auto one = segment_table(4, 30, idx, 2, 1);
  EXPECT_EQ(one.first, (std::vector<int>{10, 7}));
  EXPECT_EQ(one.offset, (std::vector<int>{0, 3, 0, 3}));
  EXPECT_EQ(one.staged_references, 6);
}

TEST(SegmentTable, EveryReferenceInAKeptRunIsCountedOnce) {
  const QuadMesh m = make_quad_mesh(31, 17, {true, 3});
  for (int segments : {1, 3, 64})
    for (int block : {1, 7, 64}) {
      const auto t = segment_table(m.edges.size(), m.cells.size(), m.edge_cells, block, segments);
      std::int64_t staged = 0;
      for (int b = 0; b < t.num_blocks; ++b) {
        std::set<int> kept;
        for (int r = 0; r < segments; ++r) {
          const int n = t.offset[b * (segments + 1) + r + 1] - t.offset[b * (segments + 1) + r];
          for (int j = 0; j < n; ++j)
            EXPECT_TRUE(kept.insert(t.first[b * segments + r] + j).second);
        }
        for (int e = b * block; e < std::min(m.edges.size(), (b + 1) * block); ++e)
          for (int s = 0; s < 2; ++s)
            staged += kept.count(m.edge_cells[2 * e + s]);
      }
      EXPECT_EQ(t.staged_references, staged) << segments << " segments, block " << block;
      if (segments == 64 && block <= 7) {
        EXPECT_EQ(t.staged_references, t.references);
      }
    }
}

template <class C> class Segmented : public ::testing::Test {};
TYPED_TEST_SUITE(Segmented, test::SpaceLayouts);

// res_calc's shape on a generated (local) and a shuffled numbering; every
// block size, and few or many segments, against the serial executor.
TYPED_TEST(Segmented, EdgeIncrementsMatchSerialForEveryBlockSizeAndNumbering) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  using L = typename TypeParam::layout;
  for (bool shuffle : {false, true}) {
    const QuadMesh m = make_quad_mesh(29, 19, {shuffle, 11});
    Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
    Dat<double, 4, L, Mem> q(m.cells, "q"), res(m.cells, "res"), ref(m.cells, "ref");
    Dat<double, 1, L, Mem> w(m.edges, "w");
    test::randomise(q, 1);
    test::randomise(w, 2);
    test::randomise(ref, 3);
    const EdgeKernel kernel;
    auto serial = make_plan(Space(), exec::Serial{}, m.edges);
    Dat<double, 4, L, Mem> start(m.cells, "start");
    copy_values(start, ref);
    par_loop(serial, "edge", kernel, read(w), read(q, pecell, 0), read(q, pecell, 1),
             inc(ref, pecell, 0), inc(ref, pecell, 1));
    for (int block : {1, 32, 100, 256, 1024})
      for (int segments : {1, 4})
        for (bool sa : {false, true}) {
          auto plan = make_plan(
              Space(), exec::Segmented{}.with_block_size(block).with_max_segments(segments),
              m.edges, pecell);
          copy_values(res, start);
          try {
            par_loop(plan, exec::SegmentedLoop{}.with_scratch_atomics(sa), "edge", kernel, read(w),
                     read(q, pecell, 0), read(q, pecell, 1), inc(res, pecell, 0),
                     inc(res, pecell, 1));
          } catch (const Error &e) { // where a team is granted less than block 1024 needs
            EXPECT_EQ(block, 1024) << e.what();
            EXPECT_NE(std::string(e.what()).find("bytes of team scratch per block"),
                      std::string::npos);
            continue;
          }
          EXPECT_LT(test::max_rel_err(res, ref), 1e-12)
              << (shuffle ? "shuffled" : "generated") << " numbering, block " << block << ", "
              << segments << " segments, scratch atomics " << sa << ": " << plan.summary();
          EXPECT_GT(plan.scratch_bytes("edge"), 0);
          const std::string s = plan.summary();
          EXPECT_NE(s.find("% of references staged"), std::string::npos) << s;
          if (!shuffle && segments == 4) { // a generated grid: two runs per block at most
            EXPECT_NE(s.find(" 100% of references staged"), std::string::npos) << s;
          }
        }
  }
}

struct MinMaxKernel {
  template <class U, class Lo, class Hi>
  KOKKOS_INLINE_FUNCTION void operator()(U u0, U u1, Lo lo0, Lo lo1, Hi hi0, Hi hi1) const {
    for (int k = 0; k < 3; ++k) {
      const double a = u0(k) - u1(k);
      lo0(k).update(a);
      lo1(k).update(-a);
      hi0(k).update(a * u1(k));
      hi1(k).update(a * u0(k));
    }
  }
};

// min and max through a hex mesh's faces, both forms, exactly as serial.
TYPED_TEST(Segmented, MinMaxMatchSerialExactly) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  using L = typename TypeParam::layout;
  const HexMesh m = make_hex_mesh(9, 7, 5);
  Map<Mem> fc("face_cells", m.faces, m.cells, 2, m.face_cells);
  Dat<double, 3, L, Mem> u(m.cells, "u"), lo(m.cells, "lo"), hi(m.cells, "hi"),
      lo_ref(m.cells, "lo_ref"), hi_ref(m.cells, "hi_ref");
  test::randomise(u, 7);
  test::randomise(lo_ref, 8, 0, 2);
  test::randomise(hi_ref, 9, -2, 0);
  Dat<double, 3, L, Mem> lo0(m.cells, "lo0"), hi0(m.cells, "hi0");
  copy_values(lo0, lo_ref);
  copy_values(hi0, hi_ref);
  auto serial = make_plan(Space(), exec::Serial{}, m.faces);
  par_loop(serial, "mm", MinMaxKernel{}, read(u, fc, 0), read(u, fc, 1), min(lo_ref, fc, 0),
           min(lo_ref, fc, 1), max(hi_ref, fc, 0), max(hi_ref, fc, 1));
  auto plan = make_plan(Space(), exec::Segmented{}.with_block_size(96), m.faces, fc);
  for (bool sa : {false, true}) {
    copy_values(lo, lo0);
    copy_values(hi, hi0);
    par_loop(plan, exec::SegmentedLoop{}.with_scratch_atomics(sa), "mm", MinMaxKernel{},
             read(u, fc, 0), read(u, fc, 1), min(lo, fc, 0), min(lo, fc, 1), max(hi, fc, 0),
             max(hi, fc, 1));
    EXPECT_EQ(test::max_rel_err(lo, lo_ref), 0.0) << sa;
    EXPECT_EQ(test::max_rel_err(hi, hi_ref), 0.0) << sa;
  }
}

TEST(Segmented, BadOptionsAndOversizedScratchAreErrors) {
  using Space = Kokkos::DefaultExecutionSpace;
  using Mem = Space::memory_space;
  const QuadMesh m = make_quad_mesh(8, 8);
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  EXPECT_NE(test::error_message([&] {
              make_plan(Space(), exec::Segmented{}.with_block_size(0), m.edges, pecell);
            }).find("block size 0 is not in [1, 1024]"),
            std::string::npos);
  EXPECT_NE(test::error_message([&] {
              make_plan(Space(), exec::Segmented{}.with_block_size(1025), m.edges, pecell);
            }).find("block size 1025"),
            std::string::npos);
  EXPECT_NE(test::error_message([&] {
              make_plan(Space(), exec::Segmented{}.with_max_segments(0), m.edges, pecell);
            }).find("max_segments 0 is not in [1, 64]"),
            std::string::npos);
  // A loop through a map the plan was not built over.
  Map<Mem> other("other", m.edges, m.cells, 2, m.edge_cells);
  Dat<double, 1, AoS, Mem> d(m.cells, "d");
  auto plan = make_plan(Space(), exec::Segmented{}, m.edges, pecell);
  EXPECT_NE(test::error_message([&] {
              par_loop(plan, "stray", AddOne{}, inc(d, other, 0));
            }).find("pass that map to make_plan"),
            std::string::npos);
  // More scratch than a team may have: 1024 elements of a 1D chain reach
  // 1025 points of 64 doubles (525 KB).
  const Set chain_edges("chain_edges", 4096), chain_points("chain_points", 4097);
  std::vector<int> idx;
  for (int e = 0; e < 4096; ++e)
    idx.insert(idx.end(), {e, e + 1});
  Map<Mem> chain("chain", chain_edges, chain_points, 2, idx);
  Dat<double, 64, AoS, Mem> big(chain_points, "big");
  auto wide = make_plan(Space(), exec::Segmented{}.with_block_size(1024), chain_edges, chain);
  const int budget = detail::team_scratch_budget<Space>();
  const std::string msg =
      test::error_message([&] { par_loop(wide, "wide", AddOne{}, inc(big, chain, 0)); });
  if (1025 * 64 * 8 > budget)
    EXPECT_NE(msg.find("bytes of team scratch per block"), std::string::npos) << msg;
  else
    EXPECT_EQ(msg, "no error");
}

} // namespace
