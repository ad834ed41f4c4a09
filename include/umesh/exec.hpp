#ifndef UMESH_EXEC_HPP
#define UMESH_EXEC_HPP

// Executors: empty tag types that pick how `par_loop` avoids races when
// several elements increment the same point.

namespace umesh::exec {

/// Reference: one thread, element order. Slow, exact, the baseline of tests.
struct Serial {
  static constexpr const char *name = "serial";
};
/// One thread per element; increments with Kokkos::atomic_add.
struct Atomic {
  static constexpr const char *name = "atomic";
};
/// Two steps: the kernel writes increments to a temporary
/// `[element][slot][component]` array; a second kernel sums them per point
/// over the inverse map (miniAero's apply_cell_flux, LULESH's fx_elem).
struct Gather {
  static constexpr const char *name = "gather";
};
/// Greedy colouring of elements (no two elements of one colour write one
/// point); one launch per colour, plain increments.
struct GlobalColour {
  static constexpr const char *name = "colour";
};
/// Kokkos::Experimental::ScatterView with the backend's default strategy
/// (duplicated copies on OpenMP, atomics on CUDA, plain on Serial).
struct ScatterView {
  static constexpr const char *name = "scatterview";
};

} // namespace umesh::exec

#endif
