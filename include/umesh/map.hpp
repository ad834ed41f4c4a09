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

/// A mapping from every element of `from` to `arity` elements of `to`,
/// stored as a `[from.size()][arity]` View. Validated on creation.
template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space> class Map {
public:
  using memory_space = MemorySpace;
  using view_type = Kokkos::View<int **, Kokkos::LayoutRight, MemorySpace>;

  Map(std::string name, Set from, Set to, int arity, view_type indices)
      : name_(std::move(name)), from_(std::move(from)), to_(std::move(to)), arity_(arity),
        indices_(std::move(indices)) {
    validate();
  }

  /// Builds the View from host data laid out `[from][arity]`.
  Map(std::string name, Set from, Set to, int arity, const std::vector<int> &indices)
      : name_(std::move(name)), from_(std::move(from)), to_(std::move(to)), arity_(arity) {
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

  const std::string &name() const { return name_; }
  const Set &from() const { return from_; }
  const Set &to() const { return to_; }
  int arity() const { return arity_; }
  const view_type &view() const { return indices_; }

private:
  void validate() const {
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

  template <class HostView> void check_entries(const HostView &host) const {
    // Checked on the host's threads first; the serial pass below, which
    // names the first bad entry, runs only when there is one.
    if (host.span_is_contiguous()) { // (else a strided View: the serial pass)
      const int *at = host.data(), size = to_.size();
      if (detail::first_where(std::int64_t(host.size()), [=](std::int64_t i) {
            return at[i] < 0 || at[i] >= size;
          }) == std::int64_t(host.size()))
        return;
    }
    for (int e = 0; e < from_.size(); ++e)
      for (int s = 0; s < arity_; ++s) {
        const int v = host(e, s);
        if (v < 0 || v >= to_.size())
          detail::fail("map '", name_, "': element ", e, " slot ", s, " points at ", v,
                       ", outside to-set '", to_.name(), "' of size ", to_.size());
      }
  }

  std::string name_;
  Set from_, to_;
  int arity_;
  view_type indices_;
};

/// Copies a map into another memory space (e.g. host -> device).
template <class DstSpace, class SrcSpace> Map<DstSpace> clone_to(const Map<SrcSpace> &map) {
  typename Map<DstSpace>::view_type dst(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Map::" + map.name()),
      map.view().extent(0), map.view().extent(1));
  Kokkos::deep_copy(dst, map.view());
  return Map<DstSpace>(map.name(), map.from(), map.to(), map.arity(), dst);
}

} // namespace umesh

#endif
