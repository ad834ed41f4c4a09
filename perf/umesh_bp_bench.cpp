// umesh bake-off benchmark: CEED's BP1 (mass) and BP3 (constant-coefficient
// diffusion) applied matrix-free on an unstructured hex mesh of the unit
// cube (umesh's hex mesh shuffled, each element's axes turned, interior
// vertices moved), order p = 1..4 with its continuous numbering, q = p + 2
// Gauss points a direction, as umesh element loops with sum factorisation
// inside the element (perf/bp_kernels.hpp). Rows: the team form (lanes and
// element scratch) under each strategy and team shape, the one-thread-per-
// element form (the baseline), exec::ElementAuto's pick; each validated
// against a host reference, then timed: DoF/s (nodes x applications /
// seconds, CEED's metric) and GB/s beside the copy bandwidth of the same
// run. Every order is checked first on small meshes (assembled matrix,
// exact integrals: perf/bp_checks.hpp). --export writes the meshes for
// perf/peers/libceed_bp.sh.
//
//   umesh_bp_bench [--bps 1,3] [--orders 1,2,3,4] [--dofs 1000000,8000000]
//                  [--strategies atomic,colour,colour-per,gather] [--per-team 1,...,32]
//                  [--lanes 8,16,32] [--thread-per-team 1,32,...] [--no-tune]
//                  [--repeats 10] [--csv FILE] [--export DIR [--export-only]] [--checks-only]
#include "bp_orders.hpp"
#include "common/bandwidth.hpp"
#include "common/cli.hpp"
#include "common/output.hpp"
#include "common/run_main.hpp"

#include <umesh/umesh.hpp>

#include <cstdio>
#include <string>
#include <vector>

#ifndef UMESH_GIT_HASH
#define UMESH_GIT_HASH "unknown"
#endif

namespace {

using namespace umesh;
using namespace umesh::perf;

struct Cli {
  BpOptions o;
  bool checks_only = false;
};

Cli parse(int argc, char **argv) {
  Cli c;
  BpOptions &o = c.o;
  CLI::App app("umesh bake-off benchmark: CEED's BP1 and BP3 as element loops with sum "
               "factorisation, validated, in DoF/s",
               "umesh_bp_bench");
  apps::add_version(app);
  app.add_option("--bps", o.bps, "problems: 1 (mass), 3 (diffusion)")
      ->delimiter(',')
      ->check(CLI::IsMember({1, 3}))
      ->capture_default_str();
  app.add_option("--orders", o.orders, "polynomial orders p (1 to 4)")
      ->delimiter(',')
      ->check(CLI::Range(1, 4))
      ->capture_default_str();
  app.add_option("--dofs", o.dofs, "about this many nodes per mesh, each a size")
      ->delimiter(',')
      ->check(CLI::Range(8L, 100000000L))
      ->capture_default_str();
  app.add_option("--strategies", o.strategies,
                 "atomic, colour (all colours in one launch), colour-per (one launch per "
                 "colour), gather (deterministic)")
      ->delimiter(',')
      ->check(CLI::IsMember({"atomic", "colour", "colour-per", "gather"}))
      ->capture_default_str();
  app.add_option("--per-team", o.per_team, "team form: elements per team (1 to 1024)")
      ->delimiter(',')
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app.add_option("--lanes", o.lanes, "team form: lanes per element (powers of two to 32)")
      ->delimiter(',')
      ->check(CLI::IsMember({1, 2, 4, 8, 16, 32}))
      ->capture_default_str();
  app.add_option("--thread-per-team", o.thread_per_team,
                 "one thread per element: elements per team (1 to 1024)")
      ->delimiter(',')
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app.add_flag("!--no-tune", o.tune, "no exec::ElementAuto row");
  app.add_flag("!--no-shuffle", o.shuffle, "keep the lattice's numbering");
  app.add_flag("!--no-rotate", o.rotate, "keep every element's axes along the lattice's");
  app.add_option("--distort", o.distort, "interior vertices moved by up to this much of a cell")
      ->check(CLI::Range(0.0, 0.5))
      ->capture_default_str();
  app.add_option("--repeats", o.repeats, "timed applications per row (median)")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed applications per row first")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  app.add_option("--csv", o.csv, "results file (its folder is created)")
      ->check(apps::output_file())
      ->capture_default_str();
  app.add_option("--export", o.export_dir,
                 "write each mesh, its input vector and results to this folder "
                 "(bp_p<p>_<nodes>.bin, for perf/peers/libceed_bp.sh)")
      ->check(apps::output_folder());
  app.add_flag("--export-only", o.export_only, "with --export: write the meshes, time nothing");
  app.add_flag("--checks-only", c.checks_only, "run the checks of each order and stop");
  apps::parse_or_exit(app, argc, argv);
  if (o.export_only && o.export_dir.empty()) {
    std::fprintf(stderr, "umesh_bp_bench: --export-only needs --export DIR\n");
    std::exit(apps::exit_bad_input);
  }
  return c;
}

int run(int &argc, char **argv) {
  const Cli c = parse(argc, argv);
  const BpOptions &o = c.o;
  if (!o.export_dir.empty()) // before any work: a folder that cannot be made fails now
    apps::make_folder(o.export_dir, "export");
  Kokkos::ScopeGuard guard(argc, argv);
  int failed = 0;
  if (!o.export_only)
    for (int p : o.orders)
      failed += check_order(p, {o.shuffle, o.rotate, o.distort, 7});
  if (failed > 0) {
    std::printf("%d checks failed\n", failed);
    return apps::exit_check_failed;
  }
  if (c.checks_only)
    return 0;
  apps::ResultFile csv(o.csv);
  const double copy = o.export_only ? 0 : apps::copy_bandwidth_gbps();
  std::printf("umesh bake-off benchmark (umesh %s, git %s); device %s; copy bandwidth %.1f GB/s\n",
              UMESH_VERSION, UMESH_GIT_HASH, Kokkos::DefaultExecutionSpace::name(), copy);
  std::printf("%s\n", bp_csv_header());
  csv << bp_csv_header() << '\n';
  std::vector<BpRow> rows;
  for (long dofs : o.dofs)
    for (int p : o.orders) {
      const std::size_t first = rows.size();
      run_order(o, p, dofs, copy, rows);
      for (std::size_t i = first; i < rows.size(); ++i)
        csv << format_row(rows[i]) << '\n';
    }
  if (o.export_only)
    return 0;
  summarise(rows);
  csv.commit();
  std::printf("wrote %s\n", apps::absolute_path(o.csv).c_str());
  int bad = 0, validated = 0;
  for (const BpRow &r : rows) {
    bad += r.status == "FAILED";
    validated += r.status == "ok";
  }
  if (bad > 0 || validated == 0) {
    std::printf("%d rows failed validation, %d validated\n", bad, validated);
    return apps::exit_check_failed;
  }
  std::printf("every row validated against the host reference (%d rows)\n", validated);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return umesh::apps::run_main("umesh_bp_bench", [&] { return run(argc, argv); });
}
