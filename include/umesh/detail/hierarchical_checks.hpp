#ifndef UMESH_DETAIL_HIERARCHICAL_CHECKS_HPP
#define UMESH_DETAIL_HIERARCHICAL_CHECKS_HPP

// What the hierarchical executor checks before it trusts its inputs: a
// loop's options and a launch's team size (a plan loaded from a file and the
// narrowing of local indices: hierarchical_builder.hpp). Each failure is an
// Error that names the loop or plan and says what would work.

#include <umesh/block_plan.hpp>
#include <umesh/error.hpp>
#include <umesh/exec.hpp>

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace umesh::detail {

// Local indices are 16-bit: half the bytes of 32-bit ones on every element.
using LocalIndex = std::uint16_t;

/// The per-loop options of `loop` make sense for a plan of `block_size`.
inline void check_loop_options(const std::string &name, const exec::HierarchicalLoopOptions &loop,
                               int block_size) {
  // Name only the options at fault: the default combine is no contradiction.
  const bool combine = loop.combine != exec::Combine::colours;
  const bool writeback = loop.writeback == exec::Writeback::atomic;
  if (!exec::stages_increments(loop.staging) && (combine || writeback))
    fail("loop '", name, "' under the hierarchical executor: ",
         combine ? "combine '" + std::string(exec::combine_name(loop.combine)) + "'" : "",
         combine && writeback ? " and " : "",
         writeback ? "writeback '" + std::string(exec::writeback_name(loop.writeback)) + "'" : "",
         combine && writeback ? " combine" : " combines", " staged increments, and staging '",
         exec::staging_name(loop.staging),
         "' stages none; stage increments ('inc' or 'all'), or use exec::Atomic for global "
         "atomics");
  if (loop.blocks_per_team < 1)
    fail("loop '", name,
         "' under the hierarchical executor: blocks_per_team must be at least 1, not ",
         loop.blocks_per_team);
  if (!exec::HierarchicalLoopOptions::is_register_budget(loop.max_registers))
    fail("loop '", name, "' under the hierarchical executor: max_registers ", loop.max_registers,
         " is not 0 (the compiler's choice) or 48");
  if (const std::string why = exec::register_budget_problem(loop, block_size); !why.empty())
    fail("loop '", name, "' under the hierarchical executor: ", why);
  const int block_threads = (block_size + 31) / 32 * 32;
  if (loop.team_size != 0 &&
      (loop.team_size < 0 || loop.team_size % 32 != 0 || loop.team_size >= block_threads))
    fail("loop '", name, "' under the hierarchical executor: team_size ", loop.team_size,
         " is not a multiple of 32 below ", block_threads, " (block size ", block_size,
         "); use 0 for one thread per element of a block");
}

/// The loop's options need only kernels their type compiles (`compiled`);
/// `backend_kernels`: see exec::kernels_missing.
inline void check_kernels(const std::string &name, const exec::HierarchicalLoopOptions &loop,
                          unsigned compiled, unsigned backend_kernels) {
  const unsigned missing = exec::kernels_missing(loop, compiled, backend_kernels);
  if (missing == 0)
    return;
  // The loop options' type that compiles these kernels and the missing ones.
  std::string tag;
  for (unsigned k = 1; k <= exec::HierarchicalKernels::every; k <<= 1)
    if ((compiled | missing) & k)
      tag += (tag.empty() ? "" : " | ") + std::string("exec::HierarchicalKernels::") +
             exec::kernel_names(k);
  fail("loop '", name, "' under the hierarchical executor: ", exec::kernel_problem(loop, missing),
       ", which its loop options' type does not compile (it compiles '",
       exec::kernel_names(compiled), "'); name the kernels in it, exec::HierarchicalLoop<", tag,
       ">, or use exec::HierarchicalAll::Loop (every kernel)");
}

/// A launch wants teams of `want` threads where Kokkos allows `max`.
inline void check_team_size(const std::string &name, int max, int want, int block_size,
                            const char *space, const char *executor = "hierarchical") {
  if (want > max && max < 32) // not one warp: the kernel's scratch or registers
    fail("loop '", name, "' under the ", executor, " executor cannot launch a team of ", want,
         " threads (block size ", block_size, ") on ", space, ": Kokkos allows ", max,
         " threads per team for this kernel and its scratch; use smaller blocks or fewer blocks "
         "per team");
  if (want > max)
    fail("loop '", name, "' under the ", executor, " executor needs teams of ", want,
         " threads (block size ", block_size, "), but this kernel can launch at most ", max,
         " per team on ", space, ": use a block size of ", max, " or less");
}

} // namespace umesh::detail

#endif
