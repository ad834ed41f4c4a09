#ifndef UMESH_MINIAERO_FIELDS_HPP
#define UMESH_MINIAERO_FIELDS_HPP

// miniAero's result fields (--output, apps/common/field_output.hpp): density,
// velocity, pressure and total energy per cell, on the hexes of the cells
// this rank owns.

#include "problem.hpp"
#include "solver.hpp"

#include "common/field_output.hpp"

#include <optional>
#include <vector>

namespace miniaero {

/// The hexes of cells `cells` (original numbers) of the mesh of `in`, each
/// node they use once.
umesh::OutputGrid cell_grid(const Input &in, const std::vector<int> &cells);

/// Density, velocity, pressure and energy (rho E) of conservative states
/// [cell][5].
umesh::OutputStep cell_fields(const std::vector<double> &u);

/// Follows one run: writes the states --output-every asks for.
class FieldOutput {
public:
  /// Checks the output folder and files (collective; throws before the run).
  FieldOutput(const umesh::apps::FieldOutputOptions &o, const Input &in, int rank, int ranks)
      : in_(in), writer_(o, "miniaero", rank, ranks), options_(o) {}
  /// After step `step` of the run (0: the initial state).
  void after_step(int step, const SolverBase &solver);
  void finish() { writer_.finish(); }

private:
  Input in_;
  umesh::apps::FieldWriter writer_;
  umesh::apps::FieldOutputOptions options_;
  std::optional<umesh::OutputGrid> grid_; // built at the first write
};

} // namespace miniaero

#endif
