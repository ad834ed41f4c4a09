// One user loop, the quickstart's six-argument edge loop, compiled under the
// executor UMESH_COMPILE_TIME_EXEC names (Atomic, WarpCombine, Hierarchical,
// HierarchicalAll, Auto with its default candidates, AutoAll with every
// executor): what a
// user pays in compile time for choosing that executor.
// perf/compile_time/run.sh compiles it once per executor and prints the
// seconds (issue 42).
#include <umesh/umesh.hpp>

#if !defined(UMESH_COMPILE_TIME_EXEC)
#error "UMESH_COMPILE_TIME_EXEC (an umesh::exec tag name) must be defined"
#endif

namespace {

struct EdgeFlux {
  template <class X, class Q, class R>
  KOKKOS_INLINE_FUNCTION void operator()(X x1, X x2, Q q1, Q q2, R r1, R r2) const {
    const double dx = x2(0) - x1(0), dy = x2(1) - x1(1);
    const double f = 0.5 * (q1(0) + q2(0)) * dx + dy;
    r1(0) += f;
    r2(0) -= f;
  }
};

} // namespace

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using Exec = umesh::exec::UMESH_COMPILE_TIME_EXEC;

/// The loop, with its plan; called by nobody (only its compile time counts).
void compile_time_loop(umesh::Plan<umesh::exec::plan_tag_t<Exec>, Space> &plan,
                       const umesh::Map<Mem> &pedge, const umesh::Map<Mem> &pecell,
                       const umesh::Dat<double, 2, umesh::AoS, Mem> &x,
                       const umesh::Dat<double, 1, umesh::AoS, Mem> &q,
                       const umesh::Dat<double, 1, umesh::AoS, Mem> &res) {
  umesh::par_loop(plan, Exec::Loop{}, "edge_flux", EdgeFlux{}, umesh::read(x, pedge, 0),
                  umesh::read(x, pedge, 1), umesh::read(q, pecell, 0), umesh::read(q, pecell, 1),
                  umesh::inc(res, pecell, 0), umesh::inc(res, pecell, 1));
}
