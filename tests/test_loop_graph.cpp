// umesh::LoopGraph: a recorded sequence (a fill, a scatter loop under the
// executor under test with device-global reductions, a Kokkos kernel of the
// test's own, a direct loop) launched several times, with its inputs changed
// between launches, against the same loops run one by one under the serial
// executor and under the executor itself (bitwise where that executor is
// deterministic); every backend and layout. The same with a kernel too large
// to go as a kernel argument, which a recording passes by reference (on host
// backends too, here: CMake defines UMESH_TEST_BODIES_BY_REFERENCE for this
// program). The recording errors: test_loop_graph_errors.cpp.
#include "executor_suite_kernels.hpp"
#include "test_main.hpp"

#include <limits>
#include <type_traits>

namespace umesh::test {
namespace {

// Edge fluxes into both cells, and three reductions.
struct Flux {
  template <class W, class X, class Q, class R, class S, class N, class M>
  KOKKOS_INLINE_FUNCTION void operator()(W w, X x1, X x2, Q q1, Q q2, R r1, R r2, S sum, N mn,
                                         M mx) const {
    const double dx = x1(0) - x2(0), dy = x1(1) - x2(1);
    for (int k = 0; k < 4; ++k) {
      const double f = w(0) * (q1(k) * dy - q2(k) * dx);
      r1(k) += f;
      r2(k) -= f;
      sum(k % 2) += f * f;
    }
    mn(0) = dx < mn(0) ? dx : mn(0);
    mx(0) = q1(0) * q2(1) > mx(0) ? q1(0) * q2(1) : mx(0);
  }
};

// The same, times weights from a table that makes the loop's body larger
// than a kernel argument may be (3 KB): a recording passes it by reference.
struct BigFlux : Flux {
  double table[400];
  BigFlux() {
    for (int i = 0; i < 400; ++i)
      table[i] = 1.0 + 1e-3 * i;
  }
  template <class W, class X, class Q, class R, class S, class N, class M>
  KOKKOS_INLINE_FUNCTION void operator()(W w, X x1, X x2, Q q1, Q q2, R r1, R r2, S sum, N mn,
                                         M mx) const {
    const double dx = x1(0) - x2(0), dy = x1(1) - x2(1);
    for (int k = 0; k < 4; ++k) {
      const double f = w(0) * (q1(k) * dy - q2(k) * dx) * table[100 * k + 7];
      r1(k) += f;
      r2(k) -= f;
      sum(k % 2) += f * f;
    }
    mn(0) = dx < mn(0) ? dx : mn(0);
    mx(0) = q1(0) * q2(1) > mx(0) ? q1(0) * q2(1) : mx(0);
  }
};

// The cells' state from the residual and the test's own kernel's scale.
struct Update {
  template <class R, class S, class Q>
  KOKKOS_INLINE_FUNCTION void operator()(R res, S scale, Q q) const {
    for (int k = 0; k < 4; ++k)
      q(k) = q(k) - 0.01 * scale(0) * res(k);
  }
};

template <class E, class Space, class... Maps>
auto test_plan(const Space &space, const Set &set, const Maps &...maps) {
  // Small blocks (as the executor suite's): many blocks and colours.
  if constexpr (std::is_same<E, exec::Hierarchical>::value)
    return make_plan(space, exec::Hierarchical{}.with_block_size(64), set, maps...);
  else if constexpr (std::is_same<E, exec::Segmented>::value)
    return make_plan(space, exec::Segmented{}.with_block_size(64).with_max_segments(2), set,
                     maps...);
  else if constexpr (std::is_same<E, exec::WarpCombine>::value)
    return make_plan(space, exec::WarpCombine{}.with_block_size(64), set, maps...);
  else if constexpr (std::is_same<E, exec::Auto>::value)
    return make_plan(space, exec::Auto{}.with_block_sizes({64}).with_trials(1), set, maps...);
  else
    return make_plan(space, E{}, set, maps...);
}

// One copy of the sequence's data and plans: its steps run one by one, or
// as a graph's.
template <class Space, class L, class E, class Kernel = Flux> struct Sequence {
  using Mem = typename Space::memory_space;
  template <int D> using DatT = Dat<double, D, L, Mem>;

  Sequence(const Space &s, const QuadMesh &m, const Map<Mem> &pedge, const Map<Mem> &pecell)
      : space(s), pedge(pedge), pecell(pecell), w(m.edges, "w"), x(m.nodes, "x"), q(m.cells, "q"),
        res(m.cells, "res"), scale(m.cells, "scale"), store("sequence", s),
        sum(store.template sum<2>("sum", 0.5)), mn(store.min("min", 0.25)),
        mx(store.max("max", -1.0)), plan(test_plan<E>(s, m.edges, pecell)),
        cells(make_plan(s, exec::Atomic{}, m.cells)) {
    randomise(w, 1);
    randomise(x, 2);
    randomise(q, 3);
    poison(res); // the first step must write it all
    poison(scale);
  }

  void zero() {
    store.reset();
    fill(space, res.view(), 0.0);
  }
  void flux() {
    par_loop(plan, "flux", Kernel{}, read(w), read(x, pedge, 0), read(x, pedge, 1),
             read(q, pecell, 0), read(q, pecell, 1), inc(res, pecell, 0), inc(res, pecell, 1),
             reduce_sum(sum), reduce_min(mn), reduce_max(mx));
  }
  // A kernel of the test's own between the loops (light weight, as CUDA
  // graphs need).
  void own_kernel() {
    auto r = res.view();
    auto s = scale.view();
    Kokkos::parallel_for(
        "scale",
        Kokkos::Experimental::require(Kokkos::RangePolicy<Space>(space, 0, res.size()),
                                      Kokkos::Experimental::WorkItemProperty::HintLightWeight),
        KOKKOS_LAMBDA(int i) { s(i, 0) = 1.0 + r(i, 0) * r(i, 0); });
  }
  void update() { par_loop(cells, "update", Update{}, read(res), read(scale), rw(q)); }
  void run_all() {
    zero();
    flux();
    own_kernel();
    update();
  }

  Space space;
  Map<Mem> pedge, pecell;
  DatT<1> w;
  DatT<2> x;
  DatT<4> q, res;
  DatT<1> scale;
  DeviceGlobalStore<double, Space> store;
  DeviceGlobal<double, 2, Space> sum;
  DeviceGlobal<double, 1, Space> mn, mx;
  decltype(test_plan<E>(std::declval<Space>(), std::declval<Set>(), std::declval<Map<Mem>>())) plan;
  Plan<exec::Atomic, Space> cells;
};

template <class DatT> void expect_bitwise(const DatT &a, const DatT &b, const char *what) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.view());
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view());
  int differ = 0;
  for (std::size_t i = 0; i < ha.extent(0); ++i)
    for (std::size_t k = 0; k < ha.extent(1); ++k)
      differ += !(ha(i, k) == hb(i, k));
  EXPECT_EQ(differ, 0) << what;
}

template <class S, class E, class L> struct GraphConfig {
  using space = S;
  using exec = E;
  using layout = L;
};
template <class S, class... E>
using GraphConfigsFor = List<GraphConfig<S, E, AoS>..., GraphConfig<S, E, SoA>...>;
template <class Spaces> struct GraphExpand;
template <class... S> struct GraphExpand<List<S...>> {
  using type =
      typename Cat<GraphConfigsFor<S, exec::Serial, exec::Atomic, exec::Gather, exec::GlobalColour,
                                   exec::ScatterView, exec::Hierarchical, exec::Segmented,
                                   exec::WarpCombine, exec::Auto>...,
                   List<>>::type;
};
using GraphConfigs = typename ToTypes<typename GraphExpand<Spaces>::type>::type;
// The large body in one layout (each executor compiles it twice: by value and by reference).
template <class Spaces> struct LargeBodyExpand;
template <class... S> struct LargeBodyExpand<List<S...>> {
  using type = typename Cat<
      List<GraphConfig<S, exec::Serial, SoA>, GraphConfig<S, exec::Atomic, SoA>,
           GraphConfig<S, exec::Gather, SoA>, GraphConfig<S, exec::GlobalColour, SoA>,
           GraphConfig<S, exec::ScatterView, SoA>, GraphConfig<S, exec::Hierarchical, SoA>,
           GraphConfig<S, exec::Segmented, SoA>, GraphConfig<S, exec::WarpCombine, SoA>,
           GraphConfig<S, exec::Auto, SoA>>...,
      List<>>::type;
};
using LargeBodyConfigs = typename ToTypes<typename LargeBodyExpand<Spaces>::type>::type;

template <class C> class LoopGraphs : public ::testing::Test {};
TYPED_TEST_SUITE(LoopGraphs, GraphConfigs);

// Four launches; before the second and fourth the inputs change on the host
// (the same values in every copy): a launch reads what the memory holds then.
template <class Space, class E, class L, class Kernel> void expect_launches_match() {
  using Mem = typename Space::memory_space;
  const QuadMesh m = make_quad_mesh(23, 17, {true, 11});
  const Map<Mem> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  const Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);

  LoopGraph<Space> g("sequence");
  Sequence<Space, L, exec::Serial, Kernel> ref(Space(), m, pedge, pecell);
  Sequence<Space, L, E, Kernel> one(Space(), m, pedge, pecell);
  Sequence<Space, L, E, Kernel> graphed(g.space(), m, pedge, pecell);
  int calls = 0;
  g.add("zero", [&] { graphed.zero(); })
      .add("flux",
           [&] {
             ++calls;
             graphed.flux();
           })
      .add("own kernel", [&] { graphed.own_kernel(); })
      .add("update", [&] { graphed.update(); });
  EXPECT_EQ(g.steps(), 4);

  // Serial, gather and colouring run each loop the same way every time.
  constexpr bool deterministic = std::is_same<E, exec::Serial>::value ||
                                 std::is_same<E, exec::Gather>::value ||
                                 std::is_same<E, exec::GlobalColour>::value;
  for (int launch = 0; launch < 4; ++launch) {
    SCOPED_TRACE("launch " + std::to_string(launch));
    if (launch == 1 || launch == 3)
      for (auto *s : {&ref.x, &one.x, &graphed.x})
        randomise(*s, 100 + launch);
    ref.run_all();
    one.run_all();
    g.launch();
    ref.store.fetch();
    one.store.fetch();
    graphed.store.fetch();
    EXPECT_LT(max_rel_err(graphed.q, ref.q), 1e-11);
    EXPECT_LT(max_rel_err(graphed.res, ref.res), 1e-11);
    for (int k = 0; k < 2; ++k)
      EXPECT_NEAR(graphed.sum[k], ref.sum[k], 1e-10 * std::fabs(ref.sum[k]));
    EXPECT_EQ(graphed.mn.value(), ref.mn.value());
    EXPECT_EQ(graphed.mx.value(), ref.mx.value());
    EXPECT_GT(graphed.sum[0], 0.5); // the loop did reduce
    if constexpr (deterministic) {
      expect_bitwise(graphed.q, one.q, "q");
      expect_bitwise(graphed.res, one.res, "res");
      if constexpr (std::is_same<E, exec::Serial>::value) {
        for (int k = 0; k < 2; ++k)
          EXPECT_EQ(graphed.sum[k], one.sum[k]);
      }
    }
  }
  EXPECT_EQ(g.launches(), 4);
  // Host backends run the steps at every launch; CUDA runs them at the
  // first, records them (a second call) and replays the recording.
  EXPECT_EQ(calls, LoopGraph<Space>::replays ? 2 : 4);
  if (LoopGraph<Space>::replays)
    EXPECT_GT(g.nodes(), 4u);
  else
    EXPECT_EQ(g.nodes(), 0u);

  // reset(): the graph takes steps again, and runs (records) them again.
  g.reset();
  EXPECT_EQ(g.launches(), 0);
  g.add("again", [&] { graphed.zero(); });
  g.launch();
  graphed.store.fetch();
  EXPECT_EQ(graphed.sum[0], 0.5); // reset by the last step, and nothing reduced after
}

TYPED_TEST(LoopGraphs, LaunchesMatchTheLoopsOneByOne) {
  expect_launches_match<typename TypeParam::space, typename TypeParam::exec,
                        typename TypeParam::layout, Flux>();
}

// Host backends pass the large body by reference too while the flag is on:
// BodyRef under every executor, without a GPU.
class BodiesByReference {
public:
  BodiesByReference() { detail::graph_bodies_by_reference_on_host() = true; }
  ~BodiesByReference() { detail::graph_bodies_by_reference_on_host() = false; }
};

template <class C> class LargeBodyGraphs : public ::testing::Test {};
TYPED_TEST_SUITE(LargeBodyGraphs, LargeBodyConfigs);

TYPED_TEST(LargeBodyGraphs, LaunchesMatchTheLoopsOneByOne) {
  static_assert(sizeof(BigFlux) + detail::graph_body_margin >= detail::graph_functor_max_bytes,
                "BigFlux's loops must pass their body by reference");
  const BodiesByReference on;
  expect_launches_match<typename TypeParam::space, typename TypeParam::exec,
                        typename TypeParam::layout, BigFlux>();
}

} // namespace
} // namespace umesh::test
