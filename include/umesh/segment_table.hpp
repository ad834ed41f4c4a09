#ifndef UMESH_SEGMENT_TABLE_HPP
#define UMESH_SEGMENT_TABLE_HPP

// The segmented executor's table for one map (Plan<exec::Segmented,
// Space>::host_table): per block of consecutive elements, the runs of
// consecutive point ids it keeps in team scratch, with its sizes and
// metrics; the arrays the kernels read are on the device.

#include <cstdint>
#include <vector>

namespace umesh {

/// One map's segment table on the host.
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

} // namespace umesh

#endif
