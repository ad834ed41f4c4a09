// Device globals (reductions the host does not wait for) under every
// executor, layout and space against the serial reference's host Globals;
// their misuse; and plans over Subsets (one launch for many element lists).
#include "executor_suite.hpp"
#include "test_main.hpp"

#include "common/launch_counter.hpp"

#include <limits>

namespace umesh::test {

template <class C> class DeviceGlobalReductions : public Executors<C> {};
TYPED_TEST_SUITE_P(DeviceGlobalReductions);
// (The suite of executor_suite.hpp is instantiated in test_executors.)
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Executors);

// The edge kernel reduces a sum of two components, a minimum and a maximum;
// run twice so that each run folds into what the last one left (the host
// Globals combine_with_held, as device globals fold until a reset).
TYPED_TEST_P(DeviceGlobalReductions, ReductionsMatchSerialHostGlobals) {
  using Space = typename TestFixture::Space;
  using Mem = typename TestFixture::Mem;
  using E = typename TypeParam::exec;
  const QuadMesh m = make_quad_mesh(29, 17, {true, 5});
  Map<Mem> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  typename TestFixture::template DatT<1> w(m.edges, "w"), adt(m.cells, "adt");
  typename TestFixture::template DatT<2> x(m.nodes, "x");
  typename TestFixture::template DatT<4> q(m.cells, "q"), res(m.cells, "res"), ref(m.cells, "ref");
  randomise(w, 21);
  randomise(adt, 22, 0.1, 2);
  randomise(x, 23);
  randomise(q, 24);
  randomise(res, 25);
  copy_values(ref, res);

  Global<double, 2> sum_ref("sum", 1.5);
  Global<double> mn_ref("min", 0.25), mx_ref("max", -1.0);
  umesh::DeviceGlobalStore<double, Space> store("step");
  auto sum = store.template sum<2>("sum", 1.5);
  auto mn = store.min("min", 0.25);
  auto mx = store.max("max", -1.0);
  auto serial = this->template plan<exec::Serial>(m.edges);
  auto p = this->template plan<E>(m.edges, pecell);
  auto args = [&](auto &out) {
    return std::make_tuple(read(w), read(x, pedge, 0), read(x, pedge, 1), read(q, pecell, 0),
                           read(q, pecell, 1), read(adt, pecell, 0), read(adt, pecell, 1),
                           inc(out, pecell, 0), inc(out, pecell, 1));
  };
  for (int run = 0; run < 2; ++run) {
    std::apply(
        [&](const auto &...a) {
          par_loop(serial, "edge", EdgeKernel{}, a..., reduce_sum(sum_ref, combine_with_held),
                   reduce_min(mn_ref, combine_with_held), reduce_max(mx_ref, combine_with_held));
        },
        args(ref));
    std::apply(
        [&](const auto &...a) {
          par_loop(p, "edge", EdgeKernel{}, a..., reduce_sum(sum), reduce_min(mn), reduce_max(mx));
        },
        args(res));
    // Read before the fetch that follows the loop: refused, never stale.
    EXPECT_THROW((void)mn.value(), Error);
    store.fetch();
    EXPECT_LT(max_rel_err(res, ref), 1e-12);
    for (int k = 0; k < 2; ++k)
      EXPECT_NEAR(sum[k], sum_ref[k], 1e-10 * std::fabs(sum_ref[k]));
    EXPECT_EQ(mn.value(), mn_ref.value());
    EXPECT_EQ(mx.value(), mx_ref.value());
  }
  EXPECT_LT(mn.value(), 0.25); // the loops did reach the globals
  EXPECT_GT(mx.value(), 0.0);
  EXPECT_GT(sum[0], 1.5);

  // reset() puts the initial values back, on the device.
  store.reset();
  store.fetch();
  EXPECT_EQ(sum[0], 1.5);
  EXPECT_EQ(sum[1], 1.5);
  EXPECT_EQ(mn.value(), 0.25);
  EXPECT_EQ(mx.value(), -1.0);
}

REGISTER_TYPED_TEST_SUITE_P(DeviceGlobalReductions, ReductionsMatchSerialHostGlobals);
using AllConfigs =
    ExecutorConfigs<exec::Serial, exec::Atomic, exec::Gather, exec::GlobalColour, exec::ScatterView,
                    exec::Hierarchical, exec::WarpCombine, exec::Segmented, exec::Auto>;
INSTANTIATE_TYPED_TEST_SUITE_P(All, DeviceGlobalReductions, AllConfigs);

// A loop with both kinds of global: the host Global's value comes back as
// before, the device global's stays on the device until fetched.
template <class C> class MixedGlobals : public ::testing::Test {};
TYPED_TEST_SUITE(MixedGlobals, SpaceLayouts);

struct SumAndMax {
  template <class X, class S, class M>
  KOKKOS_INLINE_FUNCTION void operator()(X x, S s, M mx) const {
    s(0) += x(0);
    mx(0) = x(1) > mx(0) ? x(1) : mx(0);
  }
};

TYPED_TEST(MixedGlobals, HostAndDeviceGlobalsInOneLoop) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  const Set cells("cells", 1000);
  Dat<double, 2, typename TypeParam::layout, Mem> x(cells, "x");
  randomise(x, 31);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
  double sum = 0.5, mx = -2;
  for (int i = 0; i < cells.size(); ++i) {
    sum += h(i, 0);
    mx = h(i, 1) > mx ? h(i, 1) : mx;
  }
  Global<double> s("s", 0.5);
  umesh::DeviceGlobalStore<double, Space> store("mixed");
  auto dmx = store.max("max", -2);
  par_loop(Space(), exec::Atomic{}, cells, "mixed", SumAndMax{}, read(x),
           reduce_sum(s, combine_with_held), reduce_max(dmx));
  EXPECT_NEAR(s.value(), sum, 1e-12 * cells.size());
  store.fetch();
  EXPECT_EQ(dmx.value(), mx);
}

// An empty loop (CUDA still launches, to fold the identity), two stores in
// one loop, a global added after a fetch.
TYPED_TEST(MixedGlobals, EmptyLoopsTwoStoresAndLateGlobals) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  const Set none("none", 0), cells("cells", 300);
  Dat<double, 2, typename TypeParam::layout, Mem> x0(none, "x0"), x(cells, "x");
  randomise(x, 61);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
  double sum = 0.25, mx = -3;
  for (int i = 0; i < cells.size(); ++i) {
    sum += h(i, 0);
    mx = h(i, 1) > mx ? h(i, 1) : mx;
  }
  umesh::DeviceGlobalStore<double, Space> a("a"), b("b");
  auto s = a.sum("s", 0.25);
  auto m = b.max("m", -3.0);
  par_loop(Space(), exec::Atomic{}, none, "empty", SumAndMax{}, read(x0), reduce_sum(s),
           reduce_max(m));
  a.fetch();
  b.fetch();
  EXPECT_EQ(s.value(), 0.25);
  EXPECT_EQ(m.value(), -3.0);
  par_loop(Space(), exec::Atomic{}, cells, "two", SumAndMax{}, read(x), reduce_sum(s),
           reduce_max(m));
  EXPECT_THROW((void)m.value(), Error); // b reduced into since its fetch
  a.fetch();
  b.fetch();
  EXPECT_NEAR(s.value(), sum, 1e-12 * cells.size());
  EXPECT_EQ(m.value(), mx);
  auto late = a.min("late", 7.0); // the host copy is out of date until a fetch
  EXPECT_THROW((void)late.value(), Error);
  EXPECT_THROW((void)s.value(), Error);
  a.fetch();
  EXPECT_EQ(late.value(), 7.0);
  EXPECT_NEAR(s.value(), sum, 1e-12 * cells.size()); // kept across the growth
}

TYPED_TEST(MixedGlobals, MisuseIsRefused) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  const Set cells("cells", 10);
  Dat<double, 2, typename TypeParam::layout, Mem> x(cells, "x");
  Global<double> s("s");
  umesh::DeviceGlobalStore<double, Space> store("misuse");
  auto mn = store.min("lowest", 0.0);
  EXPECT_THROW((void)mn.value(), Error); // never fetched
  try {
    par_loop(Space(), exec::Atomic{}, cells, "wrong", SumAndMax{}, read(x), reduce_sum(s),
             reduce_max(mn));
    FAIL() << "reduce_max into a min global ran";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("reduce_max into device global 'lowest', which was made "
                                         "for reduce_min"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(store.min("lowest", 1.0), Error); // a second global of that name
  EXPECT_THROW(store.sum("", 1.0), Error);
  store.fetch();
  EXPECT_THROW((void)mn[1], Error); // one component
}

// Subsets: one launch over several element lists, in their order, with each
// element's subset at hand; Serial and Atomic agree with a host loop.
template <class C> class SubsetPlans : public ::testing::Test {};
TYPED_TEST_SUITE(SubsetPlans, SpaceLayouts);

struct Scaled {
  template <class I, class X, class R, class W, class G>
  KOKKOS_INLINE_FUNCTION void operator()(I subset, X x, R reps, W y, G count) const {
    double v = x(0);
    for (int r = 0; r < reps(0); ++r)
      v = 0.5 * v + 1.0;
    y(0) = v + 10.0 * subset(0);
    count(0) += 1;
  }
};

TYPED_TEST(SubsetPlans, OneLaunchOverEverySubsetMatchesHostLoop) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  using L = typename TypeParam::layout;
  const Set elems("elems", 500);
  std::vector<std::vector<int>> lists(3);
  std::mt19937 rng(7);
  std::vector<int> reps_of(elems.size(), 0);
  for (int e = 0; e < elems.size(); ++e)
    if (e % 7 != 3) // some elements are in no subset
      lists[rng() % 3].push_back(e);
  std::shuffle(lists[1].begin(), lists[1].end(), rng);
  const int reps[3] = {1, 2, 20};
  for (int s = 0; s < 3; ++s)
    for (int e : lists[s])
      reps_of[e] = reps[s];
  const Subsets<Mem> subsets("regions", elems, lists);
  EXPECT_EQ(subsets.count(), 3);
  EXPECT_EQ(subsets.end(2), subsets.size());
  EXPECT_THROW((void)subsets.begin(3), Error);
  Dat<double, 1, L, Mem> x(elems, "x"), y(elems, "y"), ref(elems, "ref");
  Dat<int, 1, L, Mem> r(elems, "reps");
  copy_from_host(r, reps_of);
  randomise(x, 41);
  randomise(y, 42); // poison: elements in no subset must keep these values
  copy_values(ref, y);
  auto before = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y.view());
  Global<int> n_serial("n");
  umesh::DeviceGlobalStore<int, Space> counts("counts");
  auto n_atomic = counts.sum("n", 0);
  counts.reset();
  auto serial = make_plan(Space(), exec::Serial{}, subsets);
  auto atomic = make_plan(Space(), exec::Atomic{}, subsets);
  EXPECT_TRUE(atomic.over_subsets());
  EXPECT_EQ(atomic.size(), subsets.size());
  par_loop(serial, "scaled", Scaled{}, read(subsets.index()), read(x), read(r), write(ref),
           reduce_sum(n_serial));
  par_loop(atomic, "scaled", Scaled{}, read(subsets.index()), read(x), read(r), write(y),
           reduce_sum(n_atomic));
  counts.fetch();
  EXPECT_EQ(n_serial.value(), subsets.size());
  EXPECT_EQ(n_atomic.value(), subsets.size());
  EXPECT_EQ(max_rel_err(y, ref), 0.0);
  auto after = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y.view());
  for (int e = 0; e < elems.size(); ++e) {
    if (reps_of[e] == 0) {
      EXPECT_EQ(after(e, 0), before(e, 0)) << "element " << e << " is in no subset";
    }
  }
  // The serial one against a plain host loop.
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
  auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ref.view());
  for (int s = 0; s < 3; ++s)
    for (int e : lists[s]) {
      double v = hx(e, 0);
      for (int k = 0; k < reps[s]; ++k)
        v = 0.5 * v + 1.0;
      EXPECT_EQ(hy(e, 0), v + 10.0 * s) << "element " << e;
    }
}

// The apps' count of launches and host waits (--timers): a reduction into a
// host Global waits, one into a device global does not, a fetch waits once.
TYPED_TEST(MixedGlobals, LaunchCounterSeesTheWaits) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  const Set cells("cells", 100);
  Dat<double, 2, typename TypeParam::layout, Mem> x(cells, "x");
  randomise(x, 51);
  Global<double> s("s");
  umesh::DeviceGlobalStore<double, Space> store("counted");
  auto dmx = store.max("max", -2);
  auto dsum = store.sum("sum", 0.0);
  apps::LaunchCounter counter;
  counter.start();
  par_loop(Space(), exec::Atomic{}, cells, "host", SumAndMax{}, read(x), reduce_sum(s),
           reduce_max(dmx));
  const auto host = counter.counts();
  EXPECT_EQ(host.launches, 1);
  EXPECT_EQ(host.host_syncs, 1);
  par_loop(Space(), exec::Atomic{}, cells, "device", SumAndMax{}, read(x), reduce_sum(dsum),
           reduce_max(dmx));
  EXPECT_EQ(counter.counts().launches, 2);
#if KOKKOS_VERSION < 40000
  EXPECT_EQ(counter.counts().host_syncs, 1); // (Kokkos 4 may fence a host backend's result)
#endif
  const auto before_fetch = counter.counts().host_syncs;
  store.fetch();
  EXPECT_EQ(counter.counts().host_syncs, before_fetch + 1);
  counter.stop();
  EXPECT_NEAR(dsum.value(), s.value(), 1e-12 * cells.size());
}

TEST(SubsetErrors, BadListsAreRefused) {
  const Set elems("elems", 10);
  auto message = [&](const std::vector<std::vector<int>> &lists) {
    try {
      Subsets<Kokkos::HostSpace> s("regions", elems, lists);
    } catch (const Error &e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message({{1, 2}, {3, 10}}).find("subset 1 holds element 10, but set 'elems' has 10"),
            std::string::npos);
  EXPECT_NE(message({{1, 2}, {-1}}).find("holds element -1"), std::string::npos);
  EXPECT_NE(message({{1, 2}, {3, 2}}).find("element 2 is in subset 0 and in subset 1"),
            std::string::npos);
  EXPECT_NE(message({{4, 4}}).find("element 4 is in subset 0 twice"), std::string::npos);
  EXPECT_EQ(message({{}, {0, 9}}), "accepted");
}

} // namespace umesh::test
