// umesh main job: a res_calc-like edge kernel (2D), a face-flux-like kernel
// (3D), BookLeaf's getacc scatter (quads to nodes), Volna's
// SpaceDiscretization (triangle edges, single precision) and LULESH's
// IntegrateStressForElems (hexes to nodes) under every executor,
// layout and reordering, on generated
// meshes or a Gmsh file's (--mesh). Each run is validated against the serial
// reference, then timed (fenced, median after warm-up). Prints a table and
// writes umesh-results/results.csv (and the plan metrics beside it) under the
// current directory. Each kernel is a case_*.cpp (main_cases.hpp); main_run.hpp
// runs them.
//
//   umesh_main [--size tiny|small|large] [--nx N --ny N] [--n3 N] [--mesh FILE.msh]
//              [--executor atomic,gather,...] [--layout aos|soa|all]
//              [--kernel res_calc,face_flux,getacc,volna,integrate_stress]
//              [--repeats N] [--warmup N]
//              [--out DIR] [--csv FILE] [--kokkos-...]
#include "common/bandwidth.hpp"
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
  return run_main("umesh_main", [&] { return run(argc, argv); });
}

namespace {

int run(int &argc, char **argv) {
  // Options first: --help and a bad value answer before Kokkos starts (and
  // Kokkos 3 would print its own help for --help); sizes past umesh's
  // indices or this machine's memory too.
  const Options o = parse(argc, argv);
  check_sizes(o);
  Kokkos::ScopeGuard guard(argc, argv);
  // A results path that cannot be written fails now, not after the run; the
  // file is locked until the run ends, and the previous results stay until
  // the new ones are complete.
  ResultFile csv(o.csv);
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
        detail::fail("--kernel ", k, " runs on the generated ",
                     k == "volna" ? "triangle mesh only (its boundary edges and cell areas "
                                    "come from the generator)"
                                  : "hex mesh only",
                     ", not on --mesh ", o.mesh);
      else if ((k == "res_calc" && !fm->edges) || (k == "face_flux" && !fm->faces) ||
               (k == "getacc" && !fm->quads))
        detail::fail("--kernel ", k, ": mesh file '", o.mesh, "' has no ",
                     k == "res_calc"    ? "triangles or quads (or they bound 3D cells)"
                     : k == "face_flux" ? "tets or hexes"
                                        : "quads (or they bound 3D cells)");
  }
  const double copy_gbps = copy_bandwidth_gbps();
  std::printf(
      "device: %s; concurrency %d; copy bandwidth %.1f GB/s (device-to-device, read+write)\n",
      device.c_str(), Space().concurrency(), copy_gbps);

  std::vector<Row> rows;
  std::vector<PlanRow> plan_rows;
  auto wants_kernel = [&](const char *k) {
    return std::count(o.kernels.begin(), o.kernels.end(), k) > 0;
  };
  if (fm) {
    if (wants_kernel("res_calc") && fm->edges)
      run_res_calc(o, "res_calc/" + fm->name, *fm->edges, read_seconds, rows, plan_rows);
    if (wants_kernel("face_flux") && fm->faces)
      run_face_flux(o, "face_flux/" + fm->name, *fm->faces, read_seconds, rows, plan_rows);
    if (wants_kernel("getacc") && fm->quads)
      run_getacc(o, "getacc/" + fm->name, *fm->quads, read_seconds, rows, plan_rows);
  }
  for (const auto &numbering : o.mesh.empty() ? o.numberings : std::vector<std::string>{}) {
    const MeshOptions mo{numbering == "shuffled", 2024};
    // One kernel on this numbering: its mesh generated (and timed), then run.
    auto run_case = [&](const char *kernel, auto make_mesh, auto run) {
      if (!wants_kernel(kernel))
        return;
      Kokkos::Timer t;
      const auto m = make_mesh();
      run(o, std::string(kernel) + "/" + numbering, m, t.seconds(), rows, plan_rows);
    };
    run_case(
        "res_calc", [&] { return edge_flux_mesh(make_quad_mesh(o.nx, o.ny, mo), o.nx, o.ny); },
        run_res_calc);
    run_case(
        "face_flux", [&] { return face_flux_mesh(make_hex_mesh(o.n3, o.n3, o.n3, mo), o.n3); },
        run_face_flux);
    run_case(
        "getacc", [&] { return quad_node_mesh(make_quad_mesh(o.nx, o.ny, mo), o.nx, o.ny); },
        run_getacc);
    run_case(
        "integrate_stress",
        [&] { return hex_node_mesh(make_hex_mesh(o.n3, o.n3, o.n3, mo), o.n3); },
        run_integrate_stress);
    run_case(
        "volna", [&] { return volna_mesh(make_tri_mesh(o.nx, o.ny, mo), o.nx, o.ny); }, run_volna);
  }

  return report(o, rows, plan_rows, copy_gbps, csv);
}

} // namespace
