// exec::WarpCombine's loops against the serial reference: local and shuffled
// numberings, every block size, tails, repeated slots, more than four
// references, min/max, reductions, register budgets and compact maps.
// test_warp_plan checks its links, compact maps and errors; test_executors
// checks it beside every other executor.
#include "test_main.hpp"

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
    par_loop(serial, "edge", EdgeKernel{}, read(w), read(q, pecell, 0), read(q, pecell, 1),
             inc(ref, pecell, 0), inc(ref, pecell, 1));
    for (int block : {32, 96, 256, 1024}) {
      auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(block), m.edges, pecell);
      copy_values(res, start);
      par_loop(plan, "edge", EdgeKernel{}, read(w), read(q, pecell, 0), read(q, pecell, 1),
               inc(res, pecell, 0), inc(res, pecell, 1));
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
    par_loop(serial, "c", body, read(w), inc(ref, map, 0), inc(ref, map, 1), inc(ref, map, 0));
    copy_values(acc, s);
    auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(64), elems, map);
    par_loop(plan, "c", body, read(w), inc(acc, map, 0), inc(acc, map, 1), inc(acc, map, 0));
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
    par_loop(serial, "six", SixReferencesKernel{}, read(w), inc(ref, tn, 0), inc(ref, tn, 1),
             inc(ref, tn, 2), inc(ref, tn, 0), inc(ref, tn, 1), inc(ref, tn, 2));
    auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(96), tris, tn);
    par_loop(plan, "six", SixReferencesKernel{}, read(w), inc(acc, tn, 0), inc(acc, tn, 1),
             inc(acc, tn, 2), inc(acc, tn, 0), inc(acc, tn, 1), inc(acc, tn, 2));
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
  par_loop(serial, "mm", MinMaxKernel{}, read(u, fc, 0), read(u, fc, 1), min(lo_ref, fc, 0),
           min(lo_ref, fc, 1), max(hi_ref, fc, 0), max(hi_ref, fc, 1), reduce_sum(sum_ref));
  auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(96), m.faces, fc);
  par_loop(plan, "mm", MinMaxKernel{}, read(u, fc, 0), read(u, fc, 1), min(lo, fc, 0),
           min(lo, fc, 1), max(hi, fc, 0), max(hi, fc, 1), reduce_sum(sum));
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
    const auto loop = exec::WarpLoop{}.with_max_registers(registers);
    test::expect_many_arguments_match_serial<Space, L>(
        h,
        [&](const auto &cn, const auto &...args) {
          auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(128), h.cells, cn);
          par_loop(plan, loop, "hourglass", test::ManyArgumentsKernel{}, args...);
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
  par_loop(serial, "edge", EdgeKernel{}, read(w), read(q, pecell, 0), read(q, pecell, 1),
           inc(ref, pecell, 0), inc(ref, pecell, 1));
  for (int block : {64, 512, 1024})
    for (int registers : {0, 64, 40}) {
      if (registers == 40 && block > 512)
        continue; // an error (BadOptionsAndOversizedScratchAreErrors)
      auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(block), m.edges, pecell);
      copy_values(res, start);
      par_loop(plan, exec::WarpLoop{}.with_max_registers(registers), "edge", EdgeKernel{}, read(w),
               read(q, pecell, 0), read(q, pecell, 1), inc(res, pecell, 0), inc(res, pecell, 1));
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
  par_loop(hserial, "mm", MinMaxKernel{}, read(u, fc, 0), read(u, fc, 1), min(lo_ref, fc, 0),
           min(lo_ref, fc, 1), max(hi_ref, fc, 0), max(hi_ref, fc, 1), reduce_sum(sum_ref));
  auto plan = make_plan(Space(), exec::WarpCombine{}.with_block_size(128), h.faces, fc);
  for (int registers : {64, 40}) {
    copy_values(lo, lo0);
    copy_values(hi, hi0);
    Global<double> sum("sum", 0.25);
    par_loop(plan, exec::WarpLoop{}.with_max_registers(registers), "mm", MinMaxKernel{},
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
    par_loop(serial, "edge", CompactEdgeKernel{}, read(x, pedge, 0), read(x, pedge, 1),
             read(q, pecell, 0), read(q, pecell, 1), inc(ref, pecell, 0), inc(ref, pecell, 1),
             min(lo_ref, pecell, 0), min(lo_ref, pecell, 1), reduce_sum(sum_ref));
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
          par_loop(plan, exec::WarpLoop{}.with_max_registers(registers).with_compact_maps(compact),
                   "edge", CompactEdgeKernel{}, read(x, pedge, 0), read(x, pedge, 1),
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

} // namespace
