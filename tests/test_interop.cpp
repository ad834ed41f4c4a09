// What code ported from plain Kokkos brings along: rank-1 Views wrapped as
// 1-component dats without a copy, connectivity with "no neighbour" entries
// (accepted by a Map made for them, refused by plans and loops with a
// sentence), and umesh::math's functions in kernels on every space.
#include "test_main.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {
using namespace umesh;
using test::error_message;

template <class C> class Interop : public ::testing::Test {};
TYPED_TEST_SUITE(Interop, test::SpaceLayouts);

// A flux-like use of every function umesh::math offers.
struct MathKernel {
  template <class X, class Y> KOKKOS_INLINE_FUNCTION void operator()(X x, Y y) const {
    const double v = x(0); // in [0.5, 2)
    y(0) = math::exp(-v) + math::log(v) + math::pow(v, 1.5) + math::sqrt(v) + math::min(v, 1.0) +
           math::max(v, 1.0) + math::abs(1.0 - v) + math::abs(-3) + math::fmin(v, 0.75) +
           math::fmax(v, 0.75) + math::fabs(-v);
  }
};
double math_reference(double v) {
  return std::exp(-v) + std::log(v) + std::pow(v, 1.5) + std::sqrt(v) + std::min(v, 1.0) +
         std::max(v, 1.0) + std::abs(1.0 - v) + 3 + std::fmin(v, 0.75) + std::fmax(v, 0.75) +
         std::fabs(-v);
}

TYPED_TEST(Interop, RankOneViewsAreDatsWithoutACopy) {
  using Space = typename TypeParam::space;
  using Mem = typename Space::memory_space;
  using L = typename TypeParam::layout;
  const Set cells("cells", 1001);
  Kokkos::View<double *, Mem> xv("x", cells.size()), yv("y", cells.size());
  auto hx = Kokkos::create_mirror_view(xv);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0.5, 2.0);
  for (int i = 0; i < cells.size(); ++i)
    hx(i) = u(rng);
  Kokkos::deep_copy(xv, hx);
  Kokkos::deep_copy(yv, std::nan("")); // poisoned: every value must be written
  Dat<double, 1, L, Mem> x(cells, "x", xv);
  Dat<double, 1, L, Mem> y(cells, "y", yv);
  EXPECT_EQ(x.view().data(), xv.data()); // the same memory, no copy
  EXPECT_EQ(y.view().data(), yv.data());
  // A dat keeps the View it wraps alive after the View's own handle goes.
  auto z = [&] {
    Kokkos::View<double *, Mem> zv("z", cells.size());
    Kokkos::deep_copy(zv, std::nan(""));
    return Dat<double, 1, L, Mem>(cells, "z", zv);
  }();
  par_loop(Space(), exec::Atomic{}, cells, "math", MathKernel{}, read(x), write(y));
  par_loop(Space(), exec::Atomic{}, cells, "math", MathKernel{}, read(x), write(z));
  // The loop's writes are the original View's values.
  auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), yv);
  auto hz = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), z.view());
  for (int i = 0; i < cells.size(); ++i) {
    const double want = math_reference(hx(i));
    ASSERT_NEAR(hy(i), want, 1e-12 * std::fabs(want)) << "cell " << i;
    ASSERT_EQ(hz(i, 0), hy(i)) << "cell " << i;
  }
}

TEST(InteropErrors, RankOneViewsOfAnotherSizeOrStrideAreRefused) {
  using Mem = Kokkos::HostSpace;
  const Set cells("cells", 10);
  Kokkos::View<double *, Mem> small("small", 9);
  EXPECT_NE(error_message([&] {
              Dat<double, 1, AoS, Mem>(cells, "q", small);
            }).find("dat 'q' wraps a View of 9 values but set 'cells' has size 10"),
            std::string::npos);
  Kokkos::View<double **, Kokkos::LayoutRight, Mem> wide("wide", 10, 3);
  auto column = Kokkos::subview(wide, Kokkos::ALL, 1); // stride 3
  EXPECT_NE(error_message([&] {
              Dat<double, 1, AoS, Mem>(cells, "col", column);
            }).find("dat 'col' wraps a View of stride 3"),
            std::string::npos);
}

struct ReadOne {
  template <class A, class B> KOKKOS_INLINE_FUNCTION void operator()(A a, B b) const {
    b(0) = a(0);
  }
};

TEST(MapMissing, NoNeighbourEntriesAreCountedAndRefusedWhereNotHandled) {
  using Mem = Kokkos::DefaultExecutionSpace::memory_space;
  using Space = Kokkos::DefaultExecutionSpace;
  const Set edges("edges", 4), cells("cells", 3);
  // Edges 0 and 3 are on the boundary: one cell each.
  const std::vector<int> ec = {0, -1, 0, 1, 1, 2, 2, -1};
  const Map<Mem> map("pecell", edges, cells, 2, ec, MapMissing{-1});
  EXPECT_TRUE(map.allows_missing());
  EXPECT_EQ(map.missing_value(), -1);
  EXPECT_EQ(map.missing_count(), 2);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), map.entries());
  EXPECT_EQ(h(0, 1), -1);
  EXPECT_EQ(h(1, 1), 1);
  const std::string refused = "map 'pecell' has 2 entries marked 'no neighbour' (-1)";
  EXPECT_NE(error_message([&] { (void)map.view(); }).find(refused), std::string::npos);
  // Plans and loops read entries as points: each refuses, none crashes.
  EXPECT_NE(
      error_message([&] { make_plan(Space(), exec::GlobalColour{}, edges, map); }).find(refused),
      std::string::npos);
  Dat<double, 1, AoS, Mem> q(cells, "q"), e(edges, "e");
  EXPECT_NE(error_message([&] {
              par_loop(Space(), exec::Atomic{}, edges, "bnd", ReadOne{}, read(q, map, 1), write(e));
            }).find(refused),
            std::string::npos);
  EXPECT_NE(error_message([&] {
              reorder(ReorderOptions{}.with_method(Reorder::rcm), edges, map);
            }).find(refused),
            std::string::npos);
  // Copies and renumberings keep the missing entries as they are.
  const auto host = clone_to<Kokkos::HostSpace>(map);
  EXPECT_EQ(host.missing_count(), 2);
  const Map<Mem> full("full", edges, cells, 2, std::vector<int>{0, 1, 0, 1, 1, 2, 2, 0});
  const Renumbering r = reorder(ReorderOptions{}.with_method(Reorder::rcm), edges, full);
  const auto moved = r.apply(map);
  EXPECT_EQ(moved.missing_count(), 2);
  auto hm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), moved.entries());
  for (int old = 0; old < edges.size(); ++old) {
    const int row = r.permutation(edges).new_index(old);
    for (int s = 0; s < 2; ++s) {
      const int v = ec[std::size_t(2 * old + s)];
      EXPECT_EQ(hm(row, s), v < 0 ? -1 : r.permutation(cells).new_index(v));
    }
  }
  // A map made without a missing value: -1 is out of range, as before.
  EXPECT_NE(error_message([&] {
              Map<Mem>("plain", edges, cells, 2, ec);
            }).find("map 'plain': element 0 slot 1 points at -1"),
            std::string::npos);
}

TEST(MapMissing, OtherBadEntriesAndValuesAreRefused) {
  using Mem = Kokkos::HostSpace;
  const Set edges("edges", 2), cells("cells", 3);
  EXPECT_NE(
      error_message([&] {
        Map<Mem>("m", edges, cells, 2, std::vector<int>{0, -2, 1, 2}, MapMissing{-1});
      })
          .find("element 0 slot 1 points at -2, outside to-set 'cells' of size 3 (and not its "
                "'no neighbour' value -1)"),
      std::string::npos);
  EXPECT_NE(error_message([&] {
              Map<Mem>("m", edges, cells, 2, std::vector<int>{0, 3, 1, 2}, MapMissing{-1});
            }).find("points at 3"),
            std::string::npos);
  EXPECT_NE(error_message([&] {
              Map<Mem>("m", edges, cells, 2, std::vector<int>{0, 1, 1, 2}, MapMissing{2});
            }).find("map 'm': its 'no neighbour' value must be negative, not 2"),
            std::string::npos);
  // Declared but unused: an ordinary map.
  const Map<Mem> none("none", edges, cells, 2, std::vector<int>{0, 1, 1, 2}, MapMissing{});
  EXPECT_EQ(none.missing_count(), 0);
  EXPECT_EQ(none.view().extent(0), 2u);
}

} // namespace
