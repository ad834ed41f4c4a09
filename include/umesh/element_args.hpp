#ifndef UMESH_ELEMENT_ARGS_HPP
#define UMESH_ELEMENT_ARGS_HPP

// The arguments an element loop (element_loop.hpp) takes beside those of
// par_loop (direct dats, indirect reads through one slot): whole rows of a
// map and tables staged in team scratch.
//
//   element_loop(plan, "mass", teams, kernel,
//                umesh::table(phi),                 // tab(q, i): staged once per team
//                umesh::read_row(u, cell_nodes),    // u(i, k): the element's row
//                umesh::inc_row<3>(r, cell_nodes)); // r(i, k) += v, arity 3 known

#include <umesh/access.hpp>
#include <umesh/dat.hpp>
#include <umesh/map.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace umesh {

/// A dat reached through every slot of a map (a Map, or an ExtrudedMap for
/// column loops: extruded.hpp): the element's whole row.
/// `Arity` is the map's arity when the caller gives it (then checked against
/// the map before any launch), 0 when it is taken from the map at run time.
template <Access A, class DatT, class MapT, int Arity = 0> struct RowArg {
  static_assert(Arity >= 0, "umesh: a row's arity is positive (or 0: the map's, at run time)");
  static constexpr Access access = A;
  static constexpr int arity = Arity;
  DatT dat;
  MapT map;
};

/// Reads the element's row of `d` through `map`: the kernel's `x(i, k)` is
/// component k of the row's point i. `read_row<N>(...)` fixes the arity.
template <int Arity = 0, class T, int D, class L, class M, class MapT>
auto read_row(const Dat<T, D, L, M> &d, const MapT &map) {
  return RowArg<Access::read, Dat<T, D, L, M>, MapT, Arity>{d, map};
}
/// Increments the points of the element's row: `r(i, k) += v`. The race
/// between elements is the strategy's to solve; within one element no two
/// lanes may increment the same (i, k) at once (docs/element-kernels.md).
template <int Arity = 0, class T, int D, class L, class M, class MapT>
auto inc_row(const Dat<T, D, L, M> &d, const MapT &map) {
  return RowArg<Access::inc, Dat<T, D, L, M>, MapT, Arity>{d, map};
}
/// Folds values into the row's points as minima: `r(i, k).update(v)`.
template <int Arity = 0, class T, int D, class L, class M, class MapT>
auto min_row(const Dat<T, D, L, M> &d, const MapT &map) {
  return RowArg<Access::min, Dat<T, D, L, M>, MapT, Arity>{d, map};
}
/// Folds values into the row's points as maxima: `r(i, k).update(v)`.
template <int Arity = 0, class T, int D, class L, class M, class MapT>
auto max_row(const Dat<T, D, L, M> &d, const MapT &map) {
  return RowArg<Access::max, Dat<T, D, L, M>, MapT, Arity>{d, map};
}
/// Writes the row's points: `r(i, k) = v`. A point that several elements
/// write ends with one of their values (any one): write the same value from
/// each, or use a map whose rows share no points.
template <int Arity = 0, class T, int D, class L, class M, class MapT>
auto write_row(const Dat<T, D, L, M> &d, const MapT &map) {
  return RowArg<Access::write, Dat<T, D, L, M>, MapT, Arity>{d, map};
}

/// A small read-only array (shape functions at quadrature points, a
/// reference element's matrices) that every team copies into its scratch
/// once, before its elements run: the kernel reads `tab(i)`, `tab(i, j)` or
/// `tab(i, j, l)` from scratch. Any View of rank 1 to 3 of an arithmetic type
/// that the loop's space can read.
template <class ViewT> struct TableArg { ViewT view; };

template <class ViewT> TableArg<ViewT> table(const ViewT &view) {
  static_assert(Kokkos::is_view<ViewT>::value, "umesh::table takes a Kokkos View");
  static_assert(ViewT::rank >= 1 && ViewT::rank <= 3, "umesh::table takes a View of rank 1 to 3");
  static_assert(std::is_arithmetic<typename ViewT::non_const_value_type>::value,
                "umesh::table holds arithmetic values (float, double, int...)");
  return {view};
}

} // namespace umesh

#endif
