#ifndef UMESH_DETAIL_SWEEP_DEVICE_HPP
#define UMESH_DETAIL_SWEEP_DEVICE_HPP

// A sweep schedule on the device (what every executor's plan shares, made
// once per schedule and space): its tables, and per level the prefix over
// directions of that level's cells, with which one index runs every
// direction's cells of a level (SweepLevels) or of all levels in level order
// (SweepDataFlow's tickets).

#include <umesh/detail/sweep_refs.hpp>
#include <umesh/sweep_schedule.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace umesh::detail {

template <class T, class Mem>
Kokkos::View<T *, Mem> upload(const std::string &label, const std::vector<T> &v) {
  Kokkos::View<T *, Mem> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::sweep::" + label), v.size());
  Kokkos::deep_copy(
      out, Kokkos::View<const T *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return out;
}

/// Per level l of the deepest direction: level_prefix[l * (D + 1) + d], the
/// cells of level l in the directions before d; level_total[l], the cells
/// of the levels before l in every direction.
struct LevelPrefix {
  std::vector<int> prefix, total;
};
inline LevelPrefix level_prefix(const SweepTables &t, int levels) {
  LevelPrefix p;
  const int nd = t.directions;
  p.prefix.assign(std::size_t(levels) * (nd + 1), 0);
  p.total.assign(std::size_t(levels) + 1, 0);
  for (int l = 0; l < levels; ++l) {
    int *row = &p.prefix[std::size_t(l) * (nd + 1)];
    for (int d = 0; d < nd; ++d) {
      const int first = t.dir_levels[d], count = t.dir_levels[d + 1] - first - 1;
      row[d + 1] =
          row[d] + (l < count ? t.level_offsets[first + l + 1] - t.level_offsets[first + l] : 0);
    }
    p.total[l + 1] = p.total[l] + row[nd];
  }
  return p;
}

/// Index i of level l's [0, prefix[D]): its direction (d) and place among
/// that direction's cells of the level (k).
KOKKOS_INLINE_FUNCTION void level_item(const int *prefix, int nd, int i, int &d, int &k) {
  int lo = 0, hi = nd; // the last d with prefix[d] <= i
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (prefix[mid] <= i)
      lo = mid;
    else
      hi = mid;
  }
  d = lo;
  k = i - prefix[lo];
}

template <class Space> struct SweepDevice {
  using mem = typename Space::memory_space;
  Kokkos::View<int *, mem> neighbours, partner, order, level_offsets, dir_levels, lag_offsets,
      lag_keys, prefix, total;
  Kokkos::View<double *, mem> normals, dirs;
  Kokkos::View<std::uint16_t *, mem> flags;
  std::vector<int> host_total; // LevelPrefix::total, for the launches' sizes
  int cells = 0, faces = 0, directions = 0, levels = 0, lags = 0;

  explicit SweepDevice(const SweepSchedule &s) {
    const SweepTables &t = s.tables();
    cells = t.cells, faces = t.faces, directions = t.directions;
    levels = s.max_levels();
    lags = int(t.lag_keys.size());
    const LevelPrefix p = level_prefix(t, levels);
    neighbours = upload<int, mem>("neighbours", t.neighbours);
    partner = upload<int, mem>("partner", t.partner);
    order = upload<int, mem>("order", t.order);
    level_offsets = upload<int, mem>("level_offsets", t.level_offsets);
    dir_levels = upload<int, mem>("dir_levels", t.dir_levels);
    lag_offsets = upload<int, mem>("lag_offsets", t.lag_offsets);
    lag_keys = upload<int, mem>("lag_keys", t.lag_keys);
    prefix = upload<int, mem>("level_prefix", p.prefix);
    total = upload<int, mem>("level_total", p.total);
    host_total = p.total;
    normals = upload<double, mem>("normals", t.normals);
    dirs = upload<double, mem>("dirs", t.dirs);
    flags = upload<std::uint16_t, mem>("flags", t.flags);
  }

  SweepGeometry geometry() const {
    SweepGeometry g;
    g.neighbours = neighbours.data();
    g.partner = partner.data();
    g.normals = normals.data();
    g.dirs = dirs.data();
    g.flags = flags.data();
    g.lag_offsets = lag_offsets.data();
    g.lag_keys = lag_keys.data();
    g.cells = cells, g.faces = faces, g.directions = directions;
    return g;
  }
};

} // namespace umesh::detail

#endif
