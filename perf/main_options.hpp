#ifndef UMESH_PERF_MAIN_OPTIONS_HPP
#define UMESH_PERF_MAIN_OPTIONS_HPP

// The main job's command line: what to run, how often, where results go.

#include "common/cli.hpp"

#include <umesh/exec_names.hpp>
#include <umesh/umesh.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace umesh::perf {

inline std::vector<std::string> available_reorders() {
  std::vector<std::string> out;
  for (Reorder r : {Reorder::none, Reorder::gps, Reorder::rcm, Reorder::metis, Reorder::builtin})
    if (reorder_available(r))
      out.push_back(reorder_name(r));
  return out;
}

struct Options {
  int nx = 600, ny = 300, n3 = 48;
  std::vector<std::string> executors = exec::names(exec::Every{});
  std::vector<int> blocks{128, 256};
  std::vector<exec::Staging> stagings{exec::Staging::all, exec::Staging::increments,
                                      exec::Staging::none};
  std::vector<exec::Combine> combines{std::begin(exec::all_combines), std::end(exec::all_combines)};
  std::vector<exec::Writeback> writebacks{exec::Writeback::coloured, exec::Writeback::atomic};
  std::vector<int> blocks_per_team{
      1};                         // pipelined variants (reads, /sa/ga, /sg/ga): blocks per team
  std::vector<int> team_sizes{0}; // GPU threads per team; 0: one per element of a block
  std::vector<int> warp_registers = exec::WarpLoop::register_budgets(); // CUDA
  std::vector<int> warp_maps{32};                                       // 16: compact maps
  std::vector<int> hier_registers = exec::Hierarchical::Loop::register_budgets(); // CUDA
  std::vector<int> hier_preload{1}; // exec::Hierarchical::preload, staging 'all'
  std::vector<std::string> numberings{"natural", "shuffled"};
  // Every reordering built in; each moves the mesh and data, then every
  // executor runs on the result.
  std::vector<std::string> reorders = available_reorders();
  int reorder_block = 256; // block size of the metis and builtin renumberings
  std::vector<std::string> layouts{"aos", "soa"};
  std::vector<std::string> kernels{"res_calc", "face_flux", "getacc", "volna", "integrate_stress"};
  std::vector<std::string> kernels_asked; // --kernel as given (empty: those that fit)
  std::string mesh;                       // a Gmsh file instead of generated meshes
  bool skip_mesh_checks = false;          // trust --mesh: no check_gmsh on load
  int repeats = 20, warmup = 3;
  int paired = 0;            // auto against the best other row in alternating pairs (0: off)
  bool reproducible = false; // auto over reproducible variants; their cost and bits reported
  std::string out = "umesh-results"; // results folder under the current directory
  std::string csv;                   // default: <out>/results.csv
  bool full = false;  // --full: the whole sweep timed; otherwise the quick run (quick_defaults)
  bool check = false; // this pass only validates (the quick run's check): quiet, rows untimed
};

/// The plan-metrics CSV that goes with a results CSV: "<folder>/<name>_plans.csv".
/// Empty when `csv` is written in place (a device or pipe): /dev/null has
/// no folder of results beside it (a name such as /dev/null_plans.csv
/// would be a file created in /dev).
inline std::string plans_csv(const std::string &csv) {
  return apps::result_target(csv).empty() ? std::string() : apps::sibling_path(csv, "_plans.csv");
}

/// Whether the main job runs on a GPU: blocks per team, team sizes and
/// register budgets matter there only (host backends run one kernel).
inline constexpr bool main_on_gpu() {
  return !Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                     Kokkos::DefaultExecutionSpace::memory_space>::accessible;
}

/// The quick run's timed selection (without --full, for every option not
/// given): the atomic reference and the executors and variants that win in
/// docs/performance.md and perf/results/cpu-auto (ScatterView, gather, warp
/// with and without compact maps, segmented, the shared-memory variants that
/// gather in scratch and write back with atomics, pipelined on GPUs, staged
/// reads, no staging, and auto), block 256, natural numbering without
/// reordering, both layouts; at --size small unless a size is given.
inline void quick_defaults(Options &o, const CLI::App &app) {
  const auto given = [&](const char *flag) { return app.count(flag) > 0; };
  if (!given("--executor"))
    o.executors =
        exec::names(exec::List<exec::Atomic, exec::ScatterView, exec::Gather, exec::Hierarchical,
                               exec::Segmented, exec::WarpCombine, exec::AutoAll>{});
  if (!given("--blocks"))
    o.blocks = {256};
  if (!given("--staging"))
    o.stagings = {exec::Staging::increments, exec::Staging::all, exec::Staging::reads,
                  exec::Staging::none};
  if (!given("--combine"))
    o.combines = {exec::Combine::gather};
  if (!given("--writeback"))
    o.writebacks = {exec::Writeback::atomic};
  if (!given("--blocks-per-team"))
    o.blocks_per_team = main_on_gpu() ? std::vector<int>{1, 2, 4} : std::vector<int>{1};
  if (!given("--hier-registers"))
    o.hier_registers = {0};
  if (!given("--warp-maps"))
    o.warp_maps = {32, 16};
  if (!given("--numbering"))
    o.numberings = {"natural"};
  if (!given("--reorder"))
    o.reorders = {"none"};
}

/// What the main job runs: the timed pass the tables report and, in a quick
/// run, the check: the full sweep's configurations (as the options given
/// narrow it) validated once each on the tiny meshes (or the --mesh file),
/// so that nothing the quick run leaves untimed goes unchecked.
struct Passes {
  Options timed;
  std::optional<Options> check;
};

/// Whether two passes run the same configurations (mesh sizes and timing
/// aside): then the check would repeat the timed pass.
inline bool same_selection(const Options &a, const Options &b) {
  return a.executors == b.executors && a.blocks == b.blocks && a.stagings == b.stagings &&
         a.combines == b.combines && a.writebacks == b.writebacks &&
         a.blocks_per_team == b.blocks_per_team && a.team_sizes == b.team_sizes &&
         a.warp_registers == b.warp_registers && a.warp_maps == b.warp_maps &&
         a.hier_registers == b.hier_registers && a.hier_preload == b.hier_preload &&
         a.numberings == b.numberings && a.reorders == b.reorders && a.layouts == b.layouts &&
         a.kernels == b.kernels;
}

// Names the Option's values may take, for --help and CLI11's checks.
inline CLI::IsMember one_of(std::vector<std::string> names) {
  return CLI::IsMember(names);
}

inline Passes parse(int argc, char **argv) {
  Options o;
  CLI::App app("umesh main job: its kernels under the executors, layouts and reorderings, "
               "validated against the serial reference and timed. Without --full, a quick run: "
               "the winning executors and variants timed, every other configuration of the "
               "sweep validated once on the tiny meshes; options given narrow or widen both",
               "umesh_main");
  apps::add_version(app);
  std::string size, layout = "all";
  std::vector<std::string> stagings, combines, writebacks;
  app.add_flag("--full", o.full,
               "the full sweep, timed: every executor, hierarchical variant, layout, numbering "
               "and reordering (the defaults of the options below); without it a quick run "
               "times the winners only (see the --help header)");
  app.add_option("--size", size,
                 "preset mesh sizes: tiny, small (default), large (past a 50 MB "
                 "L2: 5.76M edges, 6.24M faces); --nx, --ny, --n3 override it")
      ->check(one_of({"tiny", "small", "large"}));
  app.add_option("--nx", o.nx, "quads along x (2D kernels)")->check(CLI::Range(1, 100000));
  app.add_option("--ny", o.ny, "quads along y (2D kernels)")->check(CLI::Range(1, 100000));
  app.add_option("--n3", o.n3, "hexes along each side (3D kernels)")->check(CLI::Range(1, 100000));
  app.add_option("--mesh", o.mesh,
                 "a mesh file instead of the generated meshes: Gmsh (.msh, 2.2 or 4.1), "
                 "Exodus II (.exo, .e, .g) or CGNS (.cgns)")
      ->check(apps::input_file());
  app.add_flag("--skip-mesh-checks", o.skip_mesh_checks,
               "trust the --mesh file: skip the checks of its cells on load (duplicate, "
               "inverted or degenerate cells; they cost a fraction of the read)");
  app.add_option("--executor", o.executors,
                 "executors to run (quick run's default: atomic, scatterview, gather, "
                 "hierarchical, segmented, warp, auto)")
      ->delimiter(',')
      ->check(one_of(o.executors))
      ->capture_default_str();
  app.add_option("--blocks", o.blocks,
                 "hierarchical, segmented and warp block sizes (warp: multiples of 32 only)")
      ->delimiter(',')
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--staging", stagings,
                 "hierarchical stagings: all, inc, none, reads "
                 "(default: all, inc, none)")
      ->delimiter(',')
      ->check(one_of({"all", "inc", "none", "reads"}));
  app.add_option("--combine", combines,
                 "hierarchical combines inside a block: colours, atomics, "
                 "gather (default: all three)")
      ->delimiter(',')
      ->check(one_of({"colours", "atomics", "gather"}));
  app.add_option("--writeback", writebacks,
                 "hierarchical write-backs: coloured, atomic "
                 "(default: both)")
      ->delimiter(',')
      ->check(one_of({"coloured", "atomic"}));
  app.add_option("--blocks-per-team", o.blocks_per_team,
                 "blocks per team for the variants that pipeline (reads, /sa/ga, /sg/ga)")
      ->delimiter(',')
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--team-sizes", o.team_sizes,
                 "hierarchical threads per team on GPUs (multiples of 32; 0: one per element "
                 "of a block); sizes not below a block's are skipped for that block size")
      ->delimiter(',')
      ->check(CLI::Range(0, 1024))
      ->check(CLI::Validator(
          [](std::string &t) {
            return std::stoi(t) % 32 ? t + " is not 0 or a multiple of 32" : std::string();
          },
          "0 or a multiple of 32"))
      ->capture_default_str();
  app.add_option("--hier-preload", o.hier_preload,
                 "staging 'all': 1 (default), the increment buffers start at the dat's values so "
                 "the write-back only stores; 0, they start at zero (rows /np); 1,0 runs both")
      ->delimiter(',')
      ->check(CLI::IsMember({0, 1}))
      ->capture_default_str();
  app.add_option("--hier-registers", o.hier_registers,
                 "hierarchical register budgets per thread on CUDA, for one block per team "
                 "combined by colours or atomics: 0 (the compiler's choice), 48 (rows /r48); "
                 "host backends run 0 only")
      ->delimiter(',')
      ->check(CLI::IsMember(exec::Hierarchical::Loop::register_budgets()))
      ->capture_default_str();
  app.add_option("--warp-registers", o.warp_registers,
                 "warp executor's register budgets per thread on CUDA: 0 (the compiler's "
                 "choice), 64, 40 (blocks of at most 512); host backends run 0 only")
      ->delimiter(',')
      ->check(CLI::IsMember(exec::WarpLoop::register_budgets()))
      ->capture_default_str();
  app.add_option("--warp-maps", o.warp_maps,
                 "warp executor's map entries: 32 (the maps as they are), 16 (compact maps: "
                 "16-bit offsets from a base per warp, rows /m16; a mesh whose warps reach "
                 "points more than 65535 apart gets an error row)")
      ->delimiter(',')
      ->check(CLI::IsMember({32, 16}))
      ->capture_default_str();
  app.add_option("--numbering", o.numberings, "generated meshes' numberings")
      ->delimiter(',')
      ->check(one_of({"natural", "shuffled"}))
      ->capture_default_str();
  app.add_option("--reorder", o.reorders,
                 "reorderings (default: every one built in; gps and rcm also as gps/first-touch "
                 "and rcm/first-touch: only the incremented set ordered over its graph, the "
                 "others numbered as the sorted elements first reach them)")
      ->delimiter(',')
      ->each([](const std::string &r) {
        const Reorder method = parse_reorder_options(r).method;
        if (!reorder_available(method))
          throw Error("--reorder " + r + ": umesh was built without " +
                      (method == Reorder::gps ? "Scotch" : "METIS"));
      });
  app.add_option("--reorder-block", o.reorder_block,
                 "block size of the metis and builtin renumberings")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--layout", layout, "aos, soa or all")
      ->check(one_of({"aos", "soa", "all"}))
      ->capture_default_str();
  app.add_option("--kernel", o.kernels_asked, "kernels (default: those that fit the mesh)")
      ->delimiter(',')
      ->check(one_of(o.kernels));
  app.add_option("--repeats", o.repeats, "timed runs per configuration (the median counts)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--paired", o.paired,
                 "after each kernel, layout and reordering: time auto's pick and the fastest "
                 "other row in N alternating pairs (a host whose speed drifts slows both "
                 "alike); auto's line gives the median ratio (0: off)")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  app.add_flag("--reproducible", o.reproducible,
               "auto tunes over the variants whose results are bitwise identical run to run "
               "here (exec::AutoOptions::reproducible); each kernel's summary gives its fastest "
               "reproducible row against the fastest other row, and the end lists a hash of "
               "every reproducible row's output after one run (two runs print the same; keep "
               "auto's choices in $UMESH_TUNING_FILE)");
  app.add_option("--warmup", o.warmup, "untimed runs first")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--out", o.out, "results folder (created)")
      ->check(apps::output_folder())
      ->capture_default_str();
  app.add_option("--csv", o.csv,
                 "results file (default: <out>/results.csv); the hierarchical plans' metrics go "
                 "beside it, <name>_plans.csv")
      ->check(apps::output_file());
  app.footer("Kokkos' own --kokkos-* arguments are passed to Kokkos.");
  apps::parse_or_exit(app, argc, argv);

  const auto refuse = [&](const std::string &what) {
    std::fprintf(stderr, "umesh_main: %s\n", what.c_str());
    std::exit(2);
  };
  if (size == "tiny")
    o.nx = 60, o.ny = 30, o.n3 = 12;
  else if (size == "large")
    o.nx = 2400, o.ny = 1200, o.n3 = 128;
  // Explicit sizes win over the preset, wherever they stand.
  for (const auto &[flag, value] :
       {std::pair<const char *, int *>{"--nx", &o.nx}, {"--ny", &o.ny}, {"--n3", &o.n3}})
    if (app.count(flag))
      *value = app.get_option(flag)->as<int>();
  if (o.skip_mesh_checks && o.mesh.empty())
    refuse("--skip-mesh-checks is for --mesh files; generated meshes are not checked");
  if (!o.mesh.empty())
    for (const char *flag : {"--size", "--nx", "--ny", "--n3", "--numbering"})
      if (app.count(flag))
        refuse(std::string(flag) + " is for generated meshes; --mesh " + o.mesh +
               " runs on the file's mesh in its own numbering");
  if (!stagings.empty()) {
    o.stagings.clear();
    for (const auto &st : stagings)
      exec::staging_from_name(st, o.stagings.emplace_back());
  }
  if (!combines.empty()) {
    o.combines.clear();
    for (const auto &c : combines)
      exec::combine_from_name(c, o.combines.emplace_back());
  }
  if (!writebacks.empty()) {
    o.writebacks.clear();
    for (const auto &w : writebacks)
      o.writebacks.push_back(w == "atomic" ? exec::Writeback::atomic : exec::Writeback::coloured);
  }
  if (layout != "all")
    o.layouts = {layout};
  if (!o.kernels_asked.empty())
    o.kernels = o.kernels_asked;
  if (!app.count("--csv"))
    o.csv = (std::filesystem::path(o.out) / "results.csv").string();
  if (const std::string why = apps::clashing_files(
          {{"--csv", o.csv}, {"its plans table", plans_csv(o.csv)}, apps::tuning_file_output("")},
          {{"--mesh", o.mesh}});
      !why.empty())
    refuse(why);
  if (o.full)
    return {o, std::nullopt};
  // The quick run: its timed pass, and the full selection (as given)
  // validated once on tiny meshes unless that is what the timed pass runs.
  Options check = o;
  check.check = true;
  check.nx = 60, check.ny = 30, check.n3 = 12;
  check.repeats = 1, check.warmup = 1, check.paired = 0;
  quick_defaults(o, app);
  if (same_selection(o, check)) // every option given: the timed pass validates it all
    return {o, std::nullopt};
  return {o, check};
}

} // namespace umesh::perf

#endif
