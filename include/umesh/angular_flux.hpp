#ifndef UMESH_ANGULAR_FLUX_HPP
#define UMESH_ANGULAR_FLUX_HPP

// The values a sweep writes: one per (cell, direction, group), as a
// `[cell][direction][group]` View. AoS (LayoutRight) keeps a (cell,
// direction)'s groups adjacent: the lanes that run a cell's groups read and
// write one run of memory. SoA (LayoutLeft) keeps cells adjacent for each
// (direction, group). docs/sweeps.md.

#include <umesh/error.hpp>
#include <umesh/layout.hpp>
#include <umesh/set.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace umesh {

/// A value of type T per cell of `cells`, direction and group: a sweep's
/// unknowns (the angular flux of transport). Zero when allocated.
template <class T, class Layout = AoS,
          class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class AngularFlux {
  static_assert(is_layout_v<Layout>, "umesh::AngularFlux layout must be umesh::AoS or umesh::SoA");
  static_assert(std::is_floating_point<T>::value,
                "umesh::AngularFlux holds floating-point values (float, double)");

public:
  using value_type = T;
  using layout = Layout;
  using memory_space = MemorySpace;
  using view_type = Kokkos::View<T ***, Layout, MemorySpace>;

  AngularFlux(Set cells, int directions, int groups, std::string name)
      : cells_(std::move(cells)), name_(std::move(name)) {
    if (directions < 1 || groups < 1)
      fail("angular flux '", name_, "': ", directions, " directions and ", groups,
           " groups; each must be at least 1");
    view_ = view_type("umesh::AngularFlux::" + name_, std::size_t(cells_.size()),
                      std::size_t(directions), std::size_t(groups));
  }

  const Set &cells() const { return cells_; }
  const std::string &name() const { return name_; }
  int directions() const { return int(view_.extent(1)); }
  int groups() const { return int(view_.extent(2)); }
  const view_type &view() const { return view_; }

private:
  Set cells_;
  std::string name_;
  view_type view_;
};

} // namespace umesh

#endif
