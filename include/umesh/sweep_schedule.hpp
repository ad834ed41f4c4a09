#ifndef UMESH_SWEEP_SCHEDULE_HPP
#define UMESH_SWEEP_SCHEDULE_HPP

// The host half of a sweep plan: for each direction, the dependency graph of
// the cells (cell c waits for the neighbour across face f when f is an
// inflow face of c: the direction dotted with c's outward normal of f is
// negative), its cycles broken by lagging named faces (they read the
// previous sweep's value), and its levels (topological depth). Built once
// from a SweepMesh and the directions, or read from a plan file; executors
// (sweep.hpp) upload it. docs/sweeps.md.
//
//   umesh::SweepMesh mesh = umesh::sweep_mesh_from_cells(tets, 4, tet_nodes, nodes, coords);
//   umesh::SweepSchedule s = umesh::make_sweep_schedule(mesh, directions,
//                                                       umesh::SweepOptions{}.with_plan_file("s.plan"));
//   s.lagged_faces(); s.summary();

#include <umesh/set.hpp>
#include <umesh/sweep_mesh.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace umesh {

/// What a sweep plan does with a cycle of a direction's dependency graph.
enum class SweepCycles {
  lag, ///< break it: faces named in the plan read the previous sweep's value
  fail ///< an Error naming the direction and cells of the cycle
};

/// Options of make_sweep_schedule (plan options: they shape the plan).
struct SweepOptions {
  SweepCycles cycles = SweepCycles::lag;
  /// The most the two normals a face's cells give may differ from opposite,
  /// relative to the larger: |n_a + n_b| <= tolerance * max(|n_a|, |n_b|).
  double normal_tolerance = 1e-8;
  /// Read the plan from this file when it holds the plan of this mesh,
  /// directions and options; build it and write it there when no file is
  /// there. A file for other inputs, damaged, or holding an invalid plan is
  /// an Error naming it. Empty: no file.
  std::string plan_file;

  SweepOptions &with_cycles(SweepCycles c) { return cycles = c, *this; }
  SweepOptions &with_normal_tolerance(double t) { return normal_tolerance = t, *this; }
  SweepOptions &with_plan_file(std::string path) { return plan_file = std::move(path), *this; }
};

/// One direction's dependency graph, in numbers.
struct SweepDirectionReport {
  int levels = 0;        ///< topological depth: levels a sweep runs in turn
  int widest_level = 0;  ///< cells of its largest level
  int lagged_faces = 0;  ///< faces whose dependency was dropped to break cycles
  int cycles = 0;        ///< strongly connected components of more than one cell
  int largest_cycle = 0; ///< cells of the largest of them
};

namespace detail {
/// The schedule's arrays (what executors upload). Flags per (direction,
/// cell): bit s is set when slot s is an inflow face (boundary and lagged
/// faces included), bit 8 + s when it is lagged.
struct SweepTables {
  int cells = 0, faces = 0, directions = 0;
  std::vector<int> neighbours;      ///< [cell][slot], as the mesh's
  std::vector<int> partner;         ///< [cell][slot]: the neighbour's slot of the face, else -1
  std::vector<double> normals;      ///< [cell][slot][3]: one face's two exactly opposite
  std::vector<double> dirs;         ///< [direction][3]
  std::vector<int> order;           ///< [direction][cells]: cells by level, then by number
  std::vector<int> level_offsets;   ///< per direction, levels + 1 offsets into its order
  std::vector<int> dir_levels;      ///< [directions + 1]: where each direction's offsets start
  std::vector<std::uint16_t> flags; ///< [direction][cell]
  std::vector<int> lag_offsets;     ///< [directions + 1]
  std::vector<int> lag_keys;        ///< per direction, ascending: cell * faces + slot
  std::vector<SweepDirectionReport> reports;
};
} // namespace detail

/// Dependency levels and lags of every direction over a mesh's cells.
class SweepSchedule {
public:
  SweepSchedule(Set cells, detail::SweepTables tables, std::uint64_t fingerprint, double seconds,
                bool from_file)
      : cells_(std::move(cells)), t_(std::move(tables)), fingerprint_(fingerprint),
        seconds_(seconds), from_file_(from_file) {}

  const Set &cells() const { return cells_; }
  int faces_per_cell() const { return t_.faces; }
  int directions() const { return t_.directions; }
  /// Direction d's unit vector, component k.
  double direction(int d, int k) const { return t_.dirs[std::size_t(d) * 3 + k]; }
  /// Levels of direction d; the most of any direction.
  int levels(int d) const { return report(d).levels; }
  int max_levels() const;
  /// The cells of level l of direction d, ascending.
  std::vector<int> level_cells(int d, int l) const;
  /// Whether slot s of cell c is an inflow face for direction d (boundary
  /// and lagged faces included), and whether it is lagged.
  bool inflow(int d, int c, int s) const { return flag(d, c) >> s & 1u; }
  bool lagged(int d, int c, int s) const { return flag(d, c) >> (8 + s) & 1u; }
  /// Direction d's lagged faces as (cell, slot), ascending; their count; all directions'.
  std::vector<std::pair<int, int>> lags(int d) const;
  int lagged_faces(int d) const { return report(d).lagged_faces; }
  long long lagged_faces() const;
  const SweepDirectionReport &report(int d) const;
  /// Levels (mean, most), lagged faces and cycles over the directions, and
  /// how the plan was made: one line.
  std::string summary() const;
  /// Seconds the plan took to build (or read), and whether it was read.
  double build_seconds() const { return seconds_; }
  bool from_file() const { return from_file_; }
  /// FNV-1a of the mesh (cells, neighbours, normals) and the directions.
  std::uint64_t fingerprint() const { return fingerprint_; }
  const detail::SweepTables &tables() const { return t_; }

private:
  std::uint16_t flag(int d, int c) const;

  Set cells_;
  detail::SweepTables t_;
  std::uint64_t fingerprint_;
  double seconds_;
  bool from_file_;
};

/// The schedule of sweeps over `mesh` in `directions` ([direction][3], unit
/// vectors). Throws umesh::Error naming the cell, slot or direction and the
/// value on bad input: a neighbour outside the cells or the cell itself, a
/// neighbour that does not name the cell back, a face normal that is not
/// finite or zero, a face whose two cells give normals that are not opposite
/// (options.normal_tolerance), no directions, a direction not finite or not
/// of unit length, and with SweepCycles::fail a cycle.
SweepSchedule make_sweep_schedule(const SweepMesh &mesh, const std::vector<double> &directions,
                                  const SweepOptions &options = {});

/// Writes `schedule` to `path` (a temporary renamed into place) as the plan
/// of its mesh, directions and `options`.
void write_sweep_plan_file(const std::string &path, const SweepSchedule &schedule,
                           const SweepOptions &options);
/// The schedule `path` holds for `mesh`, `directions` and `options`, after
/// the checks make_sweep_schedule makes of its inputs and of the file: an
/// Error naming the file unless it is a sweep plan file for them,
/// undamaged, each direction's order a permutation of the cells in levels
/// where every dependency not lagged lies in an earlier level, and each
/// lagged face an inflow face between two cells.
SweepSchedule read_sweep_plan_file(const std::string &path, const SweepMesh &mesh,
                                   const std::vector<double> &directions,
                                   const SweepOptions &options);

} // namespace umesh

#endif
