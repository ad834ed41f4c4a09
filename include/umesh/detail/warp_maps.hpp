#ifndef UMESH_DETAIL_WARP_MAPS_HPP
#define UMESH_DETAIL_WARP_MAPS_HPP

// exec::WarpCombine's compact maps: a map's entries as 16-bit offsets from
// one 32-bit base per warp of 32 elements, half the bytes of the map. The
// warp kernel of res_calc is bound by L2 traffic, much of it map reads.

#include <umesh/compact_map.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace umesh::detail {

/// How a warp kernel finds point (e, slot) of a map: from the map itself,
/// or from its compact form. Compile-time: a run-time choice in one kernel
/// slowed res_calc's plain path and made integrate_stress spill
/// (docs/performance-notes.md).
struct PlainWarpMap {
  const int *map = nullptr;
  int arity = 0;
  KOKKOS_INLINE_FUNCTION int entry(int e, int slot) const {
    return map[unsigned(e) * unsigned(arity) + unsigned(slot)];
  }
};
template <bool Compact> using WarpMap = std::conditional_t<Compact, CompactMapView, PlainWarpMap>;

/// Host form of a compact map. When some warp's points span more than 16
/// bits, `base` and `offsets` are empty and `wide_warp` names the first such
/// warp, `wide_span` its span (largest minus smallest point).
struct CompactMap {
  std::vector<int> base;
  std::vector<std::uint16_t> offsets;
  std::int64_t wide_warp = -1;
  std::int64_t wide_span = 0;
};

/// Compacts the n x arity entries of `indices` (row-major, as Map stores
/// them) warp by warp.
CompactMap build_compact_map(int n, int arity, const int *indices);

} // namespace umesh::detail

#endif
