// Hierarchical executor: every staging mode, block sizes from tiny to large,
// maps of arity 2, 4 and 8, several dats of 1-5 components staged at once;
// combining, write-back and register budgets; a block too large for a team.
// test_hierarchical_checks.cpp (same program) has the rest; the main check,
// check_against_serial, compiles once per arity (hierarchical_check.hpp).
#include "hierarchical_check.hpp"
#include "test_main.hpp"

#include <random>
#include <string>

namespace {
using namespace umesh;
using test::check_against_serial;

using Configs = test::SpaceLayouts;

template <class C> class Hierarchical : public ::testing::Test {};
TYPED_TEST_SUITE(Hierarchical, Configs);

TYPED_TEST(Hierarchical, MatchesSerialForEveryStagingBlockSizeAndArity) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  unsigned seed = 100;
  for (auto staging :
       {exec::Staging::all, exec::Staging::increments, exec::Staging::none, exec::Staging::reads})
    for (int block : {1, 7, 32, 96, 256}) {
      // Random maps give 256-element blocks more points than a host team's
      // 32 KB: there the fallback is allowed (and must stay correct).
      const auto options = exec::HierarchicalAll::Variant{}
                               .with_block_size(block)
                               .with_staging(staging)
                               .with_fallback(block > 96);
      check_against_serial<S, L, 2>(options, seed += 10);
      check_against_serial<S, L, 4>(options, seed += 10);
      check_against_serial<S, L, 8>(options, seed += 10, 900);
    }
}

// Gather keeps arity x block entries per incremented dat: the tests' arity-8
// maps need more scratch than a host team is granted at larger blocks.
bool gathers(const exec::HierarchicalLoopOptions &h) {
  return h.combine == exec::Combine::gather;
}

// Several blocks per team: on GPUs a pipeline over a ring of scratch slots,
// for staging 'reads' and for staged increments with scratch atomics or
// gather and atomic write-back (each block goes back from its slot after
// its compute).
TYPED_TEST(Hierarchical, SeveralBlocksPerTeamMatchSerial) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  constexpr bool gpu =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename S::memory_space>::accessible;
  unsigned seed = 7000;
  const auto ga = [](exec::Staging st, exec::Combine c) {
    return exec::HierarchicalAll::Variant{}.with_staging(st).with_combine(c).with_writeback(
        exec::Writeback::atomic);
  };
  for (const auto &variant : {exec::HierarchicalAll::Variant{}.with_staging(exec::Staging::reads),
                              ga(exec::Staging::all, exec::Combine::atomics),
                              ga(exec::Staging::increments, exec::Combine::atomics),
                              ga(exec::Staging::all, exec::Combine::gather),
                              ga(exec::Staging::increments, exec::Combine::gather)})
    for (int per_team : {2, 3, 8})
      for (int block : {7, 32, 96, 256}) {
        const auto options = exec::HierarchicalAll::Variant(variant)
                                 .with_block_size(block)
                                 .with_blocks_per_team(per_team)
                                 .with_fallback(block > 96 || gathers(variant));
        const std::string summary = check_against_serial<S, L, 2>(options, seed += 10);
        check_against_serial<S, L, 8>(options, seed += 10, 900);
        // Where the slots fit (a Kokkos that grants Hopper's opt-in scratch),
        // the pipelined kernel ran.
        if (gpu && block <= 96 && Kokkos::TeamPolicy<S>::scratch_size_max(0) >= 96 * 1024) {
          EXPECT_NE(summary.find(std::to_string(per_team) + " blocks per team"), std::string::npos)
              << exec::variant_name(options) << ": " << summary;
        }
      }
  auto bad =
      exec::HierarchicalAll::Variant{}.with_staging(exec::Staging::reads).with_blocks_per_team(0);
  const auto run_bad = [&] { check_against_serial<S, L, 2>(bad, 1); };
  EXPECT_THROW(run_bad(), Error);
}

// Teams smaller than blocks (GPUs): each thread runs several of a block's
// elements, under every combine, write-back and staging, pipelined or not.
// Host backends run one thread per team whatever the option says.
TYPED_TEST(Hierarchical, TeamsSmallerThanBlocksMatchSerial) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  constexpr bool gpu =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename S::memory_space>::accessible;
  unsigned seed = 8000;
  std::vector<exec::HierarchicalAll::Variant> variants{
      exec::HierarchicalAll::Variant{}.with_staging(exec::Staging::reads),
      exec::HierarchicalAll::Variant{}.with_staging(exec::Staging::none)};
  for (auto staging : {exec::Staging::all, exec::Staging::increments})
    for (auto combine : exec::all_combines)
      for (auto writeback : {exec::Writeback::coloured, exec::Writeback::atomic})
        variants.push_back(exec::HierarchicalAll::Variant{}
                               .with_staging(staging)
                               .with_combine(combine)
                               .with_writeback(writeback));
  for (const auto &variant : variants)
    for (int per_team : {1, 3})
      for (int team : {32, 64}) {
        const auto options = exec::HierarchicalAll::Variant(variant)
                                 .with_block_size(96)
                                 .with_blocks_per_team(per_team)
                                 .with_team_size(team)
                                 .with_fallback(gathers(variant));
        const std::string summary = check_against_serial<S, L, 2>(options, seed += 10);
        check_against_serial<S, L, 8>(options, seed += 10, 900);
        if (gpu) {
          EXPECT_NE(summary.find(std::to_string(team) + " threads per team"), std::string::npos)
              << exec::variant_name(options) << ": " << summary;
        }
      }
  for (int bad : {-32, 48, 96, 128}) {
    const auto options = exec::HierarchicalAll::Variant{}.with_block_size(96).with_team_size(bad);
    try {
      check_against_serial<S, L, 2>(options, 1);
      ADD_FAILURE() << "no error for team_size " << bad;
    } catch (const Error &e) {
      const std::string msg = e.what();
      for (const std::string &f :
           std::vector<std::string>{"team_size " + std::to_string(bad), "multiple of 32 below 96"})
        EXPECT_NE(msg.find(f), std::string::npos) << msg << "\nmissing: " << f;
    }
  }
}

// Scratch atomics or gather instead of thread colours, one launch with
// global atomics instead of block colours, and both, under both stagings
// that combine in scratch.
TYPED_TEST(Hierarchical, AtomicCombineAndWritebackMatchSerial) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  unsigned seed = 5000;
  for (auto staging : {exec::Staging::all, exec::Staging::increments})
    for (auto combine : exec::all_combines)
      for (auto writeback : {exec::Writeback::coloured, exec::Writeback::atomic}) {
        if (combine == exec::Combine::colours && writeback == exec::Writeback::coloured)
          continue; // the test above
        for (int block : {1, 7, 96, 256}) {
          const auto options = exec::HierarchicalAll::Variant{}
                                   .with_block_size(block)
                                   .with_staging(staging)
                                   .with_combine(combine)
                                   .with_writeback(writeback)
                                   .with_fallback(block > 96 || combine == exec::Combine::gather);
          check_against_serial<S, L, 2>(options, seed += 10);
          check_against_serial<S, L, 8>(options, seed += 10, 900);
        }
      }
}

// Staged increments that start at the dat's values (preload, the default
// under staging 'all') or at zero: both match serial, with every combine and
// write-back that preloads (atomic write-back: a block's shared points still
// start at zero), and the summary says which ran: the check's loop increments
// three dats, each through one map.
TYPED_TEST(Hierarchical, PreloadedIncrementsMatchSerialAndAreReported) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  unsigned seed = 7000;
  for (bool preload : {true, false})
    for (auto combine : {exec::Combine::colours, exec::Combine::atomics})
      for (auto writeback : {exec::Writeback::coloured, exec::Writeback::atomic}) {
        const auto options = exec::HierarchicalAll::Variant{}
                                 .with_block_size(32)
                                 .with_combine(combine)
                                 .with_writeback(writeback)
                                 .with_preload(preload);
        for (const std::string &summary : {check_against_serial<S, L, 2>(options, seed += 10),
                                           check_against_serial<S, L, 4>(options, seed += 10)})
          EXPECT_EQ(summary.find("increments of 3 dats preloaded") != std::string::npos, preload)
              << summary;
      }
}

// Two maps into one set, the same dat incremented through both: a point can
// sit in two lists of one block, so neither list may add it plainly while
// the other does.
struct TwoMapsKernel {
  template <class A, class U>
  KOKKOS_INLINE_FUNCTION void operator()(A a0, A b0, U u0, U u1, U w0) const {
    for (int k = 0; k < 3; ++k) {
      u0(k) += a0(k) - b0(k);
      u1(k) -= 0.5 * a0(k);
      w0(k) += b0((k + 1) % 3);
    }
  }
};

TYPED_TEST(Hierarchical, OneDatIncrementedThroughTwoMapsMatchesSerial) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using Mem = typename S::memory_space;
  Set elems("elems", 3000), pts("pts", 700);
  Map<Mem> m1("m1", elems, pts, 2, make_random_connectivity(elems, pts, 2, 71));
  Map<Mem> m2("m2", elems, pts, 1, make_random_connectivity(elems, pts, 1, 72));
  Dat<double, 3, L, Mem> a(pts, "a"), u(pts, "u"), u_ref(pts, "u_ref");
  test::randomise(a, 73);
  test::randomise(u, 74);
  copy_values(u_ref, u);
  for (auto staging :
       {exec::Staging::all, exec::Staging::increments, exec::Staging::none, exec::Staging::reads})
    for (auto combine : exec::all_combines)
      for (auto writeback : {exec::Writeback::coloured, exec::Writeback::atomic}) {
        if (!exec::stages_increments(staging) &&
            (combine != exec::Combine::colours || writeback == exec::Writeback::atomic))
          continue;
        const auto options = exec::HierarchicalAll::Variant{}
                                 .with_block_size(64)
                                 .with_staging(staging)
                                 .with_combine(combine)
                                 .with_writeback(writeback);
        auto plan = make_plan(S(), options.plan(), elems, m1, m2);
        par_loop(plan, options.loop(), "two", TwoMapsKernel{}, read(a, m1, 0), read(a, m2, 0),
                 inc(u, m1, 0), inc(u, m1, 1), inc(u, m2, 0));
        par_loop(S(), exec::Serial{}, elems, "two", TwoMapsKernel{}, read(a, m1, 0), read(a, m2, 0),
                 inc(u_ref, m1, 0), inc(u_ref, m1, 1), inc(u_ref, m2, 0));
        EXPECT_LT(test::max_rel_err(u, u_ref), 1e-11) << plan.summary();
        // Two groups on one dat: a preloaded copy would overwrite the other's sums.
        EXPECT_EQ(plan.summary().find("preloaded"), std::string::npos) << plan.summary();
        // One slot incremented by two arguments: under gather the second
        // adds to the entry the first stored.
        par_loop(plan, options.loop(), "same-slot", TwoMapsKernel{}, read(a, m1, 0), read(a, m2, 0),
                 inc(u, m1, 1), inc(u, m1, 1), inc(u, m2, 0));
        par_loop(S(), exec::Serial{}, elems, "same-slot", TwoMapsKernel{}, read(a, m1, 0),
                 read(a, m2, 0), inc(u_ref, m1, 1), inc(u_ref, m1, 1), inc(u_ref, m2, 0));
        EXPECT_LT(test::max_rel_err(u, u_ref), 1e-11) << plan.summary();
      }
}

// Thread colours past what a byte holds: GPUs read each thread's colour as a
// byte only up to 256 colours per block and otherwise go through the
// plan's element order. Every even element increments point 0, so a block
// of 640 needs at least 320 thread colours, a block of 256 at least 128; the
// odd elements take few colours, so the colour order is not the element
// order. Their other references go to 64 points, so that a block's staged
// points fit the host backends' team scratch.
TYPED_TEST(Hierarchical, ManyThreadColoursMatchSerial) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using Mem = typename S::memory_space;
  const int n = 2000;
  Set elems("elems", n), pts("pts", n + 1);
  std::vector<int> hub(2 * n), few(n);
  std::mt19937 rng(81);
  for (int e = 0; e < n; ++e) {
    hub[2 * e] = e % 2 ? 1 + e : 0;
    hub[2 * e + 1] = 1 + int(rng() % 64);
    few[e] = 1 + int(rng() % 64);
  }
  Map<Mem> m1("m1", elems, pts, 2, hub);
  Map<Mem> m2("m2", elems, pts, 1, few);
  Dat<double, 3, L, Mem> a(pts, "a"), u(pts, "u"), u_ref(pts, "u_ref");
  test::randomise(a, 83);
  test::randomise(u, 84);
  copy_values(u_ref, u);
  for (int block : {256, 640})
    for (auto staging : {exec::Staging::all, exec::Staging::increments, exec::Staging::none}) {
      const auto options =
          exec::HierarchicalAll::Variant{}.with_block_size(block).with_staging(staging);
      auto plan = make_plan(S(), options.plan(), elems, m1, m2);
      EXPECT_GE(plan.blocks().max_thread_colours, block / 2) << plan.summary();
      EXPECT_FALSE(plan.elements_in_block_order()) << plan.summary();
      par_loop(plan, options.loop(), "hub", TwoMapsKernel{}, read(a, m1, 1), read(a, m2, 0),
               inc(u, m1, 0), inc(u, m1, 1), inc(u, m2, 0));
      par_loop(S(), exec::Serial{}, elems, "hub", TwoMapsKernel{}, read(a, m1, 1), read(a, m2, 0),
               inc(u_ref, m1, 0), inc(u_ref, m1, 1), inc(u_ref, m2, 0));
      EXPECT_LT(test::max_rel_err(u, u_ref), 1e-11)
          << "block " << block << ", staging " << exec::staging_name(staging) << "; "
          << plan.summary();
    }
}

// Runs the two-maps loop 'edge' under `options` and expects an Error that
// names the loop and says every one of `said`.
template <class S, class L>
void expect_clear_error(const exec::HierarchicalAll::Variant &options,
                        const std::vector<std::string> &said) {
  using Mem = typename S::memory_space;
  Set elems("elems", 3000), pts("pts", 900);
  Map<Mem> m("m", elems, pts, 2, make_random_connectivity(elems, pts, 2, 5));
  Dat<double, 3, L, Mem> a(pts, "a"), u(pts, "u");
  auto plan = make_plan(S(), options.plan(), elems, m);
  try {
    par_loop(plan, options.loop(), "edge", TwoMapsKernel{}, read(a, m, 0), read(a, m, 1),
             inc(u, m, 0), inc(u, m, 1), inc(u, m, 1));
    ADD_FAILURE() << "no error for " << exec::variant_name(options) << " block "
                  << options.block_size;
  } catch (const Error &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("loop 'edge'"), std::string::npos) << msg;
    for (const auto &f : said)
      EXPECT_NE(msg.find(f), std::string::npos) << msg << "\nmissing: " << f;
  }
}

TYPED_TEST(Hierarchical, AtomicCombiningWithoutStagingIsAClearError) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  for (auto staging : {exec::Staging::none, exec::Staging::reads})
    for (auto options : {exec::HierarchicalAll::Variant{}.with_combine(exec::Combine::atomics),
                         exec::HierarchicalAll::Variant{}.with_combine(exec::Combine::gather),
                         exec::HierarchicalAll::Variant{}.with_writeback(exec::Writeback::atomic)})
      expect_clear_error<S, L>(
          options.with_staging(staging),
          {std::string("staging '") + exec::staging_name(staging) + "'", "exec::Atomic"});
}

// A register budget (CUDA: a launch bound on the one-block kernel; host
// backends run their one kernel) changes nothing in the results, with
// thread colours or scratch atomics, coloured or atomic write-back, and on a
// reduction.
TYPED_TEST(Hierarchical, RegisterBudgetMatchesSerial) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  constexpr bool cuda =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename S::memory_space>::accessible;
  unsigned seed = 7000;
  for (auto staging : {exec::Staging::all, exec::Staging::increments, exec::Staging::none})
    for (auto combine : {exec::Combine::colours, exec::Combine::atomics})
      for (auto writeback : {exec::Writeback::coloured, exec::Writeback::atomic}) {
        if (!exec::stages_increments(staging) &&
            (combine != exec::Combine::colours || writeback != exec::Writeback::coloured))
          continue;
        for (int block : {7, 96, 256}) {
          const auto options = exec::HierarchicalAll::Variant{}
                                   .with_block_size(block)
                                   .with_staging(staging)
                                   .with_combine(combine)
                                   .with_writeback(writeback)
                                   .with_max_registers(48)
                                   .with_fallback(block >= 96);
          const std::string summary = check_against_serial<S, L, 2>(options, seed += 10);
          check_against_serial<S, L, 4>(options, seed += 10);
          EXPECT_EQ(summary.find("at most 48 registers") != std::string::npos, cuda) << summary;
        }
      }
}

// A register budget on a loop of 28 arguments (LULESH's hourglass shape),
// whose CUDA functor goes through constant memory to take its launch bound.
TYPED_TEST(Hierarchical, RegisterBudgetOnALoopOfManyArgumentsMatchesSerial) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  const HexMesh h = make_hex_mesh(9, 8, 7, {true, 6});
  for (auto staging : {exec::Staging::increments, exec::Staging::none})
    for (int registers : {0, 48}) {
      const auto options = exec::HierarchicalAll::Variant{}
                               .with_block_size(64)
                               .with_staging(staging)
                               .with_max_registers(registers);
      test::expect_many_arguments_match_serial<S, L>(
          h,
          [&](const auto &cn, const auto &...args) {
            auto plan = make_plan(S(), options.plan(), h.cells, cn);
            par_loop(plan, options.loop(), "hourglass", test::ManyArgumentsKernel{}, args...);
          },
          std::string("staging ") + exec::staging_name(staging) + ", max_registers " +
              std::to_string(registers));
    }
}

TYPED_TEST(Hierarchical, RegisterBudgetOutsideItsKernelsIsAClearError) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  const auto inc_atomic = exec::HierarchicalAll::Variant{}
                              .with_staging(exec::Staging::increments)
                              .with_combine(exec::Combine::atomics)
                              .with_writeback(exec::Writeback::atomic);
  expect_clear_error<S, L>(exec::HierarchicalAll::Variant{}.with_max_registers(47),
                           {"max_registers 47", "or 48"});
  expect_clear_error<S, L>(exec::HierarchicalAll::Variant{}.with_max_registers(64),
                           {"max_registers 64", "or 48"});
  expect_clear_error<S, L>(
      exec::HierarchicalAll::Variant{}.with_combine(exec::Combine::gather).with_max_registers(48),
      {"max_registers 48", "gather"});
  expect_clear_error<S, L>(
      exec::HierarchicalAll::Variant(inc_atomic).with_blocks_per_team(2).with_max_registers(48),
      {"max_registers 48", "pipelined", "blocks_per_team 2"});
  expect_clear_error<S, L>(
      exec::HierarchicalAll::Variant{}.with_block_size(1024).with_max_registers(48),
      {"max_registers 48", "640 threads", "1024"});
}

// A GPU team has at most 1024 threads (fewer for a kernel with many
// registers): a larger block is a clear error naming what fits. Host
// backends run a block on one thread: it runs and matches the reference.
TYPED_TEST(Hierarchical, BlockLargerThanATeamCanHoldIsAClearErrorOnGpus) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  constexpr bool gpu =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename S::memory_space>::accessible;
  const auto options =
      exec::HierarchicalAll::Variant{}.with_block_size(2048).with_staging(exec::Staging::none);
  if (!gpu) {
    check_against_serial<S, L, 2>(options, 31, 5000);
    return;
  }
  try {
    check_against_serial<S, L, 2>(options, 31, 5000);
    ADD_FAILURE() << "no error for blocks of 2048 elements on " << S::name();
  } catch (const Error &e) {
    const std::string msg = e.what();
    for (const char *f : {"teams of 2048 threads", "can launch at most", "block size of"})
      EXPECT_NE(msg.find(f), std::string::npos) << msg << "\nmissing: " << f;
  }
}
} // namespace
