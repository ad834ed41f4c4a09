#ifndef UMESH_DIST_PIECES_HPP
#define UMESH_DIST_PIECES_HPP

// A rank's elements cut into pieces for loops that overlap halo exchange
// with computation (dist/overlap.hpp): elements that reach no halo point
// (core) need no imported value and increment no halo copy, so they can run
// while halos travel; the others (boundary) run between the import and the
// export.

#include <umesh/error.hpp>
#include <umesh/map.hpp>
#include <umesh/set.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <utility>
#include <vector>

namespace umesh::dist {

/// How a Partition numbers a rank's local elements.
enum class ElementOrder {
  global, ///< ascending global id
  /// Core elements (reaching no halo point through any map) in two halves
  /// around the boundary ones, each in ascending global id: the three
  /// pieces that make_overlap_plan runs (core, boundary, core).
  overlap
};

/// One contiguous run [first, first + set.size()) of a rank's local
/// elements as a set of its own. `rows` maps piece element i to local
/// element first + i (direct arguments are read through it); `maps` are the
/// Partition's maps restricted to the piece, sharing their storage.
template <class MemorySpace> struct Piece {
  Set set;
  int first;
  Map<MemorySpace> rows;
  std::vector<std::pair<const void *, Map<MemorySpace>>> maps; ///< keyed by the whole map's data

  /// The restriction of `whole` (one of the Partition's local maps);
  /// `caller` (and the loop's name, if any) head the error otherwise.
  const Map<MemorySpace> &map_for(const Map<MemorySpace> &whole, const char *caller,
                                  const std::string &loop = {}) const {
    for (const auto &m : maps)
      if (m.first == whole.view().data())
        return m.second;
    umesh::detail::fail(caller, loop.empty() ? "" : " '" + loop + "'", ": map '", whole.name(),
                        "' is not a local map of the Partition the overlap plan is built from");
  }
};

} // namespace umesh::dist

// In umesh::detail: a umesh::dist::detail declared here would hide
// umesh::detail from the dist headers that include this one.
namespace umesh::detail {

/// The order [core, first half | boundary | core, second half] of `n`
/// elements, where boundary[e] says whether element e reaches a halo point;
/// `counts` receives the three pieces' sizes.
inline std::vector<int> overlap_order(const std::vector<char> &boundary, int counts[3]) {
  std::vector<int> core, edge;
  for (int e = 0; e < int(boundary.size()); ++e)
    (boundary[e] ? edge : core).push_back(e);
  const std::size_t half = (core.size() + 1) / 2;
  std::vector<int> order(core.begin(), core.begin() + half);
  order.insert(order.end(), edge.begin(), edge.end());
  order.insert(order.end(), core.begin() + half, core.end());
  counts[0] = int(half);
  counts[1] = int(edge.size());
  counts[2] = int(core.size() - half);
  return order;
}

/// The pieces of `elements` (local) of the given sizes, with the
/// restrictions of `maps`.
template <class M>
std::vector<dist::Piece<M>> make_pieces(const Set &elements, const int counts[3],
                                        const std::vector<const Map<M> *> &maps) {
  static const char *const names[3] = {"core0", "boundary", "core1"};
  std::vector<dist::Piece<M>> pieces;
  int first = 0;
  for (int p = 0; p < 3; ++p) {
    const int n = counts[p];
    Set set(elements.name() + ":" + names[p], n);
    std::vector<int> rows(n);
    for (int i = 0; i < n; ++i)
      rows[i] = first + i;
    dist::Piece<M> piece{
        set, first, Map<M>(elements.name() + ":" + names[p] + ":rows", set, elements, 1, rows), {}};
    for (const Map<M> *m : maps) {
      typename Map<M>::view_type sub =
          Kokkos::subview(m->view(), Kokkos::make_pair(first, first + n), Kokkos::ALL());
      piece.maps.emplace_back(m->view().data(), Map<M>(m->name(), set, m->to(), m->arity(), sub));
    }
    pieces.push_back(std::move(piece));
    first += n;
  }
  return pieces;
}

} // namespace umesh::detail

#endif
