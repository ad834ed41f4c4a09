// Reproducible results (docs/executors.md, Reproducible results): every
// executor variant whose trait (Exec::reproducible) says so gives the same
// bits run after run, each run on fresh plans, and on host backends whatever
// the thread count: with UMESH_TEST_DIGESTS naming a file, RunsAgree writes
// one line per reproducible variant and its bits' hash there, which
// reproducible_threads.cmake compares over runs of 1, 2 and 3 threads. Every
// run is also checked against the serial reference. exec::Auto under
// with_reproducible() tries reproducible candidates only, and its result is
// its choice's.
#include "executor_suite_kernels.hpp"
#include "test_main.hpp"

#include <umesh/detail/auto_candidates.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace umesh::test {

namespace ex = umesh::exec;
using ex::Concurrency;

// The traits the docs' table states (a change there must change this too).
static_assert(ex::Serial::reproducible(Concurrency::gpu));
static_assert(ex::Gather::reproducible(Concurrency::gpu));
static_assert(ex::GlobalColour::reproducible(Concurrency::host_threads));
static_assert(!ex::Atomic::reproducible(Concurrency::host_threads));
static_assert(ex::Atomic::reproducible(Concurrency::sequential));
static_assert(!ex::ScatterView::reproducible(Concurrency::host_threads));
static_assert(!ex::Segmented::reproducible(Concurrency::gpu));
static_assert(!ex::WarpCombine::reproducible(Concurrency::gpu));
static_assert(ex::Hierarchical::reproducible(Concurrency::gpu));

TEST(ReproducibleTraits, HierarchicalLoopOptionsDecide) {
  using Loop = ex::Hierarchical::Loop;
  const auto scratch_atomics = Loop{}.with_combine(ex::Combine::atomics);
  EXPECT_FALSE(ex::Hierarchical::reproducible(Concurrency::gpu, scratch_atomics));
  EXPECT_TRUE(ex::Hierarchical::reproducible(Concurrency::host_threads, scratch_atomics));
  EXPECT_TRUE(
      ex::Hierarchical::reproducible(Concurrency::gpu, Loop{}.with_combine(ex::Combine::gather)));
  const auto atomic_writeback = Loop{}.with_writeback(ex::Writeback::atomic);
  EXPECT_FALSE(ex::Hierarchical::reproducible(Concurrency::host_threads, atomic_writeback));
  EXPECT_TRUE(ex::Hierarchical::reproducible(Concurrency::sequential, atomic_writeback));
  EXPECT_FALSE(ex::Hierarchical::reproducible(Concurrency::host_threads,
                                              Loop{}.with_staging(ex::Staging::reads)));
  // Staging 'none' takes both colourings whatever combine and writeback say.
  EXPECT_TRUE(
      ex::Hierarchical::reproducible(Concurrency::gpu, Loop{}
                                                           .with_staging(ex::Staging::none)
                                                           .with_combine(ex::Combine::atomics)
                                                           .with_writeback(ex::Writeback::atomic)));
  EXPECT_TRUE(ex::reproducible<Kokkos::DefaultHostExecutionSpace>(ex::Gather{}));
  EXPECT_TRUE(ex::reproducible<Kokkos::DefaultExecutionSpace>(ex::AutoAll{}.with_reproducible()));
  EXPECT_FALSE(ex::reproducible<Kokkos::DefaultExecutionSpace>(ex::AutoAll{}));
}

/// The hierarchical kernels this test runs: every one-block kernel.
using HierTag =
    ex::HierarchicalOf<ex::HierarchicalKernels::staged | ex::HierarchicalKernels::unstaged |
                       ex::HierarchicalKernels::gather | ex::HierarchicalKernels::reads>;

std::uint64_t hash_of(const std::vector<double> &v) {
  std::uint64_t h = 1469598103934665603ull;
  for (double d : v) {
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    for (int i = 0; i < 8; ++i)
      h = (h ^ ((bits >> (8 * i)) & 0xff)) * 1099511628211ull;
  }
  return h;
}

bool same_bits(const std::vector<double> &a, const std::vector<double> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

/// res_calc's shape on a shuffled quad mesh: increments of both cells and a
/// sum, a minimum and a maximum; its outputs as one vector per run.
template <class Space, class L> struct EdgeCase {
  using Mem = typename Space::memory_space;
  QuadMesh m = make_quad_mesh(61, 47, {true, 5});
  Map<Mem> pedge{"pedge", m.edges, m.nodes, 2, m.edge_nodes};
  Map<Mem> pecell{"pecell", m.edges, m.cells, 2, m.edge_cells};
  Dat<double, 1, L, Mem> w{m.edges, "w"}, adt{m.cells, "adt"};
  Dat<double, 2, L, Mem> x{m.nodes, "x"};
  Dat<double, 4, L, Mem> q{m.cells, "q"}, res{m.cells, "res"};

  EdgeCase() {
    randomise(w, 1);
    randomise(adt, 2);
    randomise(x, 3);
    randomise(q, 4);
  }

  /// Runs the loop once under `plan` and `loop` (the increments from the
  /// same random values each time, the globals poisoned first).
  template <class PlanT, class... Loop> std::vector<double> run(PlanT &plan, const Loop &...loop) {
    randomise(res, 5);
    Global<double, 2> sum("sum", std::numeric_limits<double>::quiet_NaN());
    Global<double> mn("min", std::numeric_limits<double>::quiet_NaN()),
        mx("max", std::numeric_limits<double>::quiet_NaN());
    par_loop(plan, loop..., "edge", EdgeKernel{}, read(w), read(x, pedge, 0), read(x, pedge, 1),
             read(q, pecell, 0), read(q, pecell, 1), read(adt, pecell, 0), read(adt, pecell, 1),
             inc(res, pecell, 0), inc(res, pecell, 1), reduce_sum(sum), reduce_min(mn),
             reduce_max(mx));
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), res.view());
    std::vector<double> out{sum[0], sum[1], mn.value(), mx.value()};
    for (int i = 0; i < m.cells.size(); ++i) // (an SoA view may be padded past the set)
      for (int k = 0; k < 4; ++k)
        out.push_back(h(i, k));
    return out;
  }
};

/// One executor variant: its name, its trait on Space, and a run on fresh
/// plans.
struct Variant {
  std::string name;
  bool reproducible;
  std::function<std::vector<double>()> run;
};

template <class Space, class L> std::vector<Variant> variants(EdgeCase<Space, L> &c) {
  std::vector<Variant> out;
  const Space space;
  auto add = [&](const std::string &name, auto tag, auto loop) {
    out.push_back({name, ex::reproducible<Space>(tag, loop), [&c, space, tag, loop] {
                     auto plan = make_plan(space, tag, c.m.edges, c.pecell);
                     return c.run(plan, loop);
                   }});
  };
  add("serial", ex::Serial{}, ex::NoLoopOptions{});
  add("atomic", ex::Atomic{}, ex::NoLoopOptions{});
  add("gather", ex::Gather{}, ex::NoLoopOptions{});
  add("colour", ex::GlobalColour{}, ex::NoLoopOptions{});
  add("scatterview", ex::ScatterView{}, ex::NoLoopOptions{});
  add("segmented", ex::Segmented{}.with_block_size(64).with_max_segments(2), ex::SegmentedLoop{});
  add("warp", ex::WarpCombine{}.with_block_size(64), ex::WarpLoop{});
  for (auto staging :
       {ex::Staging::all, ex::Staging::increments, ex::Staging::none, ex::Staging::reads})
    for (auto combine : ex::all_combines)
      for (auto writeback : {ex::Writeback::coloured, ex::Writeback::atomic}) {
        if (!ex::stages_increments(staging) &&
            (combine != ex::Combine::colours || writeback != ex::Writeback::coloured))
          continue;
        const auto loop =
            HierTag::Loop{}.with_staging(staging).with_combine(combine).with_writeback(writeback);
        add(ex::variant_name(loop), HierTag{}.with_block_size(64), loop);
      }
  return out;
}

template <class C> class Reproducible : public ::testing::Test {};
TYPED_TEST_SUITE(Reproducible, SpaceLayouts);

// Two runs of each variant on fresh plans: the same bits where the trait
// says so, and the serial reference's values within rounding either way.
// With UMESH_TEST_DIGESTS set, the reproducible variants' hashes go to that
// file for reproducible_threads.cmake.
TYPED_TEST(Reproducible, RunsAgree) {
  using Space = typename TypeParam::space;
  EdgeCase<Space, typename TypeParam::layout> c;
  auto serial = make_plan(Space(), ex::Serial{}, c.m.edges);
  const std::vector<double> ref = c.run(serial);
  const char *digests = std::getenv("UMESH_TEST_DIGESTS");
  std::ofstream file;
  if (digests)
    file.open(digests, std::ios::app);
  int reproducible = 0;
  for (const Variant &v : variants(c)) {
    SCOPED_TRACE(v.name);
    const std::vector<double> a = v.run(), b = v.run();
    ASSERT_EQ(a.size(), ref.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      ASSERT_NEAR(a[i], ref[i], 1e-11 * (1 + std::abs(ref[i]))) << "value " << i;
    if (v.reproducible) {
      ++reproducible;
      EXPECT_TRUE(same_bits(a, b)) << v.name << " is reproducible by its trait";
      if (digests)
        file << Space::name() << ' '
             << (std::is_same<typename TypeParam::layout, SoA>::value ? "soa" : "aos") << ' '
             << v.name << ' ' << std::hex << hash_of(a) << std::dec << '\n';
    }
  }
  // serial, gather, colour and the coloured hierarchical variants at least.
  EXPECT_GE(reproducible, 8);
}

// With the option, exec::AutoAll times reproducible candidates only; its
// result is bitwise its choice's alone, a later run from the tuning file
// repeats it, and the file keeps those decisions apart from other runs'.
TYPED_TEST(Reproducible, AutoChoosesAmongReproducibleCandidates) {
  using Space = typename TypeParam::space;
  EdgeCase<Space, typename TypeParam::layout> c;
  const std::string file = temp_path("reproducible_tuning.txt");
  const auto options = [&] {
    return ex::AutoAll{}
        .with_block_sizes({64})
        .with_trials(1)
        .with_final_rounds(0)
        .with_reproducible()
        .with_tuning_file(file);
  };
  auto plan = make_plan(Space(), options(), c.m.edges, c.pecell);
  ASSERT_FALSE(plan.candidates().empty());
  for (const auto &cand : plan.candidates()) {
    SCOPED_TRACE(cand.name);
    EXPECT_TRUE(cand.reproducible);
    if (ex::concurrency_of<Space>() != Concurrency::sequential) {
      for (const char *bad : {"atomic", "scatterview", "segmented", "warp", "reads", "/ga"})
        EXPECT_EQ(cand.name.find(bad), std::string::npos);
    }
  }
  const std::vector<double> tuned = c.run(plan);
  const std::string choice = plan.choice("edge");
  EXPECT_FALSE(plan.from_tuning_file("edge"));

  auto alone = make_plan(Space(), options().with_tuning_file("").with_candidates({choice}),
                         c.m.edges, c.pecell);
  EXPECT_TRUE(same_bits(tuned, c.run(alone))) << choice;
  auto again = make_plan(Space(), options(), c.m.edges, c.pecell);
  EXPECT_TRUE(same_bits(tuned, c.run(again))) << choice;
  EXPECT_TRUE(again.from_tuning_file("edge"));
  EXPECT_EQ(again.choice("edge"), choice);

  // A run without the option, sharing the file, tunes for itself.
  auto other = make_plan(
      Space(),
      ex::AutoAll{}.with_block_sizes({64}).with_trials(1).with_final_rounds(0).with_tuning_file(
          file),
      c.m.edges, c.pecell);
  c.run(other);
  EXPECT_FALSE(other.from_tuning_file("edge"));
  std::remove(file.c_str());
}

// A candidate list with nothing reproducible on this backend is an Error
// naming its executors; naming a left-out candidate is too.
TYPED_TEST(Reproducible, AutoWithNothingReproducibleIsAnError) {
  using Space = typename TypeParam::space;
  const QuadMesh m = make_quad_mesh(5, 4);
  Map<typename Space::memory_space> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  const auto make = [&](auto tag) {
    return error_message([&] { make_plan(Space(), tag, m.edges, pecell); });
  };
  const auto none = ex::AutoOf<ex::Atomic, ex::WarpCombine>{}.with_reproducible();
  const auto named =
      ex::AutoOf<ex::Atomic, ex::Gather>{}.with_reproducible().with_candidates({"atomic"});
  if (ex::concurrency_of<Space>() == Concurrency::sequential) {
    EXPECT_EQ(make(none), "no error"); // one thread: atomics add in order
    EXPECT_EQ(make(named), "no error");
    return;
  }
  const std::string why = make(none);
  EXPECT_NE(why.find("with_reproducible() leaves no candidate"), std::string::npos) << why;
  EXPECT_NE(why.find("(atomic, warp)"), std::string::npos) << why;
  EXPECT_NE(why.find(ex::concurrency_name(ex::concurrency_of<Space>())), std::string::npos) << why;
  const std::string left_out = make(named);
  EXPECT_NE(left_out.find("candidate 'atomic'"), std::string::npos) << left_out;
  EXPECT_NE(left_out.find("it has: gather"), std::string::npos) << left_out;
  EXPECT_EQ(make(ex::AutoOf<ex::Atomic, ex::WarpCombine>{}), "no error");
}

// The filter on every backend's variants, GPUs' included (names only: the
// candidates of every executor with every hierarchical kernel).
TEST(ReproducibleCandidates, EachBackendKeepsItsReproducibleVariants) {
  const auto names = [](Concurrency c, bool reproducible) {
    ex::AutoOptions o;
    o.block_sizes = {128};
    o.reproducible = reproducible;
    std::vector<detail::AutoCandidate> all;
    const int kinds = int(ex::names(detail::AutoKinds{}).size());
    for (int k = 0; k < kinds; ++k)
      detail::add_auto_candidates(k, k, o, c, ex::HierarchicalKernels::every, all);
    std::vector<std::string> out;
    for (const auto &a : all)
      out.push_back(a.name);
    return out;
  };
  const auto has = [](const std::vector<std::string> &v, const std::string &name) {
    return std::find(v.begin(), v.end(), name) != v.end();
  };
  const std::vector<std::string> gpu = names(Concurrency::gpu, true);
  for (const auto &n : gpu) {
    SCOPED_TRACE(n);
    for (const char *bad : {"atomic", "scatterview", "segmented", "warp", "reads", "/sa", "/ga"})
      EXPECT_EQ(n.find(bad), std::string::npos);
  }
  for (const char *want : {"gather", "colour", "hier-all/b128", "hier-all/r48/b128",
                           "hier-inc/sg/b128", "hier-none/b128"})
    EXPECT_TRUE(has(gpu, want)) << want;
  EXPECT_TRUE(has(names(Concurrency::gpu, false), "atomic"));
  const std::vector<std::string> host = names(Concurrency::host_threads, true);
  EXPECT_TRUE(has(host, "hier-all/sa/b128")); // a host team is one thread, in order
  EXPECT_FALSE(has(host, "hier-all/sa/ga/b128"));
  EXPECT_FALSE(has(host, "atomic"));
  EXPECT_EQ(names(Concurrency::sequential, true), names(Concurrency::sequential, false));
}

} // namespace umesh::test
