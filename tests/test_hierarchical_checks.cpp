// Hierarchical executor, the checks beside test_hierarchical.cpp (one
// program, compiled in parallel): min and max through staged maps; the
// scratch budget's error and fallback; team scratch past 48 KB; METIS
// blocks. The block plan's own checks: test_hierarchical_plan.cpp.
#include "test_support.hpp"

#include <string>
#include <type_traits>

namespace {
using namespace umesh;

template <class C> class HierarchicalChecks : public ::testing::Test {};
TYPED_TEST_SUITE(HierarchicalChecks, test::SpaceLayouts);

// min and max through staged maps: read two points' values, fold their
// min into both, their max into one point of the second map, and add a
// count alongside.
struct MinMaxKernel {
  template <class A, class Lo, class Hi, class C>
  KOKKOS_INLINE_FUNCTION void operator()(A a0, A a1, Lo lo0, Lo lo1, Hi hi, C count) const {
    for (int k = 0; k < 3; ++k) {
      const double x = a0(k), y = a1(k);
      const double lo = x < y ? x : y;
      lo0(k).update(lo);
      lo1(k).update(lo);
      hi(k).update(x + y);
    }
    count(0) += 1;
  }
};

template <class Space, class L>
void check_min_max_against_serial(exec::HierarchicalAll options, exec::HierarchicalAll::Loop loop,
                                  unsigned seed) {
  using Mem = typename Space::memory_space;
  Set elems("elems", 1500), pts("pts", 431), cells("cells", 211);
  Map<Mem> m1("m1", elems, pts, 3, make_random_connectivity(elems, pts, 3, seed));
  Map<Mem> m2("m2", elems, cells, 2, make_random_connectivity(elems, cells, 2, seed + 1));
  Dat<double, 3, L, Mem> a(pts, "a"), lo(pts, "lo"), lo_ref(pts, "lo_ref"), hi(cells, "hi"),
      hi_ref(cells, "hi_ref");
  Dat<double, 1, L, Mem> count(cells, "count"), count_ref(cells, "count_ref");
  test::randomise(a, seed + 2);
  test::randomise(lo, seed + 3, 0.0, 2.0);
  test::randomise(hi, seed + 4, -2.0, 0.0);
  test::randomise(count, seed + 5);
  copy_values(lo_ref, lo);
  copy_values(hi_ref, hi);
  copy_values(count_ref, count);
  using H = Kokkos::HostSpace;
  auto ha = clone_to<H>(a), hlo = clone_to<H>(lo_ref), hhi = clone_to<H>(hi_ref);
  auto hcount = clone_to<H>(count_ref);
  auto hm1 = clone_to<H>(m1), hm2 = clone_to<H>(m2);
  par_loop(Kokkos::DefaultHostExecutionSpace(), exec::Serial{}, elems, "minmax", MinMaxKernel{},
           read(ha, hm1, 0), read(ha, hm1, 2), min(hlo, hm1, 0), min(hlo, hm1, 2), max(hhi, hm2, 1),
           inc(hcount, hm2, 1));
  copy_values(lo_ref, hlo);
  copy_values(hi_ref, hhi);
  copy_values(count_ref, hcount);
  auto plan = make_plan(Space(), options, elems, m1, m2);
  par_loop(plan, loop, "minmax", MinMaxKernel{}, read(a, m1, 0), read(a, m1, 2), min(lo, m1, 0),
           min(lo, m1, 2), max(hi, m2, 1), inc(count, m2, 1));
  const std::string where = "block " + std::to_string(options.block_size) + ", staging " +
                            exec::staging_name(loop.staging) + ", combine " +
                            exec::combine_name(loop.combine) + ", writeback " +
                            exec::writeback_name(loop.writeback) + "; " + plan.summary();
  EXPECT_EQ(test::max_rel_err(lo, lo_ref), 0.0) << where;
  EXPECT_EQ(test::max_rel_err(hi, hi_ref), 0.0) << where;
  EXPECT_LT(test::max_rel_err(count, count_ref), 1e-14) << where;
}

TYPED_TEST(HierarchicalChecks, MinMaxMatchSerialForEveryStagingAndBlockSize) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  unsigned seed = 900;
  for (auto staging :
       {exec::Staging::all, exec::Staging::increments, exec::Staging::none, exec::Staging::reads})
    for (int block : {1, 7, 32, 96, 256})
      check_min_max_against_serial<S, L>(
          exec::HierarchicalAll{}.with_block_size(block),
          exec::HierarchicalAll::Loop{}.with_staging(staging).with_fallback(block > 96),
          seed += 10);
  // Scratch atomics, gather and global atomic writeback fold min and max too
  // (gather: slot 1 of m1 is never written, its entries stay the identity).
  for (auto staging : {exec::Staging::all, exec::Staging::increments})
    for (auto combine : {exec::Combine::atomics, exec::Combine::gather})
      for (auto writeback : {exec::Writeback::coloured, exec::Writeback::atomic})
        for (int block : {7, 96})
          for (int per_team : {1, 3})
            // Teams of 32 at block 96: several elements per thread.
            for (int team : block > 32 ? std::vector<int>{0, 32} : std::vector<int>{0})
              check_min_max_against_serial<S, L>(exec::HierarchicalAll{}.with_block_size(block),
                                                 exec::HierarchicalAll::Loop{}
                                                     .with_staging(staging)
                                                     .with_combine(combine)
                                                     .with_writeback(writeback)
                                                     .with_blocks_per_team(per_team)
                                                     .with_team_size(team),
                                                 seed += 10);
}

struct EdgeKernel {
  template <class X, class F> KOKKOS_INLINE_FUNCTION void operator()(X x1, X x2, F f1, F f2) const {
    for (int k = 0; k < 4; ++k) {
      const double v = x1(k % 2) * (k + 1) - x2((k + 1) % 2);
      f1(k) += v;
      f2(k) -= 0.5 * v;
    }
  }
};

struct Inc5 {
  template <class A, class B, class U>
  KOKKOS_INLINE_FUNCTION void operator()(A a0, B a1, U u0, U u1) const {
    for (int k = 0; k < 5; ++k) {
      u0(k) += a0(k) * a1(4 - k);
      u1(k) -= a1(k);
    }
  }
};

TYPED_TEST(HierarchicalChecks, ScratchOverflowIsAClearErrorOrAReportedFallback) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using Mem = typename S::memory_space;
  // Blocks of a random arity-4 map over many points touch almost 4 distinct
  // points per element; three staged (dat, map) groups of 5 doubles per point
  // need 480 B per element: 240 KB at 512 elements, over every GPU's team
  // budget. Host backends stage in plain memory (detail::team_scratch_level)
  // and grant 20 MB, more than a block can need while its points fit the
  // 16-bit local indices: there the largest such block runs staged.
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  const int block = host ? 12000 : 512; // 512 stays within a GPU team's threads
  Set elems("elems", 4 * block), pts("pts", host ? 1000000 : 400000);
  Map<Mem> m("m", elems, pts, 4, make_random_connectivity(elems, pts, 4, 5));
  Dat<double, 5, L, Mem> a(pts, "a"), b(pts, "b"), u(pts, "u"), u_ref(pts, "u_ref");
  test::randomise(a, 6);
  test::randomise(b, 8);
  test::randomise(u, 7);
  copy_values(u_ref, u);
  auto options = exec::HierarchicalAll{}.with_block_size(block);
  auto plan = make_plan(S(), options, elems, m);
  if (480 * block < detail::team_scratch_budget<S>()) {
    ASSERT_TRUE(host) << "a GPU grants " << detail::team_scratch_budget<S>() << " bytes";
    par_loop(plan, exec::HierarchicalAll::Loop{}, "big", Inc5{}, read(a, m, 0), read(b, m, 1),
             inc(u, m, 2), inc(u, m, 3));
    par_loop(S(), exec::Serial{}, elems, "big", Inc5{}, read(a, m, 0), read(b, m, 1),
             inc(u_ref, m, 2), inc(u_ref, m, 3));
    EXPECT_LT(test::max_rel_err(u, u_ref), 1e-11);
    EXPECT_EQ(plan.staging_used("big"), exec::Staging::all) << plan.summary();
    return;
  }
  try {
    par_loop(plan, exec::HierarchicalAll::Loop{}, "big", Inc5{}, read(a, m, 0), read(b, m, 1),
             inc(u, m, 2), inc(u, m, 3));
    ADD_FAILURE() << "no scratch error; " << plan.summary();
  } catch (const Error &e) {
    const std::string msg = e.what();
    for (const char *f :
         {"loop 'big'", "bytes of team scratch", "grants", "block size of about", "with_fallback"})
      EXPECT_NE(msg.find(f), std::string::npos) << msg << "\nmissing: " << f;
  }
  par_loop(S(), exec::Serial{}, elems, "big", Inc5{}, read(a, m, 0), read(b, m, 1),
           inc(u_ref, m, 2), inc(u_ref, m, 3));
  auto fallback = exec::HierarchicalAll::Loop{}.with_fallback();
  auto plan2 = make_plan(S(), options, elems, m);
  par_loop(plan2, fallback, "big", Inc5{}, read(a, m, 0), read(b, m, 1), inc(u, m, 2),
           inc(u, m, 3));
  EXPECT_LT(test::max_rel_err(u, u_ref), 1e-11);
  EXPECT_NE(plan2.staging_used("big"), exec::Staging::all);
  EXPECT_NE(plan2.summary().find("fallback"), std::string::npos) << plan2.summary();
  // 'reads' runs staged where its reads fit, else falls back to no staging,
  // never to staged increments.
  auto reads = exec::HierarchicalAll::Loop{}.with_staging(exec::Staging::reads).with_fallback();
  auto plan3 = make_plan(S(), options, elems, m);
  par_loop(plan3, reads, "big", Inc5{}, read(a, m, 0), read(b, m, 1), inc(u, m, 2), inc(u, m, 3));
  par_loop(S(), exec::Serial{}, elems, "big", Inc5{}, read(a, m, 0), read(b, m, 1),
           inc(u_ref, m, 2), inc(u_ref, m, 3));
  EXPECT_LT(test::max_rel_err(u, u_ref), 1e-11);
  const auto used = plan3.staging_used("big");
  EXPECT_TRUE(used == exec::Staging::reads || used == exec::Staging::none) << plan3.summary();
}

// Team scratch past the 48 KB that CUDA grants by default: the bootstrap's
// Kokkos patch reports the device's opt-in limit (227 KB per block on
// Hopper) and raises the kernel's limit when a launch asks for more. A loop
// that needs about 80 KB per block must run staged and match the reference.
TYPED_TEST(HierarchicalChecks, TeamScratchPast48KBWhereTheDeviceGrantsIt) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using Mem = typename S::memory_space;
  const int budget = detail::team_scratch_budget<S>();
#if defined(KOKKOS_ENABLE_CUDA) && KOKKOS_VERSION < 40000
  // The Kokkos that umesh bootstraps (3.4.01 and its patch); Kokkos 4.x
  // grants its own 40 KB (README, Kokkos versions).
  if constexpr (std::is_same_v<S, Kokkos::Cuda>) {
    cudaDeviceProp prop;
    ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    if (prop.sharedMemPerBlockOptin > prop.sharedMemPerBlock) {
      EXPECT_GE(budget, int(prop.sharedMemPerBlockOptin) - 9 * 1024)
          << "opt-in " << prop.sharedMemPerBlockOptin;
    }
  }
#endif
  if (budget < 96 * 1024)
    GTEST_SKIP() << "this backend grants " << budget << " bytes of team scratch";
  // 512 elements of a random arity-4 map over many points: ~2040 points of
  // 5 doubles, read and incremented: ~82 KB per group, two groups.
  Set elems("elems", 4096), pts("pts", 400000);
  Map<Mem> m("m", elems, pts, 4, make_random_connectivity(elems, pts, 4, 11));
  Dat<double, 5, L, Mem> a(pts, "a"), u(pts, "u"), u_ref(pts, "u_ref");
  test::randomise(a, 12);
  test::randomise(u, 13);
  copy_values(u_ref, u);
  par_loop(S(), exec::Serial{}, elems, "big", Inc5{}, read(a, m, 0), read(a, m, 1),
           inc(u_ref, m, 2), inc(u_ref, m, 3));
  for (auto combine : {exec::Combine::colours, exec::Combine::atomics}) {
    auto plan = make_plan(S(), exec::HierarchicalAll{}.with_block_size(512), elems, m);
    test::randomise(u, 13); // the start u_ref had
    par_loop(plan, exec::HierarchicalAll::Loop{}.with_combine(combine), "big", Inc5{},
             read(a, m, 0), read(a, m, 1), inc(u, m, 2), inc(u, m, 3));
    EXPECT_GT(plan.scratch_bytes("big"), 48 * 1024) << plan.summary();
    EXPECT_EQ(plan.staging_used("big"), exec::Staging::all);
    EXPECT_LT(test::max_rel_err(u, u_ref), 1e-11) << plan.summary();
  }
}

// METIS blocks: correct answers, blocks within block_size, and more reuse
// than contiguous blocks of a shuffled mesh.
TYPED_TEST(HierarchicalChecks, MetisBlocksMatchSerialAndRaiseReuse) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using Mem = typename S::memory_space;
  const QuadMesh m = make_quad_mesh(60, 40, {true, 77});
  Map<Mem> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  const auto options =
      exec::HierarchicalAll{}.with_block_size(64).with_partition(exec::Partition::metis);
  if (!has_metis()) {
    EXPECT_THROW(make_plan(S(), options, m.edges, pecell, read_only(pedge)), Error);
    GTEST_SKIP() << "built without METIS";
  }
  auto plan = make_plan(S(), options, m.edges, pecell, read_only(pedge));
  auto contiguous = make_plan(S(), exec::HierarchicalAll{}.with_block_size(64), m.edges, pecell,
                              read_only(pedge));
  EXPECT_EQ(plan.blocks().blocks_from, "metis");
  EXPECT_GT(plan.blocks().reuse, 1.5 * contiguous.blocks().reuse) << plan.summary();
  for (int b = 0; b < plan.blocks().num_blocks(); ++b)
    EXPECT_LE(plan.blocks().block_start[b + 1] - plan.blocks().block_start[b], 64);
  Dat<double, 2, L, Mem> x(m.nodes, "x");
  Dat<double, 4, L, Mem> f(m.cells, "f"), f_ref(m.cells, "f_ref");
  test::randomise(x, 1);
  test::randomise(f, 2);
  copy_values(f_ref, f);
  par_loop(S(), exec::Serial{}, m.edges, "edge", EdgeKernel{}, read(x, pedge, 0), read(x, pedge, 1),
           inc(f_ref, pecell, 0), inc(f_ref, pecell, 1));
  for (auto staging :
       {exec::Staging::all, exec::Staging::increments, exec::Staging::none, exec::Staging::reads}) {
    par_loop(plan, exec::HierarchicalAll::Loop{}.with_staging(staging), "edge", EdgeKernel{},
             read(x, pedge, 0), read(x, pedge, 1), inc(f, pecell, 0), inc(f, pecell, 1));
    par_loop(S(), exec::Serial{}, m.edges, "edge", EdgeKernel{}, read(x, pedge, 0),
             read(x, pedge, 1), inc(f_ref, pecell, 0), inc(f_ref, pecell, 1));
  }
  // f_ref was incremented once more than f; undo with one more run of f.
  par_loop(plan, exec::HierarchicalAll::Loop{}, "edge", EdgeKernel{}, read(x, pedge, 0),
           read(x, pedge, 1), inc(f, pecell, 0), inc(f, pecell, 1));
  EXPECT_LT(test::max_rel_err(f, f_ref), 1e-11) << plan.summary();
}

// An ordinary edge loop (res_calc's shape: coordinates, a 4-variable state
// and a time step read through two maps, the residual incremented) under
// exec::Hierarchical{}'s defaults runs on every backend: on host backends it
// once asked for 40 KB of level-0 scratch where 32 KB are granted.
struct ResCalcShape {
  template <class X, class Q, class A, class R>
  KOKKOS_INLINE_FUNCTION void operator()(X x1, X x2, Q q1, Q q2, A a1, A a2, R r1, R r2) const {
    const double dx = x1(0) - x2(0), dy = x1(1) - x2(1), mu = 0.5 * (a1(0) + a2(0));
    for (int k = 0; k < 4; ++k) {
      const double f = 0.5 * (q1(k) * dy - q2(k) * dx) + mu * (q1(k) - q2(k));
      r1(k) += f;
      r2(k) -= f;
    }
  }
};

TYPED_TEST(HierarchicalChecks, DefaultsRunAnOrdinaryEdgeLoop) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using Mem = typename S::memory_space;
  const QuadMesh m = make_quad_mesh(90, 70, {true, 41});
  Map<Mem> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  Dat<double, 2, L, Mem> x(m.nodes, "x");
  Dat<double, 4, L, Mem> q(m.cells, "q"), res(m.cells, "res"), ref(m.cells, "ref");
  Dat<double, 1, L, Mem> adt(m.cells, "adt");
  test::randomise(x, 1);
  test::randomise(q, 2);
  test::randomise(adt, 3);
  test::randomise(res, 4);
  copy_values(ref, res);
  auto args = [&](auto &out) {
    return std::make_tuple(read(x, pedge, 0), read(x, pedge, 1), read(q, pecell, 0),
                           read(q, pecell, 1), read(adt, pecell, 0), read(adt, pecell, 1),
                           inc(out, pecell, 0), inc(out, pecell, 1));
  };
  auto serial = make_plan(S(), exec::Serial{}, m.edges);
  std::apply([&](const auto &...a) { par_loop(serial, "res_calc", ResCalcShape{}, a...); },
             args(ref));
  auto plan = make_plan(S(), exec::Hierarchical{}, m.edges, pecell, read_only(pedge));
  std::apply([&](const auto &...a) { par_loop(plan, "res_calc", ResCalcShape{}, a...); },
             args(res));
  EXPECT_EQ(plan.staging_used("res_calc"), exec::Staging::all) << plan.summary();
  EXPECT_LT(test::max_rel_err(res, ref), 1e-12) << plan.summary();
}

} // namespace
