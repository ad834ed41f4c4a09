#ifndef UMESH_DETAIL_WARP_LINKS_HPP
#define UMESH_DETAIL_WARP_LINKS_HPP

// exec::WarpCombine's plan for one group of loop arguments that combine
// into one dat through one map (their slots in order): for each warp of 32
// consecutive elements, the group's references are entries j * 32 + lane
// (argument j of the group, element lane). Entries that reach the same point
// form a chain in entry order; the first one (the leader) walks it and
// combines into global memory once.

#include <umesh/colouring.hpp> // HostConnectivity

#include <cstdint>
#include <vector>

namespace umesh::detail {

/// A link: bit 15 set when the entry follows another one of its point
/// (adds nothing to global memory itself); bits 0-14 the next entry of the
/// same point, 0 for none (a chain ascends, so entry 0 is never a next).
/// On the device a missing next is warp_link_end.
constexpr std::uint16_t warp_link_end = 0x7FFF;
constexpr std::uint16_t warp_link_follower = 0x8000;
/// Narrow links (one byte: bit 7 follower, bits 0-6 the next entry) serve
/// warps of up to this many entries.
constexpr int warp_narrow_entries = 128;

struct WarpLinks {
  int group_size = 0; ///< references per element (entries per warp / 32)
  bool narrow = false;
  /// [warp][argument][lane], one byte each when narrow, else two
  /// (little-endian).
  std::vector<std::uint8_t> bytes;
  std::int64_t references = 0, leaders = 0; ///< (element, argument) pairs; chain heads
  int longest_chain = 0;
};

/// Links of a group whose argument j reads slot `slots[j]` of `map`, over
/// elements [0, n). Slots may repeat (an argument named twice).
WarpLinks build_warp_links(int n, const HostConnectivity &map, const std::vector<int> &slots);

} // namespace umesh::detail

#endif
