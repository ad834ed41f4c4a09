#ifndef UMESH_TEST_SUPPORT_HPP
#define UMESH_TEST_SUPPORT_HPP

// Shared helpers of the test programs: random data, comparisons, and the list
// of enabled execution spaces. test_main.hpp adds main() (one per program).

#include <umesh/umesh.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace umesh::test {

template <class... T> struct List {};
template <class... L> struct Cat;
template <class... A> struct Cat<List<A...>> { using type = List<A...>; };
template <class... A, class... B, class... R> struct Cat<List<A...>, List<B...>, R...> {
  using type = typename Cat<List<A..., B...>, R...>::type;
};
template <class L> struct ToTypes;
template <class... A> struct ToTypes<List<A...>> { using type = ::testing::Types<A...>; };

using Spaces = typename Cat<
#ifdef KOKKOS_ENABLE_SERIAL
    List<Kokkos::Serial>,
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    List<Kokkos::OpenMP>,
#endif
#ifdef KOKKOS_ENABLE_CUDA
    List<Kokkos::Cuda>,
#endif
    List<>>::type;

/// Every enabled space with both layouts, for TYPED_TEST_SUITE:
/// TypeParam::space, TypeParam::layout.
template <class S, class L> struct SpaceLayout {
  using space = S;
  using layout = L;
};
template <class L> struct WithLayouts;
template <class... S> struct WithLayouts<List<S...>> {
  using type = typename Cat<List<SpaceLayout<S, AoS>, SpaceLayout<S, SoA>>..., List<>>::type;
};
using SpaceLayouts = typename ToTypes<typename WithLayouts<Spaces>::type>::type;

/// Fills a dat with uniform random values in [lo, hi).
template <class DatT> void randomise(const DatT &d, unsigned seed, double lo = -1, double hi = 1) {
  auto h = Kokkos::create_mirror_view(d.view());
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  for (std::size_t i = 0; i < h.extent(0); ++i)
    for (std::size_t k = 0; k < h.extent(1); ++k)
      h(i, k) = typename DatT::value_type(u(rng));
  Kokkos::deep_copy(d.view(), h);
}

template <class DatT> void poison(const DatT &d) {
  Kokkos::deep_copy(d.view(), std::numeric_limits<typename DatT::value_type>::quiet_NaN());
}

/// What f() throws as umesh::Error, or "no error".
template <class F> std::string error_message(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "no error";
}

/// Largest |a - b| / max(1, |b|) over all components; infinity where either
/// is NaN (an unwritten output).
template <class A, class B> double max_rel_err(const A &a, const B &b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.view());
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view());
  EXPECT_EQ(ha.extent(0), hb.extent(0));
  double err = 0;
  for (std::size_t i = 0; i < ha.extent(0); ++i)
    for (std::size_t k = 0; k < ha.extent(1); ++k) {
      const double x = ha(i, k), y = hb(i, k);
      if (std::isnan(x) || std::isnan(y))
        return std::numeric_limits<double>::infinity();
      err = std::max(err, std::fabs(x - y) / std::max(1.0, std::fabs(y)));
    }
  return err;
}

} // namespace umesh::test

#endif
