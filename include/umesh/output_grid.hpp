#ifndef UMESH_OUTPUT_GRID_HPP
#define UMESH_OUTPUT_GRID_HPP

// What the result writers (umesh/vtk_output.hpp, umesh/exodus_output.hpp)
// write: a piece of a mesh, its points and cells of one type, and the
// fields of one time step on them, held on the host. A dat becomes a field
// with output_field (copied from its memory space, [point][component]).

#include <umesh/dat.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace umesh {

/// A mesh (or one rank's piece of it) to write results on.
struct OutputGrid {
  std::string cell_type;      ///< "hex", "tet", "wedge", "quad", "triangle" or "line"
  std::vector<double> points; ///< [point][3]
  std::vector<int> cells;     ///< [cell][corners], 0-based, in Gmsh's (and Exodus II's) order
  /// Corners of the cell type; throws umesh::Error naming any other type.
  int corners() const;
  std::int64_t point_count() const { return std::int64_t(points.size() / 3); }
  std::int64_t cell_count() const;
};

/// Values on a grid's points or cells, `components` a point: [item][component].
struct OutputField {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

/// The fields of one time step.
struct OutputStep {
  double time = 0;
  std::vector<OutputField> point_fields, cell_fields;
};

/// Throws umesh::Error naming `what` (the file) unless `grid` is a grid of
/// its type with every cell's corners among its points, and every field of
/// `step` has a name of its own and a value per component of every point
/// (or cell), each finite or not (NaN is written as is).
void check_output(const OutputGrid &grid, const OutputStep &step, const std::string &what);

/// The first `dat.size()` rows of a dat as a field named `name`, on the host.
template <class T, int Dim, class L, class M>
OutputField output_field(std::string name, const Dat<T, Dim, L, M> &dat) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dat.view());
  OutputField f{std::move(name), Dim, std::vector<double>(std::size_t(dat.size()) * Dim)};
  for (int i = 0; i < dat.size(); ++i)
    for (int k = 0; k < Dim; ++k)
      f.values[std::size_t(i) * Dim + k] = double(h(i, k));
  return f;
}

} // namespace umesh

#endif
