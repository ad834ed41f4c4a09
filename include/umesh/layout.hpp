#ifndef UMESH_LAYOUT_HPP
#define UMESH_LAYOUT_HPP

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace umesh {

/// Components of one point adjacent in memory (array of structures).
using AoS = Kokkos::LayoutRight;
/// One component of all points adjacent in memory (structure of arrays).
using SoA = Kokkos::LayoutLeft;

template <class Layout>
inline constexpr bool is_layout_v =
    std::is_same<Layout, AoS>::value || std::is_same<Layout, SoA>::value;

inline const char *layout_name(AoS) {
  return "AoS";
}
inline const char *layout_name(SoA) {
  return "SoA";
}

namespace detail {

// Stride between two components of one point; static for AoS.
template <class Layout> struct ComponentStride;
template <> struct ComponentStride<AoS> {
  KOKKOS_INLINE_FUNCTION constexpr int operator()() const { return 1; }
};
template <> struct ComponentStride<SoA> {
  int stride;
  KOKKOS_INLINE_FUNCTION constexpr int operator()() const { return stride; }
};

} // namespace detail
} // namespace umesh

#endif
