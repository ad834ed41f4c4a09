// The solver's instantiations in one layout (common/app_instances.hpp says
// which executors and which part of the solver each object holds). CMake
// compiles this file once per object of umesh_app_executor_objects
// (CMakeLists.txt): the whole solver of every executor in one object per
// layout (few cores), of one executor in each, or, on many cores, one loop
// of every executor in each (UMESH_APP_PIECE_<loop>): then exec::Auto's
// candidates and the executors' own solvers, in one process and over MPI
// ranks, share each loop's kernels, and the loops build in parallel.
#include "solver.hpp"

#include "common/app_instances.hpp"

#if !defined(UMESH_APP_PIECE) || !defined(UMESH_APP_PIECE_main)
#include "solver_loops.hpp"
#endif

namespace lulesh {
namespace {

using InstanceLayout = umesh::UMESH_APP_INSTANCE_LAYOUT;

template <class E>
[[maybe_unused]] std::unique_ptr<SolverBase> solver(bool distributed, const Mesh &m,
                                                    const Params &p, const RunOptions &o) {
  if (!distributed)
    return std::make_unique<Solver<E, InstanceLayout>>(m, p, o, LocalBackend::parts(m));
#if defined(UMESH_APP_MPI)
  return std::make_unique<Solver<E, InstanceLayout, DistBackend>>(
      m, p, o,
      DistBackend::parts(m, o.nccl, umesh::dist::parse_owners(o.partition), o.timed_exchanges,
                         MPI_COMM_WORLD, o.consumable_mesh));
#else
  umesh::fail("umesh_lulesh was built without MPI: no distributed runs");
#endif
}

} // namespace

#if !defined(UMESH_APP_PIECE) || defined(UMESH_APP_PIECE_main)
// The solver itself: make_solver's specialisation for each executor.
#define LULESH_SOLVER(E)                                                                           \
  template <>                                                                                      \
  std::unique_ptr<SolverBase> make_solver<umesh::exec::E, InstanceLayout>(                         \
      bool distributed, const Mesh &m, const Params &p, const RunOptions &o) {                     \
    return solver<umesh::exec::E>(distributed, m, p, o);                                           \
  }
UMESH_APP_EACH_EXECUTOR(LULESH_SOLVER)
#else
// One loop (solver_loops.hpp) of each executor and backend.
#define LULESH_MEMBER(E, B, member)                                                                \
  template void Solver<umesh::exec::E, InstanceLayout, B>::member();
#if defined(UMESH_APP_PIECE_volume_forces)
#define LULESH_PIECE(E, B) LULESH_MEMBER(E, B, volume_forces)
#elif defined(UMESH_APP_PIECE_stress_forces)
#define LULESH_PIECE(E, B) LULESH_MEMBER(E, B, stress_forces)
#elif defined(UMESH_APP_PIECE_initial_mass)
#define LULESH_PIECE(E, B) LULESH_MEMBER(E, B, initial_mass)
#else
#error "UMESH_APP_PIECE_<loop> names no loop of LULESH's (apps/lulesh/CMakeLists.txt)"
#endif
#define LULESH_BACKENDS(E) UMESH_APP_EACH_BACKEND(LULESH_PIECE, E)
UMESH_APP_EACH_EXECUTOR(LULESH_BACKENDS)
#endif

} // namespace lulesh
