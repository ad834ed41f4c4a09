// Component counts of loop arguments. Every accessor carries its argument's
// count as `X::components` (checked here at compile time under every
// executor, in a kernel that static_asserts it); this program is built
// with UMESH_DEBUG (tests/CMakeLists.txt), so a kernel that reads past a
// dat's width aborts with a message naming the component and the width,
// where a release build would read another point's values.
#include "executor_suite.hpp"
#include "test_main.hpp"

#ifndef UMESH_CHECK_COMPONENTS
#error "test_components is built with UMESH_DEBUG: accessors must check component indices"
#endif

namespace umesh::test {

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Executors);

static_assert(ReadAccessor<double, AoS, 4>::components == 4, "accessors carry their width");
static_assert(RwAccessor<float, SoA, 2>::components == 2, "accessors carry their width");
static_assert(IncAccessor<double, SoA, true, 5>::components == 5, "accessors carry their width");

// Checks the widths of what it is given at compile time, as a user's kernel
// may: a dat of another width would not compile.
struct CheckedKernel {
  template <class W, class Q, class R, class G>
  KOKKOS_INLINE_FUNCTION void operator()(W w, Q q1, Q q2, R r1, R r2, G g) const {
    static_assert(W::components == 1 && Q::components == 4 && R::components == 4 &&
                      G::components == 2,
                  "CheckedKernel: w has 1 component, q and r 4, g 2");
    for (int k = 0; k < 4; ++k) {
      const double f = w(0) * (q1(k) - q2(k));
      r1(k) += f;
      r2(k) -= f;
      g(k % 2) += f * f;
    }
  }
};

// Every executor compiles the check (its accessors, staged ones included,
// say their width) and, with the debug checks on, runs every index the
// kernel uses within the widths.
template <class C> class Components : public Executors<C> {};
TYPED_TEST_SUITE_P(Components);
TYPED_TEST_P(Components, EveryExecutorsAccessorsCarryTheirWidth) {
  using E = typename TypeParam::exec;
  using Mem = typename TestFixture::Mem;
  const QuadMesh m = make_quad_mesh(11, 7, {true, 3});
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  typename TestFixture::template DatT<1> w(m.edges, "w");
  typename TestFixture::template DatT<4> q(m.cells, "q"), r(m.cells, "r"), ref(m.cells, "ref");
  randomise(w, 1);
  randomise(q, 2);
  Global<double, 2> g("g"), g_ref("g_ref");
  auto plan = this->template plan<E>(m.edges, pecell);
  par_loop(plan, "checked", CheckedKernel{}, read(w), read(q, pecell, 0), read(q, pecell, 1),
           inc(r, pecell, 0), inc(r, pecell, 1), reduce_sum(g));
  auto serial = this->template plan<exec::Serial>(m.edges);
  par_loop(serial, "checked", CheckedKernel{}, read(w), read(q, pecell, 0), read(q, pecell, 1),
           inc(ref, pecell, 0), inc(ref, pecell, 1), reduce_sum(g_ref));
  EXPECT_LT(max_rel_err(r, ref), 1e-12);
  EXPECT_NEAR(g[0], g_ref[0], 1e-12 * g_ref[0]);
}
REGISTER_TYPED_TEST_SUITE_P(Components, EveryExecutorsAccessorsCarryTheirWidth);
using HostConfigs =
    ToTypes<ConfigsIn<SoA, Kokkos::DefaultHostExecutionSpace, exec::Serial, exec::Atomic,
                      exec::Gather, exec::GlobalColour, exec::ScatterView, exec::Hierarchical,
                      exec::WarpCombine, exec::Segmented, exec::Auto>>::type;
INSTANTIATE_TYPED_TEST_SUITE_P(Host, Components, HostConfigs);

// The mistake: a kernel written for 4 components given a dat of 2.
struct ReadsFour {
  template <class Q, class R> KOKKOS_INLINE_FUNCTION void operator()(Q q, R r) const {
    double s = 0;
    for (int k = 0; k < 4; ++k)
      s += q(k);
    r(0) += s;
  }
};
struct IncsFour {
  template <class Q, class R> KOKKOS_INLINE_FUNCTION void operator()(Q q, R r) const {
    for (int k = 0; k < 4; ++k)
      r(k) += q(0);
  }
};
struct ReducesTwo {
  template <class Q, class G> KOKKOS_INLINE_FUNCTION void operator()(Q q, G g) const {
    g(0) += q(0);
    g(1) += q(1);
  }
};

template <class L> class WrongWidth : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};
using Layouts = ::testing::Types<AoS, SoA>;
TYPED_TEST_SUITE(WrongWidth, Layouts);

using Host = Kokkos::DefaultHostExecutionSpace;
constexpr const char *past_two = "component 2 of a loop argument with 2 components";

TYPED_TEST(WrongWidth, ReadPastTheWidthAborts) {
  using L = TypeParam;
  const QuadMesh m = make_quad_mesh(5, 4);
  Map<Host::memory_space> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  Dat<double, 2, L, Host::memory_space> q(m.cells, "q");
  Dat<double, 1, L, Host::memory_space> r(m.cells, "r"), e(m.edges, "e");
  EXPECT_DEATH(par_loop(Host(), exec::Atomic{}, m.cells, "direct", ReadsFour{}, read(q), inc(r)),
               past_two);
  EXPECT_DEATH(par_loop(Host(), exec::Atomic{}, m.edges, "indirect", ReadsFour{},
                        read(q, pecell, 0), inc(e)),
               past_two);
  auto hier = make_plan(Host(), exec::Hierarchical{}.with_block_size(16), m.edges, pecell);
  EXPECT_DEATH(par_loop(hier, "staged", ReadsFour{}, read(q, pecell, 0), inc(r, pecell, 1)),
               past_two);
}

TYPED_TEST(WrongWidth, IncrementPastTheWidthAborts) {
  using L = TypeParam;
  const QuadMesh m = make_quad_mesh(5, 4);
  Map<Host::memory_space> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  Dat<double, 1, L, Host::memory_space> w(m.edges, "w");
  Dat<double, 2, L, Host::memory_space> r(m.cells, "r");
  EXPECT_DEATH(
      par_loop(Host(), exec::Atomic{}, m.edges, "atomic", IncsFour{}, read(w), inc(r, pecell, 0)),
      past_two);
  auto scatter = make_plan(Host(), exec::ScatterView{}, m.edges, pecell);
  EXPECT_DEATH(par_loop(scatter, "scatter", IncsFour{}, read(w), inc(r, pecell, 1)), past_two);
}

TYPED_TEST(WrongWidth, ReductionPastTheWidthAborts) {
  using L = TypeParam;
  const Set cells("cells", 9);
  Dat<double, 2, L, Host::memory_space> q(cells, "q");
  Global<double> one("one");
  EXPECT_DEATH(
      par_loop(Host(), exec::Serial{}, cells, "reduce", ReducesTwo{}, read(q), reduce_sum(one)),
      "component 1 of a loop argument with 1 components");
}

} // namespace umesh::test
