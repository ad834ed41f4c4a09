#ifndef UMESH_APPS_COMMON_HIERARCHICAL_CLI_HPP
#define UMESH_APPS_COMMON_HIERARCHICAL_CLI_HPP

// The team executors' options on an app's command line (miniAero, LULESH):
// the hierarchical executor's, and the warp executor's block size and
// register budget. One definition, so that every app spells and checks them
// alike.

#include <umesh/exec.hpp>
#include <umesh/par_loop.hpp> // Plan<exec::Hierarchical>::backend_kernels

#include <Kokkos_Core.hpp>

#include <CLI/CLI.hpp>

#include <string>

namespace umesh::apps {

struct HierarchicalCli {
  int block = 256, blocks_per_team = 1, team_size = 0;
  int registers = exec::Hierarchical::Loop{}.max_registers;
  int warp_block = exec::WarpCombine{}.block_size;
  int warp_registers = exec::WarpLoop{}.max_registers;
  std::string staging = "all", combine = "colours", writeback = "coloured";
  bool no_fallback = false, warp_compact_maps = false;

  /// --block, --staging, --no-fallback, --combine, --writeback,
  /// --blocks-per-team, --team-size, --registers, --warp-block, --warp-registers,
  /// --warp-compact-maps.
  void add_to(CLI::App &app) {
    app.add_option("--block", block, "hierarchical block size")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    app.add_option("--staging", staging,
                   "hierarchical staging (a loop whose scratch does not fit falls back to inc, "
                   "then none, and the summary line says so; 'reads' is not built into the apps)")
        ->check(CLI::IsMember({"all", "inc", "none", "reads"}))
        ->capture_default_str();
    app.add_flag("--no-fallback", no_fallback, "make a loop that does not fit an error instead");
    app.add_option("--combine", combine,
                   "hierarchical, inside a block: colours (thread colours and a barrier each), "
                   "atomics (scratch atomics) or gather (each point sums its elements' scratch "
                   "entries; not built into the apps)")
        ->check(CLI::IsMember({"colours", "atomics", "gather"}))
        ->capture_default_str();
    app.add_option("--writeback", writeback,
                   "hierarchical, across blocks: coloured (a launch per block colour) or atomic "
                   "(one launch, global atomics on points shared between blocks); both need "
                   "staged increments")
        ->check(CLI::IsMember({"coloured", "atomic"}))
        ->capture_default_str();
    app.add_option("--blocks-per-team", blocks_per_team,
                   "hierarchical on GPUs, staging reads or atomics/gather with atomic write-back: "
                   "each team runs N consecutive blocks as a pipeline (not built into the apps; "
                   "host backends run one block per team)")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    app.add_option("--team-size", team_size,
                   "hierarchical on GPUs: threads per team, a multiple of 32 below the block "
                   "size (0: one per element of a block)")
        ->check(CLI::Range(0, 1024))
        ->capture_default_str();
    app.add_option("--registers", registers,
                   "hierarchical on CUDA, one block per team combined by colours or atomics: "
                   "registers per thread the kernel may hold, 0 (the compiler's choice) or 48 "
                   "(teams of at most 640 threads; 48 is not built into the apps); host backends "
                   "ignore it")
        ->check(CLI::IsMember(exec::Hierarchical::Loop::register_budgets()))
        ->capture_default_str();
    app.add_option("--warp-block", warp_block,
                   "warp executor: threads per block, a multiple of 32 from 32 to 1024")
        ->check(CLI::Range(32, 1024))
        ->capture_default_str();
    app.add_option("--warp-registers", warp_registers,
                   "warp executor on CUDA: registers per thread the kernel may hold, 0 (the "
                   "compiler's choice), 64 or 40 (blocks of at most 512); more resident warps, "
                   "or spills where the body needs more; host backends ignore it")
        ->check(CLI::IsMember(exec::WarpLoop::register_budgets()))
        ->capture_default_str();
    app.add_flag("--warp-compact-maps", warp_compact_maps,
                 "warp executor: read the maps as 16-bit offsets from a base per warp of 32 "
                 "elements (half their bytes; an error where a warp's points span more than "
                 "65535)");
  }

  /// Why the values cannot run together, or empty.
  std::string problem() const {
    if (team_size % 32 != 0)
      return "--team-size: " + std::to_string(team_size) + " is not 0 or a multiple of 32";
    if (warp_block % 32 != 0)
      return "--warp-block: " + std::to_string(warp_block) + " is not a multiple of 32";
    if (const std::string why = exec::register_budget_problem(options(), block); !why.empty())
      return "--registers: " + why;
    // The apps compile exec::Hierarchical's standard kernels (compile time:
    // docs/executors.md); options that need others are refused here, not
    // at the first loop after the setup.
    if (const unsigned missing = exec::kernels_missing(
            options(), exec::Hierarchical::kernels,
            Plan<exec::Hierarchical, Kokkos::DefaultExecutionSpace>::backend_kernels))
      return "hierarchical options: " + exec::kernel_problem(options(), missing) +
             ", a kernel the apps do not build (they build exec::Hierarchical's: " +
             exec::kernel_names(exec::Hierarchical::kernels) +
             "); umesh_main times every hierarchical variant";
    if (warp_registers == 40 && warp_block > 512)
      return "--warp-registers 40 needs --warp-block of at most 512, not " +
             std::to_string(warp_block);
    return {};
  }

  /// The hierarchical executor's options these describe.
  exec::Hierarchical::Variant options() const {
    exec::Staging s = exec::Staging::all;
    exec::Combine c = exec::Combine::colours;
    exec::staging_from_name(staging, s);
    exec::combine_from_name(combine, c);
    return exec::Hierarchical::Variant{}
        .with_block_size(block)
        .with_staging(s)
        .with_combine(c)
        .with_writeback(writeback == "atomic" ? exec::Writeback::atomic : exec::Writeback::coloured)
        .with_blocks_per_team(blocks_per_team)
        .with_team_size(team_size)
        .with_max_registers(registers)
        .with_fallback(!no_fallback);
  }
  /// The warp executor's options these describe.
  exec::WarpCombine::Variant warp() const {
    return {
        exec::WarpCombine{}.with_block_size(warp_block),
        exec::WarpLoop{}.with_max_registers(warp_registers).with_compact_maps(warp_compact_maps)};
  }
};

} // namespace umesh::apps

#endif
