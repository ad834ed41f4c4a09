#ifndef UMESH_LULESH_SOLVER_LOOPS_HPP
#define UMESH_LULESH_SOLVER_LOOPS_HPP

// The solver's loops under its executor, the element-to-node scatters
// (solver.hpp declares them). Apart from the class, so that a build on many
// cores compiles them in files of their own, every executor's kernels of one
// loop in each (solver_instance.cpp): exec::Auto's candidates and the
// executors' own solvers then share their kernels, and no one file holds
// every loop.

#include "solver.hpp"

namespace lulesh {

// read, write, inc, ... unqualified: found by argument-dependent lookup in
// umesh or umesh::dist, whichever the dats belong to.

// Element volumes and masses; each node gets an eighth of its elements'.
template <class Exec, class Layout, class B> void Solver<Exec, Layout, B>::initial_mass() {
  scatter("initial_mass", InitialMass{}, read_x(0), read_x(1), read_x(2), read_x(3), read_x(4),
          read_x(5), read_x(6), read_x(7), write(volo_), write(elem_mass_),
          inc_node(nodal_mass_, 0), inc_node(nodal_mass_, 1), inc_node(nodal_mass_, 2),
          inc_node(nodal_mass_, 3), inc_node(nodal_mass_, 4), inc_node(nodal_mass_, 5),
          inc_node(nodal_mass_, 6), inc_node(nodal_mass_, 7));
}

// Stress and hourglass forces (LULESH's hourglass coefficient above 0).
template <class Exec, class Layout, class B> void Solver<Exec, Layout, B>::volume_forces() {
  scatter("forces", VolumeForces{constants_.hgcoef}, read(p_), read(q_), read(volo_), read(v_),
          read(ss_), read(elem_mass_), write(determ_), read_x(0), read_x(1), read_x(2), read_x(3),
          read_x(4), read_x(5), read_x(6), read_x(7), read_xd(0), read_xd(1), read_xd(2),
          read_xd(3), read_xd(4), read_xd(5), read_xd(6), read_xd(7), inc_node(force_, 0),
          inc_node(force_, 1), inc_node(force_, 2), inc_node(force_, 3), inc_node(force_, 4),
          inc_node(force_, 5), inc_node(force_, 6), inc_node(force_, 7),
          umesh::reduce_min(det_min_));
}

// Stress forces alone.
template <class Exec, class Layout, class B> void Solver<Exec, Layout, B>::stress_forces() {
  scatter("forces", StressForces{}, read(p_), read(q_), write(determ_), read_x(0), read_x(1),
          read_x(2), read_x(3), read_x(4), read_x(5), read_x(6), read_x(7), inc_node(force_, 0),
          inc_node(force_, 1), inc_node(force_, 2), inc_node(force_, 3), inc_node(force_, 4),
          inc_node(force_, 5), inc_node(force_, 6), inc_node(force_, 7),
          umesh::reduce_min(det_min_));
}

} // namespace lulesh

#endif
