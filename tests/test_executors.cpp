// A check of the serial reference itself against a plain host loop, and
// main() of test_executors, whose executor suite (executor_suite.hpp) is
// instantiated in test_executors_configs.cpp, once per space and layout.
#include "executor_suite_kernels.hpp"
#include "test_main.hpp"

namespace umesh::test {

template <class C> class SerialReference : public ::testing::Test {};
TYPED_TEST_SUITE(SerialReference, SpaceLayouts);

TYPED_TEST(SerialReference, MatchesPlainHostLoop) {
  using Mem = typename TypeParam::space::memory_space;
  using L = typename TypeParam::layout;
  const QuadMesh m = make_quad_mesh(9, 7, {true, 3});
  Map<Mem> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  Dat<double, 1, L, Mem> w(m.edges, "w"), adt(m.cells, "adt");
  Dat<double, 2, L, Mem> x(m.nodes, "x");
  Dat<double, 4, L, Mem> q(m.cells, "q"), res(m.cells, "res");
  test::randomise(w, 11);
  test::randomise(adt, 12);
  test::randomise(x, 13);
  test::randomise(q, 14);
  test::randomise(res, 15);
  auto hw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w.view());
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), adt.view());
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
  auto hq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q.view());
  auto expect = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), res.view());
  double sum[2] = {0, 0};
  for (int e = 0; e < m.edges.size(); ++e) {
    const int n1 = m.edge_nodes[2 * e], n2 = m.edge_nodes[2 * e + 1];
    const int c1 = m.edge_cells[2 * e], c2 = m.edge_cells[2 * e + 1];
    const double dx = hx(n1, 0) - hx(n2, 0), dy = hx(n1, 1) - hx(n2, 1);
    for (int k = 0; k < 4; ++k) {
      const double f = hw(e, 0) * (hq(c1, k) * dy - hq(c2, k) * dx) +
                       0.5 * (ha(c1, 0) + ha(c2, 0)) * (hq(c1, k) - hq(c2, k));
      expect(c1, k) += f;
      expect(c2, k) -= f;
      sum[k % 2] += f * f;
    }
  }
  Global<double, 2> g("sum");
  Global<double> mn("min", 1e300), mx("max", -1e300);
  par_loop(typename TypeParam::space(), exec::Serial{}, m.edges, "edge", EdgeKernel{}, read(w),
           read(x, pedge, 0), read(x, pedge, 1), read(q, pecell, 0), read(q, pecell, 1),
           read(adt, pecell, 0), read(adt, pecell, 1), inc(res, pecell, 0), inc(res, pecell, 1),
           reduce_sum(g), reduce_min(mn), reduce_max(mx));
  auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), res.view());
  for (int c = 0; c < m.cells.size(); ++c)
    for (int k = 0; k < 4; ++k)
      EXPECT_NEAR(got(c, k), expect(c, k), 1e-12);
  EXPECT_NEAR(g[0], sum[0], 1e-10 * sum[0]);
  EXPECT_NEAR(g[1], sum[1], 1e-10 * sum[1]);
}

} // namespace umesh::test
