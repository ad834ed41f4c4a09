// One executor's solver instantiations in one layout. CMake compiles this
// file once per executor and layout with MINIAERO_EXEC and
// MINIAERO_EXEC_LAYOUT set, so the heavy template instantiations build in
// parallel; MINIAERO_EXEC_PART says which halves: 0 both, 1 the solver in one
// process, 2 the solver over MPI ranks (the heaviest executors' halves
// compile apart).
#include "solver.hpp"

#if !defined(MINIAERO_EXEC) || !defined(MINIAERO_EXEC_LAYOUT) || !defined(MINIAERO_EXEC_PART)
#error                                                                                             \
    "MINIAERO_EXEC (an umesh::exec tag name), MINIAERO_EXEC_LAYOUT (AoS, SoA) and MINIAERO_EXEC_PART (0, 1, 2) must be defined"
#endif

namespace miniaero {

using InstanceExec = umesh::exec::MINIAERO_EXEC;
using InstanceLayout = umesh::MINIAERO_EXEC_LAYOUT;

template <>
std::unique_ptr<SolverBase>
make_umesh_dist_solver<InstanceExec, InstanceLayout>(const Input &in, const Mesh &m,
                                                     const SolverOptions &opt);

#if MINIAERO_EXEC_PART != 2
template <>
std::unique_ptr<SolverBase>
make_umesh_solver<InstanceExec, InstanceLayout>(bool distributed, const Input &in, const Mesh &m,
                                                const SolverOptions &opt) {
  if (distributed)
    return make_umesh_dist_solver<InstanceExec, InstanceLayout>(in, m, opt);
  return std::make_unique<Solver<InstanceExec, InstanceLayout>>(in, m, opt, LocalBackend::parts(m));
}
#endif

#if MINIAERO_EXEC_PART != 1
template <>
std::unique_ptr<SolverBase>
make_umesh_dist_solver<InstanceExec, InstanceLayout>([[maybe_unused]] const Input &in,
                                                     [[maybe_unused]] const Mesh &m,
                                                     [[maybe_unused]] const SolverOptions &opt) {
#if defined(UMESH_APP_MPI)
  return std::make_unique<Solver<InstanceExec, InstanceLayout, DistBackend>>(
      in, m, opt,
      DistBackend::parts(m, opt.nccl, opt.timed_exchanges,
                         umesh::ReorderOptions{}
                             .with_method(opt.reorder)
                             .with_block_size(opt.hierarchical.block_size),
                         umesh::dist::parse_owners(opt.partition)));
#else
  umesh::detail::fail("umesh_miniaero was built without MPI: no distributed runs");
#endif
}
#endif

} // namespace miniaero
