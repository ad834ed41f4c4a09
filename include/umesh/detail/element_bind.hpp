#ifndef UMESH_DETAIL_ELEMENT_BIND_HPP
#define UMESH_DETAIL_ELEMENT_BIND_HPP

// Host side of an element loop's arguments: validation (par_loop's own
// checks, through the indirect argument a row amounts to) and the device
// form of each argument. The strategy (the plan) decides how combining rows
// fold into memory and checks that it covers their maps.

#include <umesh/detail/bind.hpp>
#include <umesh/detail/element_columns.hpp>
#include <umesh/detail/element_rows.hpp>
#include <umesh/detail/element_tables.hpp>
#include <umesh/element_args.hpp>

#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

namespace umesh::detail {

// par_loop's indirect argument through slot 0 stands for a row in the
// checks they share (sets, map size, combined accesses).
template <Access A, class DatT, class MapT, int N>
IndirectArg<A, DatT, MapT> as_indirect(const RowArg<A, DatT, MapT, N> &a) {
  return {a.dat, a.map, 0};
}

template <Access A, class DatT>
void validate_element(const LoopInfo &loop, int index, const DirectArg<A, DatT> &a) {
  validate(loop, index, a);
}
template <Access A, class DatT, class MapT>
void validate_element(const LoopInfo &loop, int index, const IndirectArg<A, DatT, MapT> &a) {
  static_assert(A == Access::read, "umesh::element_loop: an indirect argument through one slot is "
                                   "read only; fold into points with inc_row, min_row or max_row");
  validate(loop, index, a);
}
template <Access A, class DatT, class MapT, int N>
void validate_element(const LoopInfo &loop, int index, const RowArg<A, DatT, MapT, N> &a) {
  validate(loop, index, as_indirect(a));
  if (N > 0 && a.map.arity() != N)
    fail("loop '", loop.name, "' argument ", index, ": ", access_name(A), "_row<", N, "> of dat '",
         a.dat.name(), "' through map '", a.map.name(), "', whose arity is ", a.map.arity());
}
template <class ViewT>
void validate_element(const LoopInfo &loop, int index, const TableArg<ViewT> &a) {
  if (a.view.size() > std::size_t(INT_MAX / 8))
    fail("loop '", loop.name, "' argument ", index, ": table '", a.view.label(), "' has ",
         a.view.size(), " values; a table is staged in team scratch");
}
template <Reduction R, class T, int D>
void validate_element(const LoopInfo &, int, const GlobalArg<R, T, D> &) {
  static_assert(sizeof(T) == 0,
                "umesh::element_loop takes no global reductions yet: reduce in a par_loop");
}

template <class Arg>
void note_element(const LoopInfo &loop, std::vector<CombinedDat> &seen, int index, const Arg &a) {
  note_combined(loop, seen, index, a);
}
template <Access A, class DatT, class MapT, int N>
void note_element(const LoopInfo &loop, std::vector<CombinedDat> &seen, int index,
                  const RowArg<A, DatT, MapT, N> &a) {
  note_combined(loop, seen, index, as_indirect(a));
}

/// Every argument checked, as par_loop checks its own, before any launch.
template <class... Args> void validate_element_args(const LoopInfo &loop, const Args &...args) {
  int index = 0;
  (validate_element(loop, index++, args), ...);
  std::vector<CombinedDat> seen;
  index = 0;
  (note_element(loop, seen, index++, args), ...);
}

/// Team scratch of the tables, laid out in argument order (16-byte aligned).
struct TableLayout {
  int bytes = 0;
  int add(std::size_t table_bytes) {
    const int at = bytes;
    bytes += int((table_bytes + 15) / 16 * 16);
    return at;
  }
};

// The device form of each argument. `Strategy` (a plan) gives
// `static constexpr RowFold fold` and `row_repeats(map, loop)`, which checks
// that it may fold through the map and returns its byte per element (or null).
template <class Space, class Strategy, Access A, class T, int D, class L, class M>
auto element_device(Strategy &, TableLayout &, const std::string &,
                    const DirectArg<A, Dat<T, D, L, M>> &a) {
  check_space<Space, M>();
  return DirectDev<A, T, D, L>{{}, dat_ptr(a.dat)};
}
template <class Space, class Strategy, class T, int D, class L, class M, class MM>
auto element_device(Strategy &, TableLayout &, const std::string &,
                    const IndirectArg<Access::read, Dat<T, D, L, M>, Map<MM>> &a) {
  check_space<Space, M>();
  check_space<Space, MM>();
  return IndirectReadDev<const T, D, L>{
      {}, read_ptr(a.dat), a.map.view().data(), a.map.arity(), a.slot};
}
template <class Space, class Strategy, Access A, class T, int D, class L, class M, class MM, int N>
auto element_device(Strategy &plan, TableLayout &, const std::string &loop,
                    const RowArg<A, Dat<T, D, L, M>, Map<MM>, N> &a) {
  check_space<Space, M>();
  check_space<Space, MM>();
  constexpr RowFold fold = is_combining(A) ? Strategy::fold : RowFold::plain;
  if constexpr (fold == RowFold::buffer) {
    return plan.buffered_row(a, loop);
  } else {
    const unsigned char *repeats = nullptr;
    if constexpr (is_combining(A))
      repeats = plan.row_repeats(a.map, loop);
    return RowDev<A, T, D, L, N, fold>{
        {a.dat.view().data(), a.dat.rows()}, a.map.view().data(), a.map.arity(), repeats};
  }
}
template <class Space, class Strategy, Access A, class T, int D, class L, class M, class MM, int N>
auto element_device(Strategy &plan, TableLayout &, const std::string &loop,
                    const RowArg<A, Dat<T, D, L, M>, ExtrudedMap<MM>, N> &a) {
  check_space<Space, M>();
  check_space<Space, MM>();
  constexpr bool buffered = is_combining(A) && Strategy::fold == RowFold::buffer;
  constexpr RowFold fold = !is_combining(A) ? RowFold::plain
                           : buffered       ? RowFold::atomic // (refused below)
                                            : Strategy::fold;
  if (buffered)
    fail("loop '", loop, "': ", access_name(A), "_row of dat '", a.dat.name(),
         "' through extruded map '", a.map.name(),
         "': exec::ElementGather does not fold columns yet; use ElementColour or ElementAtomic");
  const unsigned char *repeats = nullptr;
  if constexpr (is_combining(A) && !buffered)
    repeats = plan.row_repeats(a.map, loop);
  return ColumnDev<A, T, D, L, N, fold>{{a.dat.view().data(), a.dat.rows()},
                                        a.map.view().data(),
                                        a.map.offsets().data(),
                                        a.map.arity(),
                                        a.map.layers(),
                                        repeats};
}
template <class Space, class Strategy, class ViewT>
auto element_device(Strategy &, TableLayout &layout, const std::string &,
                    const TableArg<ViewT> &a) {
  check_space<Space, typename ViewT::memory_space>();
  using T = typename ViewT::non_const_value_type;
  TableDev<ViewT> dev{a.view, layout.add(a.view.size() * sizeof(T)), {1, 1, 1}};
  for (int r = 0; r < int(ViewT::rank); ++r)
    dev.n[r] = int(a.view.extent(r));
  return dev;
}

} // namespace umesh::detail

#endif
