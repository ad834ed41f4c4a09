// Hierarchical executor, kernel sets (exec::HierarchicalOf<Kernels>): the
// standard set runs every variant it compiles against the serial reference;
// a loop whose options need a kernel its tag does not compile is an Error
// naming it, raised before anything runs (outputs untouched).
#include "test_support.hpp"

#include <string>
#include <vector>

namespace {
using namespace umesh;

template <class C> class HierarchicalKernels : public ::testing::Test {};
TYPED_TEST_SUITE(HierarchicalKernels, test::SpaceLayouts);

struct EdgeFlux {
  template <class X, class F> KOKKOS_INLINE_FUNCTION void operator()(X x1, X x2, F f1, F f2) const {
    for (int k = 0; k < 3; ++k) {
      const double v = x1(k % 2) * (k + 1) - x2((k + 1) % 2);
      f1(k) += v;
      f2(k) -= 0.5 * v;
    }
  }
};

template <class S, class L> struct EdgeMesh {
  using Mem = typename S::memory_space;
  QuadMesh m = make_quad_mesh(50, 40, {true, 5});
  Map<Mem> pedge{"pedge", m.edges, m.nodes, 2, m.edge_nodes};
  Map<Mem> pecell{"pecell", m.edges, m.cells, 2, m.edge_cells};
  Dat<double, 2, L, Mem> x{m.nodes, "x"};
  Dat<double, 3, L, Mem> f{m.cells, "f"}, f_ref{m.cells, "f_ref"};
  EdgeMesh() { test::randomise(x, 1); }

  template <class PlanT, class... Loop> void run(PlanT &plan, const Loop &...loop) {
    par_loop(plan, loop..., "edge", EdgeFlux{}, read(x, pedge, 0), read(x, pedge, 1),
             inc(f, pecell, 0), inc(f, pecell, 1));
  }
  void reference() {
    test::randomise(f, 2);
    copy_values(f_ref, f);
    par_loop(S(), exec::Serial{}, m.edges, "edge", EdgeFlux{}, read(x, pedge, 0), read(x, pedge, 1),
             inc(f_ref, pecell, 0), inc(f_ref, pecell, 1));
  }
};

TYPED_TEST(HierarchicalKernels, StandardSetMatchesSerialUnderEveryVariantItCompiles) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  EdgeMesh<S, L> mesh;
  auto plan = make_plan(S(), exec::Hierarchical{}.with_block_size(64), mesh.m.edges, mesh.pecell,
                        read_only(mesh.pedge));
  std::vector<exec::Hierarchical::Loop> variants{
      exec::Hierarchical::Loop{}.with_staging(exec::Staging::none),
      exec::Hierarchical::Loop{}.with_staging(exec::Staging::all).with_fallback()};
  for (auto staging : {exec::Staging::all, exec::Staging::increments})
    for (auto combine : {exec::Combine::colours, exec::Combine::atomics})
      for (auto writeback : {exec::Writeback::coloured, exec::Writeback::atomic})
        variants.push_back(
            exec::Hierarchical::Loop{}.with_staging(staging).with_combine(combine).with_writeback(
                writeback));
  for (const auto &h : variants) {
    mesh.reference();
    mesh.run(plan, h);
    EXPECT_LT(test::max_rel_err(mesh.f, mesh.f_ref), 1e-12) << exec::variant_name(h);
  }
}

// `run` throws; the Error's text must hold every piece of `said`, and the
// loop must not have touched its output.
template <class S, class L, class Exec>
void expect_not_compiled(EdgeMesh<S, L> &mesh, Plan<exec::Hierarchical, S> &plan, const Exec &tag,
                         const std::vector<std::string> &said) {
  test::randomise(mesh.f, 3);
  copy_values(mesh.f_ref, mesh.f);
  try {
    mesh.run(plan, tag);
    ADD_FAILURE() << exec::variant_name(tag) << " ran; expected an Error";
  } catch (const Error &e) {
    const std::string msg = e.what();
    for (const auto &s : said)
      EXPECT_NE(msg.find(s), std::string::npos) << msg << "\nmissing: " << s;
  }
  EXPECT_EQ(test::max_rel_err(mesh.f, mesh.f_ref), 0.0) << exec::variant_name(tag);
}

TYPED_TEST(HierarchicalKernels, AKernelTheTagDoesNotCompileIsAClearError) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using K = exec::HierarchicalKernels;
  EdgeMesh<S, L> mesh;
  auto plan = make_plan(S(), exec::Hierarchical{}.with_block_size(64), mesh.m.edges, mesh.pecell,
                        read_only(mesh.pedge));
  expect_not_compiled(mesh, plan, exec::Hierarchical::Loop{}.with_staging(exec::Staging::reads),
                      {"loop 'edge'", "staging 'reads' needs 'reads'",
                       "it compiles 'staged, unstaged'", "exec::HierarchicalKernels::reads",
                       "exec::HierarchicalAll"});
  expect_not_compiled(mesh, plan, exec::Hierarchical::Loop{}.with_combine(exec::Combine::gather),
                      {"combine 'gather' needs 'gather'"});
  // Without 'unstaged', the fallback has nowhere to end.
  expect_not_compiled(
      mesh, plan, exec::HierarchicalLoop<K::staged>{}.with_fallback(),
      {"with_fallback() (its last step, 'none') needs 'unstaged'", "it compiles 'staged'"});
  expect_not_compiled(mesh, plan,
                      exec::HierarchicalLoop<K::reads>{}.with_staging(exec::Staging::increments),
                      {"staging 'inc' needs 'staged'"});
  // Two kernels missing: both named, and the tag to use compiles them all.
  expect_not_compiled(
      mesh, plan,
      exec::HierarchicalLoop<K::staged>{}.with_staging(exec::Staging::reads).with_fallback(),
      {"staging 'reads' needs 'reads'", "with_fallback() (its last step, 'none') needs 'unstaged'",
       "exec::HierarchicalLoop<exec::HierarchicalKernels::staged | "
       "exec::HierarchicalKernels::unstaged | exec::HierarchicalKernels::reads>"});
  // Pipelines and register budgets are GPU kernels: host backends run their
  // one kernel per staging, so the standard set serves those options there.
  constexpr bool gpu =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename S::memory_space>::accessible;
  const auto piped = exec::Hierarchical::Loop{}
                         .with_combine(exec::Combine::atomics)
                         .with_writeback(exec::Writeback::atomic)
                         .with_blocks_per_team(2);
  if (gpu) {
    expect_not_compiled(mesh, plan, piped, {"blocks_per_team 2 needs 'pipelined'"});
  } else {
    mesh.reference();
    mesh.run(plan, piped);
    EXPECT_LT(test::max_rel_err(mesh.f, mesh.f_ref), 1e-12);
  }
  // The same options under a tag that compiles them run and match.
  mesh.reference();
  mesh.run(plan, exec::HierarchicalLoop<K::standard | K::reads | K::pipelined>{}.with_staging(
                     exec::Staging::reads));
  EXPECT_LT(test::max_rel_err(mesh.f, mesh.f_ref), 1e-12);
}

TEST(HierarchicalKernels, KernelsNeededFollowTheOptionsAndTheBackend) {
  using K = exec::HierarchicalKernels;
  const exec::Hierarchical::Loop h;
  EXPECT_EQ(exec::kernels_needed(h, true), unsigned(K::staged));
  EXPECT_EQ(exec::kernels_needed(exec::Hierarchical::Loop(h).with_fallback(), false),
            unsigned(K::staged | K::unstaged));
  EXPECT_EQ(
      exec::kernels_needed(exec::Hierarchical::Loop(h).with_combine(exec::Combine::gather), false),
      unsigned(K::gather));
  const auto piped = exec::Hierarchical::Loop(h)
                         .with_staging(exec::Staging::reads)
                         .with_blocks_per_team(4)
                         .with_max_registers(48);
  EXPECT_EQ(exec::kernels_needed(piped, true), unsigned(K::reads | K::pipelined | K::registers));
  EXPECT_EQ(exec::kernels_needed(piped, false), unsigned(K::reads));
  // blocks_per_team where it does not pipeline (thread colours) is no pipeline.
  EXPECT_EQ(exec::kernels_needed(exec::Hierarchical::Loop(h).with_blocks_per_team(2), true),
            unsigned(K::staged));
  EXPECT_EQ(exec::kernel_names(K::standard), "staged, unstaged");
  EXPECT_EQ(exec::kernel_names(K::every), "staged, unstaged, reads, gather, pipelined, registers");
  // One plan serves every kernel set, and converting keeps the options.
  static_assert(std::is_same_v<exec::plan_tag_t<exec::HierarchicalAll>, exec::Hierarchical>);
  static_assert(exec::takes_loop_options<exec::Hierarchical, exec::HierarchicalAll::Loop>::value);
  static_assert(!exec::takes_loop_options<exec::WarpCombine, exec::HierarchicalAll::Loop>::value);
  static_assert(!exec::takes_loop_options<exec::Atomic, exec::WarpLoop>::value);
  static_assert(exec::is_hierarchical_v<exec::HierarchicalOf<K::reads>>);
  static_assert(!exec::is_hierarchical_v<exec::Atomic>);
  const exec::HierarchicalAll all = exec::Hierarchical{}.with_block_size(96);
  EXPECT_EQ(all.block_size, 96);
  const exec::HierarchicalAll::Loop loop =
      exec::Hierarchical::Loop{}.with_staging(exec::Staging::none);
  EXPECT_EQ(loop.staging, exec::Staging::none);
  // A variant holds both and gives each to its call.
  const auto v =
      exec::HierarchicalAll::Variant{}.with_block_size(64).with_combine(exec::Combine::gather);
  EXPECT_EQ(v.plan().block_size, 64);
  EXPECT_EQ(v.loop().combine, exec::Combine::gather);
}

} // namespace
