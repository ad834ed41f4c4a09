#ifndef UMESH_EXEC_HPP
#define UMESH_EXEC_HPP

// Executors: empty tag types that pick how `par_loop` avoids races when
// several elements increment the same point.

#include <umesh/exec_hierarchical.hpp>
#include <umesh/loop_options.hpp>

#include <memory>
#include <string>
#include <vector>

namespace umesh::exec {

/// Reference: one thread, element order. Slow, exact, the baseline of tests.
struct Serial {
  using Loop = NoLoopOptions;
  using Variant = VariantOf<Serial>;
  /// Bitwise-identical results run to run (docs/executors.md, Reproducible
  /// results): always, one thread in element order.
  static constexpr bool reproducible(Concurrency, const Loop & = {}) { return true; }
};
/// One thread per element; increments with Kokkos::atomic_add.
struct Atomic {
  using Loop = NoLoopOptions;
  using Variant = VariantOf<Atomic>;
  /// On one thread only: elsewhere a point's atomics land in the order the
  /// threads reach it.
  static constexpr bool reproducible(Concurrency c, const Loop & = {}) {
    return c == Concurrency::sequential;
  }
};
/// Two steps: the kernel writes increments to a temporary
/// `[element][slot][component]` array; a second kernel sums them per point
/// over the inverse map (miniAero's apply_cell_flux, LULESH's fx_elem).
struct Gather {
  using Loop = NoLoopOptions;
  using Variant = VariantOf<Gather>;
  /// Always: each point sums its entries in the inverse map's order, which
  /// the plan builds the same on any thread count.
  static constexpr bool reproducible(Concurrency, const Loop & = {}) { return true; }
};
/// Greedy colouring of elements (no two elements of one colour write one
/// point); one launch per colour, plain increments.
struct GlobalColour {
  using Loop = NoLoopOptions;
  using Variant = VariantOf<GlobalColour>;
  /// Always: a point gets at most one increment per colour, colours in order.
  static constexpr bool reproducible(Concurrency, const Loop & = {}) { return true; }
};
/// Kokkos::Experimental::ScatterView with the backend's default strategy
/// (duplicated copies on OpenMP, atomics on CUDA, plain on Serial).
struct ScatterView {
  using Loop = NoLoopOptions;
  using Variant = VariantOf<ScatterView>;
  /// On one thread only: atomics on GPUs; on host threads each thread's
  /// copy holds the elements it was dealt, so the sums depend on the
  /// thread count (the same from run to run at one count).
  static constexpr bool reproducible(Concurrency c, const Loop & = {}) {
    return c == Concurrency::sequential;
  }
};

/// exec::Segmented's loop options (par_loop(plan, options, ...)).
struct SegmentedLoop : LoopOptions {
  /// GPU backends: false (default) gives each staged point as many scratch
  /// entries as it has references in the block, taken with integer
  /// shared-memory atomics and folded after the block (no floating-point
  /// compare-and-swap loops); true folds into one value per point with
  /// scratch atomics: less scratch where points have many references.
  bool scratch_atomics = false;
  SegmentedLoop &with_scratch_atomics(bool a = true) { return scratch_atomics = a, *this; }
};

/// Block reduction over point segments: teams of `block_size` consecutive
/// elements (one thread per element on GPUs); each team folds its
/// increments (and min/max) into team scratch over the runs of consecutive
/// point ids its elements reach through each combined map, then adds every
/// staged point to global memory once, atomically. One launch per loop, no
/// colourings; the plan is at most `max_segments` (first point, count) pairs
/// per block and map, so no point lists or block-local maps are read. Fast
/// when the numbering is local (generated meshes, RCM, GPS: two or three
/// runs per block); points outside a block's kept runs are combined straight
/// into global memory with atomics, so any numbering gives correct results.
/// The tag holds the plan options (make_plan); loops take SegmentedLoop.
struct Segmented {
  using Loop = SegmentedLoop;
  using Variant = VariantOf<Segmented>;
  int block_size = 256;
  int max_segments = 4;
  Segmented &with_block_size(int b) { return block_size = b, *this; }
  Segmented &with_max_segments(int s) { return max_segments = s, *this; }
  /// On one thread only: blocks add their staged points with global
  /// atomics, and on GPUs fold in scratch in the order threads take entries.
  static constexpr bool reproducible(Concurrency c, const Loop & = {}) {
    return c == Concurrency::sequential;
  }
};

/// exec::WarpCombine's loop options (par_loop(plan, options, ...)).
struct WarpLoop : LoopOptions {
  /// CUDA: registers per thread the kernel may hold, which sets how many
  /// warps an SM keeps resident: 0 (the compiler's choice), 64 (at least
  /// half of the SM's warps) or 40 (three quarters; blocks of at most 512).
  /// A body that needs more spills to local memory. No value wins
  /// everywhere (docs/executors.md). Host backends ignore it.
  int max_registers = 0;
  /// Read every map the loop goes through as 16-bit offsets from a base per
  /// warp of 32 elements (the plan builds each map's compact form on its
  /// first use and keeps it; a map must not change while its plan is used),
  /// half the bytes of the map. A map whose points span more than 65535
  /// within one warp (a shuffled mesh; renumber it) is an error.
  bool compact_maps = false;
  /// The budgets max_registers takes, the default first.
  static std::vector<int> register_budgets() { return {0, 64, 40}; }
  static bool is_register_budget(int r) { return r == 0 || r == 64 || r == 40; }
  WarpLoop &with_max_registers(int r) { return max_registers = r, *this; }
  WarpLoop &with_compact_maps(bool c = true) { return compact_maps = c, *this; }
};

/// Warp pre-aggregation: one thread per element, and each warp of 32
/// consecutive elements folds the increments (and min/max) that reach one
/// point through warp-private team scratch before anything goes to global
/// memory: the first reference of each point in the warp adds the others'
/// values along a chain the plan gives (a byte per element and argument;
/// more than four references to one dat through one map are combined four
/// at a time), then issues one global atomic per component. No block
/// barriers, no colourings, no staging, one launch per loop; indirect reads
/// go through the cache as under exec::Atomic. It pays where the atomic
/// kernel is bound by the L2's atomic traffic and a warp's elements share
/// points (local numberings: generated meshes, RCM, GPS). Any numbering
/// gives correct results. The tag holds the plan option block_size
/// (threads per team, a multiple of 32); loops take WarpLoop.
struct WarpCombine {
  using Loop = WarpLoop;
  using Variant = VariantOf<WarpCombine>;
  int block_size = 128;
  WarpCombine &with_block_size(int b) { return block_size = b, *this; }
  /// On one thread only: warps add their combined values with global atomics.
  static constexpr bool reproducible(Concurrency c, const Loop & = {}) {
    return c == Concurrency::sequential;
  }
};

/// Whether loops of executor tag E on execution space Space give
/// bitwise-identical results run to run under loop options `loop` (on host
/// backends whatever the thread count): E::reproducible on Space's
/// concurrency. exec::Auto's: its option (umesh/exec_auto.hpp).
template <class Space, class E>
constexpr bool reproducible(const E &, const typename E::Loop &loop = {}) {
  return E::reproducible(concurrency_of<Space>(), loop);
}

// exec::Auto, the tuner over these: umesh/exec_auto.hpp.

} // namespace umesh::exec

#endif
