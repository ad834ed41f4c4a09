#include <umesh/detail/warp_maps.hpp>

#include <algorithm>
#include <limits>

namespace umesh::detail {

CompactMap build_compact_map(int n, int arity, const int *indices) {
  CompactMap c;
  const int warps = (n + 31) / 32;
  c.base.assign(std::size_t(warps), 0);
  c.offsets.assign(std::size_t(n) * arity, 0);
  std::int64_t wide_warp = std::numeric_limits<std::int64_t>::max(), wide_span = 0;
#pragma omp parallel for schedule(static)
  for (int w = 0; w < warps; ++w) {
    const std::size_t first = std::size_t(32) * w * arity;
    const std::size_t last = std::min(std::size_t(n), std::size_t(32) * (w + 1)) * arity;
    const auto [lo, hi] = std::minmax_element(indices + first, indices + last);
    const std::int64_t span = std::int64_t(*hi) - *lo;
    if (span > 0xFFFF) {
#pragma omp critical(umesh_compact_map)
      if (w < wide_warp) {
        wide_warp = w;
        wide_span = span;
      }
      continue;
    }
    c.base[w] = *lo;
    for (std::size_t i = first; i < last; ++i)
      c.offsets[i] = std::uint16_t(indices[i] - *lo);
  }
  if (wide_warp != std::numeric_limits<std::int64_t>::max()) {
    c.base.clear();
    c.offsets.clear();
    c.wide_warp = wide_warp;
    c.wide_span = wide_span;
  }
  return c;
}

} // namespace umesh::detail
