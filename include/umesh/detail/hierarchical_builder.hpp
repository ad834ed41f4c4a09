#ifndef UMESH_DETAIL_HIERARCHICAL_BUILDER_HPP
#define UMESH_DETAIL_HIERARCHICAL_BUILDER_HPP

// The hierarchical plan's host side: partitioning, colouring, the plan file,
// the layout facts its launches need and its summary, compiled once in
// src/hierarchical_builder.cpp. Plan<exec::Hierarchical> uploads and runs.

#include <umesh/block_plan.hpp>
#include <umesh/detail/hierarchical_checks.hpp> // LocalIndex
#include <umesh/exec.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace umesh::detail {

/// A hierarchical plan on the host, ready to upload.
struct HierarchicalHostPlan {
  BlockPlan plan;
  std::string file_note;          ///< "loaded from <file>", "saved to <file>" or empty
  bool loaded = false;            ///< read from the plan file
  bool in_block_order = false;    ///< position i runs element i: no element indirection
  bool blocks_are_ranges = false; ///< each block runs the elements of its own positions
};

/// The plan of `set` (`n` elements over `maps`) with the plan options of
/// `options`: read from its plan file when that exists (an Error unless the
/// file matches), else partitioned and coloured (and saved to the file).
HierarchicalHostPlan build_hierarchical_plan(const std::string &set, int n,
                                             const std::vector<BlockPlanMap> &maps,
                                             const exec::HierarchicalPlanOptions &options);

/// The hierarchical plan in the plan file `path`, for `n` elements over
/// `maps` with the plan options of `options`: an Error naming the file unless
/// it matches them (format, checksum, maps, options) and holds a valid plan
/// (check_block_plan).
BlockPlan read_hierarchical_plan_file(const std::string &path, int n,
                                      const std::vector<BlockPlanMap> &maps,
                                      const exec::HierarchicalPlanOptions &options);

/// Writes `plan` to the plan file `path` as read_hierarchical_plan_file reads
/// it (through a temporary of its own, renamed into place). The plan is not
/// checked: readers check it.
void write_hierarchical_plan_file(const std::string &path, const BlockPlan &plan, int n,
                                  const std::vector<BlockPlanMap> &maps,
                                  const exec::HierarchicalPlanOptions &options);

/// Per element, its thread colour as a byte (BlockPlanDev::element_colour),
/// or nothing where launches do not use it: blocks that are not element
/// ranges, elements already in block order, or more than 256 colours.
std::vector<std::uint8_t> element_colours(const HierarchicalHostPlan &h);

/// How a loop's kernels were launched (what launch returns).
struct HierarchicalLaunch {
  int blocks_per_team = 1; ///< 1 unless pipelined
  int team_size = 0;       ///< threads per team asked for (0: one per element)
  int max_registers = 0;   ///< the register budget the one-block kernel ran under
  int preloaded = 0;       ///< combine groups preloaded (exec::Hierarchical::preload)
};

/// How a loop last ran on a hierarchical plan.
struct HierarchicalLoop {
  exec::Staging asked, used;
  int need;    ///< scratch bytes per block for the staging asked
  int scratch; ///< for the staging used
  int budget;  ///< what the backend grants a team
  exec::Combine combine;
  exec::Writeback writeback;
  HierarchicalLaunch launched = {};
};

/// The plan's metrics, where its file came from or went, and per loop the
/// scratch, staging, combining and launch it ran with.
std::string hierarchical_summary(const BlockPlan &plan, const std::string &file_note,
                                 const std::map<std::string, HierarchicalLoop> &loops);

/// Frees the staged point lists and local maps (uploaded: the device has
/// them); the metrics stay.
void drop_staged_lists(BlockPlan &plan);

/// The plan options a plan file records (and must match to be loaded).
std::string plan_options_text(const exec::HierarchicalPlanOptions &o);

/// A staged map's local indices as 16 bits, indexed by element, so that a
/// thread finds its element's points without knowing its position in the
/// thread-colour order; an Error when a block touches too many points.
std::vector<LocalIndex> narrow_local_map(const BlockPlan &plan, const BlockPlan::Staged &st,
                                         const std::string &set, int block_size);

} // namespace umesh::detail

#endif
