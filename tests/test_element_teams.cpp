// Element loops (umesh/element_loop.hpp) against serial references computed
// here on the host: every strategy (serial, atomic, colour in one launch and
// per colour, gather), both layouts, elements per team {1, 3,
// 8} x lanes {1, 4, 32}, rows of arity 3 to 64 (run-time and compile-time),
// outputs poisoned first.

#include "element_test_support.hpp"
#include "test_main.hpp"

#include <cmath>
#include <vector>

namespace umesh::test {
namespace {

constexpr int NQ = 4; // quadrature points of the test's "element"

// Interpolation to quadrature points (into scratch and a direct output),
// then its transpose folded into the row: femto's two kernels in one.
struct InterpTranspose {
  template <class Team, class Phi, class Wq, class W, class U, class Uq, class R>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, Phi phi, Wq wq, W w, U u, Uq uq,
                                         R r) const {
    double *s = t.template scratch<double>(2 * NQ);
    const int n = u.size();
    t.lanes(NQ, [&](int q) {
      for (int k = 0; k < 2; ++k) {
        double v = 0;
        for (int i = 0; i < n; ++i)
          v += phi(q, i) * u(i, k);
        s[2 * q + k] = v;
      }
      uq(q) = s[2 * q] - s[2 * q + 1];
    });
    t.lanes(n, [&](int i) {
      for (int k = 0; k < 2; ++k) {
        double v = 0;
        for (int q = 0; q < NQ; ++q)
          v += wq(q) * phi(q, i) * s[2 * q + k];
        r(i, k) += w(0) * v;
      }
    });
  }
};

struct Reference {
  std::vector<double> uq, r;
};

Reference interp_transpose(const std::vector<int> &rows, int arity, const std::vector<double> &phi,
                           const std::vector<double> &wq, const std::vector<double> &w,
                           const std::vector<double> &u, std::vector<double> r) {
  const int n = int(w.size());
  Reference out;
  out.uq.assign(std::size_t(n) * NQ, 0);
  for (int e = 0; e < n; ++e) {
    double s[2 * NQ];
    for (int q = 0; q < NQ; ++q) {
      for (int k = 0; k < 2; ++k) {
        double v = 0;
        for (int i = 0; i < arity; ++i)
          v += phi[q * arity + i] * u[2 * rows[e * arity + i] + k];
        s[2 * q + k] = v;
      }
      out.uq[std::size_t(e) * NQ + q] = s[2 * q] - s[2 * q + 1];
    }
    for (int i = 0; i < arity; ++i)
      for (int k = 0; k < 2; ++k) {
        double v = 0;
        for (int q = 0; q < NQ; ++q)
          v += wq[q] * phi[q * arity + i] * s[2 * q + k];
        r[2 * rows[e * arity + i] + k] += w[e] * v;
      }
  }
  out.r = std::move(r);
  return out;
}

template <class T> class ElementTeamsTest : public ::testing::Test {};
TYPED_TEST_SUITE(ElementTeamsTest, SpaceLayouts);

// Every strategy and team shape on one mesh: rows of `arity` (the map's at
// run time, or Arity > 0 at compile time) over `points` points.
template <class Space, class L, int Arity>
void check_interp_transpose(const Set &cells, const Set &nodes, int arity,
                            const std::vector<int> &rows) {
  using Mem = typename Space::memory_space;
  Map<Mem> map("cell_nodes", cells, nodes, arity, rows);
  Dat<double, 1, L, Mem> w(cells, "w");
  Dat<double, 2, L, Mem> u(nodes, "u"), r(nodes, "r");
  Dat<double, NQ, L, Mem> uq(cells, "uq");
  randomise(w, 1);
  randomise(u, 2);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uni(-1, 1);
  std::vector<double> phi(std::size_t(NQ) * arity), wq(NQ), r0(std::size_t(nodes.size()) * 2);
  for (auto *v : {&phi, &wq, &r0})
    for (double &x : *v)
      x = uni(rng);
  Kokkos::View<double **, Kokkos::LayoutLeft, Mem> phi_view("phi", NQ, arity); // not row-major
  Kokkos::View<double *, Mem> wq_view("wq", NQ);
  {
    auto h = Kokkos::create_mirror_view(phi_view);
    for (int q = 0; q < NQ; ++q)
      for (int i = 0; i < arity; ++i)
        h(q, i) = phi[q * arity + i];
    Kokkos::deep_copy(phi_view, h);
    auto hw = Kokkos::create_mirror_view(wq_view);
    for (int q = 0; q < NQ; ++q)
      hw(q) = wq[q];
    Kokkos::deep_copy(wq_view, hw);
  }
  const Reference ref = interp_transpose(rows, arity, phi, wq, host_values(w), host_values(u), r0);
  for (const StrategyCase &c : strategies())
    with_plan<Space>(
        c, cells,
        [&](auto &plan) {
          for (ElementTeams teams : team_shapes()) {
            teams.with_scratch<double>(2 * NQ);
            copy_from_host(r, r0);
            poison(uq);
            element_loop(plan, "interp_transpose", teams, InterpTranspose{}, table(phi_view),
                         table(wq_view), read(w), read_row<Arity>(u, map), write(uq),
                         inc_row<Arity>(r, map));
            EXPECT_LT(rel_err(host_values(uq), ref.uq), 1e-12) << describe(c, teams);
            EXPECT_LT(rel_err(host_values(r), ref.r), 1e-12) << describe(c, teams);
          }
        },
        map);
}

TYPED_TEST(ElementTeamsTest, TrianglesEveryStrategyAndShape) {
  using Space = typename TypeParam::space;
  using L = typename TypeParam::layout;
  const TriMesh m = make_tri_mesh(13, 11, {true, 7});
  check_interp_transpose<Space, L, 0>(m.cells, m.nodes, 3, m.cell_nodes);
  check_interp_transpose<Space, L, 3>(m.cells, m.nodes, 3, m.cell_nodes);
}

TYPED_TEST(ElementTeamsTest, RowsOfArity64) {
  using Space = typename TypeParam::space;
  using L = typename TypeParam::layout;
  const Set cells("cells", 300), nodes("nodes", 3000);
  check_interp_transpose<Space, L, 0>(cells, nodes, 64, distinct_rows(300, 3000, 64, 11));
  check_interp_transpose<Space, L, 27>(cells, nodes, 27, distinct_rows(300, 3000, 27, 12));
}

// Rows that name a point twice: coloured folds of those elements go atomic.
TYPED_TEST(ElementTeamsTest, RowsNamingAPointTwice) {
  using Space = typename TypeParam::space;
  using L = typename TypeParam::layout;
  const Set cells("cells", 400), nodes("nodes", 300);
  const std::vector<int> rows = distinct_rows(400, 300, 8, 13, 3);
  using Mem = typename Space::memory_space;
  Map<Mem> map("cell_nodes", cells, nodes, 8, rows);
  auto plan = make_element_plan(Space(), exec::ElementColour{}, cells, map);
  EXPECT_TRUE(plan.has_repeated_rows());
  check_interp_transpose<Space, L, 8>(cells, nodes, 8, rows);
}

// exec::ElementGather folds in one order whatever the team shape: every
// shape gives bitwise the same increments (and min/max).
TYPED_TEST(ElementTeamsTest, GatherIsBitwiseTheSameForEveryShape) {
  using Space = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using Mem = typename Space::memory_space;
  const Set cells("cells", 500), nodes("nodes", 700);
  Map<Mem> map("cell_nodes", cells, nodes, 9, distinct_rows(500, 700, 9, 41, 7));
  Dat<double, 1, L, Mem> w(cells, "w");
  Dat<double, 2, L, Mem> u(nodes, "u"), r(nodes, "r");
  Dat<double, NQ, L, Mem> uq(cells, "uq");
  randomise(w, 42);
  randomise(u, 43);
  Kokkos::View<double **, Mem> phi("phi", NQ, 9);
  Kokkos::View<double *, Mem> wq("wq", NQ);
  Kokkos::deep_copy(phi, 0.3);
  Kokkos::deep_copy(wq, 0.7);
  auto plan = make_element_plan(Space(), exec::ElementGather{}, cells, map);
  std::vector<double> first;
  for (ElementTeams teams : team_shapes()) {
    teams.with_scratch<double>(2 * NQ);
    randomise(r, 44);
    element_loop(plan, "gather", teams, InterpTranspose{}, table(phi), table(wq), read(w),
                 read_row(u, map), write(uq), inc_row(r, map));
    if (first.empty())
      first = host_values(r);
    else
      EXPECT_EQ(host_values(r), first) << teams.elements_per_team << " x " << teams.lanes;
  }
}

// min_row, max_row, write_row, a read through one slot, lane_sum, single.
struct Folds {
  template <class Team, class X, class X0, class Lo, class Hi, class C, class S>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, X x, X0 x0, Lo lo, Hi hi, C c,
                                         S sum) const {
    const double v = t.template lane_sum<double>(
        x.size(), [&](int i, double &acc) { acc += x(i, 0) * x(i, 1); });
    t.lanes(x.size(), [&](int i) {
      for (int k = 0; k < 2; ++k) {
        lo(i, k).update(x(i, k) - x0(k) * v);
        hi(i, k).update(x(i, k) + x0(k) * v);
        c(i, k) = 2 * x(i, k); // every element writes the same value
      }
    });
    t.single([&] { sum(0) = v; });
  }
};

TYPED_TEST(ElementTeamsTest, MinMaxWriteRowsAndLaneSums) {
  using Space = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using Mem = typename Space::memory_space;
  const int arity = 6;
  const Set cells("cells", 250), nodes("nodes", 180);
  const std::vector<int> rows = distinct_rows(250, 180, arity, 21);
  Map<Mem> map("cell_nodes", cells, nodes, arity, rows);
  Dat<double, 2, L, Mem> x(nodes, "x"), lo(nodes, "lo"), hi(nodes, "hi"), c(nodes, "c");
  Dat<double, 1, L, Mem> sum(cells, "sum");
  randomise(x, 22);
  randomise(lo, 23);
  randomise(hi, 24);
  const std::vector<double> hx = host_values(x), lo0 = host_values(lo), hi0 = host_values(hi);
  std::vector<double> rlo = lo0, rhi = hi0, rc(hx.size(), std::nan("")), rsum(250);
  for (int e = 0; e < 250; ++e) {
    double v = 0;
    for (int i = 0; i < arity; ++i)
      v += hx[2 * rows[e * arity + i]] * hx[2 * rows[e * arity + i] + 1];
    rsum[e] = v;
    for (int i = 0; i < arity; ++i)
      for (int k = 0; k < 2; ++k) {
        const int p = 2 * rows[e * arity + i] + k;
        const double x0 = hx[2 * rows[e * arity] + k];
        rlo[p] = std::min(rlo[p], hx[p] - x0 * v);
        rhi[p] = std::max(rhi[p], hx[p] + x0 * v);
        rc[p] = 2 * hx[p];
      }
  }
  for (const StrategyCase &s : strategies())
    with_plan<Space>(
        s, cells,
        [&](auto &plan) {
          for (const ElementTeams &teams : team_shapes()) {
            copy_from_host(lo, lo0);
            copy_from_host(hi, hi0);
            poison(c);
            poison(sum);
            element_loop(plan, "folds", teams, Folds{}, read_row(x, map), read(x, map, 0),
                         min_row(lo, map), max_row(hi, map), write_row(c, map), write(sum));
            EXPECT_EQ(rel_err(host_values(lo), rlo), 0) << describe(s, teams);
            EXPECT_EQ(rel_err(host_values(hi), rhi), 0) << describe(s, teams);
            std::vector<double> hc = host_values(c); // points no row names stay NaN
            for (std::size_t p = 0; p < hc.size(); ++p)
              if (std::isnan(rc[p]))
                hc[p] = rc[p] = 0;
            EXPECT_EQ(rel_err(hc, rc), 0) << describe(s, teams);
            EXPECT_LT(rel_err(host_values(sum), rsum), 1e-13) << describe(s, teams);
          }
        },
        map);
}

// Tables of rank 1 and 3 and integer values; several scratch arrays.
struct Tables {
  template <class Team, class A, class B, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, A a, B b, Out out) const {
    int *i1 = t.template scratch<int>(3);
    double *d = t.template scratch<double>(5);
    t.single([&] {
      for (int j = 0; j < 3; ++j)
        i1[j] = a(j) * (t.element() + 1);
      for (int j = 0; j < 5; ++j)
        d[j] = b(j % 2, j % 3, j);
    });
    t.barrier();
    t.lanes(3, [&](int j) { out(j) = i1[j] + d[j] + d[j + 2] + b.extent(2); });
  }
};

TYPED_TEST(ElementTeamsTest, TablesOfRankOneAndThree) {
  using Space = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using Mem = typename Space::memory_space;
  const Set cells("cells", 37);
  Kokkos::View<int *, Mem> a("a", 3);
  Kokkos::View<double ***, Mem> b("b", 2, 3, 5);
  auto ha = Kokkos::create_mirror_view(a);
  auto hb = Kokkos::create_mirror_view(b);
  for (int j = 0; j < 3; ++j)
    ha(j) = 10 * j + 1;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int l = 0; l < 5; ++l)
        hb(i, j, l) = 100 * i + 10 * j + l;
  Kokkos::deep_copy(a, ha);
  Kokkos::deep_copy(b, hb);
  Dat<double, 3, L, Mem> out(cells, "out");
  std::vector<double> ref;
  for (int e = 0; e < 37; ++e) {
    double d[5];
    for (int j = 0; j < 5; ++j)
      d[j] = hb(j % 2, j % 3, j);
    for (int j = 0; j < 3; ++j)
      ref.push_back(ha(j) * (e + 1) + d[j] + d[j + 2] + 5);
  }
  for (const StrategyCase &s : strategies())
    with_plan<Space>(s, cells, [&](auto &plan) {
      for (ElementTeams teams : team_shapes()) {
        teams.with_scratch<int>(3).with_scratch<double>(5);
        poison(out);
        element_loop(plan, "tables", teams, Tables{}, table(a), table(b), write(out));
        EXPECT_EQ(rel_err(host_values(out), ref), 0) << describe(s, teams);
      }
    });
}

} // namespace
} // namespace umesh::test
