#ifndef UMESH_MATH_HPP
#define UMESH_MATH_HPP

// Math functions callable in kernels on every backend and Kokkos version.
// Kokkos moved them from Kokkos::Experimental to Kokkos in 3.7, and 3.4 has
// no abs, min or max for kernels: kernels use umesh::math.
//
//   using namespace umesh::math; // or umesh::math::exp(...)
//   const double c = sqrt(gamma * p / rho), s = max(abs(u) + c, 1e-12);

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace umesh::math {
#if KOKKOS_VERSION >= 30700
using Kokkos::exp;
using Kokkos::fabs;
using Kokkos::fmax;
using Kokkos::fmin;
using Kokkos::log;
using Kokkos::pow;
using Kokkos::sqrt;
#else
using Kokkos::Experimental::exp;
using Kokkos::Experimental::fabs;
using Kokkos::Experimental::fmax;
using Kokkos::Experimental::fmin;
using Kokkos::Experimental::log;
using Kokkos::Experimental::pow;
using Kokkos::Experimental::sqrt;
#endif

/// The smaller of two values of one type (the first when they are equal).
template <class T> KOKKOS_INLINE_FUNCTION constexpr T min(T a, T b) {
  return b < a ? b : a;
}
/// The larger of two values of one type (the first when they are equal).
template <class T> KOKKOS_INLINE_FUNCTION constexpr T max(T a, T b) {
  return a < b ? b : a;
}
/// Absolute value of an arithmetic value (fabs for floating point).
template <class T> KOKKOS_INLINE_FUNCTION T abs(T x) {
  static_assert(std::is_arithmetic<T>::value, "umesh::math::abs takes an arithmetic value");
  if constexpr (std::is_floating_point<T>::value)
    return fabs(x);
  else
    return x < T(0) ? -x : x;
}
} // namespace umesh::math

#endif
