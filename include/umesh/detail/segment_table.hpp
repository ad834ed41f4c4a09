#ifndef UMESH_DETAIL_SEGMENT_TABLE_HPP
#define UMESH_DETAIL_SEGMENT_TABLE_HPP

// The segmented executor's plan for one map: for each block of consecutive
// elements, the points it reaches through the map as a few runs of
// consecutive point ids (segments). In a local numbering (generated meshes,
// RCM, GPS) a block's points form two or three runs, so the runs replace
// the point lists and block-local maps other shared-memory schemes read.

#include <umesh/colouring.hpp> // HostConnectivity

#include <cstdint>
#include <vector>

namespace umesh::detail {

struct SegmentTable {
  int block_size = 0, max_segments = 0, num_blocks = 0;
  /// [block][max_segments]: first point of each kept run (ascending; unused: 0).
  std::vector<int> first;
  /// [block][max_segments + 1]: where each run starts in the block's
  /// buffer; the last entry is the block's staged point count (unused runs
  /// have length 0).
  std::vector<int> offset;
  int max_points = 0; ///< largest staged point count of any block
  /// (element, slot) references, and those whose point lies in a kept run
  /// (the rest go to global memory with atomics).
  std::int64_t references = 0, staged_references = 0;
  std::int64_t segments = 0; ///< kept runs over all blocks
  int max_runs = 0;          ///< most runs any block's points form (kept or not)
  /// Most references one staged point gets from one block: through any
  /// slot, and [slot] through that slot alone.
  int max_refs = 0;
  std::vector<int> max_refs_per_slot;
};

/// Blocks of `block_size` consecutive elements of `n`; per block the
/// `max_segments` runs with most points are kept (ties: the lower point).
SegmentTable build_segment_table(int n, const HostConnectivity &map, int block_size,
                                 int max_segments);

} // namespace umesh::detail

#endif
