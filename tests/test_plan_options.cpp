// Plan options belong to make_plan, loop options to par_loop: a loop whose
// tag gives a plan option other than its plan's is an Error naming the
// option and both values; the plan's own tag, a default tag or one with
// loop options only run as before.
#include "test_main.hpp"

#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace umesh;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

struct Flux {
  template <class Q, class R> KOKKOS_INLINE_FUNCTION void operator()(Q q1, Q q2, R r1, R r2) const {
    r1(0) += q1(0) - q2(0);
    r2(0) += q2(0) - q1(0);
  }
};

struct Mesh {
  QuadMesh m = make_quad_mesh(24, 16);
  Map<Mem> pecell{"pecell", m.edges, m.cells, 2, m.edge_cells};
  Dat<double, 1, SoA, Mem> q{m.cells, "q"}, res{m.cells, "res"};
  Mesh() { test::randomise(q, 3); }

  template <class Exec, class PlanT> void run(const Exec &tag, PlanT &plan) {
    par_loop(tag, plan, "flux", Flux{}, read(q, pecell, 0), read(q, pecell, 1), inc(res, pecell, 0),
             inc(res, pecell, 1));
  }
  // The Error a loop under `tag` throws, with each of `parts` in it.
  template <class Exec, class PlanT>
  void expect_error(const Exec &tag, PlanT &plan, const std::vector<std::string> &parts) {
    const std::string what = test::error_message([&] { run(tag, plan); });
    for (const auto &p : parts)
      EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
  }
};

const std::vector<std::string> block_128_64 = {"loop 'flux'", "block_size to 128",
                                               "built with block_size 64",
                                               "plan options belong to make_plan"};

TEST(PlanOptions, HierarchicalBlockSizeOnTheLoopIsAnError) {
  Mesh g;
  const auto tag = exec::Hierarchical{}.with_block_size(64);
  auto plan = make_plan(Space(), tag, g.m.edges, g.pecell);
  g.expect_error(exec::Hierarchical{}.with_block_size(128), plan, block_128_64);
  // Given through its setter, even at the default's value.
  g.expect_error(exec::Hierarchical{}.with_block_size(256), plan, {"block_size to 256"});
  // Set directly, to a value other than the default.
  exec::Hierarchical direct;
  direct.block_size = 32;
  g.expect_error(direct, plan, {"block_size to 32", "built with block_size 64"});
  g.expect_error(exec::Hierarchical{}.with_plan_file("/tmp/umesh_x.plan"), plan,
                 {"plan_file to '/tmp/umesh_x.plan'", "built with plan_file ''"});
  g.expect_error(exec::Hierarchical{}.with_partition(exec::Partition::builtin), plan,
                 {"partition to builtin", "built with partition contiguous"});
  g.expect_error(exec::Hierarchical{}.with_blocks(std::make_shared<const std::vector<int>>(
                     std::vector<int>(g.m.edges.size(), 0))),
                 plan, {"blocks to ", "block ids (with_blocks)", "built with blocks none"});
}

TEST(PlanOptions, HierarchicalPlanTagOrLoopOptionsRun) {
  Mesh g;
  const auto tag = exec::Hierarchical{}.with_block_size(64);
  auto plan = make_plan(Space(), tag, g.m.edges, g.pecell);
  EXPECT_NO_THROW(g.run(tag, plan));
  EXPECT_NO_THROW(g.run(exec::Hierarchical{}, plan));
  EXPECT_NO_THROW(g.run(exec::Hierarchical{tag}.with_staging(exec::Staging::increments), plan));
  EXPECT_NO_THROW(
      g.run(exec::Hierarchical{}.with_staging(exec::Staging::none).with_fallback(), plan));
  EXPECT_EQ(plan.staging_used("flux"), exec::Staging::none);
  // The same block ids (another pointer, equal contents) agree with the plan.
  auto ids = std::make_shared<const std::vector<int>>(std::vector<int>(g.m.edges.size(), 0));
  auto given = make_plan(Space(), exec::Hierarchical{}.with_block_size(64).with_blocks(ids),
                         g.m.edges, g.pecell);
  EXPECT_NO_THROW(g.run(
      exec::Hierarchical{}.with_blocks(std::make_shared<const std::vector<int>>(*ids)), given));
}

// Reals print in full: a margin that differs in its seventh digit does not
// read as the plan's own, and a NaN the plan was built with is the plan's.
TEST(PlanOptions, HierarchicalRealsPrintInFullAndNaNIsItsOwn) {
  Mesh g;
  auto plan = make_plan(Space(), exec::Hierarchical{}.with_block_size(64), g.m.edges, g.pecell);
  g.expect_error(exec::Hierarchical{}.with_block_size(64).with_metis_margin(0.1000001), plan,
                 {"metis_margin to 0.1000001,", "built with metis_margin 0.1:"});
  exec::Hierarchical nan = exec::Hierarchical{}.with_block_size(64);
  nan.metis_margin = std::numeric_limits<double>::quiet_NaN(); // contiguous blocks ignore it
  auto nan_plan = make_plan(Space(), nan, g.m.edges, g.pecell);
  EXPECT_NO_THROW(g.run(nan, nan_plan));
}

// Block ids of the plan's count that differ: the error says where.
TEST(PlanOptions, HierarchicalOtherBlockIdsSayWhere) {
  Mesh g;
  std::vector<int> ids(g.m.edges.size(), 0);
  auto plan = make_plan(Space(),
                        exec::Hierarchical{}.with_block_size(64).with_blocks(
                            std::make_shared<const std::vector<int>>(ids)),
                        g.m.edges, g.pecell);
  ids[5] = 1;
  g.expect_error(exec::Hierarchical{}.with_block_size(64).with_blocks(
                     std::make_shared<const std::vector<int>>(ids)),
                 plan, {"that differ from its plan's at element 5 (block 1, the plan's 0)"});
}

// Block ids under a partition that forms its own blocks would be dropped.
TEST(PlanOptions, HierarchicalBlockIdsNeedPartitionGiven) {
  Mesh g;
  const auto ids = std::make_shared<const std::vector<int>>(std::vector<int>(g.m.edges.size(), 0));
  const std::string what = test::error_message([&] {
    make_plan(Space(),
              exec::Hierarchical{}.with_blocks(ids).with_partition(exec::Partition::builtin),
              g.m.edges, g.pecell);
  });
  EXPECT_NE(what.find("with_blocks gave " + std::to_string(ids->size()) + " block ids"),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("the partition is 'builtin'"), std::string::npos) << what;
}

// A plan file records the METIS margin in full: another margin that prints
// alike at six digits builds its own plan, it does not load this one.
TEST(PlanOptions, HierarchicalPlanFileKeepsTheWholeMargin) {
  if (!has_metis())
    GTEST_SKIP() << "built without METIS";
  Mesh g;
  const std::string file = test::temp_path("plan_options_margin.plan");
  const auto tag = exec::Hierarchical{}
                       .with_block_size(64)
                       .with_partition(exec::Partition::metis)
                       .with_plan_file(file);
  make_plan(Space(), exec::Hierarchical{tag}.with_metis_margin(0.1), g.m.edges, g.pecell);
  const std::string what = test::error_message([&] {
    make_plan(Space(), exec::Hierarchical{tag}.with_metis_margin(0.1000001), g.m.edges, g.pecell);
  });
  EXPECT_NE(what.find("metis_margin=0.1000001"), std::string::npos) << what;
  std::remove(file.c_str());
}

// A loop option that combines staged increments under a staging that stages
// none: the error names that option, not the other one at its default.
TEST(PlanOptions, HierarchicalUnstagedCombiningNamesTheOptionAtFault) {
  Mesh g;
  auto plan = make_plan(Space(), exec::Hierarchical{}.with_block_size(64), g.m.edges, g.pecell);
  const auto none = exec::Hierarchical{}.with_staging(exec::Staging::none);
  const std::string writeback = test::error_message(
      [&] { g.run(exec::Hierarchical{none}.with_writeback(exec::Writeback::atomic), plan); });
  EXPECT_NE(writeback.find("writeback 'atomic' combines staged increments, and staging 'none'"),
            std::string::npos)
      << writeback;
  EXPECT_EQ(writeback.find("combine '"), std::string::npos) << writeback;
  const std::string combine = test::error_message(
      [&] { g.run(exec::Hierarchical{none}.with_combine(exec::Combine::gather), plan); });
  EXPECT_NE(combine.find("combine 'gather' combines staged increments"), std::string::npos)
      << combine;
  EXPECT_EQ(combine.find("writeback '"), std::string::npos) << combine;
  const std::string both = test::error_message([&] {
    g.run(exec::Hierarchical{none}
              .with_combine(exec::Combine::atomics)
              .with_writeback(exec::Writeback::atomic),
          plan);
  });
  EXPECT_NE(both.find("combine 'atomics' and writeback 'atomic' combine staged increments"),
            std::string::npos)
      << both;
}

TEST(PlanOptions, SegmentedAndWarp) {
  Mesh g;
  const auto seg = exec::Segmented{}.with_block_size(64).with_max_segments(2);
  auto splan = make_plan(Space(), seg, g.m.edges, g.pecell);
  EXPECT_NO_THROW(g.run(seg, splan));
  EXPECT_NO_THROW(g.run(exec::Segmented{}.with_scratch_atomics(), splan));
  g.expect_error(exec::Segmented{}.with_max_segments(4), splan,
                 {"segmented executor", "max_segments to 4", "built with max_segments 2",
                  "plan options belong to make_plan"});
  const auto warp = exec::WarpCombine{}.with_block_size(64);
  auto wplan = make_plan(Space(), warp, g.m.edges, g.pecell);
  EXPECT_NO_THROW(g.run(warp, wplan));
  EXPECT_NO_THROW(g.run(exec::WarpCombine{}.with_compact_maps(), wplan));
  g.expect_error(exec::WarpCombine{}.with_block_size(128), wplan,
                 {"warp executor", "block_size to 128", "built with block_size 64"});
}

TEST(PlanOptions, AutoOptionsAreAllThePlans) {
  Mesh g;
  const auto tag = exec::Auto{}.with_block_sizes({64}).with_trials(1);
  auto plan = make_plan(Space(), tag, g.m.edges, g.pecell);
  EXPECT_NO_THROW(g.run(tag, plan));
  EXPECT_NO_THROW(g.run(exec::Auto{}, plan));
  g.expect_error(exec::Auto{}.with_trials(5), plan,
                 {"auto executor", "trials to 5", "built with trials 1"});
  g.expect_error(exec::Auto{}.with_candidates({"atomic"}), plan,
                 {"candidates to {'atomic'}", "built with candidates {}"});
}

// Every option has a setter, and a setter gives its option even at the
// default's value.
TEST(PlanOptions, AutoSettersGiveTheirOptions) {
  Mesh g;
  const auto tag = exec::Auto{}
                       .with_block_sizes({64})
                       .with_trials(1)
                       .with_prune(2.5)
                       .with_final_margin(1.5)
                       .with_finalists(2);
  auto plan = make_plan(Space(), tag, g.m.edges, g.pecell);
  EXPECT_NO_THROW(g.run(tag, plan));
  g.expect_error(exec::Auto{}.with_prune(3.0), plan, {"prune to 3,", "built with prune 2.5"});
  g.expect_error(exec::Auto{}.with_final_margin(1.3), plan,
                 {"final_margin to 1.3,", "built with final_margin 1.5"});
  g.expect_error(exec::Auto{}.with_finalists(3), plan,
                 {"finalists to 3,", "built with finalists 2"});
}

// A prune factor under 1 would prune the fastest candidate too.
TEST(PlanOptions, AutoPruneBelowOneIsAnError) {
  Mesh g;
  const std::string what = test::error_message(
      [&] { make_plan(Space(), exec::Auto{}.with_prune(0.5), g.m.edges, g.pecell); });
  EXPECT_NE(what.find("prune 0.5 (at least 1"), std::string::npos) << what;
}

} // namespace
