#include <umesh/detail/warp_links.hpp>

#include <algorithm>
#include <utility>

namespace umesh::detail {

WarpLinks build_warp_links(int n, const HostConnectivity &map, const std::vector<int> &slots) {
  WarpLinks t;
  const int m = int(slots.size()), entries = 32 * m, warps = (n + 31) / 32;
  t.group_size = m;
  t.narrow = entries <= warp_narrow_entries;
  const int width = t.narrow ? 1 : 2;
  t.bytes.assign(std::size_t(warps) * entries * width, 0); // unused lanes: never read
  std::int64_t references = 0, leaders = 0;
  int longest = 0;
#pragma omp parallel reduction(+ : references, leaders) reduction(max : longest)
  {
    std::vector<std::pair<int, int>> refs; // (point, entry), sorted: chains in entry order
    std::vector<std::uint16_t> link(entries);
#pragma omp for schedule(static)
    for (int w = 0; w < warps; ++w) {
      const int e0 = 32 * w, lanes = std::min(32, n - e0);
      refs.clear();
      for (int j = 0; j < m; ++j)
        for (int l = 0; l < lanes; ++l)
          refs.push_back({map.indices[std::size_t(e0 + l) * map.arity + slots[j]], 32 * j + l});
      std::sort(refs.begin(), refs.end());
      int chain = 0;
      for (std::size_t i = 0; i < refs.size(); ++i) {
        const bool head = i == 0 || refs[i - 1].first != refs[i].first;
        const bool more = i + 1 < refs.size() && refs[i + 1].first == refs[i].first;
        chain = head ? 1 : chain + 1;
        longest = std::max(longest, chain);
        leaders += head;
        link[refs[i].second] =
            std::uint16_t((head ? 0 : warp_link_follower) | (more ? refs[i + 1].second : 0));
      }
      references += std::int64_t(refs.size());
      std::uint8_t *out = t.bytes.data() + std::size_t(w) * entries * width;
      for (const auto &r : refs) {
        const std::uint16_t l = link[r.second];
        if (t.narrow) {
          out[r.second] = std::uint8_t((l & warp_link_follower ? 0x80 : 0) | (l & 0x7F));
        } else {
          out[2 * r.second] = std::uint8_t(l & 0xFF);
          out[2 * r.second + 1] = std::uint8_t(l >> 8);
        }
      }
    }
  }
  t.references = references;
  t.leaders = leaders;
  t.longest_chain = longest;
  return t;
}

} // namespace umesh::detail
