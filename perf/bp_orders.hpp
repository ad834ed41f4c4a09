#ifndef UMESH_PERF_BP_ORDERS_HPP
#define UMESH_PERF_BP_ORDERS_HPP

// umesh_bp_bench's work per order p, compiled one order per object
// (perf/bp_order.cpp, built four times): each order's kernels under every
// strategy are many, and four files compile in parallel.

#include "bp_mesh.hpp"
#include "bp_report.hpp"

#include <vector>

namespace umesh::perf {

/// The checks of order P - 1 (bp_checks.hpp); returns how many failed.
template <int P> int check_bp(const BpMeshOptions &mesh);
/// The timed rows of order P - 1 at about `target` nodes (bp_bench_run.hpp).
template <int P>
void run_bp(const BpOptions &o, long target, double copy, std::vector<BpRow> &rows);

inline int check_order(int p, const BpMeshOptions &mesh) {
  switch (p) {
  case 1:
    return check_bp<2>(mesh);
  case 2:
    return check_bp<3>(mesh);
  case 3:
    return check_bp<4>(mesh);
  default:
    return check_bp<5>(mesh);
  }
}

inline void run_order(const BpOptions &o, int p, long target, double copy,
                      std::vector<BpRow> &rows) {
  switch (p) {
  case 1:
    return run_bp<2>(o, target, copy, rows);
  case 2:
    return run_bp<3>(o, target, copy, rows);
  case 3:
    return run_bp<4>(o, target, copy, rows);
  default:
    return run_bp<5>(o, target, copy, rows);
  }
}

} // namespace umesh::perf

#endif
