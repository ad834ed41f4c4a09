// miniAero's atomic and cell-flux variants, compiled on their own.
#include "reference.hpp"

namespace miniaero {

std::unique_ptr<SolverBase> make_reference_solver(bool atomic, const Input &in, const Mesh &m) {
  if (atomic)
    return std::make_unique<MiniAeroReference<true>>(in, m);
  return std::make_unique<MiniAeroReference<false>>(in, m);
}

} // namespace miniaero
