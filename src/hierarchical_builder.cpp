// The hierarchical plan's host side (umesh/detail/hierarchical_builder.hpp):
// compiled once here rather than in every file that builds a plan.
#include <umesh/detail/hierarchical_builder.hpp>
#include <umesh/detail/plan_file.hpp>
#include <umesh/error.hpp>
#include <umesh/timing.hpp>

#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace umesh::detail {

namespace {
// Of the maps and, for given blocks, the block ids.
std::uint64_t plan_fingerprint(int n, const std::vector<BlockPlanMap> &conn,
                               const exec::HierarchicalPlanOptions &options) {
  static const std::vector<int> none;
  const bool use_given = options.partition == exec::Partition::given && options.blocks;
  return fingerprint(n, conn, use_given ? *options.blocks : none);
}
} // namespace

BlockPlan read_hierarchical_plan_file(const std::string &path, int n,
                                      const std::vector<BlockPlanMap> &conn,
                                      const exec::HierarchicalPlanOptions &options) {
  PlanReader reader(path, "hierarchical plan", plan_fingerprint(n, conn, options),
                    plan_options_text(options));
  BlockPlan plan = read_block_plan(reader);
  check_block_plan(plan, n, conn, options.block_size, path);
  return plan;
}

void write_hierarchical_plan_file(const std::string &path, const BlockPlan &plan, int n,
                                  const std::vector<BlockPlanMap> &conn,
                                  const exec::HierarchicalPlanOptions &options) {
  PlanWriter writer("hierarchical plan", plan_fingerprint(n, conn, options),
                    plan_options_text(options));
  write_block_plan(writer, plan);
  writer.save(path);
}

HierarchicalHostPlan build_hierarchical_plan(const std::string &set, int n,
                                             const std::vector<BlockPlanMap> &conn,
                                             const exec::HierarchicalPlanOptions &options) {
  static const std::vector<int> none;
  const std::vector<int> &given = options.blocks ? *options.blocks : none;
  const bool use_given = options.partition == exec::Partition::given;
  // Block ids with another partition would be dropped without a word
  // (with_blocks, then with_partition).
  if (options.blocks && !use_given)
    fail("hierarchical plan for set '", set, "': with_blocks gave ", options.blocks->size(),
         " block ids, but the partition is '", exec::partition_name(options.partition),
         "', which forms its own blocks; use Partition::given (with_blocks sets it) or leave "
         "the block ids out");
  if (use_given && int(given.size()) != n)
    fail("hierarchical plan for set '", set, "' (", n, " elements): ",
         options.blocks ? "with_blocks gave " + std::to_string(given.size()) + " block ids"
                        : std::string("Partition::given without with_blocks"));
  HierarchicalHostPlan h;
  // Hashing every index costs a pass over the maps: only for plan files.
  const bool file = !options.plan_file.empty();
  h.loaded = file && file_exists(options.plan_file);
  if (h.loaded) {
    h.plan = read_hierarchical_plan_file(options.plan_file, n, conn, options);
    h.file_note = "loaded from " + options.plan_file;
  } else {
    std::vector<int> part;
    PhaseTimes phases;
    {
      PhaseClock clock("hierarchical plan", n >= progress_threshold, phases);
      if (options.partition == exec::Partition::metis) {
        clock.start("partition (METIS)");
        part = metis_block_parts(n, conn, options.block_size, options.metis_margin);
      } else if (options.partition == exec::Partition::builtin) {
        clock.start("partition (built-in)");
        part = builtin_block_parts(n, conn, options.block_size);
      }
    }
    h.plan = build_block_plan(n, conn, options.block_size, use_given ? given : part);
    h.plan.phases.insert(h.plan.phases.begin(), phases.begin(), phases.end());
    h.plan.blocks_from = exec::partition_name(options.partition);
    if (file) {
      write_hierarchical_plan_file(options.plan_file, h.plan, n, conn, options);
      h.file_note = "saved to " + options.plan_file;
    }
  }
  const BlockPlan &p = h.plan;
  h.in_block_order = true;
  for (int i = 0; i < n && h.in_block_order; ++i)
    h.in_block_order = p.elem[i] == i;
  h.blocks_are_ranges = true;
  for (int b = 0; b < p.num_blocks() && h.blocks_are_ranges; ++b)
    for (int i = p.block_start[b]; i < p.block_start[b + 1]; ++i)
      h.blocks_are_ranges =
          h.blocks_are_ranges && p.elem[i] >= p.block_start[b] && p.elem[i] < p.block_start[b + 1];
  return h;
}

std::vector<std::uint8_t> element_colours(const HierarchicalHostPlan &h) {
  const BlockPlan &p = h.plan;
  std::vector<std::uint8_t> colour;
  if (!h.blocks_are_ranges || h.in_block_order || p.max_thread_colours > 256)
    return colour;
  colour.resize(p.elem.size());
  for (std::size_t i = 0; i < p.elem.size(); ++i)
    colour[p.elem[i]] = std::uint8_t(p.thread_colour[i]);
  return colour;
}

std::string hierarchical_summary(const BlockPlan &plan, const std::string &file_note,
                                 const std::map<std::string, HierarchicalLoop> &loops) {
  std::ostringstream os;
  os << summary(plan);
  if (!file_note.empty())
    os << "; plan " << file_note;
  for (const auto &[loop, r] : loops) {
    os << "; loop '" << loop << "': scratch " << r.scratch << " B/block, staging "
       << exec::staging_name(r.used) << ", combine " << exec::combine_name(r.combine)
       << ", writeback " << exec::writeback_name(r.writeback);
    const HierarchicalLaunch &l = r.launched;
    if (l.blocks_per_team > 1)
      os << ", " << l.blocks_per_team << " blocks per team";
    if (l.team_size > 0)
      os << ", " << l.team_size << " threads per team";
    if (l.max_registers > 0)
      os << ", at most " << l.max_registers << " registers per thread";
    if (l.preloaded > 0)
      os << ", increments of " << l.preloaded << " dat" << (l.preloaded > 1 ? "s" : "")
         << " preloaded";
    if (r.used != r.asked)
      os << " (fallback: '" << exec::staging_name(r.asked) << "' needs " << r.need << " B, budget "
         << r.budget << " B)";
  }
  return os.str();
}

void drop_staged_lists(BlockPlan &plan) {
  for (auto &st : plan.staged) {
    st.points.clear();
    st.local.clear();
    st.points.shrink_to_fit();
    st.local.shrink_to_fit();
  }
}

std::string plan_options_text(const exec::HierarchicalPlanOptions &o) {
  std::ostringstream os;
  os << "block_size=" << o.block_size << " partition=" << exec::partition_name(o.partition);
  if (o.partition == exec::Partition::metis) {
    // Shortest round trip, not the stream's six digits: a file built with
    // one margin must not load under another that prints alike.
    char margin[32];
    os << " metis_margin="
       << std::string(margin, std::to_chars(margin, margin + sizeof margin, o.metis_margin).ptr);
  }
  return os.str();
}

std::vector<LocalIndex> narrow_local_map(const BlockPlan &plan, const BlockPlan::Staged &st,
                                         const std::string &set, int block_size) {
  constexpr int most = std::numeric_limits<LocalIndex>::max();
  if (st.max_points > most)
    fail("hierarchical plan for set '", set, "': a block touches ", st.max_points,
         " points through one map, over the ", most,
         " a 16-bit local index holds; use a smaller block size than ", block_size);
  std::vector<LocalIndex> narrow(st.local.size());
  for (std::size_t i = 0; i < plan.elem.size(); ++i)
    for (int s = 0; s < st.arity; ++s)
      narrow[std::size_t(plan.elem[i]) * st.arity + s] = LocalIndex(st.local[i * st.arity + s]);
  return narrow;
}

} // namespace umesh::detail
