// One executor's solver instantiations in one layout. CMake compiles this
// file once per executor and layout with MINIAERO_EXEC and
// MINIAERO_EXEC_LAYOUT set, so the heavy template instantiations build in
// parallel.
#include "solver.hpp"

#if !defined(MINIAERO_EXEC) || !defined(MINIAERO_EXEC_LAYOUT)
#error "MINIAERO_EXEC (an umesh::exec tag name) and MINIAERO_EXEC_LAYOUT (AoS, SoA) must be defined"
#endif

namespace miniaero {

template <>
std::unique_ptr<SolverBase>
make_umesh_solver<umesh::exec::MINIAERO_EXEC, umesh::MINIAERO_EXEC_LAYOUT>(
    bool distributed, const Input &in, const Mesh &m, const SolverOptions &opt) {
  using E = umesh::exec::MINIAERO_EXEC;
  using L = umesh::MINIAERO_EXEC_LAYOUT;
  if (distributed) {
#if defined(UMESH_APP_MPI)
    return std::make_unique<Solver<E, L, DistBackend>>(in, m, opt, DistBackend::parts(m));
#else
    umesh::detail::fail("umesh_miniaero was built without MPI: no distributed runs");
#endif
  }
  return std::make_unique<Solver<E, L>>(in, m, opt, LocalBackend::parts(m));
}

} // namespace miniaero
