#ifndef UMESH_DETAIL_ELEMENT_COLUMNS_HPP
#define UMESH_DETAIL_ELEMENT_COLUMNS_HPP

// Rows through extruded maps (extruded.hpp): a column kernel's accessor
// `x(l, i, k)` over every layer of its column, and what a colouring plan
// needs to know of such maps (the base map, the columns whose layers share
// points).

#include <umesh/colouring.hpp>
#include <umesh/detail/element_rows.hpp>
#include <umesh/extruded.hpp>
#include <umesh/plan.hpp>

#include <Kokkos_Core.hpp>

#include <vector>

namespace umesh {

/// The accessor of a row through an extruded map: `x(l, i, k)` is component
/// k of slot i's point at layer l (read: a value; write: a reference;
/// inc/min/max: a RowCombineRef); size() is the base arity, layers() the
/// column's, point(l, i) the point's index.
template <Access A, class T, int Dim, class Layout, int Arity, detail::RowFold Fold>
struct ColumnAccessor {
  static constexpr int dim = Dim;
  detail::DatPtr<T, Dim, Layout> dat;
  const int *row;     // the first layer's points
  const int *offsets; // per slot
  int n, nlayers;
  bool atomic_point;

  KOKKOS_INLINE_FUNCTION constexpr int size() const {
    if constexpr (Arity > 0)
      return Arity;
    else
      return n;
  }
  KOKKOS_INLINE_FUNCTION int layers() const { return nlayers; }
  KOKKOS_INLINE_FUNCTION int point(int l, int i) const { return row[i] + l * offsets[i]; }
  KOKKOS_INLINE_FUNCTION decltype(auto) operator()(int l, int i, int k) const {
    T *p = dat.at(point(l, i)) + k * dat.stride()();
    if constexpr (A == Access::read || A == Access::write)
      return *p;
    else
      return RowCombineRef<T, A, Fold>{p, atomic_point};
  }
};

namespace detail {

/// A row through an extruded map bound to columns (see RowDev).
template <Access A, class T, int Dim, class Layout, int Arity, RowFold Fold> struct ColumnDev {
  using value_type = std::conditional_t<A == Access::read, const T, T>;
  DatPtr<value_type, Dim, Layout> dat;
  const int *map;
  const int *offsets;
  int arity, layers;
  const unsigned char *repeats;

  KOKKOS_INLINE_FUNCTION auto bind(int b) const {
    const int n = Arity > 0 ? Arity : arity;
    const bool atomic = (Fold == RowFold::coloured || Fold == RowFold::coherent) &&
                        repeats != nullptr && repeats[b] != 0;
    return ColumnAccessor<A, value_type, Dim, Layout, Arity, Fold>{
        dat, map + unsigned(b) * unsigned(n), offsets, n, layers, atomic};
  }
};

// A plan's maps as plain Maps (an extruded map's base: the columns' first
// layer) for colouring, and each map's column shape for repeated_rows.
template <class M> const Map<M> &plain_map(const Map<M> &m) {
  return m;
}
template <class M> const ReadOnlyMap<M> &plain_map(const ReadOnlyMap<M> &m) {
  return m;
}
template <class M> const Map<M> &plain_map(const ExtrudedMap<M> &m) {
  return m.base();
}

/// Layers and offsets of a written map's rows (one layer, none, if plain).
struct RowShape {
  int layers = 1;
  std::vector<int> offsets;
};
template <class M> void add_row_shape(std::vector<RowShape> &, const ReadOnlyMap<M> &) {}
template <class M> void add_row_shape(std::vector<RowShape> &out, const Map<M> &) {
  out.push_back({});
}
template <class M> void add_row_shape(std::vector<RowShape> &out, const ExtrudedMap<M> &m) {
  out.push_back({m.layers(), m.host_offsets()});
}

/// A byte per element: 1 where the element's row (every layer of it, for
/// extruded maps) in some map of `maps` names a point twice (maps with one
/// target share points), else 0; empty when no element's does. `shapes`
/// gives each map's layers and offsets.
inline std::vector<unsigned char> repeated_rows(int n, const std::vector<HostConnectivity> &maps,
                                                const std::vector<RowShape> &shapes) {
  int total = 0;
  const std::vector<int> base = point_bases(maps, total);
  std::vector<int> stamp(std::size_t(total), -1);
  std::vector<unsigned char> repeats;
  for (int e = 0; e < n; ++e)
    for (std::size_t m = 0; m < maps.size(); ++m)
      for (int l = 0; l < shapes[m].layers; ++l)
        for (int s = 0; s < maps[m].arity; ++s) {
          const int p = maps[m].indices[std::size_t(e) * maps[m].arity + s] +
                        (l > 0 ? l * shapes[m].offsets[s] : 0);
          int &seen = stamp[base[m] + p];
          if (seen == e) {
            repeats.resize(std::size_t(n), 0);
            repeats[e] = 1;
          }
          seen = e;
        }
  return repeats;
}

} // namespace detail
} // namespace umesh

#endif
