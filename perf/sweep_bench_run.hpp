#ifndef UMESH_PERF_SWEEP_BENCH_RUN_HPP
#define UMESH_PERF_SWEEP_BENCH_RUN_HPP

// The sweep benchmark's options, rows and measurement of one mesh at one
// group count (compiled once per count: sweep_bench_groups.cpp).

#include "sweep_bench_mesh.hpp"
#include "sweep_bench_problem.hpp"
#include "sweep_quadrature.hpp"

#include <umesh/sweep.hpp>

#include <string>
#include <vector>

namespace umesh::perf {

/// The group counts the benchmark is compiled for (a source term per group
/// is a dat of that many components).
inline const std::vector<int> &sweep_group_counts() {
  static const std::vector<int> counts{4, 16, 64};
  return counts;
}

struct SweepBenchOptions {
  std::vector<long> tets{100000, 700000};
  std::vector<std::string> meshes; ///< .msh files instead of generated cubes
  int cube = 0;                    ///< structured n^3 x 6 tets instead
  std::string mesh_dir = "sweep_meshes", gmsh = "gmsh";
  double side = 100;
  std::string quadrature = "ls";
  int sn = 8;
  std::vector<int> groups{16, 64};
  std::vector<std::string> layouts{"aos"};
  std::vector<std::string> executors{"levels", "teams", "flow", "auto"};
  double sigma_t = 10, sigma_s = 5, tolerance = 1e-8;
  int max_iterations = 200, repeats = 5;
  std::string reference = "sweep"; ///< sweep, full or none
  std::string csv = "sweep_bench.csv", flux_out, tuning_file;
};

struct SweepBenchRow {
  std::string mesh, layout, executor, choice, status;
  long cells = 0;
  int directions = 0, groups = 0, levels = 0, iterations = 0;
  long long lagged = 0;
  double sweep_ms = 0, grind_ns = 0, updates_per_s = 0, vs_levels = 0, residual = 0, hat_l2 = 0,
         ref_error = 0, agree = 0;
};

/// Every executor of `o` on `mesh` (through `base`, the mesh's plan) with
/// G groups in each layout: one sweep validated against the serial
/// reference, the median of o.repeats sweeps, then source iteration to
/// o.tolerance. Rows go to `rows` (printed as they come).
template <int G>
void run_sweep_groups(const SweepBenchOptions &o, const BenchMesh &mesh, const Quadrature &q,
                      SweepPlan<exec::SweepLevels> &base, std::vector<SweepBenchRow> &rows);

std::string sweep_csv_header();
std::string sweep_csv_row(const SweepBenchRow &r);

} // namespace umesh::perf

#endif
