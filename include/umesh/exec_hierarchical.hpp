#ifndef UMESH_EXEC_HIERARCHICAL_HPP
#define UMESH_EXEC_HIERARCHICAL_HPP

// The hierarchical executor's tag: its options, and the kernels a loop
// compiles as a type (exec::HierarchicalOf<Kernels>), so that a run-time
// option chooses only among kernels the program instantiated.

#include <umesh/concurrency.hpp>
#include <umesh/loop_options.hpp>

#include <memory>
#include <string>
#include <vector>

namespace umesh::exec {

/// What the hierarchical executor caches in team scratch (GPU shared memory).
enum class Staging {
  all,        ///< every argument read or incremented through a staged map
  increments, ///< only increments; indirect reads go to global memory
  none,       ///< nothing: increments go to global memory thread colour by colour
  reads       ///< only indirect reads; increments go to global memory with atomics,
              ///< all blocks in one launch (no colourings, no write-back)
};

/// How the threads of one block combine their staged increments (and min/max)
/// in team scratch.
enum class Combine {
  colours, ///< thread colour by thread colour, a barrier after each (the paper's way)
  atomics, ///< all threads at once with scratch atomics: no thread colours, one barrier
  gather   ///< each element leaves its increments in its own scratch slots; after one
           ///< barrier each staged point sums its elements' slots through an inverse
           ///< list: no atomics (FP64 scratch atomics are compare-and-swap loops on
           ///< NVIDIA GPUs), no thread colours, a fixed summation order per block
};

/// Every Combine, for sweeps.
inline constexpr Combine all_combines[] = {Combine::colours, Combine::atomics, Combine::gather};

/// How blocks combine their staged increments into global memory.
enum class Writeback {
  coloured, ///< one launch per block colour; blocks of a colour share no written point
  atomic    ///< one launch for every block: points only this block writes are added
            ///< plainly, points shared with other blocks with a global atomic
};

/// How the hierarchical plan forms blocks.
enum class Partition {
  contiguous, ///< chunks of the current element order
  metis,      ///< METIS k-way parts of the element graph (needs METIS)
  builtin,    ///< umesh's own partitioner (grow_block_parts): fast, no library
  given       ///< the block ids set with with_blocks (e.g. Renumbering::blocks())
};

/// The hierarchical executor's kernels, flags of exec::HierarchicalOf's
/// parameter: a loop compiles only the kernels its tag names, and a loop
/// whose options need another one is an Error naming it (kernels_needed).
/// Each flag is a kernel per loop (two for `staged`, one per staging).
struct HierarchicalKernels {
  enum : unsigned {
    staged = 1, ///< staging 'all' and 'inc', one block per team, thread colours or scratch atomics
    unstaged = 2,   ///< staging 'none' (also where with_fallback() ends)
    reads = 4,      ///< staging 'reads'
    gather = 8,     ///< Combine::gather (staging 'all' and 'inc')
    pipelined = 16, ///< GPUs: several blocks per team (blocks_per_team > 1 where exec::pipelinable)
    registers = 32, ///< CUDA: the one-block kernel under max_registers 48
    /// exec::Hierarchical's: the paper's technique, its fallback and scratch atomics
    standard = staged | unstaged,
    every = 63 ///< every variant (exec::HierarchicalAll: umesh_main's sweep)
  };
};

/// The hierarchical executor's plan options (exec::HierarchicalOf's, given
/// to make_plan).
struct HierarchicalPlanOptions {
  /// Elements per block.
  int block_size = 256;
  /// How blocks are formed.
  Partition partition = Partition::contiguous;
  /// METIS blocks: parts aim at block_size * (1 - margin) elements so that
  /// the imbalance METIS allows stays within block_size.
  double metis_margin = 0.1;
  /// Partition::given: block id of every element (blocks larger than
  /// block_size are cut).
  std::shared_ptr<const std::vector<int>> blocks;
  /// When set, the plan is loaded from this file if it exists (an Error if
  /// the file does not match the maps and options), else built and saved
  /// there.
  std::string plan_file;
};

/// The hierarchical executor's loop options (exec::HierarchicalLoop's,
/// given to par_loop).
struct HierarchicalLoopOptions : LoopOptions {
  /// What a block caches in team scratch.
  Staging staging = Staging::all;
  /// Combining inside a block (needs staged increments when atomics).
  Combine combine = Combine::colours;
  /// Combining across blocks (needs staged increments when atomic).
  Writeback writeback = Writeback::coloured;
  /// On GPUs, staging 'reads', or staged increments combined by scratch
  /// atomics or gather with atomic write-back: each team runs this many
  /// consecutive blocks as a pipeline over three scratch slots (block k
  /// computes while block k+1's reads and block k+2's index lists are
  /// copied in; then block k's staged increments go to global memory), so
  /// staging latency hides behind the previous block's work. Used where
  /// blocks are ranges of elements (contiguous blocks, renumbered meshes)
  /// and three slots fit the budget; the plan's summary says "n blocks per
  /// team" when it ran so. 1: one block per team. Other combinations and
  /// host backends run one block per team.
  int blocks_per_team = 1;
  /// GPU backends: threads per team, a multiple of 32 below the block size;
  /// 0 (default): one thread per element of a block. With fewer threads than
  /// elements each thread runs several of the block's elements in turn, so a
  /// team's per-block work (staging, index lists, barriers) is shared by
  /// more elements and a larger block needs no larger team. Host backends
  /// run one thread per team whatever this says.
  int team_size = 0;
  /// CUDA: registers per thread the team kernel may hold (a launch bound),
  /// which sets how many of its warps an SM keeps resident: 0 (the
  /// compiler's choice) or 48 (teams of at most 640 threads). For blocks run
  /// one per team and combined by thread colours or scratch atomics: with
  /// gather, or several blocks per team where they pipeline, a budget is an
  /// Error. No value wins everywhere (docs/executors.md). Host backends run
  /// their one kernel whatever it says (the errors still apply:
  /// register_budget_problem).
  int max_registers = 0;
  /// The budgets max_registers takes, the default first.
  static std::vector<int> register_budgets() { return {0, 48}; }
  static bool is_register_budget(int r) { return r == 0 || r == 48; }
  /// Staging 'all' with one block per team, thread colours or scratch
  /// atomics: a block's increment buffers start at the dat's values for its
  /// own points (copied in with the staged reads), so its write-back stores
  /// without loading them. For dats the loop uses through one map and one
  /// access only; others start at the identity whatever this says, and the
  /// results are the same either way up to the order of the additions. Not
  /// under staging 'increments': there the copies would be a block's only
  /// loads before it computes. No value wins everywhere (docs/executors.md).
  bool preload = true;
  /// When its scratch does not fit the team's budget: false (default)
  /// throws an Error giving both numbers and what would fit; true falls back
  /// to increments-only staging, then to no staging ('reads' straight to no
  /// staging), and records that in the plan's summary.
  bool fallback = false;
};

/// Both sets of options: what one loop runs with (its plan's and its own).
struct HierarchicalOptions : HierarchicalPlanOptions, HierarchicalLoopOptions {
  HierarchicalOptions() = default;
  HierarchicalOptions(const HierarchicalPlanOptions &p, const HierarchicalLoopOptions &l)
      : HierarchicalPlanOptions(p), HierarchicalLoopOptions(l) {}
};

/// The hierarchical executor's loop options, and the kernels a loop under
/// them compiles (`Kernels`, HierarchicalKernels flags): run-time options
/// choose among those kernels only, and a loop whose options need another
/// one is an Error naming it. HierarchicalOf<K>::Loop.
template <unsigned Kernels = HierarchicalKernels::standard>
struct HierarchicalLoop : HierarchicalLoopOptions {
  static_assert(Kernels != 0 && (Kernels & ~unsigned(HierarchicalKernels::every)) == 0,
                "exec::HierarchicalLoop<Kernels>: Kernels are exec::HierarchicalKernels flags");
  static constexpr unsigned kernels = Kernels;
  HierarchicalLoop() = default;
  explicit HierarchicalLoop(const HierarchicalLoopOptions &o) : HierarchicalLoopOptions(o) {}
  /// The same options under another kernel set.
  template <unsigned K>
  HierarchicalLoop(const HierarchicalLoop<K> &other) : HierarchicalLoopOptions(other) {}

  HierarchicalLoop &with_staging(Staging s) { return staging = s, *this; }
  HierarchicalLoop &with_fallback(bool f = true) { return fallback = f, *this; }
  HierarchicalLoop &with_blocks_per_team(int n) { return blocks_per_team = n, *this; }
  HierarchicalLoop &with_team_size(int n) { return team_size = n, *this; }
  HierarchicalLoop &with_combine(Combine c) { return combine = c, *this; }
  HierarchicalLoop &with_writeback(Writeback w) { return writeback = w, *this; }
  HierarchicalLoop &with_max_registers(int r) { return max_registers = r, *this; }
  HierarchicalLoop &with_preload(bool p) { return preload = p, *this; }
};

/// Whether loops under hierarchical loop options `h` give bitwise-identical
/// results run to run on a backend of concurrency `c` (on host backends
/// whatever the thread count). Blocks of one colour share no written point,
/// and thread colours (or a gather's fixed lists) order a block's increments,
/// so a point's increments always add up in one order. Scratch atomics
/// reorder them on GPUs (a host team is one thread, in order); atomic
/// write-back and staging 'reads' add shared points with global atomics.
/// One thread runs everything in order. A fallback never makes a
/// reproducible loop otherwise: 'inc' keeps the combine and write-back,
/// 'none' takes both colourings.
constexpr bool hierarchical_reproducible(Concurrency c, const HierarchicalLoopOptions &h) {
  if (c == Concurrency::sequential)
    return true;
  if (h.staging == Staging::reads)
    return false;
  if (h.staging == Staging::none)
    return true;
  return h.writeback == Writeback::coloured &&
         (h.combine != Combine::atomics || c != Concurrency::gpu);
}

template <unsigned Kernels> struct HierarchicalVariant;

/// Hierarchical colouring: elements in blocks of at most `block_size`; blocks
/// coloured (one launch per block colour, one team per block, one thread per
/// element); a block stages its indirect data in team scratch, runs the
/// kernel into thread-private buffers, applies them to scratch thread colour
/// by thread colour between barriers, then adds its increments to global
/// memory once. The loop options' `combine` and `writeback` swap the two
/// colourings for scratch and global atomics (block pre-aggregation: one
/// launch per loop). The tag holds the plan options (make_plan); loops take
/// `Loop` (HierarchicalLoop<Kernels>), whose type names the kernels they
/// compile: exec::Hierarchical's loops the standard ones. One plan serves
/// loops under every kernel set (par_loop takes any HierarchicalLoop<K>).
template <unsigned Kernels = HierarchicalKernels::standard>
struct HierarchicalOf : HierarchicalPlanOptions {
  static_assert(Kernels != 0 && (Kernels & ~unsigned(HierarchicalKernels::every)) == 0,
                "exec::HierarchicalOf<Kernels>: Kernels are exec::HierarchicalKernels flags");
  static constexpr unsigned kernels = Kernels;
  using Loop = HierarchicalLoop<Kernels>;
  using Variant = HierarchicalVariant<Kernels>;
  HierarchicalOf() = default;
  explicit HierarchicalOf(const HierarchicalPlanOptions &o) : HierarchicalPlanOptions(o) {}
  /// The same options under another kernel set.
  template <unsigned K>
  HierarchicalOf(const HierarchicalOf<K> &other) : HierarchicalPlanOptions(other) {}

  HierarchicalOf &with_block_size(int b) { return block_size = b, *this; }
  HierarchicalOf &with_blocks(std::shared_ptr<const std::vector<int>> b) {
    blocks = std::move(b);
    partition = Partition::given;
    return *this;
  }
  HierarchicalOf &with_plan_file(std::string path) { return plan_file = std::move(path), *this; }
  HierarchicalOf &with_partition(Partition p) { return partition = p, *this; }
  HierarchicalOf &with_metis_margin(double m) { return metis_margin = m, *this; }

  /// Whether its loops under `loop` give bitwise-identical results run to
  /// run on a backend of concurrency `c` (hierarchical_reproducible).
  static constexpr bool reproducible(Concurrency c, const HierarchicalLoopOptions &loop = {}) {
    return hierarchical_reproducible(c, loop);
  }
};

/// Plan and loop options together, for programs and tests that sweep
/// variants ("hier-inc/sa/b256"): make_plan(space, v.plan(), ...) and
/// par_loop(plan, v.loop(), ...). make_plan and par_loop take only their own.
template <unsigned Kernels> struct HierarchicalVariant : HierarchicalOptions {
  HierarchicalVariant() = default;
  explicit HierarchicalVariant(const HierarchicalOptions &o) : HierarchicalOptions(o) {}
  HierarchicalVariant(const HierarchicalOf<Kernels> &p, const HierarchicalLoop<Kernels> &l = {})
      : HierarchicalOptions(p, l) {}

  HierarchicalOf<Kernels> plan() const { return HierarchicalOf<Kernels>(*this); }
  HierarchicalLoop<Kernels> loop() const { return HierarchicalLoop<Kernels>(*this); }

  HierarchicalVariant &with_block_size(int b) { return block_size = b, *this; }
  HierarchicalVariant &with_blocks(std::shared_ptr<const std::vector<int>> b) {
    blocks = std::move(b);
    partition = Partition::given;
    return *this;
  }
  HierarchicalVariant &with_plan_file(std::string path) {
    return plan_file = std::move(path), *this;
  }
  HierarchicalVariant &with_partition(Partition p) { return partition = p, *this; }
  HierarchicalVariant &with_metis_margin(double m) { return metis_margin = m, *this; }
  HierarchicalVariant &with_staging(Staging s) { return staging = s, *this; }
  HierarchicalVariant &with_fallback(bool f = true) { return fallback = f, *this; }
  HierarchicalVariant &with_blocks_per_team(int n) { return blocks_per_team = n, *this; }
  HierarchicalVariant &with_team_size(int n) { return team_size = n, *this; }
  HierarchicalVariant &with_combine(Combine c) { return combine = c, *this; }
  HierarchicalVariant &with_writeback(Writeback w) { return writeback = w, *this; }
  HierarchicalVariant &with_max_registers(int r) { return max_registers = r, *this; }
  HierarchicalVariant &with_preload(bool p) { return preload = p, *this; }
};

/// The paper's technique and its fallback: staging 'all', 'inc' and 'none',
/// thread colours or scratch atomics, coloured or atomic write-back.
using Hierarchical = HierarchicalOf<>;
/// Every hierarchical variant (reads, gather, pipelined, register budgets):
/// 15 kernels per loop and backend, against the standard set's 3.
using HierarchicalAll = HierarchicalOf<HierarchicalKernels::every>;

/// A hierarchical plan runs loops under every kernel set.
template <unsigned K, unsigned L>
struct takes_loop_options<HierarchicalOf<K>, HierarchicalLoop<L>> : std::true_type {};

/// The tag a plan for loops under E is built with (one plan serves every
/// hierarchical kernel set).
template <class E> struct plan_tag { using type = E; };
template <unsigned K> struct plan_tag<HierarchicalOf<K>> { using type = Hierarchical; };
template <class E> using plan_tag_t = typename plan_tag<E>::type;

/// Whether E is a hierarchical tag (any kernel set).
template <class E> inline constexpr bool is_hierarchical_v = false;
template <unsigned K> inline constexpr bool is_hierarchical_v<HierarchicalOf<K>> = true;

inline const char *partition_name(Partition p) {
  switch (p) {
  case Partition::contiguous:
    return "contiguous";
  case Partition::metis:
    return "metis";
  case Partition::builtin:
    return "builtin";
  case Partition::given:
    return "given";
  }
  return "?";
}

inline const char *staging_name(Staging s) {
  switch (s) {
  case Staging::all:
    return "all";
  case Staging::increments:
    return "inc";
  case Staging::none:
    return "none";
  case Staging::reads:
    return "reads";
  }
  return "?";
}

/// The staging called `name` (as staging_name writes it); false if none is.
inline bool staging_from_name(const std::string &name, Staging &out) {
  for (auto s : {Staging::all, Staging::increments, Staging::none, Staging::reads})
    if (name == staging_name(s))
      return out = s, true;
  return false;
}

/// Whether the staging stages increments in scratch, the only case in
/// which Combine and Writeback apply.
inline bool stages_increments(Staging s) {
  return s == Staging::all || s == Staging::increments;
}

inline const char *combine_name(Combine c) {
  switch (c) {
  case Combine::atomics:
    return "atomics";
  case Combine::gather:
    return "gather";
  default:
    return "colours";
  }
}

/// The combine called `name` (as combine_name writes it); false if none is.
inline bool combine_from_name(const std::string &name, Combine &out) {
  for (auto c : all_combines)
    if (name == combine_name(c))
      return out = c, true;
  return false;
}

inline const char *writeback_name(Writeback w) {
  return w == Writeback::atomic ? "atomic" : "coloured";
}

/// Whether blocks_per_team applies to these options (see there).
inline bool pipelinable(const HierarchicalLoopOptions &h) {
  return h.staging == Staging::reads ||
         (stages_increments(h.staging) && h.combine != Combine::colours &&
          h.writeback == Writeback::atomic);
}

/// Why `h`'s register budget cannot run with blocks of `block_size`
/// elements, or empty when it can (no budget, or one that applies: one
/// block per team, no gather, teams of at most 640 threads). The value
/// itself is checked apart (HierarchicalLoopOptions::is_register_budget).
inline std::string register_budget_problem(const HierarchicalLoopOptions &h, int block_size) {
  if (h.max_registers == 0)
    return {};
  const std::string budget = "max_registers " + std::to_string(h.max_registers);
  if (stages_increments(h.staging) && h.combine == Combine::gather)
    return budget +
           " applies to the kernels that combine by thread colours or scratch atomics, not to "
           "gather; use max_registers 0";
  if (h.blocks_per_team > 1 && pipelinable(h))
    return budget + " applies to one block per team, not to the pipelined kernel " +
           "(blocks_per_team " + std::to_string(h.blocks_per_team) +
           "); use max_registers 0 or blocks_per_team 1";
  const int threads = h.team_size > 0 ? h.team_size : (block_size + 31) / 32 * 32;
  if (threads > 640)
    return budget + " needs teams of at most 640 threads (blocks of " + std::to_string(block_size) +
           " elements): use max_registers 0, a team_size of 640 or less, or smaller blocks";
  return {};
}

/// "hier-<staging>", then "/sa" for scratch atomics or "/sg" for scratch
/// gather, "/ga" for one launch with atomic writeback, "/p<n>" for n blocks
/// per team, "/t<n>" for teams of n threads, "/r<n>" for a register budget
/// and "/np" for staging 'all' without preloaded increments: the names that
/// umesh_main and exec::Auto report.
inline std::string variant_name(const HierarchicalLoopOptions &h) {
  return std::string("hier-") + staging_name(h.staging) +
         (h.combine == Combine::atomics  ? "/sa"
          : h.combine == Combine::gather ? "/sg"
                                         : "") +
         (h.writeback == Writeback::atomic ? "/ga" : "") +
         (pipelinable(h) && h.blocks_per_team > 1 ? "/p" + std::to_string(h.blocks_per_team) : "") +
         (h.team_size > 0 ? "/t" + std::to_string(h.team_size) : "") +
         (h.max_registers > 0 ? "/r" + std::to_string(h.max_registers) : "") +
         (h.staging == Staging::all && !h.preload ? "/np" : "");
}

/// The kernels (HierarchicalKernels flags) a loop with options `h` runs on a
/// GPU backend (`gpu`) or a host one, where a staging runs one kernel
/// whatever blocks_per_team and max_registers say. With fallback, staging
/// 'none' too (the fallback's last step).
inline unsigned kernels_needed(const HierarchicalLoopOptions &h, bool gpu) {
  using K = HierarchicalKernels;
  unsigned k = h.staging == Staging::reads    ? K::reads
               : h.staging == Staging::none   ? K::unstaged
               : h.combine == Combine::gather ? K::gather
                                              : K::staged;
  if (h.fallback)
    k |= K::unstaged;
  if (gpu && h.blocks_per_team > 1 && pipelinable(h))
    k |= K::pipelined;
  if (gpu && h.max_registers != 0)
    k |= K::registers;
  return k;
}

/// The flags' names, comma-separated ("staged, unstaged").
inline std::string kernel_names(unsigned kernels) {
  static const char *const names[] = {"staged", "unstaged",  "reads",
                                      "gather", "pipelined", "registers"};
  std::string out;
  for (unsigned i = 0; i < 6; ++i)
    if (kernels & (1u << i))
      out += (out.empty() ? "" : ", ") + std::string(names[i]);
  return out;
}

/// The kernels options `h` need that `compiled` (HierarchicalKernels flags)
/// lacks, on a backend that runs `backend_kernels` of the GPU-only ones
/// (pipelined, registers; host backends run one kernel per staging whatever
/// blocks_per_team and max_registers say).
inline unsigned kernels_missing(const HierarchicalLoopOptions &h, unsigned compiled,
                                unsigned backend_kernels) {
  const unsigned gpu_only = HierarchicalKernels::pipelined | HierarchicalKernels::registers;
  return kernels_needed(h, true) & (~gpu_only | backend_kernels) & ~compiled;
}

/// Which options of `h` need the kernels `missing`, in the options' words
/// ("combine 'gather' needs 'gather'"), or empty when none is missing.
inline std::string kernel_problem(const HierarchicalLoopOptions &h, unsigned missing) {
  using K = HierarchicalKernels;
  std::string why;
  const auto add = [&](unsigned k, const std::string &option) {
    if (missing & k)
      why += (why.empty() ? "" : ", ") + option + " needs '" + kernel_names(k) + "'";
  };
  add(K::staged, "staging '" + std::string(staging_name(h.staging)) + "'");
  add(K::gather, "combine 'gather'");
  add(K::reads, "staging 'reads'");
  add(K::unstaged,
      h.staging == Staging::none ? "staging 'none'" : "with_fallback() (its last step, 'none')");
  add(K::pipelined, "blocks_per_team " + std::to_string(h.blocks_per_team));
  add(K::registers, "max_registers " + std::to_string(h.max_registers));
  return why;
}

} // namespace umesh::exec

#endif
