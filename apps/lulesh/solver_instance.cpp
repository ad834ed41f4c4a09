// One executor's solver instantiations in one layout. CMake compiles this
// file once per executor and layout with LULESH_EXEC and LULESH_EXEC_LAYOUT
// set, so the heavy template instantiations build in parallel;
// LULESH_EXEC_PART says which halves: 0 both, 1 the solver in one process, 2
// the solver over MPI ranks (the heaviest executors' halves compile apart).
#include "solver.hpp"

#if !defined(LULESH_EXEC) || !defined(LULESH_EXEC_LAYOUT) || !defined(LULESH_EXEC_PART)
#error                                                                                             \
    "LULESH_EXEC (an umesh::exec tag name), LULESH_EXEC_LAYOUT (AoS, SoA) and LULESH_EXEC_PART (0, 1, 2) must be defined"
#endif

namespace lulesh {

using InstanceExec = umesh::exec::LULESH_EXEC;
using InstanceLayout = umesh::LULESH_EXEC_LAYOUT;

template <>
std::unique_ptr<SolverBase>
make_dist_solver<InstanceExec, InstanceLayout>(const Mesh &m, const Params &p, const RunOptions &o);

#if LULESH_EXEC_PART != 2
template <>
std::unique_ptr<SolverBase>
make_solver<InstanceExec, InstanceLayout>(bool distributed, const Mesh &m, const Params &p,
                                          const RunOptions &o) {
  if (distributed)
    return make_dist_solver<InstanceExec, InstanceLayout>(m, p, o);
  return std::make_unique<Solver<InstanceExec, InstanceLayout>>(m, p, o, LocalBackend::parts(m));
}
#endif

#if LULESH_EXEC_PART != 1
template <>
std::unique_ptr<SolverBase>
make_dist_solver<InstanceExec, InstanceLayout>([[maybe_unused]] const Mesh &m,
                                               [[maybe_unused]] const Params &p,
                                               [[maybe_unused]] const RunOptions &o) {
#if defined(UMESH_APP_MPI)
  return std::make_unique<Solver<InstanceExec, InstanceLayout, DistBackend>>(
      m, p, o, DistBackend::parts(m, o.nccl, umesh::dist::parse_owners(o.partition)));
#else
  umesh::detail::fail("umesh_lulesh was built without MPI: no distributed runs");
#endif
}
#endif

} // namespace lulesh
