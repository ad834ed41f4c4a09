// Options by lifetime: plan options go to make_plan (the executor's tag),
// loop options to par_loop (Exec::Loop), and the plan carries its executor.
// A plan keeps the options it was built with; loops through it vary only
// their own; loop options of another executor do not compile.
#include "test_main.hpp"

#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
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
  QuadMesh m = make_quad_mesh(24, 16, {true, 3});
  Map<Mem> pecell{"pecell", m.edges, m.cells, 2, m.edge_cells};
  Dat<double, 1, SoA, Mem> q{m.cells, "q"}, res{m.cells, "res"}, ref{m.cells, "ref"};
  Mesh() { test::randomise(q, 3); }

  template <class PlanT, class... Loop> void run(PlanT &plan, const Loop &...loop) {
    par_loop(plan, loop..., "flux", Flux{}, read(q, pecell, 0), read(q, pecell, 1),
             inc(res, pecell, 0), inc(res, pecell, 1));
  }
  // One loop under `plan` (and loop options) from random values, against
  // the serial executor's from the same values.
  template <class PlanT, class... Loop> double error(PlanT &plan, const Loop &...loop) {
    test::randomise(res, 7);
    copy_values(ref, res);
    auto serial = make_plan(Space(), exec::Serial{}, m.edges);
    par_loop(serial, "flux", Flux{}, read(q, pecell, 0), read(q, pecell, 1), inc(ref, pecell, 0),
             inc(ref, pecell, 1));
    run(plan, loop...);
    return test::max_rel_err(res, ref);
  }
};

// The traits par_loop checks its loop options with.
static_assert(exec::is_loop_options_v<exec::NoLoopOptions>);
static_assert(exec::is_loop_options_v<exec::WarpLoop>);
static_assert(exec::is_loop_options_v<exec::HierarchicalAll::Loop>);
static_assert(!exec::is_loop_options_v<exec::WarpCombine>);
static_assert(!exec::is_loop_options_v<exec::Hierarchical>);
static_assert(exec::takes_loop_options<exec::Atomic, exec::NoLoopOptions>::value);
static_assert(exec::takes_loop_options<exec::Segmented, exec::SegmentedLoop>::value);
static_assert(!exec::takes_loop_options<exec::Segmented, exec::WarpLoop>::value);
static_assert(!exec::takes_loop_options<exec::Auto, exec::WarpLoop>::value);
static_assert(std::is_same_v<plan_executor_t<Plan<exec::WarpCombine, Space>>, exec::WarpCombine>);

TEST(PlanOptions, HierarchicalPlanKeepsItsOptionsAndLoopsVaryTheirs) {
  Mesh g;
  auto plan = make_plan(Space(), exec::Hierarchical{}.with_block_size(64), g.m.edges, g.pecell);
  EXPECT_EQ(plan.options().block_size, 64);
  EXPECT_LT(g.error(plan), 1e-14);
  EXPECT_EQ(plan.staging_used("flux"), exec::Staging::all);
  EXPECT_LT(g.error(plan, exec::Hierarchical::Loop{}.with_staging(exec::Staging::increments)),
            1e-14);
  EXPECT_EQ(plan.staging_used("flux"), exec::Staging::increments);
  EXPECT_LT(g.error(plan, exec::Hierarchical::Loop{}.with_staging(exec::Staging::none)), 1e-14);
  EXPECT_EQ(plan.staging_used("flux"), exec::Staging::none);
  EXPECT_EQ(plan.options().block_size, 64); // loops never change the plan's
  // Any kernel set's loop options run on the same plan.
  EXPECT_LT(g.error(plan, exec::HierarchicalAll::Loop{}.with_combine(exec::Combine::gather)),
            1e-14);
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
  const auto none = exec::Hierarchical::Loop{}.with_staging(exec::Staging::none);
  const std::string writeback = test::error_message(
      [&] { g.run(plan, exec::Hierarchical::Loop{none}.with_writeback(exec::Writeback::atomic)); });
  EXPECT_NE(writeback.find("writeback 'atomic' combines staged increments, and staging 'none'"),
            std::string::npos)
      << writeback;
  EXPECT_EQ(writeback.find("combine '"), std::string::npos) << writeback;
  const std::string combine = test::error_message(
      [&] { g.run(plan, exec::HierarchicalAll::Loop{none}.with_combine(exec::Combine::gather)); });
  EXPECT_NE(combine.find("combine 'gather' combines staged increments"), std::string::npos)
      << combine;
  EXPECT_EQ(combine.find("writeback '"), std::string::npos) << combine;
  const std::string both = test::error_message([&] {
    g.run(plan, exec::Hierarchical::Loop{none}
                    .with_combine(exec::Combine::atomics)
                    .with_writeback(exec::Writeback::atomic));
  });
  EXPECT_NE(both.find("combine 'atomics' and writeback 'atomic' combine staged increments"),
            std::string::npos)
      << both;
}

TEST(PlanOptions, SegmentedAndWarpLoopOptions) {
  Mesh g;
  auto splan = make_plan(Space(), exec::Segmented{}.with_block_size(64).with_max_segments(2),
                         g.m.edges, g.pecell);
  EXPECT_EQ(splan.options().max_segments, 2);
  EXPECT_LT(g.error(splan), 1e-14);
  EXPECT_LT(g.error(splan, exec::SegmentedLoop{}.with_scratch_atomics()), 1e-14);
  auto wplan = make_plan(Space(), exec::WarpCombine{}.with_block_size(64), g.m.edges, g.pecell);
  EXPECT_EQ(wplan.options().block_size, 64);
  EXPECT_LT(g.error(wplan), 1e-14);
  EXPECT_LT(g.error(wplan, exec::WarpLoop{}.with_compact_maps()), 1e-14);
  EXPECT_LT(g.error(wplan, exec::WarpLoop{}.with_max_registers(64)), 1e-14);
}

TEST(PlanOptions, AutoOptionsAreAllThePlans) {
  Mesh g;
  auto plan =
      make_plan(Space(), exec::Auto{}.with_block_sizes({64}).with_trials(1), g.m.edges, g.pecell);
  EXPECT_EQ(plan.options().trials, 1);
  EXPECT_LT(g.error(plan), 1e-14);
  EXPECT_LT(g.error(plan, exec::NoLoopOptions{}), 1e-14);
}

// A variant holds plan and loop options for programs that sweep them; each
// call takes its own part.
TEST(PlanOptions, VariantGivesEachCallItsOwn) {
  Mesh g;
  const auto v = exec::HierarchicalAll::Variant{}
                     .with_block_size(32)
                     .with_staging(exec::Staging::increments)
                     .with_combine(exec::Combine::atomics);
  auto plan = make_plan(Space(), v.plan(), g.m.edges, g.pecell);
  EXPECT_EQ(plan.options().block_size, 32);
  EXPECT_LT(g.error(plan, v.loop()), 1e-14);
  EXPECT_EQ(plan.staging_used("flux"), exec::Staging::increments);
  EXPECT_EQ(exec::variant_name(v), "hier-inc/sa");
}

// A prune factor under 1 would prune the fastest candidate too.
TEST(PlanOptions, AutoPruneBelowOneIsAnError) {
  Mesh g;
  const std::string what = test::error_message(
      [&] { make_plan(Space(), exec::Auto{}.with_prune(0.5), g.m.edges, g.pecell); });
  EXPECT_NE(what.find("prune 0.5 (at least 1"), std::string::npos) << what;
}

} // namespace
