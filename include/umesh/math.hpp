#ifndef UMESH_MATH_HPP
#define UMESH_MATH_HPP

// Math functions callable in kernels on every backend. Kokkos moved them
// from Kokkos::Experimental to Kokkos in 3.7; kernels use umesh::math.

#include <Kokkos_Core.hpp>

namespace umesh::math {
#if KOKKOS_VERSION >= 30700
using Kokkos::fabs;
using Kokkos::fmax;
using Kokkos::fmin;
using Kokkos::sqrt;
#else
using Kokkos::Experimental::fabs;
using Kokkos::Experimental::fmax;
using Kokkos::Experimental::fmin;
using Kokkos::Experimental::sqrt;
#endif
} // namespace umesh::math

#endif
