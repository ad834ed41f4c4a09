// One executor's solver instantiations (both layouts). CMake compiles this
// file once per executor with MINIAERO_EXEC set, so the heavy template
// instantiations build in parallel.
#include "solver.hpp"

#ifndef MINIAERO_EXEC
#error "MINIAERO_EXEC (an umesh::exec tag name) must be defined"
#endif

namespace miniaero {

template <>
std::unique_ptr<SolverBase>
make_umesh_solver<umesh::exec::MINIAERO_EXEC>(bool soa, bool distributed, const Input &in,
                                              const Mesh &m, const SolverOptions &opt) {
  using E = umesh::exec::MINIAERO_EXEC;
  if (distributed) {
#if defined(UMESH_MINIAERO_MPI)
    auto parts = DistBackend::parts(m);
    if (soa)
      return std::make_unique<Solver<E, umesh::SoA, DistBackend>>(in, m, opt, parts);
    return std::make_unique<Solver<E, umesh::AoS, DistBackend>>(in, m, opt, parts);
#else
    umesh::detail::fail("umesh_miniaero was built without MPI: no distributed runs");
#endif
  }
  auto parts = LocalBackend::parts(m);
  if (soa)
    return std::make_unique<Solver<E, umesh::SoA>>(in, m, opt, parts);
  return std::make_unique<Solver<E, umesh::AoS>>(in, m, opt, parts);
}

} // namespace miniaero
