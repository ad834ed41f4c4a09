// Executors' solver instantiations in one layout. CMake compiles this file
// once per object of umesh_app_executor_objects (CMakeLists.txt) with
// MINIAERO_EXEC_LAYOUT (AoS, SoA), MINIAERO_EXEC_PART (0 both halves, 1 the
// solver in one process, 2 the solver over MPI ranks) and either
// MINIAERO_EXEC (one executor tag, so that the heavy instantiations build in
// parallel on many cores) or MINIAERO_EXEC_ALL (every executor the build
// keeps, UMESH_APP_GROUP_INSTANCES: on few cores one file is cheaper, since
// exec::Auto's solver instantiates the other executors' loops anyway).
#include "solver.hpp"

#if (!defined(MINIAERO_EXEC) && !defined(MINIAERO_EXEC_ALL)) || !defined(MINIAERO_EXEC_LAYOUT) ||  \
    !defined(MINIAERO_EXEC_PART)
#error                                                                                             \
    "MINIAERO_EXEC (an umesh::exec tag name) or MINIAERO_EXEC_ALL, MINIAERO_EXEC_LAYOUT (AoS, SoA) and MINIAERO_EXEC_PART (0, 1, 2) must be defined"
#endif

namespace miniaero {
namespace {

using InstanceLayout = umesh::MINIAERO_EXEC_LAYOUT;

// make_umesh_solver's two halves for executor E.
template <class E>
[[maybe_unused]] std::unique_ptr<SolverBase> local_solver(bool distributed, const Input &in,
                                                          const Mesh &m, const SolverOptions &opt) {
  if (distributed)
    return make_umesh_dist_solver<E, InstanceLayout>(in, m, opt);
  return std::make_unique<Solver<E, InstanceLayout>>(in, m, opt, LocalBackend::parts(m));
}

template <class E>
[[maybe_unused]] std::unique_ptr<SolverBase>
dist_solver([[maybe_unused]] const Input &in, [[maybe_unused]] const Mesh &m,
            [[maybe_unused]] const SolverOptions &opt) {
#if defined(UMESH_APP_MPI)
  return std::make_unique<Solver<E, InstanceLayout, DistBackend>>(
      in, m, opt,
      DistBackend::parts(m, opt.nccl, opt.timed_exchanges,
                         umesh::ReorderOptions{}
                             .with_method(opt.reorder)
                             .with_block_size(opt.hierarchical.block_size),
                         // blocks: each rank's own part of the mesh, dealt by the mesh
                         // itself (Mesh::part); no owners to choose
                         opt.partition == "blocks" ? umesh::dist::Owners::slabs
                                                   : umesh::dist::parse_owners(opt.partition)));
#else
  umesh::fail("umesh_miniaero was built without MPI: no distributed runs");
#endif
}

} // namespace

// The specialisations this object defines for executor tag E (the halves
// MINIAERO_EXEC_PART asks for).
#define MINIAERO_DECLARE(E)                                                                        \
  template <>                                                                                      \
  std::unique_ptr<SolverBase> make_umesh_dist_solver<umesh::exec::E, InstanceLayout>(              \
      const Input &in, const Mesh &m, const SolverOptions &opt);
#if MINIAERO_EXEC_PART != 2
#define MINIAERO_LOCAL(E)                                                                          \
  template <>                                                                                      \
  std::unique_ptr<SolverBase> make_umesh_solver<umesh::exec::E, InstanceLayout>(                   \
      bool distributed, const Input &in, const Mesh &m, const SolverOptions &opt) {                \
    return local_solver<umesh::exec::E>(distributed, in, m, opt);                                  \
  }
#else
#define MINIAERO_LOCAL(E)
#endif
#if MINIAERO_EXEC_PART != 1
#define MINIAERO_DIST(E)                                                                           \
  template <>                                                                                      \
  std::unique_ptr<SolverBase> make_umesh_dist_solver<umesh::exec::E, InstanceLayout>(              \
      const Input &in, const Mesh &m, const SolverOptions &opt) {                                  \
    return dist_solver<umesh::exec::E>(in, m, opt);                                                \
  }
#else
#define MINIAERO_DIST(E)
#endif
#define MINIAERO_INSTANCE(E) MINIAERO_DECLARE(E) MINIAERO_LOCAL(E) MINIAERO_DIST(E)

#if defined(MINIAERO_EXEC_ALL) // every executor tag the build keeps (common/app_built.hpp)
#if !defined(UMESH_APP_WITHOUT_Auto)
MINIAERO_INSTANCE(AutoAll) // CMake's Auto: common/app_built.hpp
#endif
#if !defined(UMESH_APP_WITHOUT_Hierarchical)
MINIAERO_INSTANCE(Hierarchical)
#endif
#if !defined(UMESH_APP_WITHOUT_WarpCombine)
MINIAERO_INSTANCE(WarpCombine)
#endif
#if !defined(UMESH_APP_WITHOUT_Segmented)
MINIAERO_INSTANCE(Segmented)
#endif
#if !defined(UMESH_APP_WITHOUT_ScatterView)
MINIAERO_INSTANCE(ScatterView)
#endif
#if !defined(UMESH_APP_WITHOUT_GlobalColour)
MINIAERO_INSTANCE(GlobalColour)
#endif
#if !defined(UMESH_APP_WITHOUT_Gather)
MINIAERO_INSTANCE(Gather)
#endif
#if !defined(UMESH_APP_WITHOUT_Atomic)
MINIAERO_INSTANCE(Atomic)
#endif
#if !defined(UMESH_APP_WITHOUT_Serial)
MINIAERO_INSTANCE(Serial)
#endif
#else
MINIAERO_INSTANCE(MINIAERO_EXEC)
#endif

} // namespace miniaero
