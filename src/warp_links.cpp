#include <umesh/detail/warp_links.hpp>
#include <umesh/error.hpp>

#include <algorithm>
#include <utility>

namespace umesh::detail {

WarpLinks build_warp_links(int n, const HostConnectivity &map, const std::vector<int> &slots) {
  if (slots.empty() || slots.size() > std::size_t(warp_chunk))
    fail("build_warp_links: ", slots.size(), " references per element; a chunk has 1 to ",
         warp_chunk);
  WarpLinks t;
  const int m = int(slots.size()), entries = 32 * m, warps = (n + 31) / 32;
  t.group_size = m;
  t.bytes.assign(std::size_t(warps) * entries, 0); // lanes past n: never read
  std::int64_t references = 0, leaders = 0;
  int longest = 0;
#pragma omp parallel reduction(+ : references, leaders) reduction(max : longest)
  {
    std::vector<std::pair<int, int>> refs; // (point, entry), sorted: chains in entry order
#pragma omp for schedule(static)
    for (int w = 0; w < warps; ++w) {
      const int e0 = 32 * w, lanes = std::min(32, n - e0);
      refs.clear();
      for (int j = 0; j < m; ++j)
        for (int l = 0; l < lanes; ++l)
          refs.push_back({map.indices[std::size_t(e0 + l) * map.arity + slots[j]], 32 * j + l});
      std::sort(refs.begin(), refs.end());
      std::uint8_t *out = t.bytes.data() + std::size_t(w) * entries;
      int chain = 0;
      for (std::size_t i = 0; i < refs.size(); ++i) {
        const bool head = i == 0 || refs[i - 1].first != refs[i].first;
        const bool more = i + 1 < refs.size() && refs[i + 1].first == refs[i].first;
        chain = head ? 1 : chain + 1;
        longest = std::max(longest, chain);
        leaders += head;
        out[refs[i].second] =
            std::uint8_t((head ? 0u : warp_link_follower) | (more ? refs[i + 1].second : 0));
      }
      references += std::int64_t(refs.size());
    }
  }
  t.references = references;
  t.leaders = leaders;
  t.longest_chain = longest;
  return t;
}

} // namespace umesh::detail
