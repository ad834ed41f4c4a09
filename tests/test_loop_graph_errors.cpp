// umesh::LoopGraph's recording errors: each names the graph, the step and
// the loop (or what waited); the CUDA-only cases (capture failures, a
// recording made again after Kokkos replaced its scratch) run on the GPU.
#include "test_support.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

namespace umesh::test {
namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

// A small mesh and the dats of the error cases' loops.
struct ErrorCase {
  ErrorCase() : m(make_quad_mesh(9, 7)), pecell("pecell", m.edges, m.cells, 2, m.edge_cells) {
    randomise(w, 5, 0.5, 1);
  }
  QuadMesh m;
  Map<Mem> pecell;
  Dat<double, 1, SoA, Mem> w{m.edges, "w"}, r{m.cells, "r"};
};

struct Weigh {
  template <class W, class R, class G>
  KOKKOS_INLINE_FUNCTION void operator()(W w, R r1, R r2, G g) const {
    r1(0) += w(0);
    r2(0) -= w(0);
    g(0) += w(0);
  }
};
struct Inc {
  template <class W, class R> KOKKOS_INLINE_FUNCTION void operator()(W w, R r1, R r2) const {
    r1(0) += w(0);
    r2(0) -= w(0);
  }
};

TEST(LoopGraphErrors, HostGlobalReductionIsRefusedNamingTheGlobal) {
  ErrorCase c;
  LoopGraph<> g("steps");
  auto plan = make_plan(g.space(), exec::Atomic{}, c.m.edges);
  Global<double> total("total");
  g.add("weigh", [&] {
    par_loop(plan, "weigh", Weigh{}, read(c.w), inc(c.r, c.pecell, 0), inc(c.r, c.pecell, 1),
             reduce_sum(total));
  });
  const std::string e = error_message([&] { g.launch(); });
  EXPECT_NE(e.find("LoopGraph 'steps', step 'weigh'"), std::string::npos) << e;
  EXPECT_NE(e.find("loop 'weigh'"), std::string::npos) << e;
  EXPECT_NE(e.find("umesh::Global 'total'"), std::string::npos) << e;
  EXPECT_NE(e.find("DeviceGlobal"), std::string::npos) << e;
  // The same loop into a device global records.
  DeviceGlobalStore<double, Space> store("totals", g.space());
  auto sum = store.sum("total");
  LoopGraph<> ok("steps");
  ok.add("weigh", [&] {
    par_loop(plan, "weigh", Weigh{}, read(c.w), inc(c.r, c.pecell, 0), inc(c.r, c.pecell, 1),
             reduce_sum(sum));
  });
  EXPECT_NO_THROW(ok.launch());
  EXPECT_NO_THROW(ok.launch());
  store.fetch();
  EXPECT_NE(sum.value(), 0.0);
}

TEST(LoopGraphErrors, FetchInsideAStepIsRefused) {
  LoopGraph<> g("steps");
  DeviceGlobalStore<double, Space> store("checks", g.space());
  auto dt = store.min("dt", 1.0);
  g.add("reset", [&] { store.reset(); }).add("fetch", [&] { store.fetch(); });
  const std::string e = error_message([&] { g.launch(); });
  EXPECT_NE(e.find("LoopGraph 'steps', step 'fetch'"), std::string::npos) << e;
  EXPECT_NE(e.find("fetch()"), std::string::npos) << e;
  EXPECT_NE(e.find("wait"), std::string::npos) << e;
  // Outside the graph it is fine; the graph did nothing half-way to the store.
  store.fetch();
  EXPECT_EQ(dt.value(), 1.0);
}

TEST(LoopGraphErrors, LoopOnAnotherInstanceIsRefused) {
  ErrorCase c;
#if defined(KOKKOS_ENABLE_SERIAL) && defined(KOKKOS_ENABLE_OPENMP)
  {
    // The graph on Serial, the loop on OpenMP (host memory: both can run it).
    using Host = Kokkos::DefaultHostExecutionSpace;
    Dat<double, 1, SoA, Kokkos::HostSpace> w(c.m.edges, "w"), r(c.m.cells, "r");
    Map<Kokkos::HostSpace> pecell("pecell", c.m.edges, c.m.cells, 2, c.m.edge_cells);
    using Other = std::conditional_t<std::is_same<Host, Kokkos::Serial>::value, Kokkos::OpenMP,
                                     Kokkos::Serial>;
    LoopGraph<Other> g("other");
    auto plan = make_plan(Host(), exec::Atomic{}, c.m.edges);
    g.add("inc",
          [&] { par_loop(plan, "inc", Inc{}, read(w), inc(r, pecell, 0), inc(r, pecell, 1)); });
    const std::string e = error_message([&] { g.launch(); });
    EXPECT_NE(e.find("LoopGraph 'other', step 'inc'"), std::string::npos) << e;
    EXPECT_NE(e.find("umesh::atomic::inc"), std::string::npos) << e;
    EXPECT_NE(e.find("LoopGraph::space()"), std::string::npos) << e;
  }
#endif
#ifdef UMESH_TEST_HAS_CUDA
  if (graph_space<Kokkos::Cuda>().cuda_stream() != Kokkos::Cuda().cuda_stream()) {
    // Kokkos 3's default instance (legacy stream) beside the graph's stream.
    LoopGraph<Kokkos::Cuda> g("other");
    auto plan = make_plan(Kokkos::Cuda(), exec::Atomic{}, c.m.edges);
    g.add("inc", [&] {
      par_loop(plan, "inc", Inc{}, read(c.w), inc(c.r, c.pecell, 0), inc(c.r, c.pecell, 1));
    });
    const std::string e = error_message([&] { g.launch(); });
    EXPECT_NE(e.find("another CUDA stream"), std::string::npos) << e;
  }
#endif
  (void)c;
}

// A launch of 3 KB of arguments or more while CUDA records, other than a
// loop's (whose bodies go by reference), is refused: the rule itself, with
// a recording state made by hand.
TEST(LoopGraphErrors, LargeLaunchArgumentsAreRefusedWhileRecording) {
  detail::GraphRecording r;
  r.graph = "g";
  r.step = "s";
  r.phase = detail::GraphPhase::record;
  r.space = typeid(Space);
  r.stream = detail::stream_of(Space());
  detail::graph_recording() = &r;
  const std::string small = error_message([&] { detail::check_graph_launch(Space(), "a", 1024); });
  const std::string large = error_message([&] { detail::check_graph_launch(Space(), "b", 4096); });
  detail::graph_recording() = nullptr;
  EXPECT_EQ(small, "no error");
  EXPECT_NE(large.find("LoopGraph 'g', step 's': launch 'b' passes 4096 bytes of kernel arguments"),
            std::string::npos)
      << large;
}

TEST(LoopGraphErrors, MisuseOfTheGraphItself) {
  LoopGraph<> g("g");
  EXPECT_NE(error_message([&] { g.launch(); }).find("no steps"), std::string::npos);
  EXPECT_NE(error_message([&] { LoopGraph<> unnamed(""); }).find("needs a name"),
            std::string::npos);
  EXPECT_NE(error_message([&] { g.add("", [] {}); }).find("step needs a name"), std::string::npos);
  g.add("a", [] {});
  EXPECT_NE(error_message([&] { g.add("a", [] {}); }).find("step called 'a' already"),
            std::string::npos);
  g.launch();
  EXPECT_NE(error_message([&] { g.add("b", [] {}); }).find("reset() the graph first"),
            std::string::npos);
  // A graph launched inside another's step.
  LoopGraph<> outer("outer");
  outer.add("nested", [&] { g.launch(); });
  const std::string e = error_message([&] { outer.launch(); });
  EXPECT_NE(e.find("LoopGraph 'outer', step 'nested'"), std::string::npos) << e;
  EXPECT_NE(e.find("inside another graph's step"), std::string::npos) << e;
}

TEST(LoopGraphErrors, AnExceptionFromAStepNamesIt) {
  LoopGraph<> g("g");
  g.add("first", [] {}).add("throws", [] { throw std::runtime_error("out of luck"); });
  const std::string e = error_message([&] { g.launch(); });
  EXPECT_NE(e.find("LoopGraph 'g', step 'throws': out of luck"), std::string::npos) << e;
  // A loop's own error gets the graph and the step in front.
  ErrorCase c;
  LoopGraph<> bad("bad");
  auto plan = make_plan(bad.space(), exec::Atomic{}, c.m.edges);
  bad.add("wrong set", [&] {
    par_loop(plan, "inc", Inc{}, read(c.r), inc(c.r, c.pecell, 0), inc(c.r, c.pecell, 1));
  });
  const std::string e2 = error_message([&] { bad.launch(); });
  EXPECT_NE(e2.find("umesh: LoopGraph 'bad', step 'wrong set': loop 'inc' argument 1"),
            std::string::npos)
      << e2;
  // The thread is out of the graph again: a host Global works.
  Global<double> total("total");
  EXPECT_NO_THROW(par_loop(plan, "weigh", Weigh{}, read(c.w), inc(c.r, c.pecell, 0),
                           inc(c.r, c.pecell, 1), reduce_sum(total)));
}

#ifdef UMESH_TEST_HAS_CUDA
// What CUDA refuses while it records: a fence (the host waits), a copy from
// pageable host memory; and a loop exec::Auto has not tuned when the steps
// ran (a step that runs other loops when recorded).
TEST(LoopGraphCuda, CaptureFailuresNameTheStep) {
  {
    LoopGraph<Kokkos::Cuda> g("fenced");
    g.add("fence", [&] { g.space().fence(); });
    const std::string e = error_message([&] { g.launch(); });
    EXPECT_NE(e.find("LoopGraph 'fenced'"), std::string::npos) << e;
    EXPECT_NE(e.find("step 'fence'"), std::string::npos) << e;
  }
  {
    LoopGraph<Kokkos::Cuda> g("pageable");
    Kokkos::View<double *, Kokkos::CudaSpace> d("d", 16);
    Kokkos::View<double *, Kokkos::HostSpace> h("h", 16);
    g.add("copy", [&] { Kokkos::deep_copy(g.space(), d, h); });
    const std::string e = error_message([&] { g.launch(); });
    // CUDA refuses the copy as it is recorded (naming the step), or records
    // it and the check of the recorded copies refuses it.
    EXPECT_NE(e.find("LoopGraph 'pageable'"), std::string::npos) << e;
    EXPECT_TRUE(e.find("step 'copy'") != std::string::npos ||
                e.find("pageable host memory") != std::string::npos)
        << e;
  }
  {
    ErrorCase c;
    LoopGraph<Kokkos::Cuda> g("auto");
    auto plan = make_plan(g.space(), exec::Auto{}.with_trials(1), c.m.edges, c.pecell);
    int calls = 0;
    g.add("tunes", [&] {
      const char *name = calls++ == 0 ? "first" : "second";
      par_loop(plan, name, Inc{}, read(c.w), inc(c.r, c.pecell, 0), inc(c.r, c.pecell, 1));
    });
    const std::string e = error_message([&] { g.launch(); });
    EXPECT_NE(e.find("step 'tunes'"), std::string::npos) << e;
    EXPECT_NE(e.find("loop 'second' under exec::Auto"), std::string::npos) << e;
  }
  // The thread records nothing any more: a plain launch and a fence work.
  ErrorCase c;
  auto plan = make_plan(Kokkos::Cuda(), exec::Atomic{}, c.m.edges);
  EXPECT_NO_THROW(
      par_loop(plan, "inc", Inc{}, read(c.w), inc(c.r, c.pecell, 0), inc(c.r, c.pecell, 1)));
  EXPECT_NO_THROW(Kokkos::fence());
}

// A launch outside the graph that needs more reduction scratch than the
// graph's makes Kokkos replace it: the next launch records again.
struct Wide {
  template <class W, class G> KOKKOS_INLINE_FUNCTION void operator()(W w, G g) const {
    for (int k = 0; k < 64; ++k)
      g(k) += w(0) * (k + 1);
  }
};
TEST(LoopGraphCuda, ReplaysAfterKokkosReplacedItsScratch) {
  ErrorCase c;
  randomise(c.w, 7);
  LoopGraph<Kokkos::Cuda> g("scratch");
  DeviceGlobalStore<double, Kokkos::Cuda> store("s", g.space());
  auto one = store.sum("one");
  auto wide = store.sum<64>("wide");
  auto plan = make_plan(g.space(), exec::Atomic{}, c.m.edges);
  g.add("one", [&] {
    store.reset();
    par_loop(plan, "one", Weigh{}, read(c.w), inc(c.r, c.pecell, 0), inc(c.r, c.pecell, 1),
             reduce_sum(one));
  });
  g.launch();
  store.fetch();
  const double first = one.value();
  par_loop(plan, "wide", Wide{}, read(c.w), reduce_sum(wide));
  g.launch();
  store.fetch();
  EXPECT_NEAR(one.value(), first, 1e-12 * std::fabs(first));
}
#endif

} // namespace
} // namespace umesh::test
