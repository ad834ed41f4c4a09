#ifndef UMESH_DETAIL_WARP_LINKS_HPP
#define UMESH_DETAIL_WARP_LINKS_HPP

// exec::WarpCombine's plan for one chunk of loop arguments that combine into
// one dat through one map (their slots in order, at most four): for each
// warp of 32 consecutive elements, the chunk's references are entries
// j * 32 + lane (argument j of the chunk, element lane). Entries that reach
// the same point form a chain in entry order; the first one (the leader)
// walks it and combines into global memory once.

#include <umesh/colouring.hpp> // HostConnectivity

#include <cstdint>
#include <vector>

namespace umesh::detail {

/// References per element in one chunk: a warp's entries (at most 128) then
/// fit a one-byte link. Larger groups (a hex's eight nodes) are combined in
/// chunks of this many arguments.
constexpr int warp_chunk = 4;

/// A link byte: bit 7 set when the entry follows another one of its point
/// (adds nothing to global memory itself); bits 0-6 the next entry of the
/// same point, 0 for none (a chain ascends, so entry 0 is never a next).
constexpr unsigned warp_link_follower = 0x80;
constexpr unsigned warp_link_next = 0x7F;

struct WarpLinks {
  int group_size = 0;                       ///< references per element (entries per warp / 32)
  std::vector<std::uint8_t> bytes;          ///< [warp][argument][lane]
  std::int64_t references = 0, leaders = 0; ///< (element, argument) pairs; chain heads
  int longest_chain = 0;
};

/// Links of a chunk whose argument j reads slot `slots[j]` of `map`, over
/// elements [0, n). Slots may repeat (an argument named twice); 1 to
/// warp_chunk of them.
WarpLinks build_warp_links(int n, const HostConnectivity &map, const std::vector<int> &slots);

} // namespace umesh::detail

#endif
