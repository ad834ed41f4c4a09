#ifndef UMESH_EXTRUDED_HPP
#define UMESH_EXTRUDED_HPP

// Extruded (column) meshes, as PyOP2 and LFRic build them: a 2D base set
// times `layers`. An element loop over the base set runs one column per
// element; rows through an ExtrudedMap give the kernel the whole column,
// `x(l, i, k)`: component k of slot i's point at layer l, which is the base
// map's point plus l times the slot's offset.
//
//   umesh::ExtrudedSet cells("cells", base_cells, 40);          // 40 layers
//   umesh::Set dofs("dofs", base_nodes.size() * 41);             // a column of 41 per node
//   umesh::ExtrudedMap<Mem> cell_dofs("cell_dofs", cells, dofs, 4, bottom, {1, 1, 1, 1});
//   auto plan = umesh::make_element_plan(space, umesh::exec::ElementAtomic{}, cells.base());
//   umesh::element_loop(plan, "matvec", teams, MatVec{}, umesh::read_row(A, column_map(cells)),
//                       umesh::read_row(x, cell_dofs), umesh::inc_row(y, cell_dofs));

#include <umesh/error.hpp>
#include <umesh/map.hpp>
#include <umesh/set.hpp>

#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

namespace umesh {

/// A base set times `layers`: element (b, l) of set() is b * layers + l, so
/// a column's layers are adjacent (dats on set() hold columns contiguously).
class ExtrudedSet {
public:
  ExtrudedSet(const std::string &name, Set base, int layers)
      : base_(std::move(base)), layers_(layers), set_(name, checked_size(name, base_, layers)) {}

  const Set &base() const { return base_; }
  int layers() const { return layers_; }
  /// The extruded elements, base().size() * layers() of them.
  const Set &set() const { return set_; }

private:
  static std::int64_t checked_size(const std::string &name, const Set &base, int layers) {
    if (layers < 1)
      fail("extruded set '", name, "' over '", base.name(), "' has ", layers,
           " layers (must be >= 1)");
    const std::int64_t n = std::int64_t(base.size()) * layers;
    if (n > INT_MAX)
      fail("extruded set '", name, "': ", base.size(), " base elements x ", layers, " layers = ", n,
           " elements, more than ", INT_MAX);
    return n;
  }
  Set base_;
  int layers_;
  Set set_;
};

/// A map of an extruded set's columns: slot i of column b at layer l is
/// `base(b, i) + l * offsets[i]` in `to`. from() is the base set (an element
/// loop over it runs columns); view() is the base map's, so plans built over
/// this map colour the columns by the points of their first layer. Checked
/// on creation: every layer's points lie in `to`, and a point that two rows
/// name has one offset (a base point carries its whole column, as PyOP2 and
/// LFRic number them), so columns that share a point share it at layer 0.
template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space> class ExtrudedMap {
public:
  using memory_space = MemorySpace;
  using view_type = typename Map<MemorySpace>::view_type;

  ExtrudedMap(std::string name, const ExtrudedSet &from, Set to, int arity,
              const std::vector<int> &bottom, std::vector<int> offsets)
      : base_(name, from.base(), to, arity, bottom), layers_(from.layers()),
        offsets_host_(std::move(offsets)) {
    if (int(offsets_host_.size()) != arity)
      fail("extruded map '", name, "' has arity ", arity, " but ", offsets_host_.size(),
           " offsets");
    std::vector<int> seen(std::size_t(to.size()), INT_MIN);
    for (int b = 0; b < from.base().size(); ++b)
      for (int i = 0; i < arity; ++i) {
        const int p = bottom[std::size_t(b) * arity + i], off = offsets_host_[i];
        const std::int64_t top = p + std::int64_t(layers_ - 1) * off;
        if (top < 0 || top >= to.size())
          fail("extruded map '", name, "': column ", b, " slot ", i, " points at ", p,
               " with offset ", off, ", so layer ", layers_ - 1, " at ", top, ", outside to-set '",
               to.name(), "' of size ", to.size());
        if (seen[p] != INT_MIN && seen[p] != off)
          fail("extruded map '", name, "': point ", p, " has offset ", seen[p], " in one row and ",
               off, " in column ", b, " slot ", i, "; a point's column has one offset");
        seen[p] = off;
      }
    offsets_ = Kokkos::View<int *, MemorySpace>("umesh::ExtrudedMap::" + name, arity);
    Kokkos::deep_copy(offsets_,
                      Kokkos::View<const int *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          offsets_host_.data(), arity));
  }

  const std::string &name() const { return base_.name(); }
  const Set &from() const { return base_.from(); }
  const Set &to() const { return base_.to(); }
  int arity() const { return base_.arity(); }
  int layers() const { return layers_; }
  /// The first layer's points, [column][arity].
  const view_type &view() const { return base_.view(); }
  const Map<MemorySpace> &base() const { return base_; }
  const Kokkos::View<int *, MemorySpace> &offsets() const { return offsets_; }
  const std::vector<int> &host_offsets() const { return offsets_host_; }

private:
  Map<MemorySpace> base_;
  int layers_;
  std::vector<int> offsets_host_;
  Kokkos::View<int *, MemorySpace> offsets_;
};

/// The map from columns to their own elements of `set`: a dat on set.set()
/// read through it gives a column kernel `a(l, 0, k)` (layer l's data).
template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
ExtrudedMap<MemorySpace> column_map(const ExtrudedSet &set) {
  std::vector<int> bottom(std::size_t(set.base().size()));
  for (int b = 0; b < set.base().size(); ++b)
    bottom[b] = b * set.layers();
  return ExtrudedMap<MemorySpace>(set.set().name() + "_columns", set, set.set(), 1, bottom, {1});
}

} // namespace umesh

#endif
