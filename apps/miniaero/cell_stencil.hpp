#ifndef MINIAERO_CELL_STENCIL_HPP
#define MINIAERO_CELL_STENCIL_HPP

// What the limiter's loops over cells read (--stencil cells): each cell's
// face neighbours, and each cell's face centroids, built on the host from the
// faces' maps in the solver's current numbering.

#include <umesh/umesh.hpp>

#include <cstddef>
#include <vector>

namespace miniaero {

/// At most this many faces (and face neighbours) a cell: a hex's six.
constexpr int kCellFaces = 6;

/// Each cell's face neighbours (the faces->cells point graph), padded with
/// the cell itself: a map cells -> cells of arity kCellFaces.
template <class MapT>
MapT cell_neighbours(const umesh::Set &cells, const umesh::Set &faces, const MapT &face_cells) {
  const auto fc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), face_cells.view());
  const umesh::Graph g = umesh::point_graph(faces.size(), {{fc.data(), 2, 0, cells.size()}});
  std::vector<int> nb(std::size_t(cells.size()) * kCellFaces);
  for (int c = 0; c < cells.size(); ++c) {
    const std::int64_t first = g.offsets[c];
    const int degree = int(g.offsets[c + 1] - first);
    if (degree > kCellFaces)
      umesh::fail("cell ", c, " has ", degree, " face neighbours, more than ", kCellFaces);
    for (int s = 0; s < kCellFaces; ++s)
      nb[std::size_t(c) * kCellFaces + s] = s < degree ? g.adjacency[std::size_t(first + s)] : c;
  }
  return MapT("cell_neighbours", cells, cells, kCellFaces, nb);
}

/// Each cell's face centroids, [cell][kCellFaces][3], from every face set
/// that reaches it (`sides`: each with `cells`, a pointer to its map from
/// faces to their one or two cells, and `centroid`, the faces' centroids).
/// A cell with fewer faces repeats its first: a minimum over them is the
/// same.
template <class Side>
std::vector<double> cell_face_centroids(int cells, const std::vector<Side> &sides) {
  std::vector<double> xf(std::size_t(cells) * 3 * kCellFaces);
  std::vector<int> count(cells, 0);
  for (const Side &side : sides) {
    const auto fc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), side.cells->view());
    const auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), side.centroid);
    for (std::size_t f = 0; f < fc.extent(0); ++f)
      for (std::size_t a = 0; a < fc.extent(1); ++a) {
        const int c = fc(f, a);
        if (count[c] == kCellFaces)
          umesh::fail("cell ", c, " has more than ", kCellFaces, " faces");
        for (int d = 0; d < 3; ++d)
          xf[(std::size_t(c) * kCellFaces + count[c]) * 3 + d] = x(f, d);
        ++count[c];
      }
  }
  for (int c = 0; c < cells; ++c) {
    if (count[c] == 0)
      umesh::fail("cell ", c, " has no faces");
    for (int k = count[c]; k < kCellFaces; ++k)
      for (int d = 0; d < 3; ++d)
        xf[(std::size_t(c) * kCellFaces + k) * 3 + d] = xf[std::size_t(c) * kCellFaces * 3 + d];
  }
  return xf;
}

} // namespace miniaero

#endif
