#ifndef UMESH_BLOCK_PLAN_HPP
#define UMESH_BLOCK_PLAN_HPP

// Host-side two-level colouring for the hierarchical executor: elements in
// blocks, blocks coloured over the points they write, threads coloured inside
// each block, and per block the distinct points each map touches (what the
// block stages in scratch) with a local map into that list.

#include <umesh/colouring.hpp>
#include <umesh/timing.hpp>

#include <string>
#include <vector>

namespace umesh {

struct BlockPlanMap {
  HostConnectivity conn;
  bool written; ///< increments go through it: colourings must respect it
};

struct BlockPlan {
  int block_size = 0;
  int num_blocks() const { return int(block_start.size()) - 1; }
  /// Position i (blocks contiguous, threads sorted by colour) -> element.
  std::vector<int> elem;
  std::vector<int> block_start;   ///< [num_blocks + 1] first position of each block
  std::vector<int> thread_colour; ///< per position
  /// Positions of thread colour c of block b:
  /// [colour_start[thread_colour_offsets[b] + c], colour_start[... + c + 1]);
  /// block b has thread_colour_offsets[b + 1] - thread_colour_offsets[b] - 1
  /// colours.
  std::vector<int> thread_colour_offsets; ///< [num_blocks + 1]
  std::vector<int> colour_start;
  std::vector<int> block_colour;         ///< per block
  std::vector<int> block_order;          ///< blocks sorted by block colour
  std::vector<int> block_colour_offsets; ///< [num_block_colours + 1] into block_order
  int num_block_colours() const { return int(block_colour_offsets.size()) - 1; }

  struct Staged {
    std::vector<int> point_offsets; ///< [num_blocks + 1] into points
    /// Distinct points of each block: first the ones no other (block, written
    /// map) list holds, then the shared ones; each part ascending.
    std::vector<int> points;
    std::vector<int> owned; ///< [num_blocks] how many of a block's points come first
    std::vector<int> local; ///< [position][arity] index into the block's points
    int arity = 0;
    int max_points = 0; ///< largest block's point count
  };
  std::vector<Staged> staged; ///< one per map, in the order given

  // Metrics.
  int max_thread_colours = 0;
  double mean_thread_colours = 0;
  double reuse = 0;              ///< accesses per staged point (all maps)
  double mean_staged_points = 0; ///< per block, all maps
  double mean_cache_lines = 0;   ///< 32-byte lines per block for 8-byte scalar data, all maps
  double build_seconds = 0;      ///< partitioning included
  std::string blocks_from = "contiguous"; ///< or how the blocks were given
  PhaseTimes phases;                      ///< planning time per phase
};

/// Builds the plan for `num_elements` elements in blocks of at most
/// `block_size`: contiguous chunks of the current order when `part` is empty,
/// else the parts `part[e]` (ascending part id, element order inside a part),
/// each cut into chunks of at most `block_size`. Without `stage`, only the
/// element order is built: no block colours, staged point lists, local maps
/// or the metrics from them.
BlockPlan build_block_plan(int num_elements, const std::vector<BlockPlanMap> &maps, int block_size,
                           const std::vector<int> &part = {}, bool stage = true);

/// Part ids for METIS-partitioned blocks: the element graph (elements adjacent
/// when they share a point of any map) cut by METIS k-way into parts of
/// about `block_size * (1 - margin)` elements, with an imbalance tolerance
/// of 1 / (1 - margin) so that parts rarely exceed `block_size` (larger ones
/// are cut by build_block_plan). Throws umesh::Error without METIS.
std::vector<int> metis_block_parts(int num_elements, const std::vector<BlockPlanMap> &maps,
                                   int block_size, double margin);

/// Part ids from the built-in partitioner (grow_block_parts) over every map
/// of the plan: parts of exactly `block_size` elements except where a region
/// runs out.
std::vector<int> builtin_block_parts(int num_elements, const std::vector<BlockPlanMap> &maps,
                                     int block_size);

/// One line per metric, for logs and reports (umesh_main prints it).
std::string summary(const BlockPlan &plan);

} // namespace umesh

#endif
