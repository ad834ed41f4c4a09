#ifndef UMESH_MINIAERO_BENCH_TABLE_HPP
#define UMESH_MINIAERO_BENCH_TABLE_HPP

// The benchmark table of umesh_miniaero --bench (miniaero_bench.csv): one
// row per variant, layout and reordering, with the face flux's bandwidth and
// the speedups over miniAero's own two strategies.

#include "problem.hpp"

#include <string>
#include <vector>

namespace umesh::apps {
class RunLock;
} // namespace umesh::apps

namespace miniaero {

/// Compulsory bytes of one face-flux call: every face's geometry and cell
/// pair once, every cell's inputs once, the flux read and written once.
double face_flux_bytes(const Input &in, const Mesh &m);

/// One row's medians (ms) and the face flux's bandwidth (GB/s).
struct BenchRow {
  std::string variant, layout, reorder;
  double face_flux_ms = 0, stage_ms = 0, gradient_ms = 0, minmax_ms = 0, limiter_ms = 0,
         apply_ms = 0, gbps = 0;
  std::string note;
};

/// Speedups of one row over miniAero's two variants; 0 where one was not run.
struct Ratios {
  double flux_atomic = 0, flux_cellflux = 0, stage_atomic = 0, stage_cellflux = 0;
};
Ratios ratios(const BenchRow &r, const std::vector<BenchRow> &rows);

/// Writes the whole table; called after every row, so that a run cut short
/// keeps what it measured. `held`: the run's lock of `path`.
void write_csv(const std::string &path, const std::vector<BenchRow> &rows, double copy_gbps,
               const umesh::apps::RunLock &held);

} // namespace miniaero

#endif
