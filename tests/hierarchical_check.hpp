#ifndef UMESH_TEST_HIERARCHICAL_CHECK_HPP
#define UMESH_TEST_HIERARCHICAL_CHECK_HPP

// test_hierarchical's main check: a loop of many arguments through a map of
// arity 2, 4 or 8 under a hierarchical configuration, against the serial
// reference. Its instantiations (every staging, combine and write-back
// kernel, for every space and layout) are the heaviest of the program, so
// test_hierarchical_arity.cpp compiles each arity's apart, in parallel, and
// the test files see them declared only (UMESH_TEST_CHECKS).

#include "test_support.hpp"

#include <cmath>
#include <string>

namespace umesh::test {

// Reads a 2-component and a 3-component dat through one map and a
// 1-component dat through a second map; increments a 5-component and a
// 1-component dat through every slot of the first map and a 4-component dat
// through the second.
template <int Arity> struct MultiKernel {
  template <class W, class A, class B, class C, class U, class V, class R, class GS, class GM>
  KOKKOS_INLINE_FUNCTION void operator()(W w, A a0, A a1, B b0, B blast, C c0, U u0, U u1, U u2,
                                         V vlast, R r0, GS sum, GM mx) const {
    const double s = w(0) + a0(0) * a1(1) - b0(2) + blast(0) * c0(0);
    sum(0) += s;
    mx(0) = s > mx(0) ? s : mx(0);
    for (int k = 0; k < 5; ++k) {
      u0(k) += s + k;
      u1(k) -= 0.5 * s * a0(1);
      u2(k) += b0(k % 3);
    }
    vlast(0) += s * s;
    for (int k = 0; k < 4; ++k)
      r0(k) += c0(0) - k * s;
  }
};

// Returns the plan's summary.
template <class Space, class L, int Arity>
std::string check_against_serial(exec::HierarchicalAll::Variant options, unsigned seed,
                                 int nelem = 2000) {
  using Mem = typename Space::memory_space;
  Set elems("elems", nelem), pts("pts", nelem / 3 + 7), cells("cells", nelem / 5 + 3);
  Map<Mem> m1("m1", elems, pts, Arity, make_random_connectivity(elems, pts, Arity, seed));
  Map<Mem> m2("m2", elems, cells, 2, make_random_connectivity(elems, cells, 2, seed + 1));
  Dat<double, 1, L, Mem> w(elems, "w"), c(cells, "c"), v(pts, "v"), v_ref(pts, "v_ref");
  Dat<double, 2, L, Mem> a(pts, "a");
  Dat<double, 3, L, Mem> b(pts, "b");
  Dat<double, 5, L, Mem> u(pts, "u"), u_ref(pts, "u_ref");
  Dat<double, 4, L, Mem> r(cells, "r"), r_ref(cells, "r_ref");
  randomise(w, seed + 2);
  randomise(c, seed + 3);
  randomise(a, seed + 4);
  randomise(b, seed + 5);
  randomise(u, seed + 6);
  randomise(v, seed + 7);
  randomise(r, seed + 8);
  copy_values(u_ref, u);
  copy_values(v_ref, v);
  copy_values(r_ref, r);
  // The reference runs on host copies, so that on a GPU the only kernels a
  // race checker sees are the hierarchical ones.
  Global<double> sum_ref("sum", 0.25), sum("sum", 0.25), max_ref("max", -1e300), mx("max", -1e300);
  using H = Kokkos::HostSpace;
  auto hw = clone_to<H>(w), hc = clone_to<H>(c);
  auto ha = clone_to<H>(a);
  auto hb = clone_to<H>(b);
  auto hu = clone_to<H>(u_ref);
  auto hv = clone_to<H>(v_ref);
  auto hr = clone_to<H>(r_ref);
  auto hm1 = clone_to<H>(m1), hm2 = clone_to<H>(m2);
  par_loop(Kokkos::DefaultHostExecutionSpace(), exec::Serial{}, elems, "multi",
           MultiKernel<Arity>{}, read(hw), read(ha, hm1, 0), read(ha, hm1, Arity - 1),
           read(hb, hm1, 0), read(hb, hm1, Arity - 1), read(hc, hm2, 1), inc(hu, hm1, 0),
           inc(hu, hm1, 1), inc(hu, hm1, Arity - 1), inc(hv, hm1, Arity - 1), inc(hr, hm2, 0),
           reduce_sum(sum_ref), reduce_max(max_ref));
  copy_values(u_ref, hu);
  copy_values(v_ref, hv);
  copy_values(r_ref, hr);
  auto plan = make_plan(Space(), options.plan(), elems, m1, m2);
  par_loop(plan, options.loop(), "multi", MultiKernel<Arity>{}, read(w), read(a, m1, 0),
           read(a, m1, Arity - 1), read(b, m1, 0), read(b, m1, Arity - 1), read(c, m2, 1),
           inc(u, m1, 0), inc(u, m1, 1), inc(u, m1, Arity - 1), inc(v, m1, Arity - 1),
           inc(r, m2, 0), reduce_sum(sum), reduce_max(mx));
  const std::string where = "block " + std::to_string(options.block_size) + ", staging " +
                            exec::staging_name(options.staging) + ", combine " +
                            exec::combine_name(options.combine) + ", writeback " +
                            exec::writeback_name(options.writeback) + ", arity " +
                            std::to_string(Arity) + "; " + plan.summary();
  EXPECT_LT(max_rel_err(u, u_ref), 1e-11) << where;
  EXPECT_LT(max_rel_err(v, v_ref), 1e-11) << where;
  EXPECT_LT(max_rel_err(r, r_ref), 1e-11) << where;
  // Reductions under every staging mode and team shape.
  EXPECT_NEAR(sum.value(), sum_ref.value(), 1e-10 * std::fabs(sum_ref.value())) << where;
  // The device may contract s into FMAs where the host reference does not.
  EXPECT_NEAR(mx.value(), max_ref.value(), 1e-12 * std::fabs(max_ref.value())) << where;
  EXPECT_NE(sum.value(), 0.25);
  if (!options.fallback) {
    EXPECT_EQ(plan.staging_used("multi"), options.staging) << where;
  }
  return plan.summary();
}

// check_against_serial<S, L, A> for every enabled space S and layout L:
// declared (X = extern) or defined (X empty).
#define UMESH_TEST_CHECK(S, L, A, X)                                                               \
  X template std::string check_against_serial<S, L, A>(exec::HierarchicalAll::Variant, unsigned,   \
                                                       int);
#define UMESH_TEST_CHECKS(A, X) UMESH_TEST_EACH_SPACE_LAYOUT(UMESH_TEST_CHECK, A, X)

UMESH_TEST_CHECKS(2, extern)
UMESH_TEST_CHECKS(4, extern)
UMESH_TEST_CHECKS(8, extern)

} // namespace umesh::test

#endif
