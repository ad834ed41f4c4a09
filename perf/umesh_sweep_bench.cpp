// umesh sweep benchmark: discrete-ordinates transport (S_N, step closure)
// by ordered sweeps (umesh/sweep.hpp) on Gmsh tet meshes of a cube, about
// 100k and 700k tets by default, S_8 level-symmetric (80 directions), 16 and
// 64 groups, Tycho2's manufactured problem (so that the peer's results
// compare: perf/peers/tycho2.sh). Per executor: one sweep validated against
// a serial reference sweep on the host (scalar fluxes within 1e-12
// relative), the median sweep time of --repeats sweeps and its grind time
// (ns per cell-direction-group), then source iteration to --tolerance.
// Rows print as CSV (stdout and --csv).
//
//   umesh_sweep_bench [--tets 100000,700000 | --mesh A.msh,B.msh | --cube N] [--groups 16,64]
//                     [--executors levels,teams,flow,auto] [--layouts aos,soa] [--sn 8]
//                     [--quadrature ls|product] [--reference sweep|full|none] [--csv FILE]
#include "common/cli.hpp"
#include "common/output.hpp"
#include "common/run_main.hpp"
#include "sweep_bench_run.hpp"

#include <umesh/umesh.hpp>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#ifndef UMESH_GIT_HASH
#define UMESH_GIT_HASH "unknown"
#endif

namespace umesh::perf {

std::string sweep_csv_header() {
  return "mesh,cells,directions,groups,layout,executor,choice,levels,lagged,sweep_ms,grind_ns,"
         "updates_per_s,vs_levels,iterations,residual,hat_l2,ref_error,agree,status";
}

std::string sweep_csv_row(const SweepBenchRow &r) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%s,%ld,%d,%d,%s,%s,%s,%d,%lld,%.4f,%.4f,%.4g,%.3f,%d,%.3g,%.4g,%.3g,%.3g,%s",
                r.mesh.c_str(), r.cells, r.directions, r.groups, r.layout.c_str(),
                r.executor.c_str(), r.choice.c_str(), r.levels, r.lagged, r.sweep_ms, r.grind_ns,
                r.updates_per_s, r.vs_levels, r.iterations, r.residual, r.hat_l2, r.ref_error,
                r.agree, r.status.c_str());
  return buf;
}

} // namespace umesh::perf

namespace {

using namespace umesh;
using namespace umesh::perf;

SweepBenchOptions parse(int argc, char **argv) {
  SweepBenchOptions o;
  CLI::App app("umesh sweep benchmark: S_N transport by ordered sweeps on Gmsh tet meshes of a "
               "cube, every executor validated against a serial reference sweep",
               "umesh_sweep_bench");
  apps::add_version(app);
  auto *tets = app.add_option("--tets", o.tets,
                              "cubes of about these many Gmsh tets (made with "
                              "--gmsh in --mesh-dir, kept there)")
                   ->delimiter(',')
                   ->check(CLI::Range(100L, 50000000L))
                   ->capture_default_str();
  auto *meshes = app.add_option("--mesh", o.meshes,
                                "Gmsh files of tets instead (a cube of side "
                                "--side, for the manufactured problem)")
                     ->delimiter(',')
                     ->check(apps::input_file());
  auto *cube = app.add_option("--cube", o.cube, "structured tets instead: N^3 cubes of six tets")
                   ->check(CLI::Range(1, 200));
  tets->excludes(meshes)->excludes(cube);
  meshes->excludes(cube);
  app.add_option("--mesh-dir", o.mesh_dir, "where --tets meshes are kept")
      ->check(apps::output_folder())
      ->capture_default_str();
  app.add_option("--gmsh", o.gmsh, "the gmsh program")->capture_default_str();
  app.add_option("--side", o.side, "the cube's side (Tycho2's is 100)")
      ->check(CLI::Range(1e-6, 1e6))
      ->capture_default_str();
  app.add_option("--quadrature", o.quadrature,
                 "ls (level-symmetric, N(N+2) directions) or product (Tycho2's, 2 N^2)")
      ->check(CLI::IsMember({"ls", "product"}))
      ->capture_default_str();
  app.add_option("--sn", o.sn, "the quadrature's order N (ls: 2 to 8; product: 2 to 30)")
      ->check(CLI::IsMember({2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30}))
      ->capture_default_str();
  app.add_option("--groups", o.groups, "energy groups (compiled counts: 4, 16, 64)")
      ->delimiter(',')
      ->check(CLI::IsMember({4, 16, 64}))
      ->capture_default_str();
  app.add_option("--layouts", o.layouts, "the angular flux's layouts: aos, soa")
      ->delimiter(',')
      ->check(CLI::IsMember({"aos", "soa"}))
      ->capture_default_str();
  app.add_option("--executors", o.executors,
                 "serial (host builds), levels, teams, flow, auto; levels is the baseline")
      ->delimiter(',')
      ->check(CLI::IsMember({"serial", "levels", "teams", "flow", "auto"}))
      ->capture_default_str();
  app.add_option("--sigma-t", o.sigma_t, "total cross-section")
      ->check(CLI::Range(1e-6, 1e6))
      ->capture_default_str();
  app.add_option("--sigma-s", o.sigma_s, "scattering cross-section (below sigma-t)")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  app.add_option("--tolerance", o.tolerance, "source iteration's relative change of the flux")
      ->check(CLI::Range(1e-15, 1.0))
      ->capture_default_str();
  app.add_option("--max-iterations", o.max_iterations, "source iterations at most")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--repeats", o.repeats, "timed sweeps per row (median)")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--reference", o.reference,
                 "sweep: one serial sweep checks each executor's; full: also the serial source "
                 "iteration, against which each executor's converged flux is checked; none")
      ->check(CLI::IsMember({"sweep", "full", "none"}))
      ->capture_default_str();
  app.add_option("--csv", o.csv, "results file (its folder is created)")
      ->check(apps::output_file())
      ->capture_default_str();
  app.add_option("--flux-out", o.flux_out,
                 "write each mesh's converged scalar flux to PREFIX_<cells>_g<groups>.phi")
      ->check(apps::output_file());
  app.add_option("--tuning-file", o.tuning_file, "exec::SweepAuto's decisions");
  apps::parse_or_exit(app, argc, argv);
  if (o.sigma_s >= o.sigma_t)
    fail("--sigma-s ", o.sigma_s, " must be below --sigma-t ", o.sigma_t);
  if (o.quadrature == "ls" && o.sn > 8)
    fail("--sn ", o.sn, ": the level-symmetric generator makes S2 to S8 (or --quadrature product)");
  return o;
}

int run(int &argc, char **argv) {
  const SweepBenchOptions o = parse(argc, argv);
  Kokkos::ScopeGuard guard(argc, argv);
  const bool host = detail::runs_on_host<Kokkos::DefaultExecutionSpace>();
  for (const std::string &e : o.executors)
    if (e == "serial" && !host)
      throw Error("--executors serial runs one GPU thread: use it in host builds");
  const Quadrature q = o.quadrature == "ls" ? level_symmetric(o.sn) : product_set(o.sn);
  if (const std::string why = check_quadrature(q); !why.empty()) {
    std::printf("quadrature check failed: %s\n", why.c_str());
    return apps::exit_check_failed;
  }
  apps::ResultFile csv(o.csv);
  std::printf("umesh sweep benchmark (umesh %s, git %s); device %s; %s, %d directions: weights "
              "sum to 4 pi, first moments vanish\n",
              UMESH_VERSION, UMESH_GIT_HASH, Kokkos::DefaultExecutionSpace::name(), q.name.c_str(),
              q.size());
  std::printf("%s\n", sweep_csv_header().c_str());
  csv << sweep_csv_header() << '\n';
  std::vector<std::string> sources = o.meshes;
  if (o.cube == 0 && o.meshes.empty())
    for (long n : o.tets)
      sources.push_back(gmsh_cube(n, o.side, o.mesh_dir, o.gmsh));
  if (o.cube > 0)
    sources.push_back("");
  std::vector<SweepBenchRow> rows;
  for (const std::string &source : sources) {
    Kokkos::Timer t;
    const BenchMesh mesh = source.empty() ? structured_cube(o.cube, o.side) : read_tet_mesh(source);
    const double read_s = t.seconds();
    t.reset();
    auto base =
        make_sweep_plan(Kokkos::DefaultExecutionSpace(), exec::SweepLevels{}, mesh.sweep, q.dirs);
    std::printf("# %s: %d tets, read in %.2f s; %s; uploaded in %.2f s\n", mesh.name.c_str(),
                mesh.cells.size(), read_s, base.schedule().summary().c_str(), t.seconds());
    std::fflush(stdout);
    for (int g : o.groups) {
      const std::size_t first = rows.size();
      if (g == 4)
        run_sweep_groups<4>(o, mesh, q, base, rows);
      else if (g == 16)
        run_sweep_groups<16>(o, mesh, q, base, rows);
      else
        run_sweep_groups<64>(o, mesh, q, base, rows);
      for (std::size_t i = first; i < rows.size(); ++i)
        csv << sweep_csv_row(rows[i]) << '\n';
    }
  }
  csv.commit();
  std::printf("wrote %s\n", apps::absolute_path(o.csv).c_str());
  int failed = 0, validated = 0;
  for (const SweepBenchRow &r : rows) {
    failed += r.status == "FAILED";
    validated += r.status == "ok";
  }
  if (failed > 0 || (validated == 0 && o.reference != "none")) {
    std::printf("%d rows failed validation, %d validated\n", failed, validated);
    return apps::exit_check_failed;
  }
  std::printf("every row validated against the serial reference sweep (%d rows)\n", validated);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return umesh::apps::run_main("umesh_sweep_bench", [&] { return run(argc, argv); });
}
