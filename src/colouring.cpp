#include <umesh/colouring.hpp>
#include <umesh/detail/offsets.hpp>
#include <umesh/error.hpp>

#include "thread_ranges.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace umesh {

Colouring colour_items(int num_items, const std::vector<int> &offsets,
                       const std::vector<int> &points, int num_points, bool balanced) {
  Colouring result;
  result.colour.assign(num_items, -1);
  // Rounds of 64 colours: a bit mask per point holds the colours of the
  // current round its items took.
  std::vector<std::uint64_t> used(std::size_t(num_points), 0);
  int remaining = num_items;
  for (int round_base = 0; remaining > 0; round_base += 64) {
    if (round_base > 0)
      std::fill(used.begin(), used.end(), 0);
    int opened = 0;
    for (int i = 0; i < num_items; ++i) {
      if (result.colour[i] >= 0)
        continue;
      std::uint64_t mask = 0;
      for (int j = offsets[i]; j < offsets[i + 1]; ++j)
        mask |= used[points[j]];
      int best = -1;
      if (balanced) {
        int best_size = std::numeric_limits<int>::max();
        for (int c = 0; c < opened; ++c)
          if (!(mask >> c & 1u) && result.colour_sizes[round_base + c] < best_size) {
            best = c;
            best_size = result.colour_sizes[round_base + c];
          }
      } else {
        for (int c = 0; c < opened && best < 0; ++c)
          if (!(mask >> c & 1u))
            best = c;
      }
      if (best < 0) {
        if (opened == 64)
          continue; // next round
        best = opened++;
        result.colour_sizes.push_back(0);
      }
      result.colour[i] = round_base + best;
      ++result.colour_sizes[round_base + best];
      --remaining;
      for (int j = offsets[i]; j < offsets[i + 1]; ++j)
        used[points[j]] |= std::uint64_t(1) << best;
    }
  }
  return result;
}

std::vector<int> point_bases(const std::vector<HostConnectivity> &maps, int &total) {
  std::vector<int> target_base, base;
  total = 0;
  for (const auto &m : maps) {
    if (m.target >= int(target_base.size()))
      target_base.resize(m.target + 1, -1);
    if (target_base[m.target] < 0) {
      target_base[m.target] = total;
      total += m.target_size;
    }
    base.push_back(target_base[m.target]);
  }
  return base;
}

Colouring greedy_colour(int num_elements, const std::vector<HostConnectivity> &maps) {
  // Every element's points in one int-indexed list: checked before it grows.
  std::int64_t arity = 0;
  for (const auto &m : maps)
    arity += m.arity;
  detail::check_fits(std::int64_t(num_elements) * arity, detail::int_limit,
                     "greedy colouring of " + std::to_string(num_elements) +
                         " elements (every map's points per element: " + std::to_string(arity) +
                         ")",
                     "its int offsets", "split the mesh over more ranks (umesh::dist)");
  int total = 0;
  const std::vector<int> base = point_bases(maps, total);
  std::vector<int> offsets(std::size_t(num_elements) + 1, 0), points;
  for (int e = 0; e < num_elements; ++e) {
    for (std::size_t m = 0; m < maps.size(); ++m)
      for (int s = 0; s < maps[m].arity; ++s)
        points.push_back(base[m] + maps[m].indices[std::size_t(e) * maps[m].arity + s]);
    offsets[e + 1] = int(points.size());
  }
  return colour_items(num_elements, offsets, points, total, true);
}

// Parallel: counts with atomic increments, fills with atomic slots, then
// sorts each point's entries, so the lists ascend as a sequential fill would
// leave them, on any thread count (plans must not depend on it). Sequential,
// the two passes took several seconds per map at 100M elements.
InverseMap invert_map(int num_elements, const int *indices, int arity, int to_size) {
  // Entries are (element * arity + slot) ints: checked before any is read.
  const std::int64_t n = detail::check_fits(std::int64_t(num_elements) * arity, detail::int_limit,
                                            "invert_map of " + std::to_string(num_elements) +
                                                " elements x arity " + std::to_string(arity),
                                            "an inverse map's int offsets and entries",
                                            "split the mesh over more ranks (umesh::dist)");
  InverseMap inv;
  inv.offsets.assign(std::size_t(to_size) + 1, 0);
  std::int64_t bad = n; // the first entry outside [0, to_size)
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(min : bad)
#endif
  for (std::int64_t i = 0; i < n; ++i) {
    const int p = indices[i];
    if (p < 0 || p >= to_size) {
      bad = std::min(bad, i);
      continue;
    }
#ifdef _OPENMP
#pragma omp atomic
#endif
    ++inv.offsets[std::size_t(p) + 1];
  }
  if (bad < n)
    detail::fail("invert_map: entry ", bad, " is ", indices[bad], ", outside [0, ", to_size, ")");
  for (int p = 0; p < to_size; ++p)
    inv.offsets[p + 1] += inv.offsets[p];
  inv.entries.resize(std::size_t(n));
  std::vector<int> fill(inv.offsets.begin(), inv.offsets.end() - 1);
  if (detail::one_thread()) { // in order: the lists ascend without atomics or sorting
    for (std::int64_t i = 0; i < n; ++i)
      inv.entries[std::size_t(fill[std::size_t(indices[i])]++)] = int(i);
    return inv;
  }
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
  for (std::int64_t i = 0; i < n; ++i) {
    int slot;
    int &f = fill[std::size_t(indices[i])];
#ifdef _OPENMP
#pragma omp atomic capture
#endif
    slot = f++;
    inv.entries[std::size_t(slot)] = int(i);
  }
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 4096)
#endif
  for (int p = 0; p < to_size; ++p)
    std::sort(inv.entries.begin() + inv.offsets[p], inv.entries.begin() + inv.offsets[p + 1]);
  return inv;
}

} // namespace umesh
