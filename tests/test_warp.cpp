// exec::WarpCombine: its links (chains per point in entry order, narrow and
// wide), results on local and shuffled numberings, tails, repeated slots,
// min/max, reductions, and its errors. test_executors checks it beside every
// other executor.
#include "test_main.hpp"

#include <umesh/detail/warp_links.hpp>
#include <umesh/detail/warp_maps.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace umesh;

// The links of one warp as (follower, next) per entry, read back.
std::vector<std::pair<bool, int>> decode(const detail::WarpLinks &t, int warp) {
  const int entries = 32 * t.group_size;
  std::vector<std::pair<bool, int>> out;
  for (int i = 0; i < entries; ++i) {
    const int b = t.bytes[std::size_t(warp) * entries + i];
    out.push_back({(b & 0x80) != 0, (b & 0x7F) == 0 ? -1 : b & 0x7F});
  }
  return out;
}

TEST(WarpLinks, ChainsJoinEveryReferenceOfAPointInEntryOrder) {
  // 40 elements of arity 2 on 5 points: warp 0 full, warp 1 eight lanes.
  std::vector<int> idx;
  for (int e = 0; e < 40; ++e)
    idx.insert(idx.end(), {e % 5, (e * 3 + 1) % 5});
  const HostConnectivity conn{idx.data(), 2, 0, 5};
  for (const std::vector<int> &slots :
       {std::vector<int>{0, 1}, std::vector<int>{1}, std::vector<int>{1, 0, 1}}) {
    const auto t = detail::build_warp_links(40, conn, slots);
    const int m = int(slots.size());
    EXPECT_EQ(t.bytes.size(), std::size_t(2 * 32 * m));
    EXPECT_EQ(t.references, 40 * m);
    std::int64_t leaders = 0;
    int longest = 0;
    for (int w = 0; w < 2; ++w) {
      const int lanes = w == 0 ? 32 : 8;
      const auto links = decode(t, w);
      std::map<int, std::vector<int>> by_point; // entries in order
      for (int j = 0; j < m; ++j)
        for (int l = 0; l < lanes; ++l)
          by_point[idx[2 * (32 * w + l) + slots[j]]].push_back(32 * j + l);
      for (const auto &[p, entries] : by_point) { // entries ascend
        ++leaders;
        longest = std::max(longest, int(entries.size()));
        for (std::size_t i = 0; i < entries.size(); ++i) {
          EXPECT_EQ(links[entries[i]].first, i > 0) << "point " << p;
          EXPECT_EQ(links[entries[i]].second, i + 1 < entries.size() ? entries[i + 1] : -1);
        }
      }
    }
    EXPECT_EQ(t.leaders, leaders);
    EXPECT_EQ(t.longest_chain, longest);
  }
  // Four references per element (128 entries) fit a byte; more are
  // combined in chunks, so a chunk of five is an error.
  EXPECT_EQ(detail::build_warp_links(40, conn, {0, 1, 0, 1}).bytes.size(), std::size_t(2 * 128));
  EXPECT_THROW(detail::build_warp_links(40, conn, {0, 1, 0, 1, 1}), Error);
  EXPECT_THROW(detail::build_warp_links(40, conn, {}), Error);
}

// Compact maps: every entry is its warp's base plus its offset; a tail
// warp; a warp spanning more than 16 bits fails the whole map, naming the
// first such warp.
TEST(WarpMaps, CompactFormsGiveBackEveryEntry) {
  std::vector<int> idx;
  for (int e = 0; e < 75; ++e) // warps 0-1 full, warp 2 of 11 lanes
    idx.insert(idx.end(), {1000 * (e / 32) + (e * 7) % 40, 65535 + e / 32, 3 * e});
  const auto c = detail::build_compact_map(75, 3, idx.data());
  ASSERT_EQ(c.wide_warp, -1);
  ASSERT_EQ(c.base.size(), std::size_t(3));
  ASSERT_EQ(c.offsets.size(), idx.size());
  for (int e = 0; e < 75; ++e)
    for (int s = 0; s < 3; ++s)
      EXPECT_EQ(c.base[e / 32] + c.offsets[3 * e + s], idx[3 * e + s]) << e << ' ' << s;
  EXPECT_EQ(c.base[1], 96); // the smallest point of warp 1: element 32's slot 2
  idx[3 * 70] = 70000;      // warp 2 now spans 70000 - 192
  idx[3 * 40] = 71000;      // warp 1: 71000 - 96, the first wide warp
  const auto wide = detail::build_compact_map(75, 3, idx.data());
  EXPECT_EQ(wide.wide_warp, 1);
  EXPECT_EQ(wide.wide_span, 71000 - 96);
  EXPECT_TRUE(wide.base.empty());
  EXPECT_TRUE(wide.offsets.empty());
}

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

template <class C> class Warp : public ::testing::Test {};
TYPED_TEST_SUITE(Warp, test::SpaceLayouts);

// res_calc's shape on a generated and a shuffled numbering, every block
// size, element counts with a partial last warp, against the serial
// executor.
TYPED_TEST(Warp, EdgeIncrementsMatchSerialForEveryBlockSizeAndNumbering) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  using L = typename TypeParam::layout;
  for (bool shuffle : {false, true}) {
    const QuadMesh m = make_quad_mesh(29, 19, {shuffle, 11}); // 1074 edges: 33.6 warps
    Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
    Dat<double, 4, L, Mem> q(m.cells, "q"), res(m.cells, "res"), ref(m.cells, "ref");
    Dat<double, 1, L, Mem> w(m.edges, "w");
    test::randomise(q, 1);
    test::randomise(w, 2);
    test::randomise(ref, 3);
    Dat<double, 4, L, Mem> start(m.cells, "start");
    copy_values(start, ref);
    auto serial = make_plan(Space(), exec::Serial{}, m.edges);
    par_loop(exec::Serial{}, serial, "edge", EdgeKernel{}, read(w), read(q, pecell, 0),
             read(q, pecell, 1), inc(ref, pecell, 0), inc(ref, pecell, 1));
    for (int block : {32, 96, 256, 1024}) {
      auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(block), m.edges, pecell);
      copy_values(res, start);
      par_loop(exec::WarpCombine{}, plan, "edge", EdgeKernel{}, read(w), read(q, pecell, 0),
               read(q, pecell, 1), inc(res, pecell, 0), inc(res, pecell, 1));
      EXPECT_LT(test::max_rel_err(res, ref), 1e-12)
          << (shuffle ? "shuffled" : "generated") << ", block " << block << ": " << plan.summary();
      const std::string s = plan.summary();
      EXPECT_NE(s.find("global combines per reference"), std::string::npos) << s;
      // Per warp: 64 references of 4 doubles and a next byte; host
      // backends run a team's warps in turn in one warp's scratch.
      constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
      EXPECT_EQ(plan.scratch_bytes("edge"), (host ? 1 : block / 32) * (64 * 4 * 8 + 64)) << s;
    }
  }
}

struct RepeatedSlotKernel {
  template <class W, class A>
  KOKKOS_INLINE_FUNCTION void operator()(W w, A a0, A a1, A a0again) const {
    for (int k = 0; k < 2; ++k) {
      a0(k) += w(k);
      a1(k) -= 2 * w(k);
      a0again(k) += 0.25;
    }
  }
};

// Fewer elements than a warp, a point reached by every reference of a warp
// (one chain of 64), and an argument named twice.
TYPED_TEST(Warp, ContentionTailsAndRepeatedSlotsMatchSerial) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  using L = typename TypeParam::layout;
  for (int n : {1, 31, 33, 200}) {
    const Set elems("elems", n), points("points", 7);
    std::vector<int> idx;
    for (int e = 0; e < n; ++e)
      idx.insert(idx.end(), {e < 64 ? 0 : e % 7, (e * 5) % 7});
    Map<Mem> map("map", elems, points, 2, idx);
    Dat<double, 2, L, Mem> w(elems, "w"), acc(points, "acc"), ref(points, "ref"), s(points, "s");
    test::randomise(w, 4);
    test::randomise(s, 5);
    const RepeatedSlotKernel body;
    copy_values(ref, s);
    auto serial = make_plan(Space(), exec::Serial{}, elems);
    par_loop(exec::Serial{}, serial, "c", body, read(w), inc(ref, map, 0), inc(ref, map, 1),
             inc(ref, map, 0));
    copy_values(acc, s);
    auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(64), elems, map);
    par_loop(exec::WarpCombine{}, plan, "c", body, read(w), inc(acc, map, 0), inc(acc, map, 1),
             inc(acc, map, 0));
    EXPECT_LT(test::max_rel_err(acc, ref), 1e-12) << n << " elements: " << plan.summary();
  }
}

// Six references per element to one dat: two chunks (four and two), each
// combined within the warp; tails and shuffled points as before.
struct SixReferencesKernel {
  template <class W, class A>
  KOKKOS_INLINE_FUNCTION void operator()(W w, A a0, A a1, A a2, A b0, A b1, A b2) const {
    a0(0) += w(0);
    a1(0) += 2 * w(0);
    a2(0) -= w(0);
    b0(0) += 0.5;
    b1(0).update(-0.25);
    b2(0) += w(0) * w(0);
  }
};

TYPED_TEST(Warp, MoreThanFourReferencesCombineInChunks) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  using L = typename TypeParam::layout;
  for (bool shuffle : {false, true}) {
    const TriMesh m =
        make_tri_mesh(13, 11, {shuffle, 5}); // 286 triangles: 9 warps, the last partial
    const Set tris = m.cells;
    Map<Mem> tn("tri_nodes", tris, m.nodes, 3, m.cell_nodes);
    Dat<double, 1, L, Mem> w(tris, "w"), acc(m.nodes, "acc"), ref(m.nodes, "ref");
    test::randomise(w, 6);
    test::randomise(ref, 7);
    copy_values(acc, ref);
    auto serial = make_plan(Space(), exec::Serial{}, tris);
    par_loop(exec::Serial{}, serial, "six", SixReferencesKernel{}, read(w), inc(ref, tn, 0),
             inc(ref, tn, 1), inc(ref, tn, 2), inc(ref, tn, 0), inc(ref, tn, 1), inc(ref, tn, 2));
    auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(96), tris, tn);
    par_loop(exec::WarpCombine{}, plan, "six", SixReferencesKernel{}, read(w), inc(acc, tn, 0),
             inc(acc, tn, 1), inc(acc, tn, 2), inc(acc, tn, 0), inc(acc, tn, 1), inc(acc, tn, 2));
    EXPECT_LT(test::max_rel_err(acc, ref), 1e-12) << plan.summary();
    const std::string s = plan.summary();
    EXPECT_NE(s.find("slots 0 1 2 0:"), std::string::npos) << s; // the first chunk
    EXPECT_NE(s.find("slots 1 2:"), std::string::npos) << s;     // the second
  }
}

struct MinMaxKernel {
  template <class U, class Lo, class Hi, class G>
  KOKKOS_INLINE_FUNCTION void operator()(U u0, U u1, Lo lo0, Lo lo1, Hi hi0, Hi hi1, G sum) const {
    for (int k = 0; k < 3; ++k) {
      const double a = u0(k) - u1(k);
      lo0(k).update(a);
      lo1(k).update(-a);
      hi0(k).update(a * u1(k));
      hi1(k).update(a * u0(k));
      sum(0) += a;
    }
  }
};

// min and max through a hex mesh's faces, exactly as serial; a global sum.
TYPED_TEST(Warp, MinMaxAndReductionsMatchSerial) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  using L = typename TypeParam::layout;
  const HexMesh m = make_hex_mesh(9, 7, 5, {true, 2});
  Map<Mem> fc("face_cells", m.faces, m.cells, 2, m.face_cells);
  Dat<double, 3, L, Mem> u(m.cells, "u"), lo(m.cells, "lo"), hi(m.cells, "hi"),
      lo_ref(m.cells, "lo_ref"), hi_ref(m.cells, "hi_ref");
  test::randomise(u, 7);
  test::randomise(lo_ref, 8, 0, 2);
  test::randomise(hi_ref, 9, -2, 0);
  copy_values(lo, lo_ref);
  copy_values(hi, hi_ref);
  Global<double> sum_ref("sum", 0.5), sum("sum", 0.5);
  auto serial = make_plan(Space(), exec::Serial{}, m.faces);
  par_loop(exec::Serial{}, serial, "mm", MinMaxKernel{}, read(u, fc, 0), read(u, fc, 1),
           min(lo_ref, fc, 0), min(lo_ref, fc, 1), max(hi_ref, fc, 0), max(hi_ref, fc, 1),
           reduce_sum(sum_ref));
  auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(96), m.faces, fc);
  par_loop(exec::WarpCombine{}, plan, "mm", MinMaxKernel{}, read(u, fc, 0), read(u, fc, 1),
           min(lo, fc, 0), min(lo, fc, 1), max(hi, fc, 0), max(hi, fc, 1), reduce_sum(sum));
  EXPECT_EQ(test::max_rel_err(lo, lo_ref), 0.0);
  EXPECT_EQ(test::max_rel_err(hi, hi_ref), 0.0);
  EXPECT_NEAR(sum.value(), sum_ref.value(), 1e-10 * (1 + std::fabs(sum_ref.value())));
  EXPECT_NE(sum.value(), 0.5);
}

// Register budgets are launch bounds (CUDA; host backends ignore them): the
// results are the serial executor's under each, at the block sizes each
// allows, and with the min/max and reduction arguments.
// Register budgets on a loop of 28 arguments (LULESH's hourglass shape),
// whose CUDA functor goes through constant memory to take its launch bound.
TYPED_TEST(Warp, RegisterBudgetsOnALoopOfManyArgumentsMatchSerial) {
  using Space = typename TypeParam::space;
  using L = typename TypeParam::layout;
  const HexMesh h = make_hex_mesh(9, 8, 7, {true, 6});
  for (int registers : {0, 64, 40}) {
    const auto options = exec::WarpCombine{}.with_block_size(128).with_max_registers(registers);
    test::expect_many_arguments_match_serial<Space, L>(
        h,
        [&](const auto &cn, const auto &...args) {
          auto plan = make_plan(Space(), options, h.cells, cn);
          par_loop(options, plan, "hourglass", test::ManyArgumentsKernel{}, args...);
        },
        "max_registers " + std::to_string(registers));
  }
}

TYPED_TEST(Warp, RegisterBudgetsMatchSerial) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  using L = typename TypeParam::layout;
  const QuadMesh m = make_quad_mesh(31, 17, {true, 5});
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  Dat<double, 4, L, Mem> q(m.cells, "q"), res(m.cells, "res"), ref(m.cells, "ref"),
      start(m.cells, "start");
  Dat<double, 1, L, Mem> w(m.edges, "w");
  test::randomise(q, 21);
  test::randomise(w, 22);
  test::randomise(start, 23);
  copy_values(ref, start);
  auto serial = make_plan(Space(), exec::Serial{}, m.edges);
  par_loop(exec::Serial{}, serial, "edge", EdgeKernel{}, read(w), read(q, pecell, 0),
           read(q, pecell, 1), inc(ref, pecell, 0), inc(ref, pecell, 1));
  for (int block : {64, 512, 1024})
    for (int registers : {0, 64, 40}) {
      if (registers == 40 && block > 512)
        continue; // an error (BadOptionsAndOversizedScratchAreErrors)
      auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(block), m.edges, pecell);
      copy_values(res, start);
      par_loop(exec::WarpCombine{}.with_max_registers(registers), plan, "edge", EdgeKernel{},
               read(w), read(q, pecell, 0), read(q, pecell, 1), inc(res, pecell, 0),
               inc(res, pecell, 1));
      EXPECT_LT(test::max_rel_err(res, ref), 1e-12)
          << "block " << block << ", max_registers " << registers;
    }

  const HexMesh h = make_hex_mesh(7, 6, 5, {true, 3});
  Map<Mem> fc("face_cells", h.faces, h.cells, 2, h.face_cells);
  Dat<double, 3, L, Mem> u(h.cells, "u"), lo(h.cells, "lo"), hi(h.cells, "hi"),
      lo_ref(h.cells, "lo_ref"), hi_ref(h.cells, "hi_ref"), lo0(h.cells, "lo0"),
      hi0(h.cells, "hi0");
  test::randomise(u, 24);
  test::randomise(lo0, 25, 0, 2);
  test::randomise(hi0, 26, -2, 0);
  copy_values(lo_ref, lo0);
  copy_values(hi_ref, hi0);
  Global<double> sum_ref("sum", 0.25);
  auto hserial = make_plan(Space(), exec::Serial{}, h.faces);
  par_loop(exec::Serial{}, hserial, "mm", MinMaxKernel{}, read(u, fc, 0), read(u, fc, 1),
           min(lo_ref, fc, 0), min(lo_ref, fc, 1), max(hi_ref, fc, 0), max(hi_ref, fc, 1),
           reduce_sum(sum_ref));
  auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(128), h.faces, fc);
  for (int registers : {64, 40}) {
    copy_values(lo, lo0);
    copy_values(hi, hi0);
    Global<double> sum("sum", 0.25);
    par_loop(exec::WarpCombine{}.with_max_registers(registers), plan, "mm", MinMaxKernel{},
             read(u, fc, 0), read(u, fc, 1), min(lo, fc, 0), min(lo, fc, 1), max(hi, fc, 0),
             max(hi, fc, 1), reduce_sum(sum));
    EXPECT_EQ(test::max_rel_err(lo, lo_ref), 0.0) << "max_registers " << registers;
    EXPECT_EQ(test::max_rel_err(hi, hi_ref), 0.0) << "max_registers " << registers;
    EXPECT_NEAR(sum.value(), sum_ref.value(), 1e-10 * (1 + std::fabs(sum_ref.value())))
        << "max_registers " << registers;
  }
}

struct CompactEdgeKernel {
  template <class X, class Q, class R, class Lo, class G>
  KOKKOS_INLINE_FUNCTION void operator()(X x0, X x1, Q q0, Q q1, R r0, R r1, Lo lo0, Lo lo1,
                                         G sum) const {
    const double dx = x0(0) - x1(0), dy = x0(1) - x1(1);
    for (int k = 0; k < 4; ++k) {
      const double f = dy * q0(k) - dx * q1(k);
      r0(k) += f;
      r1(k) -= 2 * f;
      sum(0) += f;
    }
    lo0(0).update(dx);
    lo1(0).update(dy);
  }
};

// Compact maps (16-bit offsets per warp) for every map the loop reads and
// combines through, a map read only and not in the plan among them: the
// serial executor's results on the generated and a shuffled numbering,
// several block sizes and register budgets, a second run from the kept
// forms, and then the same plan without them.
TYPED_TEST(Warp, CompactMapsMatchSerial) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  using L = typename TypeParam::layout;
  for (bool shuffle : {false, true}) {
    const QuadMesh m = make_quad_mesh(41, 23, {shuffle, 13}); // a partial last warp
    Map<Mem> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
    Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
    Dat<double, 2, L, Mem> x(m.nodes, "x");
    Dat<double, 4, L, Mem> q(m.cells, "q"), res(m.cells, "res"), ref(m.cells, "ref"),
        start(m.cells, "start");
    Dat<double, 1, L, Mem> lo(m.cells, "lo"), lo_ref(m.cells, "lo_ref"), lo0(m.cells, "lo0");
    test::randomise(x, 31);
    test::randomise(q, 32);
    test::randomise(start, 33);
    test::randomise(lo0, 34, 0, 1);
    copy_values(ref, start);
    copy_values(lo_ref, lo0);
    Global<double> sum_ref("sum", 0.5);
    auto serial = make_plan(Space(), exec::Serial{}, m.edges);
    par_loop(exec::Serial{}, serial, "edge", CompactEdgeKernel{}, read(x, pedge, 0),
             read(x, pedge, 1), read(q, pecell, 0), read(q, pecell, 1), inc(ref, pecell, 0),
             inc(ref, pecell, 1), min(lo_ref, pecell, 0), min(lo_ref, pecell, 1),
             reduce_sum(sum_ref));
    for (int block : {32, 256})
      for (int registers : {0, 40}) {
        const std::string what = std::string(shuffle ? "shuffled" : "generated") + ", block " +
                                 std::to_string(block) + ", max_registers " +
                                 std::to_string(registers);
        auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(block), m.edges, pecell);
        for (bool compact : {true, true, false}) {
          copy_values(res, start);
          copy_values(lo, lo0);
          Global<double> sum("sum", 0.5);
          par_loop(exec::WarpCombine{}.with_max_registers(registers).with_compact_maps(compact),
                   plan, "edge", CompactEdgeKernel{}, read(x, pedge, 0), read(x, pedge, 1),
                   read(q, pecell, 0), read(q, pecell, 1), inc(res, pecell, 0), inc(res, pecell, 1),
                   min(lo, pecell, 0), min(lo, pecell, 1), reduce_sum(sum));
          EXPECT_LT(test::max_rel_err(res, ref), 1e-12) << what << ": " << plan.summary();
          EXPECT_EQ(test::max_rel_err(lo, lo_ref), 0.0) << what;
          EXPECT_NEAR(sum.value(), sum_ref.value(), 1e-10 * (1 + std::fabs(sum_ref.value())))
              << what;
        }
        // Both maps compacted once: a base per warp, two offsets per edge.
        const int n = m.edges.size();
        const std::string s = plan.summary();
        const std::string sizes = ": " + std::to_string((n + 31) / 32 * 4 + n * 2 * 2) +
                                  " bytes against " + std::to_string(n * 2 * 4);
        EXPECT_NE(s.find("map 'pedge' compact" + sizes), std::string::npos) << s;
        EXPECT_NE(s.find("map 'pecell' compact" + sizes), std::string::npos) << s;
      }
  }
}

struct AddOne {
  template <class A> KOKKOS_INLINE_FUNCTION void operator()(A a) const { a(0) += 1; }
};

TEST(Warp, BadOptionsAndOversizedScratchAreErrors) {
  using Space = Kokkos::DefaultExecutionSpace;
  using Mem = Space::memory_space;
  const QuadMesh m = make_quad_mesh(8, 8);
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  for (int b : {0, 16, 100, 2048})
    EXPECT_NE(test::error_message([&] {
                make_plan(Space(), exec::WarpCombine{}.with_block_size(b), m.edges, pecell);
              }).find("block size " + std::to_string(b) + " is not a multiple of 32 in [32, 1024]"),
              std::string::npos);
  Map<Mem> other("other", m.edges, m.cells, 2, m.edge_cells);
  Dat<double, 1, AoS, Mem> d(m.cells, "d");
  auto plan = make_plan(Space(), exec::WarpCombine{}, m.edges, pecell);
  for (int r : {-1, 32, 48, 255})
    EXPECT_NE(test::error_message([&] {
                par_loop(exec::WarpCombine{}.with_max_registers(r), plan, "budget", AddOne{},
                         inc(d, pecell, 0));
              })
                  .find("max_registers " + std::to_string(r) +
                        " is not 0 (the compiler's choice), "
                        "40 or 64"),
              std::string::npos)
        << r;
  auto large = make_plan(Space(), exec::WarpCombine{}.with_block_size(544), m.edges, pecell);
  EXPECT_NE(test::error_message([&] {
              par_loop(exec::WarpCombine{}.with_max_registers(40), large, "budget", AddOne{},
                       inc(d, pecell, 0));
            }).find("max_registers 40 needs blocks of at most 512 threads (this plan's are 544)"),
            std::string::npos);
  EXPECT_NE(test::error_message([&] {
              par_loop(exec::WarpCombine{}, plan, "stray", AddOne{}, inc(d, other, 0));
            }).find("pass that map to make_plan"),
            std::string::npos);
  // A map given as read-only is not one to combine through.
  auto ro = make_plan(Space(), exec::WarpCombine{}, m.edges, read_only(pecell));
  EXPECT_NE(test::error_message([&] {
              par_loop(exec::WarpCombine{}, ro, "ro", AddOne{}, inc(d, pecell, 0));
            }).find("pass that map to make_plan"),
            std::string::npos);
  // Compact maps hold 16-bit offsets: a warp reaching points 70000 apart
  // is an error naming the loop, the map and the warp.
  const Set elems("elems", 100), far("far", 70001);
  std::vector<int> idx(200, 5);
  idx[2 * 37 + 1] = 70000; // warp 1
  Map<Mem> spread("spread", elems, far, 2, idx);
  Dat<double, 1, AoS, Mem> f(far, "f");
  auto sp = make_plan(Space(), exec::WarpCombine{}, elems, spread);
  const std::string spread_msg = test::error_message([&] {
    par_loop(exec::WarpCombine{}.with_compact_maps(), sp, "spread", AddOne{}, inc(f, spread, 0));
  });
  EXPECT_NE(spread_msg.find("loop 'spread' under the warp executor with compact maps: map 'spread' "
                            "reaches points 69995 apart in warp 1 (elements 32 to 63)"),
            std::string::npos)
      << spread_msg;
  // Without compact maps the same loop runs.
  EXPECT_EQ(test::error_message(
                [&] { par_loop(exec::WarpCombine{}, sp, "spread", AddOne{}, inc(f, spread, 0)); }),
            "no error");
  // 64 doubles per point at block 1024: 32 warps of 32 x (512 + 2) bytes on
  // GPUs, one warp's worth on host backends.
  Dat<double, 64, AoS, Mem> big(m.cells, "big");
  auto wide = make_plan(Space(), exec::WarpCombine{}.with_block_size(1024), m.edges, pecell);
  const int budget = Kokkos::TeamPolicy<Space>::scratch_size_max(0);
  const std::string msg = test::error_message(
      [&] { par_loop(exec::WarpCombine{}, wide, "wide", AddOne{}, inc(big, pecell, 0)); });
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  if ((host ? 1 : 32) * 32 * (512 + 2) > budget)
    EXPECT_NE(msg.find("bytes of team scratch per block"), std::string::npos) << msg;
  else
    EXPECT_EQ(msg, "no error");
}

} // namespace
