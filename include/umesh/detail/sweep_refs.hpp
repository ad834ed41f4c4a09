#ifndef UMESH_DETAIL_SWEEP_REFS_HPP
#define UMESH_DETAIL_SWEEP_REFS_HPP

// What a sweep kernel's handle (sweep_cell.hpp) reads on the device: the
// plan's geometry and flags (SweepGeometry, device pointers into the
// uploaded schedule) and the angular flux with its lagged values (FluxRef).

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

namespace umesh::detail {

struct SweepGeometry {
  const int *neighbours = nullptr;      // [cell][slot]
  const int *partner = nullptr;         // [cell][slot]
  const double *normals = nullptr;      // [cell][slot][3]
  const double *dirs = nullptr;         // [direction][3]
  const std::uint16_t *flags = nullptr; // [direction][cell]
  const int *lag_offsets = nullptr;     // [direction + 1]
  const int *lag_keys = nullptr;        // cell * faces + slot, ascending per direction
  int cells = 0, faces = 0, directions = 0;

  /// Position of lagged face (c, s) of direction d among all lagged faces.
  KOKKOS_INLINE_FUNCTION int lag_index(int d, int c, int s) const {
    const int key = c * faces + s;
    int lo = lag_offsets[d], hi = lag_offsets[d + 1];
    while (lo < hi) { // (a lagged face is always found: its flag says so)
      const int mid = (lo + hi) / 2;
      if (lag_keys[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }
};

/// The angular flux's values: (c, d, g) at data[c * cell + d * dir + g * group];
/// lagged face i's value of group g at lag[i * groups + g].
template <class T> struct FluxRef {
  T *data = nullptr;
  std::size_t cell = 0, dir = 0, group = 0;
  const T *lag = nullptr;
  int groups = 0;
  KOKKOS_INLINE_FUNCTION std::size_t at(int c, int d, int g) const {
    return std::size_t(c) * cell + std::size_t(d) * dir + std::size_t(g) * group;
  }
};

} // namespace umesh::detail

#endif
