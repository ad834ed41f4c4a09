#ifndef UMESH_MINIAERO_PROBLEM_HPP
#define UMESH_MINIAERO_PROBLEM_HPP

// miniAero's input file and its generated hex8 mesh, held on the host.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace miniaero {

/// The ten values of miniAero's `miniaero.inp`, in its order.
struct Input {
  int problem = 0; ///< 0 Sod, 1 viscous flat plate, 2 inviscid ramp
  double lx = 1, ly = 1, lz = 1, ramp_angle = 0;
  int nx = 10, ny = 10, nz = 10;
  int steps = 1;
  double dt = 5e-8;
  bool output_results = false;
  int output_frequency = 10;
  bool second_order = false;
  bool viscous = false;
};

/// Reads miniaero.inp; malformed or out-of-range input throws umesh::Error
/// naming the line and the value.
Input read_input(const std::string &path);
/// Empty when an nx x ny x nz mesh is one the app builds, else why not
/// (shared by the input file's line 3 and --mesh).
std::string mesh_size_problem(int nx, int ny, int nz);
/// Empty when the mesh of `in` (lengths, ramp and cells) has cells of a
/// positive volume that a double holds, else why not: a ramp that rises to
/// the domain's height inverts them (shared by read_input and --mesh).
std::string mesh_geometry_problem(const Input &in);
std::string describe(const Input &in);

enum class Bc { extrapolate, tangent, inflow, noslip };
const char *bc_name(Bc bc);

/// Geometry of a set of faces: centroid, area vector (outward from cell 0),
/// and the two tangents the Roe flux uses, 3 values each per face.
struct FaceGeometry {
  std::vector<double> centroid, normal, tangent, binormal;
  void append(const std::array<double, 3> (&corners)[4]);
  int size() const { return int(centroid.size() / 3); }
};

/// Boundary faces of one condition (all sides that use it).
struct BoundaryFaces {
  Bc bc;
  std::vector<int> cell; ///< the one cell of each face
  FaceGeometry geometry;
};

/// What a rank's own part of the mesh (make_mesh_part) is of the whole: the
/// whole mesh's sizes and the global number of each item the part holds.
struct MeshPart {
  int cells = 0, faces = 0;                   ///< the whole mesh's
  std::vector<int> boundary_sizes;            ///< per boundary set, the whole mesh's
  std::vector<int> cell_ids, face_ids;        ///< [part's cell or face] -> global
  std::vector<std::vector<int>> boundary_ids; ///< per boundary set, [part's face] -> global
  /// With the limiter's stencil over cells: [part's cell][6] each cell's
  /// face neighbours (global; the cell itself across a boundary face), the
  /// face centroids [part's cell][6][3] in the same order, and the cells
  /// outside the part that those neighbours reach.
  std::vector<int> cell_neighbours, stencil_halo;
  std::vector<double> cell_face_centroids;
};

/// The whole mesh, or one rank's part of it (`part` set): then the arrays
/// hold the part's own cells, the interior faces they create (the faces
/// whose first cell they are) and their boundary faces, with `face_cells`
/// and the boundary faces' `cell` in global cell numbers.
struct Mesh {
  int num_cells = 0;
  std::vector<double> cell_centroid, cell_volume;
  std::vector<int> face_cells; ///< [face][2]: left (normal points out of it), right
  std::vector<int> face_slots; ///< [face][2]: the face's local number (0..5) in each cell
  FaceGeometry faces;
  std::vector<BoundaryFaces> boundaries; ///< non-empty conditions, in the order above
  std::shared_ptr<const MeshPart> part;  ///< set on a rank's own part
};

/// Inflow state of the flat plate and ramp (conservative).
constexpr double kInflow[5] = {0.5805, 503.96, 0.0, 0.0, 343750.0};

/// Initial conservative state [cell][5]: Sod's two states split at lx / 2,
/// else the inflow state everywhere.
std::vector<double> initial_state(const Input &in, const Mesh &m);

/// Node (i, j, k) of the mesh of `in` (i along x, 0..nx), as make_mesh
/// places it; cell (i, j, k) has nodes i..i+1, j..j+1, k..k+1.
std::array<double, 3> mesh_node(const Input &in, int i, int j, int k);

/// miniAero's structured hex mesh in unstructured form: cells (i, j, k) with
/// k fastest, the ramp bending nodes past lx / 2, interior faces shuffled
/// with `shuffle_seed` (miniAero shuffles them too; 0 keeps creation order).
/// Slabs of planes are built on up to `threads` host threads; the mesh is
/// the same for any number.
Mesh make_mesh(const Input &in, std::uint64_t shuffle_seed, int threads = 1);

/// The part of make_mesh's mesh that cells [lo, hi) (i, j, k ranges) own,
/// built without the rest: those cells, the interior faces whose first cell
/// they are and their boundary faces, each with its number in the whole
/// mesh (the same shuffle), so that a rank of a distributed run holds only
/// its own block (apps/common/grid_blocks.hpp). `cell_stencil`: with what
/// the limiter's loops over cells need beyond the block (MeshPart).
Mesh make_mesh_part(const Input &in, std::uint64_t shuffle_seed, int threads,
                    const std::array<int, 3> &lo, const std::array<int, 3> &hi,
                    bool cell_stencil = false);

} // namespace miniaero

#endif
