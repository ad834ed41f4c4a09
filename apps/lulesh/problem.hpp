#ifndef UMESH_LULESH_PROBLEM_HPP
#define UMESH_LULESH_PROBLEM_HPP

// LULESH 2.0's Sedov blast problem on one domain: the cube of hexes, its
// boundary conditions, material regions and constants, and the time-step
// control. Host-side; the solver (solver.hpp) moves it to the device.

#include <Kokkos_Macros.hpp>

#include <umesh/partition.hpp>

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

/// The cube of `size`^3 hexes, 1.125 on a side, corner at the origin; or one
/// rank's part of it (`part` set): then the per-element arrays hold only the
/// rank's elements and the per-node arrays only the nodes it owns (those
/// whose lowest-numbered element it holds), in global order; every index in
/// them stays global. A z-slab (make_mesh_part) holds the ranges [elem_lo,
/// elem_hi) and [node_lo, node_hi); any other part (make_mesh_elements) the
/// ids in `elem_ids` and `node_ids`.
struct Mesh {
  int size = 0, num_elems = 0, num_nodes = 0; ///< the whole mesh's
  bool part = false;
  int elem_lo = 0, elem_hi = 0;          ///< elements the arrays hold (global ids)
  int node_lo = 0, node_hi = 0;          ///< nodes the arrays hold (global ids)
  int plane_lo = 0, plane_hi = 0;        ///< their z-planes of elements
  std::vector<int> elem_ids, node_ids;   ///< or these, ascending (make_mesh_elements)
  std::vector<double> coords;            ///< [node][3]
  std::vector<int> elem_nodes;           ///< [elem][8], LULESH's node order
  std::vector<int> neighbours;           ///< [elem][6] across each Face; itself on the boundary
  std::vector<int> elem_bc;              ///< symmetry_flag / free_flag bits
  std::vector<int> node_symmetry;        ///< bit k: on the symmetry plane x_k = 0
  std::vector<std::vector<int>> regions; ///< element lists (global ids), of the regions
                                         ///< that are non-empty in the whole mesh
  std::vector<int> region_reps;          ///< EOS evaluations per cycle of each region
};

/// Builds the mesh and its regions (LULESH's random region sizes, with a
/// fixed seed of our own: the regions only weigh the EOS work, never the
/// results), in slabs of planes on up to `threads` host threads.
Mesh make_mesh(const Params &p, int threads = 1);

/// The z-planes of elements [lo, hi) that rank `rank` of `ranks` owns when
/// the cube is dealt in contiguous slabs of planes; fails when there are
/// more ranks than planes.
void slab_planes(int size, int rank, int ranks, int &lo, int &hi);

/// Rank `rank`'s part of make_mesh's mesh when the cube is dealt in z-slabs
/// (slab_planes): the slab's elements with their nodes (global ids), the
/// nodes it owns (those whose lowest-numbered element is in the slab: node
/// planes lo+1 .. hi, and plane 0 on the first slab) with their coordinates
/// and flags, and its elements of each region, the same as make_mesh's.
Mesh make_mesh_part(const Params &p, int rank, int ranks, int threads = 1);

/// A part of make_mesh's mesh holding the elements `elem_ids` (global ids,
/// any order; kept ascending) and the nodes whose lowest-numbered element
/// is among them, with their values and regions as make_mesh's: what a rank
/// builds once a partitioner has dealt it those elements.
Mesh make_mesh_elements(const Params &p, std::vector<int> elem_ids, int threads = 1);

/// Rows [first, last) of the mesh's element graph (two elements adjacent
/// when they share a node: the up to 26 around each), each row's neighbours
/// ascending: what umesh::element_graph gives over the whole mesh, from the
/// mesh's structure alone (a rank's slice for PT-Scotch).
umesh::Graph element_graph_rows(int size, int first, int last);

/// The global ids of the elements (or owned nodes) a mesh's arrays hold, in
/// their order.
std::vector<int> element_ids(const Mesh &m);
std::vector<int> node_ids(const Mesh &m);
/// Where element `e` sits in the mesh's arrays, or -1 if it holds no `e`.
int element_row(const Mesh &m, int e);

/// "slab: z-planes lo to hi-1 of size, E elements, N owned nodes; built", or
/// for a part of any elements "part: E elements, N owned nodes; built".
std::string slab_summary(const Mesh &m);

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
