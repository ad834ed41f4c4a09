#ifndef UMESH_MAP_HPP
#define UMESH_MAP_HPP

#include <umesh/detail/host_loops.hpp>
#include <umesh/error.hpp>
#include <umesh/set.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace umesh {

/// How a map marks "no neighbour" (a boundary edge's missing cell): entries
/// equal to `value`, a negative number. A map made with it accepts those
/// entries (and counts them, missing_count()); plans, loops and reorderings
/// do not take such a map yet (see Map::view()): loop over the elements
/// that have every neighbour, through a map of their own (docs/porting.md).
struct MapMissing {
  int value = -1;
};

/// A mapping from every element of `from` to `arity` elements of `to`,
/// stored as a `[from.size()][arity]` View. Validated on creation: every
/// entry a point of `to`, or the MapMissing value where one is given.
template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space> class Map {
public:
  using memory_space = MemorySpace;
  using view_type = Kokkos::View<int **, Kokkos::LayoutRight, MemorySpace>;

  Map(std::string name, Set from, Set to, int arity, view_type indices)
      : name_(std::move(name)), from_(std::move(from)), to_(std::move(to)), arity_(arity),
        indices_(std::move(indices)) {
    validate();
  }
  /// The same, with entries equal to `missing.value` meaning "no neighbour".
  Map(std::string name, Set from, Set to, int arity, view_type indices, MapMissing missing)
      : name_(std::move(name)), from_(std::move(from)), to_(std::move(to)), arity_(arity),
        indices_(std::move(indices)) {
    set_missing(missing);
    validate();
  }

  /// Builds the View from host data laid out `[from][arity]`.
  Map(std::string name, Set from, Set to, int arity, const std::vector<int> &indices)
      : Map(std::move(name), std::move(from), std::move(to), arity, indices, nullptr) {}
  /// The same, with entries equal to `missing.value` meaning "no neighbour".
  Map(std::string name, Set from, Set to, int arity, const std::vector<int> &indices,
      MapMissing missing)
      : Map(std::move(name), std::move(from), std::move(to), arity, indices, &missing) {}

  const std::string &name() const { return name_; }
  const Set &from() const { return from_; }
  const Set &to() const { return to_; }
  int arity() const { return arity_; }
  /// The indices, for plans, loops and everything that reads a map's
  /// entries as points: an Error for a map with "no neighbour" entries,
  /// which none of them handles yet (entries() has them).
  const view_type &view() const {
    if (missing_count_ > 0)
      detail::fail("map '", name_, "' has ", missing_count_, " entries marked 'no neighbour' (",
                   missing_,
                   "), which plans, loops and reorderings do not take: loop over the elements "
                   "that have every neighbour through a map of their own (docs/porting.md, "
                   "boundary sets)");
    return indices_;
  }
  /// Every entry, "no neighbour" ones included.
  const view_type &entries() const { return indices_; }
  /// Whether the map was made with a MapMissing value, that value, and how
  /// many entries hold it.
  bool allows_missing() const { return allows_missing_; }
  int missing_value() const { return missing_; }
  std::int64_t missing_count() const { return missing_count_; }

private:
  Map(std::string name, Set from, Set to, int arity, const std::vector<int> &indices,
      const MapMissing *missing)
      : name_(std::move(name)), from_(std::move(from)), to_(std::move(to)), arity_(arity) {
    if (missing)
      set_missing(*missing);
    if (arity_ < 1)
      detail::fail("map '", name_, "' has arity ", arity_, " (must be >= 1)");
    if (indices.size() != std::size_t(from_.size()) * std::size_t(arity_))
      detail::fail("map '", name_, "' from set '", from_.name(), "' (size ", from_.size(),
                   ") with arity ", arity_, " needs ",
                   std::size_t(from_.size()) * std::size_t(arity_), " indices, got ",
                   indices.size());
    indices_ = view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Map::" + name_),
                         from_.size(), arity_);
    auto host = Kokkos::create_mirror_view(indices_);
    // Rows are [from][arity] in both (LayoutRight): copied and checked in
    // one pass, on the host's threads for large maps (a distributed mesh's
    // setup makes several); the serial check names the first bad entry.
    const int *in = indices.data();
    const auto n = std::int64_t(indices.size());
    const detail::Filled f =
        detail::fill(n, host.data(), to_.size(), [=](std::int64_t i) { return in[i]; });
    if (f.first_negative < n || f.any_at_least)
      check_entries(host);
    Kokkos::deep_copy(indices_, host);
  }

  void set_missing(MapMissing missing) {
    if (missing.value >= 0)
      detail::fail("map '", name_, "': its 'no neighbour' value must be negative, not ",
                   missing.value, ", which could be a point of set '", to_.name(), "'");
    allows_missing_ = true;
    missing_ = missing.value;
  }

  void validate() {
    if (arity_ < 1)
      detail::fail("map '", name_, "' has arity ", arity_, " (must be >= 1)");
    if (int(indices_.extent(1)) != arity_)
      detail::fail("map '", name_, "' declared with arity ", arity_, " but its View has ",
                   indices_.extent(1), " columns");
    if (indices_.extent(0) != std::size_t(from_.size()))
      detail::fail("map '", name_, "' has ", indices_.extent(0), " rows but its from-set '",
                   from_.name(), "' has size ", from_.size());
    check_entries(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), indices_));
  }

  // Every entry a point of to_ (or the missing value, counted, where the
  // map allows it).
  template <class HostView> void check_entries(const HostView &host) {
    // Checked on the host's threads first; the serial pass below, which
    // names the first bad entry and counts the missing ones, runs only when
    // there is one.
    if (host.span_is_contiguous()) { // (else a strided View: the serial pass)
      const int *at = host.data(), size = to_.size();
      if (detail::first_where(std::int64_t(host.size()), [=](std::int64_t i) {
            return at[i] < 0 || at[i] >= size;
          }) == std::int64_t(host.size()))
        return;
    }
    missing_count_ = 0;
    for (int e = 0; e < from_.size(); ++e)
      for (int s = 0; s < arity_; ++s) {
        const int v = host(e, s);
        if (allows_missing_ && v == missing_)
          ++missing_count_;
        else if (v < 0 || v >= to_.size())
          detail::fail("map '", name_, "': element ", e, " slot ", s, " points at ", v,
                       ", outside to-set '", to_.name(), "' of size ", to_.size(),
                       allows_missing_ ? " (and not its 'no neighbour' value " : "",
                       allows_missing_ ? std::to_string(missing_) + ")" : "");
      }
  }

  std::string name_;
  Set from_, to_;
  int arity_;
  view_type indices_;
  bool allows_missing_ = false;
  int missing_ = -1;
  std::int64_t missing_count_ = 0;
};

/// Copies a map into another memory space (e.g. host -> device).
template <class DstSpace, class SrcSpace> Map<DstSpace> clone_to(const Map<SrcSpace> &map) {
  typename Map<DstSpace>::view_type dst(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Map::" + map.name()),
      map.entries().extent(0), map.entries().extent(1));
  Kokkos::deep_copy(dst, map.entries());
  if (map.allows_missing())
    return Map<DstSpace>(map.name(), map.from(), map.to(), map.arity(), dst,
                         MapMissing{map.missing_value()});
  return Map<DstSpace>(map.name(), map.from(), map.to(), map.arity(), dst);
}

} // namespace umesh

#endif
