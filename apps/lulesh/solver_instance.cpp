// One executor's solver instantiations in one layout. CMake compiles this
// file once per executor and layout with LULESH_EXEC and LULESH_EXEC_LAYOUT
// set, so the heavy template instantiations build in parallel.
#include "solver.hpp"

#if !defined(LULESH_EXEC) || !defined(LULESH_EXEC_LAYOUT)
#error "LULESH_EXEC (an umesh::exec tag name) and LULESH_EXEC_LAYOUT (AoS, SoA) must be defined"
#endif

namespace lulesh {

template <>
std::unique_ptr<SolverBase> make_solver<umesh::exec::LULESH_EXEC, umesh::LULESH_EXEC_LAYOUT>(
    bool distributed, const Mesh &m, const Params &p, const RunOptions &o) {
  using E = umesh::exec::LULESH_EXEC;
  using L = umesh::LULESH_EXEC_LAYOUT;
  if (distributed) {
#if defined(UMESH_APP_MPI)
    return std::make_unique<Solver<E, L, DistBackend>>(m, p, o, DistBackend::parts(m));
#else
    umesh::detail::fail("umesh_lulesh was built without MPI: no distributed runs");
#endif
  }
  return std::make_unique<Solver<E, L>>(m, p, o, LocalBackend::parts(m));
}

} // namespace lulesh
