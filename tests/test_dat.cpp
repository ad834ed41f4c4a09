// Dats: the rows a dat allocates (SoA components a multiple of 128 bytes
// apart), and copies, wraps and permutations across dats with and without
// those rows.
#include "test_main.hpp"

#include <vector>

namespace {
using namespace umesh;
using test::max_rel_err;
using Mem = Kokkos::DefaultExecutionSpace::memory_space;

// Bytes from a dat's first component to its k-th (the allocation itself is
// as aligned as the memory space makes it: 64 bytes on the host). From the
// View's stride, not an element's address: a device View's elements cannot be
// touched on the host, not even to take their address.
template <class DatT> std::size_t component_offset(const DatT &d, int k) {
  return std::size_t(k) * d.view().stride(1) * sizeof(typename DatT::value_type);
}

std::vector<double> values(int n, int dim) {
  std::vector<double> v(std::size_t(n) * dim);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = 0.25 * double(i) - 3;
  return v;
}

template <class DatT> std::vector<double> host_points(const DatT &d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.view());
  std::vector<double> out;
  for (int i = 0; i < d.size(); ++i)
    for (int k = 0; k < DatT::dim; ++k)
      out.push_back(double(h(i, k)));
  return out;
}

TEST(Dat, SoAComponentsStart128BytesApart) {
  for (int n : {1, 15, 16, 17, 97, 1001}) {
    Set s("s", n);
    Dat<double, 4, SoA, Mem> q(s, "q");
    Dat<float, 3, SoA, Mem> f(s, "f");
    EXPECT_GE(q.rows(), n);
    EXPECT_LT(q.rows(), n + 16);
    EXPECT_LT(f.rows(), n + 32);
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(component_offset(q, k) % 128, 0u) << "n " << n << " component " << k;
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(component_offset(f, k) % 128, 0u) << "n " << n << " component " << k;
    // Rows of one component, and AoS rows, need no alignment: no extra rows.
    EXPECT_EQ((Dat<double, 1, SoA, Mem>(s, "a").rows()), n);
    EXPECT_EQ((Dat<double, 4, AoS, Mem>(s, "b").rows()), n);
  }
}

TEST(Dat, CopiesAcrossLayoutsAndRowCountsKeepEveryPoint) {
  Set s("s", 97);
  const std::vector<double> v = values(97, 3);
  Dat<double, 3, SoA, Mem> soa(s, "soa");
  copy_from_host(soa, v);
  EXPECT_EQ(host_points(soa), v);
  const auto aos = clone_to<Kokkos::HostSpace, AoS>(soa);
  EXPECT_EQ(aos.rows(), 97);
  EXPECT_EQ(host_points(aos), v);
  EXPECT_EQ(host_points(clone_to<Mem, SoA>(aos)), v);
  // A wrapped View with one row per point (no extra rows) copies both ways.
  Dat<double, 3, SoA, Mem> wrapped(s, "wrapped", Dat<double, 3, SoA, Mem>::view_type("w", 97));
  EXPECT_EQ(wrapped.rows(), 97);
  copy_values(wrapped, soa);
  EXPECT_EQ(host_points(wrapped), v);
  Dat<double, 3, SoA, Mem> back(s, "back");
  copy_values(back, wrapped);
  EXPECT_EQ(host_points(back), v);
  EXPECT_EQ(max_rel_err(back, aos), 0.0);
}

TEST(Dat, WrapTakesOneRowPerPointOrTheAllocatedRows) {
  Set s("cells", 4);
  using D = Dat<double, 2, SoA, Mem>;
  EXPECT_NO_THROW(D(s, "q", D::view_type("v", 4)));
  EXPECT_NO_THROW(D(s, "q", D::view_type("v", D(s, "r").rows())));
  try {
    D(s, "q", D::view_type("v", 17));
    ADD_FAILURE() << "a View of 17 rows was taken for a set of 4";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("17 rows"), std::string::npos) << e.what();
  }
}

TEST(Dat, PermutedDatKeepsItsRowsAndMovesItsPoints) {
  const int n = 21;
  Set s("s", n);
  std::vector<int> new_of_old(n);
  for (int i = 0; i < n; ++i)
    new_of_old[i] = (5 * i + 3) % n;
  const Permutation p(new_of_old);
  Dat<double, 2, SoA, Mem> d(s, "d");
  copy_from_host(d, values(n, 2));
  const Dat<double, 2, SoA, Mem> moved(s, "moved", p.from_original(d.view()));
  EXPECT_EQ(moved.rows(), d.rows());
  const std::vector<double> got = host_points(moved), want = values(n, 2);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 2; ++k)
      EXPECT_EQ(got[2 * std::size_t(new_of_old[i]) + k], want[2 * std::size_t(i) + k]);
  EXPECT_EQ(host_points(Dat<double, 2, SoA, Mem>(s, "back", p.to_original(moved.view()))), want);
}

// umesh::fill sets every value, padding rows too, and only those.
TEST(Dat, FillSetsEveryValueOfTheView) {
  for (int n : {1, 37, 1000}) {
    Set s("s", n);
    Dat<double, 3, SoA, Mem> d(s, "d");
    Dat<double, 1, AoS, Mem> next(s, "next");
    copy_from_host(next, values(n, 1));
    fill(Kokkos::DefaultExecutionSpace(), d.view(), -2.5);
    Kokkos::fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.view());
    for (std::size_t i = 0; i < h.span(); ++i)
      ASSERT_EQ(h.data()[i], -2.5) << "value " << i << " of " << h.span();
    EXPECT_EQ(host_points(next), values(n, 1)); // its neighbour untouched
  }
  // A strided subview is refused: a column of a LayoutRight view and a row
  // of a LayoutLeft one, whatever the backend's default layout (a column
  // of CUDA's default, LayoutLeft, is contiguous).
  Kokkos::View<double **, Kokkos::LayoutRight, Mem> right("right", 4, 4);
  Kokkos::View<double **, Kokkos::LayoutLeft, Mem> left("left", 4, 4);
  EXPECT_THROW(fill(Kokkos::DefaultExecutionSpace(), Kokkos::subview(right, Kokkos::ALL, 1), 1.0),
               Error);
  EXPECT_THROW(fill(Kokkos::DefaultExecutionSpace(), Kokkos::subview(left, 1, Kokkos::ALL), 1.0),
               Error);
}

} // namespace
