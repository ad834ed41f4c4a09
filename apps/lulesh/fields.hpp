#ifndef UMESH_LULESH_FIELDS_HPP
#define UMESH_LULESH_FIELDS_HPP

// LULESH's result fields (--output): nodal velocity on the moving mesh,
// element energy and pressure, on this rank's elements and the nodes they
// use (the writer that follows a run: field_writer.hpp).

#include <umesh/output_grid.hpp>

#include <Kokkos_Core.hpp>

#include <utility>
#include <vector>

namespace lulesh {

/// The grid (node positions `x` [node][3], element nodes `elem_nodes`
/// [elem][8], LULESH's order, which is VTK's and Exodus II's) and the
/// fields of the first `elems` elements and `nodes` nodes, on the host.
template <class X, class E, class M>
std::pair<umesh::OutputGrid, umesh::OutputStep> output_fields(const X &x, const X &xd, const E &e,
                                                              const E &p, const M &elem_nodes,
                                                              int nodes, int elems) {
  const auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  const auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), xd);
  const auto he = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), e);
  const auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p);
  const auto hn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), elem_nodes);
  umesh::OutputGrid g;
  g.cell_type = "hex";
  umesh::OutputStep s;
  s.point_fields = {{"velocity", 3, {}}};
  s.cell_fields = {{"energy", 1, {}}, {"pressure", 1, {}}};
  for (int n = 0; n < nodes; ++n)
    for (int d = 0; d < 3; ++d) {
      g.points.push_back(hx(n, d));
      s.point_fields[0].values.push_back(hv(n, d));
    }
  for (int el = 0; el < elems; ++el) {
    for (int c = 0; c < 8; ++c)
      g.cells.push_back(hn(el, c));
    s.cell_fields[0].values.push_back(he(el, 0));
    s.cell_fields[1].values.push_back(hp(el, 0));
  }
  return {std::move(g), std::move(s)};
}

} // namespace lulesh

#endif
