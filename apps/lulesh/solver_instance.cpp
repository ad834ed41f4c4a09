// Executors' solver instantiations in one layout. CMake compiles this file
// once per object of umesh_app_executor_objects (CMakeLists.txt) with
// LULESH_EXEC_LAYOUT (AoS, SoA), LULESH_EXEC_PART (0 both halves, 1 the
// solver in one process, 2 the solver over MPI ranks) and either
// LULESH_EXEC (one executor tag, so that the heavy instantiations build in
// parallel on many cores) or LULESH_EXEC_ALL (every executor the build
// keeps, UMESH_APP_GROUP_INSTANCES: on few cores one file is cheaper, since
// exec::Auto's solver instantiates the other executors' loops anyway).
#include "solver.hpp"

#if (!defined(LULESH_EXEC) && !defined(LULESH_EXEC_ALL)) || !defined(LULESH_EXEC_LAYOUT) ||        \
    !defined(LULESH_EXEC_PART)
#error                                                                                             \
    "LULESH_EXEC (an umesh::exec tag name) or LULESH_EXEC_ALL, LULESH_EXEC_LAYOUT (AoS, SoA) and LULESH_EXEC_PART (0, 1, 2) must be defined"
#endif

namespace lulesh {
namespace {

using InstanceLayout = umesh::LULESH_EXEC_LAYOUT;

// make_solver's two halves for executor E.
template <class E>
[[maybe_unused]] std::unique_ptr<SolverBase> local_solver(bool distributed, const Mesh &m,
                                                          const Params &p, const RunOptions &o) {
  if (distributed)
    return make_dist_solver<E, InstanceLayout>(m, p, o);
  return std::make_unique<Solver<E, InstanceLayout>>(m, p, o, LocalBackend::parts(m));
}

template <class E>
[[maybe_unused]] std::unique_ptr<SolverBase> dist_solver([[maybe_unused]] const Mesh &m,
                                                         [[maybe_unused]] const Params &p,
                                                         [[maybe_unused]] const RunOptions &o) {
#if defined(UMESH_APP_MPI)
  return std::make_unique<Solver<E, InstanceLayout, DistBackend>>(
      m, p, o,
      DistBackend::parts(m, o.nccl, umesh::dist::parse_owners(o.partition), o.timed_exchanges));
#else
  umesh::fail("umesh_lulesh was built without MPI: no distributed runs");
#endif
}

} // namespace

// The specialisations this object defines for executor tag E (the halves
// LULESH_EXEC_PART asks for).
#define LULESH_DECLARE(E)                                                                          \
  template <>                                                                                      \
  std::unique_ptr<SolverBase> make_dist_solver<umesh::exec::E, InstanceLayout>(                    \
      const Mesh &m, const Params &p, const RunOptions &o);
#if LULESH_EXEC_PART != 2
#define LULESH_LOCAL(E)                                                                            \
  template <>                                                                                      \
  std::unique_ptr<SolverBase> make_solver<umesh::exec::E, InstanceLayout>(                         \
      bool distributed, const Mesh &m, const Params &p, const RunOptions &o) {                     \
    return local_solver<umesh::exec::E>(distributed, m, p, o);                                     \
  }
#else
#define LULESH_LOCAL(E)
#endif
#if LULESH_EXEC_PART != 1
#define LULESH_DIST(E)                                                                             \
  template <>                                                                                      \
  std::unique_ptr<SolverBase> make_dist_solver<umesh::exec::E, InstanceLayout>(                    \
      const Mesh &m, const Params &p, const RunOptions &o) {                                       \
    return dist_solver<umesh::exec::E>(m, p, o);                                                   \
  }
#else
#define LULESH_DIST(E)
#endif
#define LULESH_INSTANCE(E) LULESH_DECLARE(E) LULESH_LOCAL(E) LULESH_DIST(E)

#if defined(LULESH_EXEC_ALL) // every executor tag the build keeps (common/app_built.hpp)
#if !defined(UMESH_APP_WITHOUT_Auto)
LULESH_INSTANCE(AutoAll) // CMake's Auto: common/app_built.hpp
#endif
#if !defined(UMESH_APP_WITHOUT_Hierarchical)
LULESH_INSTANCE(Hierarchical)
#endif
#if !defined(UMESH_APP_WITHOUT_WarpCombine)
LULESH_INSTANCE(WarpCombine)
#endif
#if !defined(UMESH_APP_WITHOUT_Segmented)
LULESH_INSTANCE(Segmented)
#endif
#if !defined(UMESH_APP_WITHOUT_ScatterView)
LULESH_INSTANCE(ScatterView)
#endif
#if !defined(UMESH_APP_WITHOUT_GlobalColour)
LULESH_INSTANCE(GlobalColour)
#endif
#if !defined(UMESH_APP_WITHOUT_Gather)
LULESH_INSTANCE(Gather)
#endif
#if !defined(UMESH_APP_WITHOUT_Atomic)
LULESH_INSTANCE(Atomic)
#endif
#if !defined(UMESH_APP_WITHOUT_Serial)
LULESH_INSTANCE(Serial)
#endif
#else
LULESH_INSTANCE(LULESH_EXEC)
#endif

} // namespace lulesh
