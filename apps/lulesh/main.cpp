// LULESH 2.0's Sedov blast problem on umesh: LULESH's options and closing
// report, every umesh executor and layout for the loops that scatter
// element forces to nodes. `umesh_lulesh --help` lists the options (CLI11).
#include "field_writer.hpp"
#include "problem.hpp"
#include "report.hpp"
#include "solver.hpp"

#include "common/auto_cli.hpp"
#include "common/bandwidth.hpp"
#include "common/built_check.hpp"
#include "common/cli.hpp"
#include "common/exec_names.hpp"
#include "common/hierarchical_cli.hpp"
#include "common/launch_counter.hpp"
#include "common/output.hpp"
#include "common/ranks.hpp"
#include "common/run_main.hpp"
#include "common/sizes.hpp"

#include <umesh/umesh.hpp>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>

namespace {

using namespace lulesh;

struct Options {
  Params params;
  std::vector<std::string> execs{"atomic"}, layouts{"soa"};
  umesh::apps::HierarchicalCli hierarchical;
  umesh::apps::AutoCli autotune; // --reproducible
  std::string tuning_file, csv;
  int expect_cycles = -1; // -1: no check
  double expect_energy = 0, energy_rtol = 1e-6;
  bool check_energy = false; // --expect-energy given
  bool timers = false;
  bool distributed = false; // --distributed, or more than one MPI rank
  bool timed_exchanges = false;
  std::string transport = "host";
  std::string partition; // empty: slabs
  std::string graph;     // on, off; empty: on where a graph replays (CUDA, one process)
  umesh::apps::FieldOutputOptions output; // --output, --output-every, --output-dir
};

// umesh executors; 'gather' is LULESH's own strategy (each element's corner
// forces stored, then summed per node over its elements' corners).
const std::vector<std::string> kAllExecs = umesh::apps::executor_names();

[[noreturn]] void refuse(const std::string &why) {
  std::fprintf(stderr, "umesh_lulesh: %s\nrun 'umesh_lulesh --help' for the options\n",
               why.c_str());
  std::exit(2);
}

Options parse(int argc, char **argv) {
  Options o;
  Params &p = o.params;
  CLI::App app("LULESH 2.0's Sedov blast problem on umesh: LULESH's options (-s -i -r -b -c -p "
               "-q) and closing report; the stress and hourglass forces are scattered to the "
               "nodes by the chosen umesh executors and layouts",
               "umesh_lulesh");
  umesh::apps::add_version(app);
  app.add_option("-s,--size", p.size, "elements along each side of the cube")
      ->capture_default_str();
  app.add_option("-i,--iterations", p.iterations, "cycle limit (the run also stops at t = 0.01)")
      ->capture_default_str();
  app.add_option("-r,--regions", p.regions, "material regions")->capture_default_str();
  app.add_option("-b,--balance", p.balance, "load balance between regions (region weights (i+1)^b)")
      ->capture_default_str();
  app.add_option("-c,--cost", p.cost, "extra EOS evaluations of the expensive regions")
      ->capture_default_str();
  app.add_flag("-p,--progress", p.progress, "print a line per cycle");
  app.add_flag("-q,--quiet", p.quiet, "no header and no report (checks still print)");
  std::vector<std::string> exec_names = kAllExecs;
  exec_names.insert(exec_names.end(), {"auto", "all"});
  app.add_option("--exec", o.execs,
                 "umesh executors of the scatter loops, or 'all': serial, atomic, gather "
                 "(LULESH's own strategy), colour, scatterview, hierarchical, segmented (block "
                 "reduction over point segments), warp (warp pre-aggregation, --warp-block); "
                 "also auto (each "
                 "loop times every strategy on its first call and keeps the fastest; not part "
                 "of 'all'). On a GPU backend 'all' leaves out serial (one GPU thread)")
      ->delimiter(',')
      ->check(CLI::IsMember(exec_names))
      ->capture_default_str();
  app.add_option("--layout", o.layouts, "layouts of the node and element data")
      ->delimiter(',')
      ->check(CLI::IsMember({"aos", "soa"}))
      ->capture_default_str();
  o.hierarchical.add_to(app);
  o.autotune.add_to(app);
  app.add_option("--tuning-file", o.tuning_file,
                 "where auto remembers its choices (default: $UMESH_TUNING_FILE, else nowhere)")
      ->check(umesh::apps::output_file());
  app.add_option("--expect-cycles", o.expect_cycles,
                 "check: every run must end after this many cycles (exit 1 otherwise)")
      ->check(CLI::Range(0, INT_MAX));
  app.add_option("--expect-energy", o.expect_energy,
                 "check: every run's final origin energy must be this, within --energy-rtol "
                 "(exit 1 otherwise)");
  app.add_option("--energy-rtol", o.energy_rtol, "relative tolerance of --expect-energy")
      ->check(CLI::Validator(
          // Not CLI::PositiveNumber: its message printed DBL_MAX in 300 digits.
          // What is no number at all is strict_numbers' to refuse.
          [](std::string &t) {
            char *end = nullptr;
            errno = 0;
            const double v = std::strtod(t.c_str(), &end);
            const bool number = !t.empty() && !*end && errno != ERANGE && std::isfinite(v);
            return number && !(v > 0) ? "'" + t + "' is not a positive number" : std::string();
          },
          "POSITIVE"))
      ->capture_default_str();
  app.add_flag("--timers", o.timers,
               "time every loop (fenced, so the run is slower), print the median per loop, the "
               "kernel launches and host synchronisations per cycle (Kokkos Tools callbacks; "
               "the timers' own fences not counted), and measure the device's copy bandwidth "
               "first");
  app.add_option("--graph", o.graph,
                 "run each cycle's loops as one recorded graph (umesh::LoopGraph): on CUDA one "
                 "graph launch a cycle instead of one launch a loop; on host backends the same "
                 "loops in order. Same results either way. Default: on for CUDA in one process, "
                 "off otherwise; not over MPI ranks; with --timers the loops run (and are timed) "
                 "one by one")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--csv", o.csv,
                 "write a row per run (times, grind time, FOM) to this file (in place when every "
                 "run has ended; until then the previous file is kept)")
      ->check(umesh::apps::output_file());
  app.add_flag("--distributed", o.distributed,
               "run over the MPI ranks (umesh::dist) even on one rank; on more than one rank "
               "('mpirun -np N umesh_lulesh ...') it always does: elements dealt by "
               "--partition, halos of nodes and neighbouring elements exchanged by the loops as "
               "their accesses need");
  app.add_option("--transport", o.transport,
                 "distributed runs: halo exchange through host buffers and MPI (host) or GPU to "
                 "GPU through NCCL (nccl: CUDA builds with NCCL, one rank per GPU)")
      ->check(CLI::IsMember({"host", "nccl"}))
      ->capture_default_str();
  app.add_option(
         "--partition", o.partition,
         "distributed runs: how elements are dealt to ranks: slabs (the default: contiguous "
         "z-slabs of LULESH's element order, at least one plane of elements a rank; "
         "each rank builds only its own slab), metis (METIS k-way over the elements "
         "sharing nodes, on one rank: smaller halos; every rank builds the whole mesh) or "
         "ptscotch (PT-Scotch over the same graph, each rank passing the graph's rows of a "
         "block of elements, then building only the elements dealt to it; at most -s 436; "
         "builds with PT-Scotch)")
      ->check(CLI::IsMember({"slabs", "metis", "ptscotch"}));
  app.add_flag("--timed-exchanges", o.timed_exchanges,
               "distributed runs: fence the device around each halo exchange, so the exchange "
               "time printed after each run counts the GPU's packing, transfers and unpacking, "
               "not only the host's part (slower: no loop overlaps an exchange)");
  o.output.add_to(app, "lulesh-output");
  umesh::apps::parse_or_exit(app, argc, argv);

  if (const std::string why = params_problem(p); !why.empty())
    refuse(why);
  if (o.output.on() && o.execs.size() * o.layouts.size() > 1)
    refuse("--output writes one run's fields: give one --exec and --layout");
  if (const std::string why = o.output.problem(); !why.empty())
    refuse(why);
  // Relative to the energy expected: 0 would divide by zero, and used to
  // mean "no check" (a run asked to check would pass having checked nothing).
  o.check_energy = app.count("--expect-energy") > 0;
  if (o.check_energy && o.expect_energy == 0)
    refuse("--expect-energy 0: the check is relative to the energy expected; give a non-zero "
           "energy");
  umesh::apps::set_size_options("-s " + std::to_string(p.size));
  // The host mesh alone (coordinates, element nodes, neighbours, flags,
  // regions): refused past this machine's memory before it is built.
  {
    const std::int64_t s = p.size, elems = s * s * s, nodes = (s + 1) * (s + 1) * (s + 1);
    umesh::apps::check_memory(umesh::apps::size_options().given, 72 * elems + 28 * nodes);
  }
  if (const std::string why = o.hierarchical.problem(); !why.empty())
    refuse(why);
  if (const std::string why = umesh::apps::expand_all_executors<Mem>(o.execs, kAllExecs);
      !why.empty())
    refuse(why);
  if (const std::string why =
          o.autotune.problem<Kokkos::DefaultExecutionSpace>(o.execs, o.hierarchical.options());
      !why.empty())
    refuse(why);
  // Those given (a left-out default fails at the first run, losing none).
  if (const std::string why = umesh::apps::left_out_problem(
          app.count("--exec") ? o.execs : std::vector<std::string>{},
          app.count("--layout") ? o.layouts : std::vector<std::string>{});
      !why.empty())
    refuse(why);
  if (const std::string why = umesh::apps::clashing_files(
          {{"--csv", o.csv}, umesh::apps::tuning_file_output(o.tuning_file)}, {});
      !why.empty())
    refuse(why);
  return o;
}

std::unique_ptr<SolverBase> make(const std::string &exec, bool soa, bool distributed, const Mesh &m,
                                 const Params &p, const RunOptions &ro) {
  std::unique_ptr<SolverBase> out;
  if (!umesh::apps::with_executor(exec, [&](auto tag) {
        umesh::apps::with_layout(soa, [&](auto layout) {
          out = make_solver<decltype(tag), decltype(layout)>(distributed, m, p, ro);
        });
      }))
    throw umesh::Error("umesh_lulesh: no executor called '" + exec + "'");
  return out;
}

const std::vector<std::string> kLoops = {"forces", "nodes", "kinematics",
                                         "monoq",  "eos",   "constraints"};

int run(const Options &opt, int rank, int ranks);

} // namespace

int main(int argc, char **argv) {
  // Options before MPI: --help and bad values exit here.
  return umesh::apps::run_main("umesh_lulesh", [&] {
    return umesh::apps::run_on_ranks(argc, argv, parse(argc, argv), run);
  });
}

namespace {

int run(const Options &opt, int rank, int ranks) {
  const Params &p = opt.params;
  int failures = 0;
  try {
    if (opt.transport == "nccl" && !opt.distributed)
      throw umesh::Error("umesh_lulesh: --transport nccl is for distributed runs (several ranks "
                         "or --distributed)");
    // Slabs by default: each rank then builds only its own (as with
    // PT-Scotch; METIS needs the whole mesh on every rank).
    const std::string partition =
        umesh::apps::rank_partition("umesh_lulesh", opt.partition, opt.distributed, "slabs");
    if (opt.graph == "on" && opt.distributed)
      throw umesh::Error("umesh_lulesh: --graph on is for one process: over MPI ranks the halo "
                         "exchanges make the host wait within a cycle");
    // Graphs where they replay (CUDA); --timers times each loop outside one.
    const bool graph = opt.graph.empty() ? umesh::LoopGraph<Space>::replays && !opt.distributed
                                         : opt.graph == "on";
    if (opt.timed_exchanges && !opt.distributed)
      throw umesh::Error("umesh_lulesh: --timed-exchanges is for distributed runs (several ranks "
                         "or --distributed)");
#if !defined(UMESH_APP_MPI)
    if (opt.distributed)
      throw umesh::Error("umesh_lulesh was built without MPI: --distributed is not available");
#endif
    std::unique_ptr<umesh::apps::ResultFile> csv;
    if (!opt.csv.empty() && rank == 0) { // one rank writes; a bad path fails now
      csv = std::make_unique<umesh::apps::ResultFile>(opt.csv);
      csv->stream().precision(17); // energies and times whole, not to six digits
      *csv << "exec,layout,size,cycles,elapsed_s,grind_us,fom_zps,origin_energy,copy_gbps,"
              "launches_per_cycle,host_syncs_per_cycle,graph";
      for (const auto &l : kLoops)
        *csv << ',' << l << "_ms";
      *csv << ",note\n";
    }
    // --output's folder and files fail now, not after the run.
    std::optional<FieldOutput<SolverBase>> fields;
    if (opt.output.on())
      fields.emplace(opt.output, rank, ranks);
    if (!p.quiet)
      std::printf("Running problem size %d^3 per domain until completion (umesh, %s)\n"
                  "Total number of elements: %lld\n\n",
                  p.size, Space::name(), (long long)p.size * p.size * p.size);
    if (opt.distributed)
      std::printf("distributed over %d MPI rank%s (partition %s), halo exchange %s\n", ranks,
                  ranks == 1 ? "" : "s", partition.c_str(),
                  opt.transport == "nccl" ? "GPU to GPU through NCCL" : "through the host");
    Kokkos::Timer setup;
    const double cpu_before_mesh = umesh::apps::cpu_seconds();
    // On the host threads Kokkos was given (OMP_NUM_THREADS, --kokkos-threads).
    const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
    // Each rank builds only its own part (slabs, PT-Scotch), or the whole
    // mesh (one process, METIS).
#if defined(UMESH_APP_MPI)
    Mesh mesh = !opt.distributed          ? make_mesh(p, threads)
                : partition == "slabs"    ? make_mesh_part(p, rank, ranks, threads)
                : partition == "ptscotch" ? DistBackend::ptscotch_mesh(p, threads)
                                          : make_mesh(p, threads);
#else
    Mesh mesh = make_mesh(p, threads);
#endif
    const SetupPhase mesh_phase{"mesh", setup.seconds(),
                                umesh::apps::cpu_seconds() - cpu_before_mesh};
    const double mesh_s = mesh_phase.seconds;
    const std::string mesh_ranks =
        opt.distributed ? umesh::apps::seconds_over_ranks(mesh_s) : std::string();
    if (!p.quiet) {
      std::printf("mesh: %d nodes, %d elements, %zu regions (%.2f s, %d host thread%s)\n",
                  mesh.num_nodes, mesh.num_elems, mesh.regions.size(), mesh_s, threads,
                  threads == 1 ? "" : "s");
      if (opt.distributed)
        std::printf("%s in %s\n",
                    mesh.part ? ("rank 0's " + slab_summary(mesh)).c_str()
                              : "every rank built the whole mesh,",
                    mesh_ranks.c_str());
    }
    // The device's copy bandwidth beside the timings, for comparisons.
    const double copy_gbps = opt.timers ? umesh::apps::copy_bandwidth_gbps() : 0.0;
    if (opt.timers)
      std::printf("device copy bandwidth: %.1f GB/s\n", copy_gbps);
    RunOptions ro;
    ro.nccl = opt.transport == "nccl";
    ro.partition = partition;
    ro.timed_exchanges = opt.timed_exchanges;
    ro.graph = graph && !opt.timers;
    if (!p.quiet && graph)
      std::printf("%s\n", opt.timers ? "--timers: each loop timed one by one, outside a graph"
                                     : "each cycle's loops as one graph (umesh::LoopGraph)");
    ro.hierarchical = opt.hierarchical.options();
    ro.warp = opt.hierarchical.warp();
    ro.autotune = opt.autotune.autotune(opt.hierarchical.block, opt.tuning_file);
    if (const std::string note = opt.autotune.note(opt.execs, opt.tuning_file);
        !note.empty() && !p.quiet)
      std::printf("%s\n", note.c_str());
    int runs = 0;
    for (const auto &exec : opt.execs)
      for (const auto &layout : opt.layouts) {
        ++runs;
        std::printf("\n== umesh executor %s%s, layout %s\n", exec.c_str(),
                    exec == "gather" ? " (LULESH's own strategy)" : "", layout.c_str());
        std::fflush(stdout);
        Kokkos::Timer build;
        const double cpu_before_build = umesh::apps::cpu_seconds();
        // The last run's partition takes the rank's own part's connectivity
        // instead of copying it (nothing reads it after).
        const bool last_run = runs == int(opt.execs.size() * opt.layouts.size());
        ro.consumable_mesh = mesh.part && last_run ? &mesh : nullptr;
        auto solver = make(exec, layout == "soa", opt.distributed, mesh, p, ro);
        if (runs == 1 && !p.quiet) { // the same for every run
          std::istringstream lines(solver->layout());
          for (std::string line; std::getline(lines, line);)
            std::printf("%s\n", line.c_str());
        }
        solver->timers().enable(opt.timers);
        Kokkos::fence();
        const double build_s = build.seconds();
        const SetupPhase build_phase{"build", build_s,
                                     umesh::apps::cpu_seconds() - cpu_before_build};
        umesh::apps::LaunchCounter counter;
        if (opt.timers)
          counter.start();
        const umesh::apps::ExchangeTally exchange_before = solver->exchanges();
        Kokkos::Timer run;
        if (fields)
          fields->after_cycle(*solver);
        while (solver->clock().time < solver->clock().stoptime &&
               solver->clock().cycle < p.iterations) {
          solver->step();
          if (fields)
            fields->after_cycle(*solver);
          if (p.progress && !p.quiet)
            std::printf("cycle = %d, time = %e, dt=%e\n", solver->clock().cycle,
                        solver->clock().time, solver->clock().deltatime);
        }
        counter.stop();
        Kokkos::fence();
        const double elapsed = run.seconds();
        if (fields)
          fields->finish(*solver);
        const Report r = make_report(p.size, solver->clock().cycle, solver->energy(), elapsed);
        // Collective: every rank, quiet or not.
        const std::string setup_lines = opt.distributed
                                            ? setup_per_rank(mesh_phase, solver->setup_phases(),
                                                             build_phase, solver->partition_steps())
                                            : std::string();
        if (!p.quiet) {
          print_report(r, ranks);
          std::printf("Setup (device data, plans; not in the elapsed time) = %.2f (s)%s\n", build_s,
                      exec == "auto" ? "; auto's tuning is, in the first cycle" : "");
          if (opt.distributed)
            std::printf("%s\n", setup_lines.c_str());
        }
        if (opt.distributed) {
          const umesh::apps::ExchangeTally d = solver->exchanges() - exchange_before;
          // The baseline beside the exchanges timed on the device.
          const bool baseline = opt.timed_exchanges && opt.transport == "nccl";
          umesh::apps::print_exchange_report(d, elapsed, r.cycles, "cycle", opt.timed_exchanges,
                                             opt.transport == "nccl",
                                             baseline ? solver->nccl_same_bytes(d) : 0.0);
        }
        const std::string summary = solver->summary();
        if (!summary.empty())
          std::printf("%s\n", summary.c_str());
        std::vector<double> loop_ms;
        const int cycles = std::max(1, solver->clock().cycle);
        const double launches = double(counter.counts().launches) / cycles;
        const double syncs = double(counter.counts().host_syncs) / cycles;
        if (opt.timers) {
          std::printf("median ms per call:");
          for (const auto &l : kLoops) {
            loop_ms.push_back(umesh::apps::median(solver->timers().samples(l)) * 1e3);
            std::printf(" %s %.3f", l.c_str(), loop_ms.back());
          }
          std::printf(" (fenced)\n");
          std::printf("launches per cycle %.1f (%lld in %d cycles)\nhost syncs per cycle %.1f "
                      "(%lld)\n",
                      launches, (long long)counter.counts().launches, solver->clock().cycle, syncs,
                      (long long)counter.counts().host_syncs);
        }
        // --reproducible: the energy to its last bit (17 digits), to compare runs.
        if (opt.autotune.reproducible)
          std::printf("reproducible: %s %s final origin energy %.17g\n", exec.c_str(),
                      layout.c_str(), r.origin_energy);
        bool ok = true;
        if (opt.expect_cycles >= 0 && r.cycles != opt.expect_cycles) {
          std::printf("CHECK FAILED: %d cycles, expected %d\n", r.cycles, opt.expect_cycles);
          ok = false;
        }
        if (opt.check_energy) {
          const double rel =
              std::fabs(r.origin_energy - opt.expect_energy) / std::fabs(opt.expect_energy);
          if (!(rel <= opt.energy_rtol)) {
            std::printf("CHECK FAILED: final origin energy %.17g, expected %.17g (relative "
                        "difference %.3e > %.1e)\n",
                        r.origin_energy, opt.expect_energy, rel, opt.energy_rtol);
            ok = false;
          } else {
            std::printf("check: final origin energy %.17g matches %.17g (relative difference "
                        "%.3e)\n",
                        r.origin_energy, opt.expect_energy, rel);
          }
        }
        failures += !ok;
        if (csv) {
          *csv << exec << ',' << layout << ',' << p.size << ',' << r.cycles << ',' << r.elapsed
               << ',' << r.grind_us() << ',' << r.fom() << ',' << r.origin_energy << ','
               << copy_gbps << ',' << (opt.timers ? launches : 0.0) << ','
               << (opt.timers ? syncs : 0.0) << ',' << (ro.graph ? "on" : "off");
          for (std::size_t i = 0; i < kLoops.size(); ++i)
            *csv << ',' << (opt.timers ? loop_ms[i] : 0.0);
          std::string note = summary;
          std::replace(note.begin(), note.end(), ',', ';');
          std::replace(note.begin(), note.end(), '"', '\'');
          *csv << ",\"" << note << "\"\n";
          csv->stream().flush(); // an interrupted run leaves its rows in the hidden temporary
        }
        std::fflush(stdout);
      }
    if (csv) {
      csv->commit();
      std::printf("\nwrote %s\n", umesh::apps::absolute_path(opt.csv).c_str());
    }
    if (opt.expect_cycles >= 0 || opt.check_energy)
      std::printf("%d of %d runs pass the checks\n", runs - failures, runs);
    if (opt.distributed)
      umesh::apps::print_peak_host_memory(ranks);
  } catch (...) {
    return umesh::apps::report_exception(ranks > 1 ? "umesh_lulesh rank " + std::to_string(rank)
                                                   : "umesh_lulesh");
  }
  return failures == 0 ? umesh::apps::exit_ok : umesh::apps::exit_check_failed;
}

} // namespace
