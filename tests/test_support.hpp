#ifndef UMESH_TEST_SUPPORT_HPP
#define UMESH_TEST_SUPPORT_HPP

// Shared helpers of the test programs: random data, comparisons, and the list
// of enabled execution spaces. test_main.hpp adds main() (one per program).

#include <umesh/umesh.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <tuple>

namespace umesh::test {

template <class... T> struct List {};
template <class... L> struct Cat;
template <class... A> struct Cat<List<A...>> { using type = List<A...>; };
template <class... A, class... B, class... R> struct Cat<List<A...>, List<B...>, R...> {
  using type = typename Cat<List<A..., B...>, R...>::type;
};
template <class L> struct ToTypes;
template <class... A> struct ToTypes<List<A...>> { using type = ::testing::Types<A...>; };

// The execution spaces the typed suites run on: every one the Kokkos build
// has, less those CMake's UMESH_TEST_SPACES leaves out (it defines
// UMESH_TEST_WITHOUT_<Space>; CI's sanitizer build keeps OpenMP only).
#if defined(KOKKOS_ENABLE_SERIAL) && !defined(UMESH_TEST_WITHOUT_Serial)
#define UMESH_TEST_HAS_SERIAL 1
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && !defined(UMESH_TEST_WITHOUT_OpenMP)
#define UMESH_TEST_HAS_OPENMP 1
#endif
#if defined(KOKKOS_ENABLE_CUDA) && !defined(UMESH_TEST_WITHOUT_Cuda)
#define UMESH_TEST_HAS_CUDA 1
#endif

using Spaces = typename Cat<
#ifdef UMESH_TEST_HAS_SERIAL
    List<Kokkos::Serial>,
#endif
#ifdef UMESH_TEST_HAS_OPENMP
    List<Kokkos::OpenMP>,
#endif
#ifdef UMESH_TEST_HAS_CUDA
    List<Kokkos::Cuda>,
#endif
    List<>>::type;

/// F(space, layout, args...) for every enabled space and both layouts, where
/// a type list will not do (explicit instantiations); the spaces of Spaces.
#ifdef UMESH_TEST_HAS_SERIAL
#define UMESH_TEST_ON_SERIAL(F, ...)                                                               \
  F(Kokkos::Serial, AoS, __VA_ARGS__) F(Kokkos::Serial, SoA, __VA_ARGS__)
#else
#define UMESH_TEST_ON_SERIAL(F, ...)
#endif
#ifdef UMESH_TEST_HAS_OPENMP
#define UMESH_TEST_ON_OPENMP(F, ...)                                                               \
  F(Kokkos::OpenMP, AoS, __VA_ARGS__) F(Kokkos::OpenMP, SoA, __VA_ARGS__)
#else
#define UMESH_TEST_ON_OPENMP(F, ...)
#endif
#ifdef UMESH_TEST_HAS_CUDA
#define UMESH_TEST_ON_CUDA(F, ...)                                                                 \
  F(Kokkos::Cuda, AoS, __VA_ARGS__) F(Kokkos::Cuda, SoA, __VA_ARGS__)
#else
#define UMESH_TEST_ON_CUDA(F, ...)
#endif
#define UMESH_TEST_EACH_SPACE_LAYOUT(F, ...)                                                       \
  UMESH_TEST_ON_SERIAL(F, __VA_ARGS__)                                                             \
  UMESH_TEST_ON_OPENMP(F, __VA_ARGS__) UMESH_TEST_ON_CUDA(F, __VA_ARGS__)

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

/// A path in the test temporary folder for `name` (prefixed umesh_), with no
/// file there yet.
inline std::string temp_path(const std::string &name) {
  const std::string path = ::testing::TempDir() + "umesh_" + name;
  std::remove(path.c_str());
  return path;
}

/// Largest |a - b| / max(1, |b|) over all components; infinity where either
/// is NaN (an unwritten output).
template <class A, class B> double max_rel_err(const A &a, const B &b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.view());
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view());
  EXPECT_EQ(a.size(), b.size());
  double err = 0;
  for (std::size_t i = 0; i < std::size_t(a.size()); ++i)
    for (std::size_t k = 0; k < ha.extent(1); ++k) {
      const double x = ha(i, k), y = hb(i, k);
      if (std::isnan(x) || std::isnan(y))
        return std::numeric_limits<double>::infinity();
      err = std::max(err, std::fabs(x - y) / std::max(1.0, std::fabs(y)));
    }
  return err;
}

/// The shape of LULESH's hourglass loop: 4 direct reads, two 3-component
/// dats read through the 8 nodes of a hex, one incremented through them (28
/// arguments). On CUDA its team functors are past the 4 KB Kokkos passes as
/// a kernel argument: the case where a launch bound once failed to compile
/// (detail/launch_weight.hpp).
struct ManyArgumentsKernel {
  template <class D, class X, class F>
  KOKKOS_INLINE_FUNCTION void operator()(D d0, D d1, D d2, D d3, X x0, X x1, X x2, X x3, X x4, X x5,
                                         X x6, X x7, X y0, X y1, X y2, X y3, X y4, X y5, X y6, X y7,
                                         F f0, F f1, F f2, F f3, F f4, F f5, F f6, F f7) const {
    const double s = d0(0) + d1(0) * d2(0) - d3(0);
    const X x[8] = {x0, x1, x2, x3, x4, x5, x6, x7}, y[8] = {y0, y1, y2, y3, y4, y5, y6, y7};
    F f[8] = {f0, f1, f2, f3, f4, f5, f6, f7};
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < 3; ++k)
        f[i](k) += s * x[i](k) - y[(i + 1) % 8]((k + 1) % 3);
  }
};

/// Runs ManyArgumentsKernel on hex mesh `h` through `run(cell_nodes,
/// args...)`, which calls par_loop with the executor under test, and
/// against the serial executor.
template <class Space, class L, class Run>
void expect_many_arguments_match_serial(const HexMesh &h, Run &&run, const std::string &what) {
  using Mem = typename Space::memory_space;
  Map<Mem> cn("cell_nodes", h.cells, h.nodes, 8, h.cell_nodes);
  Dat<double, 1, L, Mem> d0(h.cells, "d0"), d1(h.cells, "d1"), d2(h.cells, "d2"), d3(h.cells, "d3");
  Dat<double, 3, L, Mem> x(h.nodes, "x"), y(h.nodes, "y"), f(h.nodes, "f"), ref(h.nodes, "ref");
  unsigned seed = 40;
  for (const auto *d : {&d0, &d1, &d2, &d3})
    randomise(*d, ++seed);
  randomise(x, 45);
  randomise(y, 46);
  randomise(f, 47);
  copy_values(ref, f);
  auto args = [&](const auto &out) {
    return std::make_tuple(read(d0), read(d1), read(d2), read(d3), read(x, cn, 0), read(x, cn, 1),
                           read(x, cn, 2), read(x, cn, 3), read(x, cn, 4), read(x, cn, 5),
                           read(x, cn, 6), read(x, cn, 7), read(y, cn, 0), read(y, cn, 1),
                           read(y, cn, 2), read(y, cn, 3), read(y, cn, 4), read(y, cn, 5),
                           read(y, cn, 6), read(y, cn, 7), inc(out, cn, 0), inc(out, cn, 1),
                           inc(out, cn, 2), inc(out, cn, 3), inc(out, cn, 4), inc(out, cn, 5),
                           inc(out, cn, 6), inc(out, cn, 7));
  };
  std::apply([&](const auto &...a) { run(cn, a...); }, args(f));
  auto serial = make_plan(Space(), exec::Serial{}, h.cells);
  std::apply([&](const auto &...a) { par_loop(serial, "hourglass", ManyArgumentsKernel{}, a...); },
             args(ref));
  EXPECT_LT(max_rel_err(f, ref), 1e-11) << what;
}

} // namespace umesh::test

#endif
