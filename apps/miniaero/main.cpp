// miniAero on umesh: runs miniAero's input (miniaero.inp) under any umesh
// executor and layout, or under miniAero's own atomic and cell-flux
// strategies; writes its results file, compares with a reference, or
// benchmarks the loops. `umesh_miniaero --help` lists the options (CLI11).
#include "bench_table.hpp"
#include "fields.hpp"
#include "options.hpp"
#include "problem.hpp"
#include "results.hpp"
#include "solver.hpp"

#include "common/bandwidth.hpp"
#include "common/cli.hpp"
#include "common/exec_names.hpp"
#include "common/grid_blocks.hpp"
#include "common/output.hpp"
#include "common/ranks.hpp"
#include "common/run_main.hpp"
#include "common/sizes.hpp"

#include <umesh/umesh.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace miniaero;
using umesh::apps::copy_bandwidth_gbps;
using umesh::apps::median;

std::unique_ptr<SolverBase> make_solver(const std::string &exec, bool soa, bool distributed,
                                        const Input &in, const Mesh &m, const SolverOptions &opt) {
  std::unique_ptr<SolverBase> out;
  if (umesh::apps::with_executor(exec, [&](auto tag) {
        umesh::apps::with_layout(soa, [&](auto layout) {
          out = make_umesh_solver<decltype(tag), decltype(layout)>(distributed, in, m, opt);
        });
      }))
    return out;
  if (distributed)
    throw umesh::Error("umesh_miniaero: " + exec +
                       " (miniAero's own strategy) runs in one process only");
  return make_reference_solver(exec == "miniaero-atomic", in, m);
}

int run(const Options &opt, int rank, int ranks);

} // namespace

int main(int argc, char **argv) {
  // Options before MPI: --help and bad values exit here.
  return umesh::apps::run_main("umesh_miniaero", [&] {
    return umesh::apps::run_on_ranks(argc, argv, parse(argc, argv), run);
  });
}

namespace {

// miniAero's own strategies run once, in their own layout and order.
bool is_reference(const std::string &exec) {
  return exec.rfind("miniaero-", 0) == 0;
}
std::vector<std::string> layouts_of(const Options &opt, const std::string &exec) {
  return is_reference(exec) ? std::vector<std::string>{"default"} : opt.layouts;
}
std::vector<std::string> reorders_of(const Options &opt, const std::string &exec) {
  return is_reference(exec) ? std::vector<std::string>{"binsort"} : opt.reorders;
}
std::string variant_tag(const std::string &exec, const std::string &layout,
                        const std::string &reorder) {
  std::string tag = exec + "." + layout;
  if (!is_reference(exec))
    tag += "." + reorder;
  return tag;
}

// The results files a run writes: `results`, or one per variant
// (results.<tag>) when it runs several.
std::vector<std::pair<std::string, std::string>> results_files(const Options &opt,
                                                               const std::string &results) {
  std::vector<std::pair<std::string, std::string>> files;
  if (results.empty())
    return files;
  if (opt.execs.size() * opt.layouts.size() * opt.reorders.size() == 1)
    return {{"--results", results}};
  for (const auto &exec : opt.execs)
    for (const auto &layout : layouts_of(opt, exec))
      for (const auto &reorder : reorders_of(opt, exec))
        files.push_back({"--results", results + "." + variant_tag(exec, layout, reorder)});
  return files;
}

int run(const Options &opt, int rank, int ranks) {
  int failures = 0;
  try {
    if (opt.transport == "nccl" && !opt.distributed)
      throw umesh::Error("umesh_miniaero: --transport nccl is for distributed runs (several "
                         "ranks or --distributed)");
#if !defined(UMESH_HAS_NCCL)
    if (opt.transport == "nccl") // before any mesh is built
      throw umesh::Error("umesh_miniaero: --transport nccl: umesh was built without NCCL (it "
                         "needs a CUDA build that finds nccl.h and libnccl); use --transport host");
#endif
    if (opt.distributed) { // miniAero's own strategies run in one process only
      std::string refs;
      for (const auto &e : opt.execs)
        if (is_reference(e))
          refs += (refs.empty() ? "" : ", ") + e;
      if (!refs.empty())
        throw umesh::Error("umesh_miniaero: " + refs +
                           " (miniAero's own strategies; 'all' includes them) run in one process "
                           "only: over MPI ranks give umesh's executors with --exec");
    }
    const std::string partition =
        umesh::apps::rank_partition("umesh_miniaero", opt.partition, opt.distributed, "blocks");
    if (opt.timed_exchanges && !opt.distributed)
      throw umesh::Error("umesh_miniaero: --timed-exchanges is for distributed runs (several "
                         "ranks or --distributed)");
    if (opt.graph == "on" && opt.distributed)
      throw umesh::Error("umesh_miniaero: --graph on is for one process: over MPI ranks the halo "
                         "exchanges make the host wait within a stage");
    // Graphs where they replay (CUDA), unless told.
    const bool graph = opt.graph.empty() ? umesh::LoopGraph<Space>::replays && !opt.distributed
                                         : opt.graph == "on";
    if (opt.distributed && opt.bench > 0)
      throw umesh::Error("umesh_miniaero: --bench runs in one process only, not with "
                         "--distributed or several ranks");
    // Folders and files the run writes into fail now, not after the work.
    if (!opt.plan_dir.empty())
      umesh::apps::make_folder(opt.plan_dir, "plan");
    // Each measured row rewrites the whole table (a run cut short keeps its
    // rows): the table is locked for the run, so that a second run into the
    // same --csv refuses instead of replacing this run's rows between rewrites.
    std::optional<umesh::apps::RunLock> csv_lock;
    if (opt.bench > 0) {
      csv_lock.emplace(opt.csv);
      umesh::apps::ResultFile check(opt.csv, &*csv_lock); // checked, not yet written
    }
    // Benchmark runs time steps into --csv and write no results file: a
    // --results beside --bench was dropped without a word.
    if (opt.bench > 0 && !opt.results.empty())
      throw umesh::Error("umesh_miniaero: --results is not written by --bench runs (they time "
                         "steps and write --csv)");
    Input in = read_input(opt.input);
    if (opt.bench > 0 && in.output_results)
      std::printf("note: '%s' asks for a results file; --bench runs write none\n",
                  opt.input.c_str());
    // Known now: whether the input asks for results (results.0 by default).
    const std::string results = opt.bench > 0          ? ""
                                : !opt.results.empty() ? opt.results
                                : in.output_results    ? "results.0"
                                                       : "";
    // Each variant's results file too, checked before any variant runs (a
    // folder in the way of the last one failed the run after all the work):
    // results.<tag> may also name an input.
    auto outputs = results_files(opt, results);
    for (const auto &[option, path] : outputs) {
      if (const std::string why = umesh::apps::output_path_problem(path); !why.empty())
        throw umesh::Error("umesh_miniaero: " + option + ": " + why);
      if (const auto folder = std::filesystem::path(path).parent_path(); !folder.empty())
        umesh::apps::make_folder(folder.string(), "results");
    }
    outputs.push_back({"--csv", opt.bench > 0 ? opt.csv : ""});
    outputs.push_back(umesh::apps::tuning_file_output(opt.tuning_file));
    if (const std::string why = umesh::apps::clashing_files(
            outputs, {{"--input", opt.input}, {"--compare", opt.compare}});
        !why.empty())
      throw umesh::Error("umesh_miniaero: " + why);
    if (opt.steps >= 0)
      in.steps = opt.steps;
    // A comparison must compare what the executors computed: benchmark runs
    // skip it (they said "runs match" having compared nothing), and with no
    // time step the initial state would be compared.
    if (!opt.compare.empty() && opt.bench > 0)
      throw umesh::Error("umesh_miniaero: --compare is for plain runs; --bench runs compare "
                         "nothing");
    if (!opt.compare.empty() && in.steps == 0)
      throw umesh::Error(std::string("umesh_miniaero: --compare with 0 time steps (") +
                         (opt.steps >= 0 ? "--steps 0" : "line 4 of '" + opt.input + "'") +
                         "): no executor would run, only the initial state would be compared");
    if (!opt.mesh.empty()) {
      in.nx = opt.mesh[0], in.ny = opt.mesh[1], in.nz = opt.mesh[2];
      if (const std::string why = mesh_geometry_problem(in); !why.empty())
        throw umesh::Error("umesh_miniaero: --mesh " + std::to_string(in.nx) + "," +
                           std::to_string(in.ny) + "," + std::to_string(in.nz) + " with '" +
                           opt.input + "': " + why);
    }
    // --partition blocks: each rank builds only its own block of the box.
    const bool own_blocks = opt.distributed && partition == "blocks";
    // The limiter's stencil over cells by default (the faster), except over
    // ranks dealt otherwise than in blocks: there no rank knows its cells'
    // neighbours across faces that another rank owns.
    const bool cell_stencil =
        opt.stencil.empty() ? !opt.distributed || own_blocks : opt.stencil == "cells";
    if (cell_stencil && opt.distributed && !own_blocks)
      throw umesh::Error("umesh_miniaero: --stencil cells over MPI ranks needs --partition blocks "
                         "(each rank then knows its cells' neighbours on other ranks), not '" +
                         partition + "'; or give --stencil faces");
    const umesh::apps::GridBlocks blocks =
        umesh::apps::grid_blocks(in.nx, in.ny, in.nz, own_blocks ? ranks : 1);
    if (blocks.blocks[0] == 0)
      throw umesh::Error("umesh_miniaero: --partition blocks: " + std::to_string(ranks) +
                         " ranks cannot share " + std::to_string(in.nx) + " x " +
                         std::to_string(in.ny) + " x " + std::to_string(in.nz) +
                         " cells in blocks of at least one cell (use fewer ranks or 'metis')");
    std::array<int, 3> block_lo{}, block_hi{};
    blocks.range(own_blocks ? rank : 0, block_lo, block_hi);
    { // the sizes an out-of-memory message names; refused now past this machine's memory
      const std::string cells = std::to_string(in.nx) + " x " + std::to_string(in.ny) + " x " +
                                std::to_string(in.nz) + " cells";
      umesh::apps::size_options() =
          opt.mesh.empty()
              ? umesh::apps::SizeOptions{"--input '" + opt.input + "' line 3 (" + cells + ")",
                                         "the cells on its line 3 (or give --mesh)"}
              : umesh::apps::SizeOptions{"--mesh " + std::to_string(in.nx) + "," +
                                             std::to_string(in.ny) + "," + std::to_string(in.nz),
                                         "--mesh"};
      // The host mesh alone: centroids and volumes, about three interior
      // faces a cell with their cells, slots and geometry, the state.
      // (With --partition blocks the ranks' own blocks add up to one mesh.)
      umesh::apps::check_memory(umesh::apps::size_options().given,
                                std::int64_t(in.nx) * in.ny * in.nz * 200,
                                umesh::apps::size_options().lower);
    }
    // --output's folder and files fail now, not after the run.
    std::optional<FieldOutput> fields;
    if (opt.output.on())
      fields.emplace(opt.output, in, rank, ranks);
    std::printf("miniAero on umesh: %s\n  device: %s\n", describe(in).c_str(), Space::name());
    if (graph)
      std::printf("  umesh's RK stages as graphs (umesh::LoopGraph)%s\n",
                  opt.bench > 0 ? "; --bench times each loop one by one first" : "");
    if (opt.distributed)
      std::printf("  distributed over %d MPI rank%s (partition %s), halo exchange %s\n", ranks,
                  ranks == 1 ? "" : "s", partition.c_str(),
                  opt.transport == "nccl" ? "GPU to GPU through NCCL" : "through the host");
    Kokkos::Timer setup;
    // On the host threads Kokkos was given (OMP_NUM_THREADS, --kokkos-threads).
    const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
    const Mesh mesh = own_blocks ? make_mesh_part(in, opt.shuffle_seed, threads, block_lo, block_hi,
                                                  cell_stencil && in.second_order)
                                 : make_mesh(in, opt.shuffle_seed, threads);
    const int cells = mesh.part ? mesh.part->cells : mesh.num_cells;
    std::printf("  mesh: %d cells, %d interior faces, %zu boundary sets (%.2f s, %d host "
                "thread%s%s)\n",
                cells, mesh.part ? mesh.part->faces : mesh.faces.size(), mesh.boundaries.size(),
                setup.seconds(), threads, threads == 1 ? "" : "s",
                mesh.part ? (", rank 0's block of " + blocks.describe() + ": " +
                             std::to_string(mesh.num_cells) + " cells")
                                .c_str()
                          : "");
    std::vector<std::vector<double>> reference;
    if (!opt.compare.empty()) {
      // Read where it is compared (rank 0 alone for a mesh no rank holds
      // whole); a bad file stops every rank alike.
      std::string problem;
      if (rank == 0 || !mesh.part) {
        try {
          reference = read_reference(opt.compare, std::size_t(cells));
        } catch (const umesh::Error &e) {
          problem = e.what();
        }
      }
      if (const std::string first = umesh::apps::first_problem(problem); !first.empty())
        throw umesh::Error(first);
    }
    const double copy_gbps = opt.bench > 0 ? copy_bandwidth_gbps() : 0.0;
    if (opt.bench > 0)
      std::printf("  device copy bandwidth: %.0f GB/s\n", copy_gbps);
    if (const std::string note = opt.autotune.note(opt.execs, opt.tuning_file); !note.empty())
      std::printf("%s\n", note.c_str());
    std::vector<BenchRow> rows;
    // miniAero's own variants first, so that every row's ratios are known
    // when it is measured and written (a run cut short keeps its rows).
    std::vector<std::string> execs = opt.execs;
    std::stable_partition(execs.begin(), execs.end(),
                          [](const std::string &e) { return is_reference(e); });
    int runs = 0;
    for (const auto &exec : execs) {
      const bool is_ref = is_reference(exec);
      for (const auto &layout : layouts_of(opt, exec))
        for (const auto &reorder : reorders_of(opt, exec)) {
          SolverOptions so;
          so.cell_stencil = cell_stencil;
          so.nccl = opt.transport == "nccl";
          so.timed_exchanges = opt.timed_exchanges;
          so.graph = graph;
          so.partition = partition;
          so.hierarchical = opt.hierarchical.options();
          so.warp = opt.hierarchical.warp();
          so.autotune = opt.autotune.autotune(opt.hierarchical.block, opt.tuning_file);
          if (!is_ref)
            so.reorder = umesh::parse_reorder(reorder);
          if (!opt.plan_dir.empty())
            so.plan_prefix =
                opt.plan_dir + "/" + std::to_string(in.nx) + "x" + std::to_string(in.ny) + "x" +
                std::to_string(in.nz) + "-seed" + std::to_string(opt.shuffle_seed) + "-" +
                (opt.distributed ? "rank" + std::to_string(rank) + "of" + std::to_string(ranks) +
                                       "-" + partition + "-" // (another partition, another part)
                                 : std::string());
          const std::string tag = variant_tag(exec, layout, reorder);
          Kokkos::Timer t;
          auto solver = make_solver(exec, layout == "soa", opt.distributed, in, mesh, so);
          const double build = t.seconds();
          if (runs == 0) { // the same for every run
            std::istringstream lines(solver->layout());
            for (std::string line; std::getline(lines, line);)
              std::printf("  %s\n", line.c_str());
          }
          ++runs;
          if (opt.bench > 0) {
            solver->step(); // warm-up: first-touch, plan caches, JIT of nothing
            auto &timers = solver->timers();
            timers.enable(true);
            for (int s = 0; s < opt.bench; ++s)
              solver->step();
            BenchRow row;
            row.variant = exec;
            row.layout = layout;
            row.reorder = reorder;
            row.face_flux_ms = median(timers.samples("face_flux")) * 1e3;
            auto per_call = [&](const char *name) {
              // Several loops share a name (interior + boundary): time per stage.
              const auto &s = timers.samples(name);
              double total = 0;
              for (double x : s)
                total += x;
              return s.empty() ? 0.0 : total / (4.0 * opt.bench) * 1e3;
            };
            row.gradient_ms = per_call("gradient");
            row.minmax_ms = per_call("stencil_minmax");
            row.limiter_ms = per_call("limiter");
            row.apply_ms = per_call("apply_cell_flux");
            // Whole stages again, with no fences inside them.
            timers.clear();
            timers.enable(true, "rk_stage");
            for (int s = 0; s < opt.bench; ++s)
              solver->step();
            row.stage_ms = median(timers.samples("rk_stage")) * 1e3;
            row.gbps = face_flux_bytes(in, mesh) / (row.face_flux_ms * 1e-3) / 1e9;
            row.note = solver->summary();
            rows.push_back(row);
            write_csv(opt.csv, rows, copy_gbps, *csv_lock);
            const Ratios x = ratios(row, rows);
            std::printf("  %-32s face_flux %8.3f ms (x%.2f atomic, x%.2f cell-flux)  stage %8.3f "
                        "ms (x%.2f, x%.2f)  setup %.1f s\n",
                        tag.c_str(), row.face_flux_ms, x.flux_atomic, x.flux_cellflux, row.stage_ms,
                        x.stage_atomic, x.stage_cellflux, build);
            std::fflush(stdout);
            continue;
          }
          const ExchangeTally exchange_before = solver->exchanges();
          Kokkos::Timer run;
          // auto tunes each loop and builds the winner's plan on its first
          // call: the first step's time apart says what that cost.
          const bool tunes = exec == "auto";
          double first_step = 0;
          if (fields)
            fields->after_step(0, *solver);
          for (int s = 1; s <= in.steps; ++s) {
            solver->step();
            if (fields)
              fields->after_step(s, *solver);
            if (tunes && s == 1) {
              Kokkos::fence();
              first_step = run.seconds();
            }
            if (s % in.output_frequency == 0 && in.steps >= 1000)
              std::printf("    %s: step %d of %d\n", tag.c_str(), s, in.steps);
          }
          Kokkos::fence();
          const double seconds = run.seconds();
          const ExchangeTally exchange_after = solver->exchanges();
          // The solution and the results' lines only where they are
          // compared or written: gathered, they are the whole mesh's.
          // In one process a gathered solution says itself whether it is
          // finite; over ranks that is agreed without gathering.
          // --reproducible: the solution's bits as one line, to compare runs.
          const bool gather = !opt.compare.empty() || !results.empty() || opt.autotune.reproducible;
          std::vector<std::string> lines;
          std::string bits;
          bool finite = true;
          if (gather) {
            const std::vector<double> solution = solver->solution();
            if (opt.autotune.reproducible)
              bits = umesh::apps::AutoCli::bits(solution);
            lines = results_lines(mesh.part ? solver->centroids() : mesh.cell_centroid, solution);
            if (!opt.distributed)
              finite = std::all_of(solution.begin(), solution.end(),
                                   [](double x) { return std::isfinite(x); });
          }
          if (opt.distributed || !gather)
            finite = solver->finite();
          std::string verdict;
          // A blown-up run (a time step far too large) is a failed run,
          // whether or not there is a reference to compare with.
          if (!finite) {
            verdict = "  FAILED: the solution is not finite (NaN or inf; time step too large?)";
            ++failures;
          } else if (!reference.empty()) {
            std::string report;
            const int bad = compare_results(lines, reference, 1e-3, 1e-6, report);
            verdict = bad == 0 ? "  matches the reference"
                               : "  DIFFERS from the reference in " + std::to_string(bad) +
                                     " lines\n" + report;
            failures += bad != 0;
          }
          std::printf("  %-32s %d steps in %.2f s (setup %.2f s)%s\n", tag.c_str(), in.steps,
                      seconds, build, verdict.c_str());
          if (!bits.empty() && rank == 0)
            std::printf("    solution bits %s\n", bits.c_str());
          if (tunes && in.steps > 1)
            std::printf("    of which the first step %.2f s (auto tunes each loop and plans its "
                        "winner on the loop's first call, or plans the tuning file's choice), "
                        "the other %d steps %.2f s\n",
                        first_step, in.steps - 1, seconds - first_step);
          if (opt.distributed) {
            const ExchangeTally d = exchange_after - exchange_before;
            // The baseline beside the exchanges timed on the device.
            const bool baseline = opt.timed_exchanges && opt.transport == "nccl";
            umesh::apps::print_exchange_report(d, seconds, in.steps, "step", opt.timed_exchanges,
                                               opt.transport == "nccl",
                                               baseline ? solver->nccl_same_bytes(d) : 0.0);
          }
          if (fields)
            fields->finish();
          const std::string summary = solver->summary();
          if (!summary.empty())
            std::printf("    %s\n", summary.c_str());
          if (!results.empty() && rank == 0) {
            std::string path = opt.results.empty() ? "results.0" : opt.results;
            if (opt.execs.size() * opt.layouts.size() * opt.reorders.size() > 1)
              path += "." + tag;
            write_results(path, lines);
          }
          std::fflush(stdout);
        }
    }
    if (opt.bench > 0) {
      std::printf("\n%-18s %-7s %-8s %9s %7s %6s %9s %8s %8s %8s %7s %7s %7s %7s\n", "variant",
                  "layout", "reorder", "flux ms", "GB/s", "%copy", "stage ms", "grad", "minmax",
                  "limiter", "xAtomF", "xCellF", "xAtomS", "xCellS");
      for (const auto &r : rows) {
        const Ratios x = ratios(r, rows);
        std::printf("%-18s %-7s %-8s %9.3f %7.0f %5.1f%% %9.3f %8.3f %8.3f %8.3f %7.2f %7.2f "
                    "%7.2f %7.2f\n",
                    r.variant.c_str(), r.layout.c_str(), r.reorder.c_str(), r.face_flux_ms, r.gbps,
                    100 * r.gbps / copy_gbps, r.stage_ms, r.gradient_ms, r.minmax_ms, r.limiter_ms,
                    x.flux_atomic, x.flux_cellflux, x.stage_atomic, x.stage_cellflux);
      }
      std::printf("\nflux ms: median per compute_face_flux call (fenced); the cell-flux "
                  "variant's\nratios add its apply_cell_flux. stage ms: median RK stage with no "
                  "inner fences.\ngrad/minmax/limiter: ms per stage including boundary loops. "
                  "Copy bandwidth %.0f GB/s.\nx*: speedup over miniAero's atomic (A) and "
                  "cell-flux (C) variants, face flux (F) and stage (S). CSV: %s\n",
                  copy_gbps, umesh::apps::absolute_path(opt.csv).c_str());
    }
    if (!opt.compare.empty())
      std::printf("%d of %d runs match the reference\n", runs - failures, runs);
    umesh::apps::print_peak_host_memory(ranks);
  } catch (...) {
    return umesh::apps::report_exception(ranks > 1 ? "umesh_miniaero rank " + std::to_string(rank)
                                                   : "umesh_miniaero");
  }
  return failures == 0 ? umesh::apps::exit_ok : umesh::apps::exit_check_failed;
}

} // namespace
