// Reductions into umesh::Global with Kokkos' semantics, under every executor,
// layout and space: a loop's sum, minimum and maximum start from the
// reduction's identity and replace the values the Global held (a minimum of
// positive data into a default Global is that minimum, never the 0 it was
// made with); combine_with_held folds into the values held. Each against a
// serial fold of the same values on the host.
#include "executor_suite.hpp"
#include "test_main.hpp"

#include <limits>

namespace umesh::test {

// (The suite of executor_suite.hpp is instantiated in test_executors.)
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Executors);

// Per edge a positive value from both cells' states, as a time-step limit
// is: its sum and sum of squares, its minimum, and the maximum of its
// negation (all negative, so a maximum from 0 would be wrong too). The
// value is also added to both cells, so every executor's increments run.
struct StepKernel {
  template <class Q, class R, class S, class Lo, class Hi>
  KOKKOS_INLINE_FUNCTION void operator()(Q q1, Q q2, R r1, R r2, S sum, Lo lo, Hi hi) const {
    const double v = q1(0) * q2(1) + 0.5 * (q1(1) + q2(0));
    r1(0) += v;
    r2(0) -= v;
    sum(0) += v;
    sum(1) += v * v;
    lo(0) = v < lo(0) ? v : lo(0);
    hi(0) = -v > hi(0) ? -v : hi(0);
  }
};

struct Fold {
  double sum[2] = {0, 0};
  double lo = std::numeric_limits<double>::max();
  double hi = std::numeric_limits<double>::lowest();
};

template <class DatQ> Fold serial_fold(const QuadMesh &m, const DatQ &q) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q.view());
  Fold f;
  for (int e = 0; e < m.edges.size(); ++e) {
    const int c1 = m.edge_cells[2 * e], c2 = m.edge_cells[2 * e + 1];
    const double v = h(c1, 0) * h(c2, 1) + 0.5 * (h(c1, 1) + h(c2, 0));
    f.sum[0] += v;
    f.sum[1] += v * v;
    f.lo = v < f.lo ? v : f.lo;
    f.hi = -v > f.hi ? -v : f.hi;
  }
  return f;
}

template <class C> class Reductions : public Executors<C> {};
TYPED_TEST_SUITE_P(Reductions);

TYPED_TEST_P(Reductions, DefaultGlobalsHoldTheLoopsResult) {
  using Mem = typename TestFixture::Mem;
  using E = typename TypeParam::exec;
  const QuadMesh m = make_quad_mesh(23, 19, {true, 11});
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  typename TestFixture::template DatT<2> q(m.cells, "q");
  typename TestFixture::template DatT<1> r(m.cells, "r");
  randomise(q, 71, 0.5, 2.0); // every edge's value positive
  randomise(r, 72);
  const Fold want = serial_fold(m, q);
  ASSERT_GT(want.lo, 0.5);

  Global<double, 2> sum("sum");
  Global<double> lo("lo"), hi("hi"); // made with 0, below and above every value
  auto plan = this->template plan<E>(m.edges, pecell);
  auto run = [&](const auto &...g) {
    par_loop(plan, "step", StepKernel{}, read(q, pecell, 0), read(q, pecell, 1), inc(r, pecell, 0),
             inc(r, pecell, 1), g...);
  };
  auto expect_fold = [&](const char *when) {
    SCOPED_TRACE(when);
    for (int k = 0; k < 2; ++k)
      EXPECT_NEAR(sum[k], want.sum[k], 1e-12 * want.sum[k]);
    EXPECT_EQ(lo.value(), want.lo);
    EXPECT_EQ(hi.value(), want.hi);
  };
  run(reduce_sum(sum), reduce_min(lo), reduce_max(hi));
  expect_fold("default globals");
  // Values held before a loop play no part: poisoned, then a second run.
  sum.fill(std::numeric_limits<double>::quiet_NaN());
  lo.fill(-1.0);
  hi.fill(1.0);
  run(reduce_sum(sum), reduce_min(lo), reduce_max(hi));
  expect_fold("poisoned globals, second run");

  // An empty loop gives the identities.
  const Set none("none", 0);
  Map<Mem> empty("empty", none, m.cells, 2, std::vector<int>{});
  auto empty_plan = this->template plan<E>(none, empty);
  par_loop(empty_plan, "empty", StepKernel{}, read(q, empty, 0), read(q, empty, 1),
           inc(r, empty, 0), inc(r, empty, 1), reduce_sum(sum), reduce_min(lo), reduce_max(hi));
  EXPECT_EQ(sum[0], 0.0);
  EXPECT_EQ(lo.value(), std::numeric_limits<double>::max());
  EXPECT_EQ(hi.value(), std::numeric_limits<double>::lowest());
}

TYPED_TEST_P(Reductions, CombineWithHeldFoldsIntoTheValuesHeld) {
  using Mem = typename TestFixture::Mem;
  using E = typename TypeParam::exec;
  const QuadMesh m = make_quad_mesh(17, 13, {true, 12});
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  typename TestFixture::template DatT<2> q(m.cells, "q");
  typename TestFixture::template DatT<1> r(m.cells, "r");
  randomise(q, 81, 0.5, 2.0);
  randomise(r, 82);
  const Fold want = serial_fold(m, q);
  auto plan = this->template plan<E>(m.edges, pecell);
  auto run = [&](Global<double, 2> &s, Global<double> &l, Global<double> &h) {
    par_loop(plan, "step", StepKernel{}, read(q, pecell, 0), read(q, pecell, 1), inc(r, pecell, 0),
             inc(r, pecell, 1), reduce_sum(s, combine_with_held), reduce_min(l, combine_with_held),
             reduce_max(h, combine_with_held));
  };
  // Held values beyond the data's stay; those inside it give way.
  Global<double, 2> sum("sum", 10.0);
  Global<double> lo("lo", 0.25), hi("hi", 0.0);
  run(sum, lo, hi);
  for (int k = 0; k < 2; ++k)
    EXPECT_NEAR(sum[k], 10.0 + want.sum[k], 1e-12 * want.sum[k]);
  EXPECT_EQ(lo.value(), 0.25);
  EXPECT_EQ(hi.value(), 0.0);
  Global<double, 2> sum2("sum2");
  Global<double> lo2("lo2", 1e300), hi2("hi2", -1e300);
  run(sum2, lo2, hi2);
  run(sum2, lo2, hi2); // a running total over two loops
  for (int k = 0; k < 2; ++k)
    EXPECT_NEAR(sum2[k], 2 * want.sum[k], 1e-12 * want.sum[k]);
  EXPECT_EQ(lo2.value(), want.lo);
  EXPECT_EQ(hi2.value(), want.hi);
}

REGISTER_TYPED_TEST_SUITE_P(Reductions, DefaultGlobalsHoldTheLoopsResult,
                            CombineWithHeldFoldsIntoTheValuesHeld);
using AllConfigs =
    ExecutorConfigs<exec::Serial, exec::Atomic, exec::Gather, exec::GlobalColour, exec::ScatterView,
                    exec::Hierarchical, exec::WarpCombine, exec::Segmented, exec::Auto>;
INSTANTIATE_TYPED_TEST_SUITE_P(All, Reductions, AllConfigs);

// Device globals fold every loop in until the store's reset(); a min or max
// made without an initial value starts from the reduction's identity.
template <class C> class DeviceGlobalDefaults : public ::testing::Test {};
TYPED_TEST_SUITE(DeviceGlobalDefaults, SpaceLayouts);

struct MinMax {
  template <class X, class Lo, class Hi>
  KOKKOS_INLINE_FUNCTION void operator()(X x, Lo lo, Hi hi) const {
    lo(0) = x(0) < lo(0) ? x(0) : lo(0);
    hi(0) = -x(0) > hi(0) ? -x(0) : hi(0);
  }
};

TYPED_TEST(DeviceGlobalDefaults, MinAndMaxStartFromTheIdentity) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  const Set cells("cells", 777);
  Dat<double, 1, typename TypeParam::layout, Mem> x(cells, "x");
  randomise(x, 91, 0.5, 2.0);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
  double want = 2.0;
  for (int i = 0; i < cells.size(); ++i)
    want = h(i, 0) < want ? h(i, 0) : want;
  DeviceGlobalStore<double, Space> store("step");
  auto lo = store.min("dt");
  auto hi = store.max("neg");
  store.reset();
  store.fetch();
  EXPECT_EQ(lo.value(), std::numeric_limits<double>::max());
  EXPECT_EQ(hi.value(), std::numeric_limits<double>::lowest());
  par_loop(Space(), exec::Atomic{}, cells, "minmax", MinMax{}, read(x), reduce_min(lo),
           reduce_max(hi));
  store.fetch();
  EXPECT_EQ(lo.value(), want);
  EXPECT_EQ(hi.value(), -want);
}

} // namespace umesh::test
