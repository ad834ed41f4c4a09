#ifndef UMESH_COMPACT_MAP_HPP
#define UMESH_COMPACT_MAP_HPP

// A map in compact form on the device (exec::WarpCombine::compact_maps):
// each entry is its warp's 32-bit base plus a 16-bit offset, half the bytes
// of the map. Plan<exec::WarpCombine, Space>::compact_map returns one.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace umesh {

/// A compact map's device arrays (the plan keeps them; this only points at
/// them) and how to read an entry.
struct CompactMapView {
  const int *base = nullptr;              ///< [warp]: smallest point of each warp of 32 elements
  const std::uint16_t *offsets = nullptr; ///< [e * arity + slot]: the entry less its warp's base
  int arity = 0;
  /// Point `slot` of element `e`.
  KOKKOS_INLINE_FUNCTION int entry(int e, int slot) const {
    return base[unsigned(e) >> 5] + int(offsets[unsigned(e) * unsigned(arity) + unsigned(slot)]);
  }
};

} // namespace umesh

#endif
