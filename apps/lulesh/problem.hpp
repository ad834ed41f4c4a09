#ifndef UMESH_LULESH_PROBLEM_HPP
#define UMESH_LULESH_PROBLEM_HPP

// LULESH 2.0's Sedov blast problem on one domain: the cube of hexes, its
// boundary conditions, material regions and constants, and the time-step
// control. Host-side; the solver (solver.hpp) moves it to the device.

#include <Kokkos_Macros.hpp>

#include <string>
#include <vector>

namespace lulesh {

/// LULESH's own options (-s, -i, -r, -b, -c, -p, -q).
struct Params {
  int size = 30;            ///< elements along each side of the cube
  int iterations = 9999999; ///< cycle limit (the run also stops at stoptime)
  int regions = 11;         ///< material regions
  int balance = 1;          ///< region size weights (i+1)^balance
  int cost = 1;             ///< extra EOS evaluations in the expensive regions
  bool progress = false;    ///< a line per cycle
  bool quiet = false;       ///< no report
};

/// Why `p` cannot run, or empty.
std::string params_problem(const Params &p);

/// LULESH's constants (hard-coded there as well).
struct Constants {
  double e_cut = 1.0e-7, p_cut = 1.0e-7, q_cut = 1.0e-7, v_cut = 1.0e-10, u_cut = 1.0e-7;
  double hgcoef = 3.0, ss4o3 = 4.0 / 3.0, qstop = 1.0e12;
  double monoq_max_slope = 1.0, monoq_limiter_mult = 2.0;
  double qlc_monoq = 0.5, qqc_monoq = 2.0 / 3.0, qqc = 2.0;
  double eosvmax = 1.0e9, eosvmin = 1.0e-9, pmin = 0.0, emin = -1.0e15;
  double dvovmax = 0.1, refdens = 1.0;
};

/// Face of an element in LULESH's logical directions; an element's
/// boundary flags hold two bits per face: symmetry plane or free surface.
enum Face { xi_minus, xi_plus, eta_minus, eta_plus, zeta_minus, zeta_plus };
KOKKOS_INLINE_FUNCTION constexpr int symmetry_flag(int face) {
  return 1 << (2 * face);
}
KOKKOS_INLINE_FUNCTION constexpr int free_flag(int face) {
  return 2 << (2 * face);
}

/// The cube of `size`^3 hexes, 1.125 on a side, corner at the origin.
struct Mesh {
  int size = 0, num_elems = 0, num_nodes = 0;
  std::vector<double> coords;            ///< [node][3]
  std::vector<int> elem_nodes;           ///< [elem][8], LULESH's node order
  std::vector<int> neighbours;           ///< [elem][6] across each Face; itself on the boundary
  std::vector<int> elem_bc;              ///< symmetry_flag / free_flag bits
  std::vector<int> node_symmetry;        ///< bit k: on the symmetry plane x_k = 0
  std::vector<std::vector<int>> regions; ///< element lists (non-empty ones)
  std::vector<int> region_reps;          ///< EOS evaluations per cycle of each region
};

/// Builds the mesh and its regions (LULESH's random region sizes, with a
/// fixed seed of our own: the regions only weigh the EOS work, never the
/// results).
Mesh make_mesh(const Params &p);

/// Time-step control, on the host (LULESH's TimeIncrement).
struct Clock {
  double time = 0, deltatime = 0, stoptime = 1.0e-2, dtmax = 1.0e-2, dtfixed = -1.0e-6;
  double dtcourant = 1.0e20, dthydro = 1.0e20, multlb = 1.1, multub = 1.2;
  int cycle = 0;
};

/// The initial energy deposited in element 0 for a `size`^3 problem.
double initial_energy(int size);

/// Chooses the next time step from the constraints and advances the clock.
void advance(Clock &c);

} // namespace lulesh

#endif
