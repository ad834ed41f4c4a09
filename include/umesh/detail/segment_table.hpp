#ifndef UMESH_DETAIL_SEGMENT_TABLE_HPP
#define UMESH_DETAIL_SEGMENT_TABLE_HPP

// The segmented executor's plan for one map: for each block of consecutive
// elements, the points it reaches through the map as a few runs of
// consecutive point ids (segments). In a local numbering (generated meshes,
// RCM, GPS) a block's points form two or three runs, so the runs replace
// the point lists and block-local maps other shared-memory schemes read.

#include <umesh/colouring.hpp> // HostConnectivity
#include <umesh/segment_table.hpp>

#include <cstdint>
#include <vector>

namespace umesh::detail {

using SegmentTable = umesh::SegmentTable;

/// Blocks of `block_size` consecutive elements of `n`; per block the
/// `max_segments` runs with most points are kept (ties: the lower point).
SegmentTable build_segment_table(int n, const HostConnectivity &map, int block_size,
                                 int max_segments);

} // namespace umesh::detail

#endif
