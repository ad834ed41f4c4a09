// umesh main job: a res_calc-like edge kernel (2D), a face-flux-like kernel
// (3D), BookLeaf's getacc scatter (quads to nodes), Volna's
// SpaceDiscretization (triangle edges, single precision) and LULESH's
// IntegrateStressForElems (hexes to nodes) under the executors, layouts and
// reorderings, on generated meshes or a Gmsh file's (--mesh). Each run is
// validated against the serial reference, then timed (fenced, median after
// warm-up). By default a quick run: the winning executors and variants timed
// (quick_defaults), then every other configuration of the sweep validated
// once on the tiny meshes; --full times the whole sweep. Prints a table and
// writes umesh-results/results.csv (and the plan metrics beside it) under the
// current directory; its last lines give the headline (best per kernel
// against atomics) and where the tables are. Each kernel is a case_*.cpp
// (main_cases.hpp); main_run.hpp runs them.
//
//   umesh_main [--full] [--size tiny|small|large] [--nx N --ny N] [--n3 N] [--mesh FILE.msh]
//              [--executor atomic,gather,...] [--layout aos|soa|all]
//              [--kernel res_calc,face_flux,getacc,volna,integrate_stress]
//              [--repeats N] [--warmup N]
//              [--out DIR] [--csv FILE] [--kokkos-...]
#include "common/bandwidth.hpp"
#include "common/kokkos_scope.hpp"
#include "common/output.hpp"
#include "common/run_main.hpp"
#include "main_cases.hpp"
#include "main_mesh.hpp"
#include "main_options.hpp"
#include "main_report.hpp"
#include "main_run.hpp"
#include "main_sizes.hpp"

#include <umesh/umesh.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace umesh;
using namespace umesh::perf;

namespace {
int run(int &argc, char **argv);
} // namespace

int main(int argc, char **argv) {
  return apps::run_main("umesh_main", [&] { return run(argc, argv); });
}

namespace {

int run(int &argc, char **argv) {
  main_elapsed(); // the progress lines' clock starts here
  // Options first: --help and a bad value answer before Kokkos starts (and
  // Kokkos 3 would print its own help for --help); sizes past umesh's
  // indices or this machine's memory too.
  const Passes passes = parse(argc, argv);
  const Options &o = passes.timed;
  check_sizes(o);
  umesh::apps::KokkosScope kokkos(argc, argv);
  // A results path that cannot be written fails now, not after the run; the
  // file is locked until the run ends, and the previous results stay until
  // the new ones are complete.
  apps::ResultFile csv(o.csv);
  // Its plans table too: one that cannot be written fails now, not after the
  // run (when it also lost results.csv).
  std::optional<apps::ResultFile> plans;
  if (!plans_csv(o.csv).empty())
    plans.emplace(plans_csv(o.csv));
  std::printf("umesh main job (git %s, Kokkos %d, execution space %s, C++%ld)\n", UMESH_GIT_HASH,
              KOKKOS_VERSION, Space::name(), __cplusplus / 100 - 2000);
  std::ostringstream config;
  Space().print_configuration(config, false);
  std::string device = Space::name();
#ifdef KOKKOS_ENABLE_CUDA
  {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
      device = prop.name;
  }
#endif
  // A mesh file is read, and checked against the kernels asked for, before
  // the copy bandwidth is measured: a bad file fails in milliseconds, not
  // after a second of copies.
  std::optional<FileMeshes> fm;
  double read_seconds = 0;
  if (!o.mesh.empty()) {
    Kokkos::Timer t;
    fm = read_file_meshes(o.mesh, GmshOptions().checks(!o.skip_mesh_checks));
    read_seconds = t.seconds();
    for (const auto &k : o.kernels_asked) // a kernel asked by name must fit the file
      if (k == "volna" || k == "integrate_stress")
        umesh::fail("--kernel ", k, " runs on the generated ",
                    k == "volna" ? "triangle mesh only (its boundary edges and cell areas "
                                   "come from the generator)"
                                 : "hex mesh only",
                    ", not on --mesh ", o.mesh);
      else if ((k == "res_calc" && !fm->edges) || (k == "face_flux" && !fm->faces) ||
               (k == "getacc" && !fm->quads))
        umesh::fail("--kernel ", k, ": mesh file '", o.mesh, "' has no ",
                    k == "res_calc"    ? "triangles or quads (or they bound 3D cells)"
                    : k == "face_flux" ? "tets or hexes"
                                       : "quads (or they bound 3D cells)");
  }
  const double copy_gbps = apps::copy_bandwidth_gbps();
  std::printf(
      "device: %s; concurrency %d; copy bandwidth %.1f GB/s (device-to-device, read+write)\n",
      device.c_str(), Space().concurrency(), copy_gbps);
  std::printf("%s\n", o.full ? "the full sweep (--full): every configuration timed"
                             : "a quick run: the winning executors and variants timed (--full "
                               "times every configuration)");
  std::fflush(stdout);

  // One pass over the kernels: the timed one, or the quick run's check.
  auto run_pass = [&](const Options &p, std::vector<Row> &rows, std::vector<PlanRow> &plan_rows) {
    auto wants_kernel = [&](const char *k) {
      return std::count(p.kernels.begin(), p.kernels.end(), k) > 0;
    };
    if (fm) {
      if (wants_kernel("res_calc") && fm->edges)
        run_res_calc(p, "res_calc/" + fm->name, *fm->edges, read_seconds, rows, plan_rows);
      if (wants_kernel("face_flux") && fm->faces)
        run_face_flux(p, "face_flux/" + fm->name, *fm->faces, read_seconds, rows, plan_rows);
      if (wants_kernel("getacc") && fm->quads)
        run_getacc(p, "getacc/" + fm->name, *fm->quads, read_seconds, rows, plan_rows);
    }
    for (const auto &numbering : p.mesh.empty() ? p.numberings : std::vector<std::string>{}) {
      const MeshOptions mo{numbering == "shuffled", 2024};
      // One kernel on this numbering: its mesh generated (and timed), then run.
      auto run_case = [&](const char *kernel, auto make_mesh, auto run) {
        if (!wants_kernel(kernel))
          return;
        Kokkos::Timer t;
        const auto m = make_mesh();
        run(p, std::string(kernel) + "/" + numbering, m, t.seconds(), rows, plan_rows);
        std::fflush(stdout);
      };
      run_case(
          "res_calc", [&] { return edge_flux_mesh(make_quad_mesh(p.nx, p.ny, mo), p.nx, p.ny); },
          run_res_calc);
      run_case(
          "face_flux", [&] { return face_flux_mesh(make_hex_mesh(p.n3, p.n3, p.n3, mo), p.n3); },
          run_face_flux);
      run_case(
          "getacc", [&] { return quad_node_mesh(make_quad_mesh(p.nx, p.ny, mo), p.nx, p.ny); },
          run_getacc);
      run_case(
          "integrate_stress",
          [&] { return hex_node_mesh(make_hex_mesh(p.n3, p.n3, p.n3, mo), p.n3); },
          run_integrate_stress);
      run_case(
          "volna", [&] { return volna_mesh(make_tri_mesh(p.nx, p.ny, mo), p.nx, p.ny); },
          run_volna);
    }
  };

  std::vector<Row> rows;
  std::vector<PlanRow> plan_rows;
  run_pass(o, rows, plan_rows);

  // The quick run's check: every configuration of the full sweep (as the
  // options narrow it) validated once, on the tiny meshes; its rows are not
  // timings and stay out of the tables.
  std::vector<std::string> closing;
  bool check_failed = false;
  if (passes.check) {
    const Options &c = *passes.check;
    std::printf("\n[%4.0f s] check: every configuration of the full sweep validated once%s\n",
                main_elapsed(),
                c.mesh.empty() ? " on the tiny meshes (--full times them)" : " on the file's mesh");
    std::fflush(stdout);
    std::vector<Row> check_rows;
    std::vector<PlanRow> check_plans;
    run_pass(c, check_rows, check_plans);
    int validated = 0, not_run = 0;
    std::vector<std::string> failed;
    for (const auto &r : check_rows)
      if (std::isnan(r.time_ms))
        ++not_run;
      else if (r.max_rel_err < r.tolerance && r.note.find("INCOMPLETE") == std::string::npos)
        ++validated;
      else
        failed.push_back(r.kernel + " " + r.executor + " " + r.layout + " " + r.reorder +
                         " block " + std::to_string(r.block_size) + ": max_rel_err " +
                         std::to_string(r.max_rel_err) + " " + r.note);
    for (const auto &f : failed)
      std::printf("check FAILED VALIDATION: %s\n", f.c_str());
    check_failed = !failed.empty();
    char line[400];
    std::snprintf(
        line, sizeof line,
        "check: %d configurations (every executor, variant, layout, numbering and "
        "reordering of the full sweep) %s %s%s (job done at %.0f s)",
        validated + int(failed.size()),
        failed.empty() ? "validated against the serial reference" : "run, SOME FAILED VALIDATION",
        c.mesh.empty() ? "on the tiny meshes" : "on the file's mesh",
        not_run ? (", " + std::to_string(not_run) + " did not fit this device").c_str() : "",
        main_elapsed());
    closing.push_back(line);
  }
  const int status = report(o, rows, plan_rows, copy_gbps, csv, plans ? &*plans : nullptr, closing);
  return status == apps::exit_ok && check_failed ? apps::exit_check_failed : status;
}

} // namespace
