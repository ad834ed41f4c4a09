// One order of umesh_bp_bench (bp_orders.hpp): compiled once per p with
// UMESH_BP_P=p (perf/CMakeLists.txt).
#include "bp_bench_run.hpp"
#include "bp_checks.hpp"
#include "bp_orders.hpp"

#ifndef UMESH_BP_P
#error "perf/bp_order.cpp is compiled with UMESH_BP_P=1, 2, 3 or 4"
#endif

namespace umesh::perf {

template <int P> int check_bp(const BpMeshOptions &mesh) {
  return BpChecks<P>(mesh).run();
}

template <int P>
void run_bp(const BpOptions &o, long target, double copy, std::vector<BpRow> &rows) {
  run_size<P>(o, target, copy, rows);
}

template int check_bp<UMESH_BP_P + 1>(const BpMeshOptions &);
template void run_bp<UMESH_BP_P + 1>(const BpOptions &, long, double, std::vector<BpRow> &);

} // namespace umesh::perf
