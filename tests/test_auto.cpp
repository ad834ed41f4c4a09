// exec::Auto: the tuned loop's result is one execution's on every space and
// layout (outputs and reductions restored between trials); decisions are
// remembered in a tuning file and reused without trials; a corrupt or stale
// file is a clear error; candidates that do not fit are reported, not fatal;
// an explicit candidate list (exec::AutoOf) times its candidates only, and
// exec::Auto's default list is the one documented per backend.
#include "test_main.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {
using namespace umesh;

using Configs = test::SpaceLayouts;

template <class C> class Auto : public ::testing::Test {};
TYPED_TEST_SUITE(Auto, Configs);

// Reads two nodes, increments two cells and a direct count, folds a maximum
// into the cells and sums a global.
struct EdgeKernel {
  template <class X, class F, class M, class N, class G>
  KOKKOS_INLINE_FUNCTION void operator()(X x1, X x2, F f1, F f2, M m1, M m2, N n, G total) const {
    for (int k = 0; k < 3; ++k) {
      const double v = x1(k % 2) * (k + 1) - x2((k + 1) % 2);
      f1(k) += v;
      f2(k) -= 0.5 * v;
    }
    m1(0).update(x1(0) + x2(1));
    m2(0).update(x1(1) - x2(0));
    n(0) += 1;
    total(0) += x1(0) * x2(1);
  }
};

template <class S, class L> struct Mesh {
  using Mem = typename S::memory_space;
  QuadMesh m;
  Map<Mem> pedge{"pedge", m.edges, m.nodes, 2, m.edge_nodes};
  Map<Mem> pecell{"pecell", m.edges, m.cells, 2, m.edge_cells};
  Dat<double, 2, L, Mem> x{m.nodes, "x"};
  Dat<double, 3, L, Mem> f{m.cells, "f"};
  Dat<double, 1, L, Mem> mx{m.cells, "mx"}, n{m.edges, "n"};
  /// A shuffled nx x ny quad mesh (the default is small; a large one spreads
  /// a warp's points past what compact maps hold).
  explicit Mesh(int nx = 40, int ny = 30) : m(make_quad_mesh(nx, ny, {true, 5})) {
    test::randomise(x, 1);
    test::randomise(f, 2);
    test::randomise(mx, 3);
    test::randomise(n, 4);
  }
  template <class PlanT> void run(PlanT &plan, Global<double> &g) {
    par_loop(plan, "edge", EdgeKernel{}, read(x, pedge, 0), read(x, pedge, 1), inc(f, pecell, 0),
             inc(f, pecell, 1), max(mx, pecell, 0), max(mx, pecell, 1), inc(n), reduce_sum(g));
  }
};

// Every executor and every hierarchical kernel a candidate (what the main
// job tunes over; exec::AutoAll's hierarchical candidates are the standard
// set's: AutoAllTriesTheStandardHierarchicalKernelsOnly).
using Full = exec::AutoOf<exec::Atomic, exec::ScatterView, exec::Gather, exec::GlobalColour,
                          exec::HierarchicalAll, exec::Segmented, exec::WarpCombine>;

Full quick() { // few candidates and trials: tests check behaviour, not speed
  return Full{}.with_block_sizes({32}).with_trials(1);
}

TYPED_TEST(Auto, TunedLoopMatchesSerialOnceAndAfter) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  Mesh<S, L> mesh, ref;
  Global<double> g("g", 0.5), g_ref("g", 0.5);
  auto plan = make_plan(S(), quick(), mesh.m.edges, mesh.pecell, read_only(mesh.pedge));
  auto serial = make_plan(S(), exec::Serial{}, ref.m.edges);
  for (int call = 0; call < 2; ++call) { // the tuning call, then a tuned one
    mesh.run(plan, g);
    ref.run(serial, g_ref);
    EXPECT_LT(test::max_rel_err(mesh.f, ref.f), 1e-12) << "call " << call << "\n" << plan.summary();
    EXPECT_EQ(test::max_rel_err(mesh.mx, ref.mx), 0.0) << "call " << call;
    EXPECT_EQ(test::max_rel_err(mesh.n, ref.n), 0.0) << "call " << call;
    EXPECT_NEAR(g.value(), g_ref.value(), 1e-10 * std::fabs(g_ref.value())) << "call " << call;
  }
  EXPECT_FALSE(plan.from_tuning_file("edge"));
  EXPECT_GT(plan.tuning_seconds("edge"), 0.0);
  const std::string summary = plan.summary();
  for (const char *name :
       {"atomic", "scatterview", "gather", "colour", "hier-all/b32", "hier-inc/sa/ga/b32",
        "hier-none/b32", "hier-reads/b32", "segmented/b32", "warp/b32", "warp/m16/b32"})
    EXPECT_NE(summary.find(name), std::string::npos) << summary << "\nmissing " << name;
  // Several blocks per team only where they pipeline: GPU backends, staging
  // 'reads' and the /sa/ga variants.
  constexpr bool gpu =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename S::memory_space>::accessible;
  for (const char *name :
       {"hier-reads/p2/b32", "hier-all/sa/ga/p2/b32", "hier-inc/sa/ga/p4/b32", "segmented/sa/b32"})
    EXPECT_EQ(summary.find(name) != std::string::npos, gpu) << summary << "\n" << name;
  EXPECT_EQ(summary.find("hier-all/ga/p2"), std::string::npos) << summary;
  // Warp register budgets are launch bounds: GPU backends only.
  for (const char *name : {"warp/r64/b32", "warp/r40/b32"})
    EXPECT_EQ(summary.find(name) != std::string::npos, gpu) << summary << "\n" << name;
  EXPECT_NE(summary.find(plan.choice("edge")), std::string::npos);
}

TYPED_TEST(Auto, CandidatesThatDoNotFitAreReportedNotFatal) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  // A shuffled mesh of more points than 16-bit offsets reach: compact maps
  // fail in every warp that spans them, on every backend; atomic still runs.
  Mesh<S, L> mesh(300, 250), ref(300, 250);
  Global<double> g("g"), g_ref("g");
  auto plan = make_plan(
      S(),
      Full{}.with_block_sizes({128}).with_trials(1).with_candidates({"atomic", "warp/m16/b128"}),
      mesh.m.edges, mesh.pecell, read_only(mesh.pedge));
  mesh.run(plan, g);
  auto serial = make_plan(S(), exec::Serial{}, ref.m.edges);
  ref.run(serial, g_ref);
  EXPECT_LT(test::max_rel_err(mesh.f, ref.f), 1e-12);
  EXPECT_EQ(plan.choice("edge"), "atomic");
  EXPECT_NE(plan.summary().find("warp/m16/b128 (not run)"), std::string::npos) << plan.summary();
}

TEST(AutoTuningFile, DecisionIsRememberedAndReusedWithoutTrials) {
  using S = Kokkos::DefaultHostExecutionSpace;
  const std::string path = "test_auto_tuning.txt";
  std::remove(path.c_str());
  Mesh<S, SoA> mesh, ref;
  Global<double> g("g"), g_ref("g");
  auto opts = quick().with_tuning_file(path);
  auto first = make_plan(S(), opts, mesh.m.edges, mesh.pecell, read_only(mesh.pedge));
  mesh.run(first, g);
  EXPECT_FALSE(first.from_tuning_file("edge"));
  std::ifstream in(path);
  std::string header, line;
  std::getline(in, header);
  std::getline(in, line);
  EXPECT_EQ(header, "umesh-tuning 1");
  EXPECT_NE(line.find("|edge|"), std::string::npos) << line;
  EXPECT_NE(line.find("\t" + first.choice("edge")), std::string::npos) << line;

  auto second = make_plan(S(), opts, mesh.m.edges, mesh.pecell, read_only(mesh.pedge));
  mesh.run(second, g);
  EXPECT_TRUE(second.from_tuning_file("edge"));
  EXPECT_EQ(second.tuning_seconds("edge"), 0.0);
  EXPECT_EQ(second.choice("edge"), first.choice("edge"));
  auto serial = make_plan(S(), exec::Serial{}, ref.m.edges);
  ref.run(serial, g_ref);
  ref.run(serial, g_ref);
  EXPECT_LT(test::max_rel_err(mesh.f, ref.f), 1e-12);

  // Other maps (another mesh size): another key, so the loop tunes again.
  Set edges2("edges", 10);
  Set nodes2("nodes", 5), cells2("cells", 4);
  Map<Kokkos::HostSpace> pe2("pe2", edges2, nodes2, 2,
                             make_random_connectivity(edges2, nodes2, 2, 9));
  Map<Kokkos::HostSpace> pc2("pc2", edges2, cells2, 2,
                             make_random_connectivity(edges2, cells2, 2, 10));
  Dat<double, 2, SoA, Kokkos::HostSpace> x2(nodes2, "x");
  Dat<double, 3, SoA, Kokkos::HostSpace> f2(cells2, "f");
  Dat<double, 1, SoA, Kokkos::HostSpace> m2(cells2, "m"), n2(edges2, "n");
  auto other = make_plan(S(), opts, edges2, pc2, read_only(pe2));
  par_loop(other, "edge", EdgeKernel{}, read(x2, pe2, 0), read(x2, pe2, 1), inc(f2, pc2, 0),
           inc(f2, pc2, 1), max(m2, pc2, 0), max(m2, pc2, 1), inc(n2), reduce_sum(g));
  EXPECT_FALSE(other.from_tuning_file("edge"));
  std::remove(path.c_str());
}

// Two plans made before either tunes (one per layout, as the main job makes
// them) share a file: the second's write must keep the first's decision.
TEST(AutoTuningFile, PlansSharingAFileKeepEachOthersDecisions) {
  using S = Kokkos::DefaultHostExecutionSpace;
  const std::string path = "test_auto_tuning_shared.txt";
  std::remove(path.c_str());
  Mesh<S, AoS> aos;
  Mesh<S, SoA> soa;
  Global<double> g("g");
  auto opts = quick().with_tuning_file(path);
  auto plan_aos = make_plan(S(), opts, aos.m.edges, aos.pecell, read_only(aos.pedge));
  auto plan_soa = make_plan(S(), opts, soa.m.edges, soa.pecell, read_only(soa.pedge));
  aos.run(plan_aos, g);
  soa.run(plan_soa, g);
  EXPECT_FALSE(plan_aos.from_tuning_file("edge"));
  EXPECT_FALSE(plan_soa.from_tuning_file("edge"));

  auto again_aos = make_plan(S(), opts, aos.m.edges, aos.pecell, read_only(aos.pedge));
  auto again_soa = make_plan(S(), opts, soa.m.edges, soa.pecell, read_only(soa.pedge));
  aos.run(again_aos, g);
  soa.run(again_soa, g);
  EXPECT_TRUE(again_aos.from_tuning_file("edge"));
  EXPECT_TRUE(again_soa.from_tuning_file("edge"));
  EXPECT_EQ(again_aos.choice("edge"), plan_aos.choice("edge"));
  EXPECT_EQ(again_soa.choice("edge"), plan_soa.choice("edge"));
  std::remove(path.c_str());
}

TEST(AutoTuningFile, CorruptOrStaleFilesAreClearErrors) {
  using S = Kokkos::DefaultHostExecutionSpace;
  const std::string path = "test_auto_corrupt.txt";
  Mesh<S, AoS> mesh;
  Global<double> g("g");
  auto opts = quick().with_tuning_file(path);
  auto expect_error = [&](const std::string &content, const char *words, bool at_run) {
    std::ofstream(path) << content;
    try {
      auto plan = make_plan(S(), opts, mesh.m.edges, mesh.pecell, read_only(mesh.pedge));
      if (at_run)
        mesh.run(plan, g);
      ADD_FAILURE() << "no error for:\n" << content;
    } catch (const Error &e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(path), std::string::npos) << msg;
      EXPECT_NE(msg.find(words), std::string::npos) << msg << "\nmissing: " << words;
    }
  };
  expect_error("not a tuning file\n", "line 1", false);
  expect_error("umesh-tuning 1\nno tab on this line\n", "line 2", false);
  // A decision for this very loop that names no candidate of the plan.
  std::remove(path.c_str());
  {
    auto plan = make_plan(S(), opts, mesh.m.edges, mesh.pecell, read_only(mesh.pedge));
    mesh.run(plan, g);
  }
  std::ifstream in(path);
  std::string header, line;
  std::getline(in, header);
  std::getline(in, line);
  in.close();
  const std::string key = line.substr(0, line.find('\t'));
  expect_error("umesh-tuning 1\n" + key + "\thier-warp/b7\n", "not a candidate", true);
  expect_error("umesh-tuning 1\n\n" + key + "\thier-warp/b7\n", "line 3: chose 'hier-warp/b7'",
               true);
  std::remove(path.c_str());
}

// A decision in the file that is a candidate of the plan but does not run
// here (a hierarchical block whose scratch no team of this device holds: a
// file from another machine): the loop tunes again, with a warning naming
// the file and line, the results are right, and the line is replaced.
TEST(AutoTuningFile, AChoiceThatDoesNotFitIsTunedAgain) {
  using S = Kokkos::DefaultHostExecutionSpace;
  const std::string path = "test_auto_unfit.txt";
  std::remove(path.c_str());
  // Compact maps cannot run on this large shuffled mesh (see above).
  const auto opts = Full{}
                        .with_block_sizes({128})
                        .with_trials(1)
                        .with_candidates({"atomic", "warp/m16/b128"})
                        .with_tuning_file(path);
  Global<double> g("g"), g_ref("g");
  std::string key;
  {
    Mesh<S, SoA> mesh(300, 250);
    auto plan = make_plan(S(), opts, mesh.m.edges, mesh.pecell, read_only(mesh.pedge));
    mesh.run(plan, g);
    ASSERT_EQ(plan.choice("edge"), "atomic");
    std::ifstream in(path);
    std::string header, line;
    std::getline(in, header);
    std::getline(in, line);
    key = line.substr(0, line.find('\t'));
  }
  std::ofstream(path) << "umesh-tuning 1\n\n" << key << "\twarp/m16/b128\n";
  Mesh<S, SoA> mesh(300, 250), ref(300, 250);
  auto plan = make_plan(S(), opts, mesh.m.edges, mesh.pecell, read_only(mesh.pedge));
  ::testing::internal::CaptureStderr();
  mesh.run(plan, g);
  const std::string warning = ::testing::internal::GetCapturedStderr();
  for (const std::string &words :
       {"warning: tuning file '" + path + "' line 3 chose 'warp/m16/b128' for loop 'edge'",
        std::string("does not run here"), std::string("tuning the loop again")})
    EXPECT_NE(warning.find(words), std::string::npos) << warning << "\nmissing: " << words;
  EXPECT_FALSE(plan.from_tuning_file("edge"));
  EXPECT_EQ(plan.choice("edge"), "atomic");
  auto serial = make_plan(S(), exec::Serial{}, ref.m.edges);
  ref.run(serial, g_ref);
  EXPECT_LT(test::max_rel_err(mesh.f, ref.f), 1e-12) << "a failed try changed the outputs";
  EXPECT_LT(test::max_rel_err(mesh.n, ref.n), 1e-12);
  EXPECT_EQ(read_tuning_file(path).at(key), "atomic");
  std::remove(path.c_str());
}

// A tuning file shared by plans of other candidate lists: each list keeps
// its own decision (every executor's choice may be no candidate of a
// shorter list).
TEST(AutoTuningFile, CandidateListsKeepTheirOwnDecisions) {
  using S = Kokkos::DefaultHostExecutionSpace;
  const std::string path = "test_auto_tuning_lists.txt";
  std::remove(path.c_str());
  Mesh<S, SoA> mesh;
  Global<double> g("g");
  const auto few = exec::Auto{}.with_trials(1).with_tuning_file(path);
  for (int round = 0; round < 2; ++round) {
    auto all = make_plan(S(), quick().with_tuning_file(path), mesh.m.edges, mesh.pecell,
                         read_only(mesh.pedge));
    auto def = make_plan(S(), few, mesh.m.edges, mesh.pecell, read_only(mesh.pedge));
    mesh.run(all, g);
    mesh.run(def, g);
    EXPECT_EQ(all.from_tuning_file("edge"), round == 1);
    EXPECT_EQ(def.from_tuning_file("edge"), round == 1);
  }
  std::remove(path.c_str());
}

// One name, two layouts: a decision holds for one argument signature.
TEST(AutoOptions, OneLoopNameWithOtherArgumentTypesIsAClearError) {
  using S = Kokkos::DefaultHostExecutionSpace;
  Mesh<S, AoS> aos;
  Mesh<S, SoA> soa;
  Global<double> g("g");
  auto plan = make_plan(S(), quick(), aos.m.edges, aos.pecell, read_only(aos.pedge));
  aos.run(plan, g);
  // soa's maps are other Map objects on other sets: make it run on aos's.
  Dat<double, 2, SoA, Kokkos::HostSpace> x(aos.m.nodes, "x");
  Dat<double, 3, SoA, Kokkos::HostSpace> f(aos.m.cells, "f");
  Dat<double, 1, SoA, Kokkos::HostSpace> mx(aos.m.cells, "mx"), n(aos.m.edges, "n");
  try {
    par_loop(plan, "edge", EdgeKernel{}, read(x, aos.pedge, 0), read(x, aos.pedge, 1),
             inc(f, aos.pecell, 0), inc(f, aos.pecell, 1), max(mx, aos.pecell, 0),
             max(mx, aos.pecell, 1), inc(n), reduce_sum(g));
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("give this loop its own name"), std::string::npos)
        << e.what();
  }
  (void)soa;
}

TEST(AutoOptions, BadOptionsAreClearErrors) {
  using S = Kokkos::DefaultHostExecutionSpace;
  Mesh<S, AoS> mesh;
  EXPECT_THROW(make_plan(S(), Full{}.with_trials(0), mesh.m.edges, mesh.pecell), Error);
  EXPECT_THROW(make_plan(S(), Full{}.with_block_sizes({0}), mesh.m.edges, mesh.pecell), Error);
  EXPECT_THROW(make_plan(S(), Full{}.with_candidates({"fastest"}), mesh.m.edges, mesh.pecell),
               Error);
  EXPECT_THROW(make_plan(S(), Full{}.with_blocks_per_team({1, 0}), mesh.m.edges, mesh.pecell),
               Error);
  EXPECT_NE(test::error_message([&] {
              make_plan(S(), Full{}.with_warp_registers({0, 48}), mesh.m.edges, mesh.pecell);
            }).find("warp register budget 48 is not 0, 40 or 64"),
            std::string::npos);
  EXPECT_NE(test::error_message([&] {
              make_plan(S(), Full{}.with_warp_maps({32, 8}), mesh.m.edges, mesh.pecell);
            }).find("warp map entries of 8 bits; 32 or 16"),
            std::string::npos);
  EXPECT_NE(test::error_message([&] {
              make_plan(S(), Full{}.with_hier_registers({0, 40}), mesh.m.edges, mesh.pecell);
            }).find("hierarchical register budget 40 is not 0 or 48"),
            std::string::npos);
  auto plan = make_plan(S(), quick(), mesh.m.edges, mesh.pecell);
  EXPECT_THROW(plan.choice("never ran"), Error);
}

// The default list per backend, as docs/executors.md and exec_auto.hpp say:
// Atomic, GlobalColour and Gather on host backends; Atomic and WarpCombine
// on GPUs. A loop under exec::Auto times those executors' variants only.
TYPED_TEST(Auto, DefaultCandidatesAreTheDocumentedOnes) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  constexpr bool gpu =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename S::memory_space>::accessible;
  using Expected = std::conditional_t<gpu, exec::AutoOf<exec::Atomic, exec::WarpCombine>,
                                      exec::AutoOf<exec::Atomic, exec::GlobalColour, exec::Gather>>;
  static_assert(std::is_same<exec::AutoDefaults<S>, Expected>::value);
  Mesh<S, L> mesh, ref;
  Global<double> g("g"), g_ref("g");
  auto plan = make_plan(S(), exec::Auto{}.with_block_sizes({32}).with_trials(1), mesh.m.edges,
                        mesh.pecell, read_only(mesh.pedge));
  std::vector<std::string> names;
  for (const auto &c : plan.candidates())
    names.push_back(c.name);
  const std::vector<std::string> expected =
      gpu ? std::vector<std::string>{"atomic",          "warp/b32",     "warp/r64/b32",
                                     "warp/r40/b32",    "warp/m16/b32", "warp/r64/m16/b32",
                                     "warp/r40/m16/b32"}
          : std::vector<std::string>{"atomic", "colour", "gather"};
  EXPECT_EQ(names, expected);
  mesh.run(plan, g);
  auto serial = make_plan(S(), exec::Serial{}, ref.m.edges);
  ref.run(serial, g_ref);
  EXPECT_LT(test::max_rel_err(mesh.f, ref.f), 1e-12) << plan.summary();
  EXPECT_NE(std::find(expected.begin(), expected.end(), plan.choice("edge")), expected.end());
}

// An explicit list: its executors' candidates only, in the list's order;
// every leader within the margin runs in the finals.
TYPED_TEST(Auto, ExplicitListTimesOnlyItsCandidates) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using Two = exec::AutoOf<exec::GlobalColour, exec::Atomic>;
  Mesh<S, L> mesh, ref;
  Global<double> g("g", 0.5), g_ref("g", 0.5);
  auto options = Two{}.with_trials(1).with_final_rounds(3);
  options.prune = 1e9; // both reach the finals
  options.final_margin = 1e9;
  auto plan = make_plan(S(), options, mesh.m.edges, mesh.pecell, read_only(mesh.pedge));
  ASSERT_EQ(plan.candidates().size(), 2u);
  EXPECT_EQ(plan.candidates()[0].name, "colour");
  EXPECT_EQ(plan.candidates()[1].name, "atomic");
  auto serial = make_plan(S(), exec::Serial{}, ref.m.edges);
  for (int call = 0; call < 2; ++call) {
    mesh.run(plan, g);
    ref.run(serial, g_ref);
    EXPECT_LT(test::max_rel_err(mesh.f, ref.f), 1e-12) << "call " << call;
    EXPECT_NEAR(g.value(), g_ref.value(), 1e-10 * std::fabs(g_ref.value())) << "call " << call;
  }
  const std::string summary = plan.summary();
  EXPECT_NE(summary.find("finals: colour"), std::string::npos) << summary;
  for (const char *other : {"gather", "scatterview", "hier-", "segmented", "warp"})
    EXPECT_EQ(summary.find(other), std::string::npos) << summary << "\n" << other;
}

// exec::AutoAll compiles exec::Hierarchical's standard kernels: its
// hierarchical candidates are theirs (staging all, inc and none; thread
// colours or scratch atomics; coloured or atomic write-back), and a tag of
// every kernel adds the others.
TYPED_TEST(Auto, AutoAllTriesTheStandardHierarchicalKernelsOnly) {
  using S = typename TypeParam::space;
  Mesh<S, typename TypeParam::layout> mesh;
  auto names = [&](const auto &tag) {
    std::string all;
    const auto plan = make_plan(S(), tag, mesh.m.edges, mesh.pecell, read_only(mesh.pedge));
    for (const auto &c : plan.candidates())
      all += c.name + " ";
    return all;
  };
  const std::string standard = names(exec::AutoAll{}.with_block_sizes({32}));
  for (const char *name : {"hier-all/b32", "hier-inc/b32", "hier-none/b32", "hier-all/sa/b32",
                           "hier-inc/sa/ga/b32", "hier-all/ga/b32"})
    EXPECT_NE(standard.find(name), std::string::npos) << standard << "\nmissing " << name;
  for (const char *name : {"hier-reads", "/sg", "/p2", "/r48"})
    EXPECT_EQ(standard.find(name), std::string::npos) << standard << "\n" << name;
  const std::string every = names(Full{}.with_block_sizes({32}));
  for (const char *name : {"hier-reads/b32", "hier-all/sg/b32"})
    EXPECT_NE(every.find(name), std::string::npos) << every << "\nmissing " << name;
  // A variant the list does not compile is no candidate to name.
  EXPECT_THROW(names(exec::AutoAll{}.with_block_sizes({32}).with_candidates({"hier-reads/b32"})),
               Error);
}

// Options choose among the instantiated candidates only: a name outside
// the list (or a variant this backend does not run) is refused, naming it.
TEST(AutoOptions, NamingACandidateOutsideTheListIsAnError) {
  using S = Kokkos::DefaultHostExecutionSpace;
  Mesh<S, AoS> mesh;
  using Two = exec::AutoOf<exec::Atomic, exec::GlobalColour>;
  const std::string msg = test::error_message([&] {
    make_plan(S(), Two{}.with_candidates({"atomic", "gather"}), mesh.m.edges, mesh.pecell);
  });
  EXPECT_NE(msg.find("candidate 'gather' is not one of this plan's"), std::string::npos) << msg;
  EXPECT_NE(msg.find("atomic, colour"), std::string::npos) << msg;
  EXPECT_THROW(
      make_plan(S(), exec::Auto{}.with_candidates({"hier-all/b128"}), mesh.m.edges, mesh.pecell),
      Error);
  // A GPU-only variant on the host: not run there, so not a candidate.
  EXPECT_THROW(make_plan(S(), Full{}.with_candidates({"atomic", "warp/r64/b128"}), mesh.m.edges,
                         mesh.pecell),
               Error);
  auto plan = make_plan(S(), Two{}.with_candidates({"colour"}), mesh.m.edges, mesh.pecell);
  ASSERT_EQ(plan.candidates().size(), 1u);
  EXPECT_EQ(plan.candidates()[0].name, "colour");
}

} // namespace
