// The solver's instantiations in one layout (common/app_instances.hpp says
// which executors and which part of the solver each object holds). CMake
// compiles this file once per object of umesh_app_executor_objects
// (CMakeLists.txt): the whole solver of every executor in one object per
// layout (few cores), of one executor in each, or, on many cores, one group
// of loops of every executor in each (UMESH_APP_PIECE_<group>): then
// exec::Auto's candidates and the executors' own solvers, in one process and
// over MPI ranks, share each loop's kernels, and the groups build in parallel.
#include "solver.hpp"

#include "common/app_instances.hpp"

#if !defined(UMESH_APP_PIECE) || !defined(UMESH_APP_PIECE_main)
#include "solver_loops.hpp"
#endif

namespace miniaero {
namespace {

using InstanceLayout = umesh::UMESH_APP_INSTANCE_LAYOUT;

template <class E>
[[maybe_unused]] std::unique_ptr<SolverBase> solver(bool distributed, const Input &in,
                                                    const Mesh &m, const SolverOptions &opt) {
  if (!distributed)
    return std::make_unique<Solver<E, InstanceLayout>>(in, m, opt, LocalBackend::parts(m));
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

#if !defined(UMESH_APP_PIECE) || defined(UMESH_APP_PIECE_main)
// The solver itself: make_umesh_solver's specialisation for each executor.
#define MINIAERO_SOLVER(E)                                                                         \
  template <>                                                                                      \
  std::unique_ptr<SolverBase> make_umesh_solver<umesh::exec::E, InstanceLayout>(                   \
      bool distributed, const Input &in, const Mesh &m, const SolverOptions &opt) {                \
    return solver<umesh::exec::E>(distributed, in, m, opt);                                        \
  }
UMESH_APP_EACH_EXECUTOR(MINIAERO_SOLVER)
#else
// One group of loops (solver_loops.hpp) of each executor and backend.
#define MINIAERO_MEMBER(E, B, ...)                                                                 \
  template void Solver<umesh::exec::E, InstanceLayout, B>::__VA_ARGS__;
#if defined(UMESH_APP_PIECE_gradient)
#define MINIAERO_PIECE(E, B) MINIAERO_MEMBER(E, B, gradient_loops())
#elif defined(UMESH_APP_PIECE_stencil)
#define MINIAERO_PIECE(E, B) MINIAERO_MEMBER(E, B, stencil_through_faces())
#elif defined(UMESH_APP_PIECE_limiter)
#define MINIAERO_PIECE(E, B) MINIAERO_MEMBER(E, B, limiter_through_faces())
#elif defined(UMESH_APP_PIECE_boundary)
#define MINIAERO_PIECE(E, B) MINIAERO_MEMBER(E, B, boundary_fluxes())
#elif defined(UMESH_APP_PIECE_flux_first_order)
#define MINIAERO_PIECE(E, B) MINIAERO_MEMBER(E, B, face_flux_first_order())
#elif defined(UMESH_APP_PIECE_flux_second_viscous)
#define MINIAERO_PIECE(E, B) MINIAERO_MEMBER(E, B, face_flux_with(const FaceFlux<true, true> &))
#elif defined(UMESH_APP_PIECE_flux_second)
#define MINIAERO_PIECE(E, B) MINIAERO_MEMBER(E, B, face_flux_with(const FaceFlux<true, false> &))
#elif defined(UMESH_APP_PIECE_flux_viscous)
#define MINIAERO_PIECE(E, B) MINIAERO_MEMBER(E, B, face_flux_with(const FaceFlux<false, true> &))
#else
#error "UMESH_APP_PIECE_<group> names no group of miniAero's loops (apps/miniaero/CMakeLists.txt)"
#endif
#define MINIAERO_BACKENDS(E) UMESH_APP_EACH_BACKEND(MINIAERO_PIECE, E)
UMESH_APP_EACH_EXECUTOR(MINIAERO_BACKENDS)
#endif

} // namespace miniaero
