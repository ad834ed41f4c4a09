#ifndef UMESH_SUBSETS_HPP
#define UMESH_SUBSETS_HPP

// Subsets of a set's elements (materials, regions, boundary patches) that
// one loop runs over together: a plan made from them (make_plan(space,
// exec::Atomic{}, subsets)) launches once for all their elements, subset by
// subset, instead of once per subset. The kernel tells the subsets apart by
// reading index(), a dat holding each element's subset.

#include <umesh/dat.hpp>
#include <umesh/error.hpp>
#include <umesh/layout.hpp>
#include <umesh/set.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace umesh {

template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space> class Subsets {
public:
  using memory_space = MemorySpace;

  /// lists[s]: the elements of subset s, in the order a loop visits them.
  /// No element may be in two subsets (or twice in one); elements in none
  /// are left out of the loops.
  Subsets(std::string name, Set set, const std::vector<std::vector<int>> &lists)
      : name_(std::move(name)), set_(std::move(set)), index_(set_, name_ + "_index") {
    std::vector<int> all, owner(std::size_t(set_.size()), -1);
    offsets_.push_back(0);
    for (std::size_t s = 0; s < lists.size(); ++s) {
      for (int e : lists[s]) {
        if (e < 0 || e >= set_.size())
          detail::fail("subsets '", name_, "': subset ", s, " holds element ", e, ", but set '",
                       set_.name(), "' has ", set_.size(), " elements");
        if (owner[e] >= 0)
          detail::fail("subsets '", name_, "': element ", e, " is in subset ", owner[e],
                       owner[e] == int(s) ? " twice" : " and in subset " + std::to_string(s));
        owner[e] = int(s);
        all.push_back(e);
      }
      offsets_.push_back(int(all.size()));
    }
    elements_ = Kokkos::View<int *, MemorySpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Subsets::" + name_), all.size());
    Kokkos::deep_copy(elements_,
                      Kokkos::View<const int *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          all.data(), all.size()));
    auto index = Kokkos::create_mirror_view(index_.view());
    for (int e = 0; e < set_.size(); ++e)
      index(e, 0) = owner[e];
    Kokkos::deep_copy(index_.view(), index);
  }

  const std::string &name() const { return name_; }
  const Set &set() const { return set_; }
  /// Number of subsets.
  int count() const { return int(offsets_.size()) - 1; }
  /// Elements in all subsets together.
  int size() const { return offsets_.back(); }
  /// Subset s is elements()[begin(s), end(s)).
  int begin(int s) const { return offsets_[std::size_t(checked(s))]; }
  int end(int s) const { return offsets_[std::size_t(checked(s)) + 1]; }
  /// Every subset's elements, subset by subset.
  Kokkos::View<const int *, MemorySpace> elements() const { return elements_; }
  /// Each element's subset (-1 for elements in none): read(subsets.index()).
  const Dat<int, 1, SoA, MemorySpace> &index() const { return index_; }

private:
  int checked(int s) const {
    if (s < 0 || s >= count())
      detail::fail("subsets '", name_, "' has ", count(), " subsets, not one numbered ", s);
    return s;
  }

  std::string name_;
  Set set_;
  std::vector<int> offsets_;
  Kokkos::View<int *, MemorySpace> elements_;
  Dat<int, 1, SoA, MemorySpace> index_;
};

} // namespace umesh

#endif
