// One executor's solver instantiations (both layouts). CMake compiles this
// file once per executor with LULESH_EXEC set, so the heavy template
// instantiations build in parallel.
#include "solver.hpp"

#ifndef LULESH_EXEC
#error "LULESH_EXEC (an umesh::exec tag name) must be defined"
#endif

namespace lulesh {

template <>
std::unique_ptr<SolverBase> make_solver<umesh::exec::LULESH_EXEC>(bool soa, const Mesh &m,
                                                                  const Params &p,
                                                                  const RunOptions &o) {
  using E = umesh::exec::LULESH_EXEC;
  if (soa)
    return std::make_unique<Solver<E, umesh::SoA>>(m, p, o);
  return std::make_unique<Solver<E, umesh::AoS>>(m, p, o);
}

} // namespace lulesh
