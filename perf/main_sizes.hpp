#ifndef UMESH_PERF_MAIN_SIZES_HPP
#define UMESH_PERF_MAIN_SIZES_HPP

// The main job's sizes, checked before any mesh is built: counts past
// umesh's 32-bit indices, meshes a kernel would loop over nothing in, and
// runs past the memory this process may use.

#include "common/sizes.hpp"
#include "main_options.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

namespace umesh::perf {

/// Refuses generated meshes past umesh's 32-bit indices (umesh::Error),
/// meshes on which a kernel asked for would loop over nothing (it would
/// "validate"), naming the option and its minimum, and runs past the
/// memory this process may use (ResourceError). Sets the options an
/// out-of-memory message names.
inline void check_sizes(const Options &o) {
  if (!o.mesh.empty()) {
    apps::size_options() = {"--mesh " + o.mesh, "the mesh (a coarser --mesh file)"};
    return;
  }
  auto wants = [&](const char *k) { return std::count(o.kernels.begin(), o.kernels.end(), k) > 0; };
  const std::int64_t nx = o.nx, ny = o.ny, n3 = o.n3;
  const std::string flat = "--nx " + std::to_string(nx) + " --ny " + std::to_string(ny);
  const std::string cube = "--n3 " + std::to_string(n3);
  const bool flat_kernels = wants("res_calc") || wants("getacc") || wants("volna"),
             cube_kernels = wants("face_flux") || wants("integrate_stress");
  apps::set_size_options(flat_kernels && cube_kernels ? flat + " " + cube
                         : flat_kernels               ? flat
                                                      : cube);
  if (wants("res_calc"))
    apps::check_interior_edges(flat, nx, ny, "res_calc");
  if (wants("face_flux") && n3 == 1)
    throw Error(cube + ": face_flux loops over interior faces, and one hex has none (nothing "
                       "would be checked): give --n3 2 or more");
  // What the host holds at the peak of one kernel's run. Where the host
  // runs the kernels, its lightest run (--executor atomic --layout soa
  // --reorder none --numbering natural) measured, less a fifth: res_calc
  // 260 B an edge, getacc 670 B a quad, volna 365 B a triangle, face_flux
  // 770 B and integrate_stress 500 B a hex (g++ 12, 2 OpenMP threads, 3000^2
  // and 200^3); the mesh's own arrays were 5 to 10 times below those and
  // let runs through that the kernel then killed. Where a device runs them,
  // the host holds little more than the mesh: its arrays. The kernels run
  // one after another: the largest counts.
  constexpr bool host_runs =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                 Kokkos::DefaultExecutionSpace::memory_space>::accessible;
  std::int64_t bytes = 0;
  std::string largest, kernel;
  auto need = [&](const char *k, const std::string &given, std::int64_t measured,
                  std::int64_t arrays) {
    const std::int64_t b = host_runs ? measured : arrays;
    if (wants(k) && b > bytes)
      bytes = b, largest = given, kernel = k;
  };
  if (wants("res_calc") || wants("getacc")) {
    const std::int64_t nodes = (nx + 1) * (ny + 1), cells = nx * ny,
                       edges = (nx - 1) * ny + nx * (ny - 1);
    apps::check_counts(flat, {{"nodes", nodes},
                              {"cells", cells},
                              {"edges", edges},
                              {"cell-to-node map entries", 4 * cells},
                              {"edge-to-node map entries", 2 * edges}});
    need("res_calc", flat, 200 * edges, 16 * nodes + 16 * cells + 16 * edges);
    need("getacc", flat, 530 * cells, 16 * nodes + 16 * cells);
  }
  if (wants("volna")) {
    const std::int64_t cells = 2 * nx * ny, edges = 3 * nx * ny; // at most
    apps::check_counts(flat, {{"triangles", cells},
                              {"triangle edges (at most)", edges},
                              {"triangle-to-node map entries", 3 * cells},
                              {"edge-to-cell map entries", 2 * edges}});
    need("volna", flat, 290 * cells, 12 * cells + 40 * edges);
  }
  if (wants("face_flux") || wants("integrate_stress")) {
    const std::int64_t nodes = (n3 + 1) * (n3 + 1) * (n3 + 1), cells = n3 * n3 * n3,
                       faces = 3 * n3 * n3 * (n3 - 1);
    apps::check_counts(cube, {{"nodes", nodes},
                              {"hexes", cells},
                              {"faces", faces},
                              {"hex-to-node map entries", 8 * cells},
                              {"face-to-cell map entries", 2 * faces}});
    need("face_flux", cube, 610 * cells, 24 * nodes + 32 * cells + 32 * faces);
    need("integrate_stress", cube, 400 * cells, 24 * nodes + 32 * cells);
  }
  if (!kernel.empty())
    apps::check_memory(largest, bytes, "",
                       kernel + (host_runs ? "'s lightest run" : "'s mesh on the host"));
}

} // namespace umesh::perf

#endif
