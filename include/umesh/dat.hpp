#ifndef UMESH_DAT_HPP
#define UMESH_DAT_HPP

#include <umesh/error.hpp>
#include <umesh/layout.hpp>
#include <umesh/set.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh {

namespace detail {
/// Rows a dat allocates for `n` points. SoA components after the first
/// start on 128-byte boundaries: a component starting mid-sector makes every
/// warp's access to it touch one more 32-byte sector and store partial ones.
/// The extra rows are never part of the
/// set.
template <class T, int Dim, class Layout> constexpr std::size_t dat_rows(std::size_t n) {
  if constexpr (std::is_same<Layout, SoA>::value && Dim > 1) {
    constexpr std::size_t per = sizeof(T) < 128 ? 128 / sizeof(T) : 1;
    return (n + per - 1) / per * per;
  } else {
    return n;
  }
}
} // namespace detail

/// Data on a set: `Dim` components of type `T` per point, stored in a
/// `[rows][Dim]` View with layout `AoS` or `SoA`; its first `set.size()`
/// rows are the set's points (SoA dats of several components allocate a
/// few more rows, so that each component starts 128-byte aligned).
template <class T, int Dim, class Layout = AoS,
          class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class Dat {
  static_assert(Dim >= 1, "umesh::Dat needs at least one component");
  static_assert(is_layout_v<Layout>, "umesh::Dat layout must be umesh::AoS or umesh::SoA");
  static_assert(std::is_arithmetic<T>::value,
                "umesh::Dat holds arithmetic types (float, double, int...)");

public:
  using value_type = T;
  using layout = Layout;
  using memory_space = MemorySpace;
  using view_type = Kokkos::View<T *[Dim], Layout, MemorySpace>;
  static constexpr int dim = Dim;

  /// Allocates zero-initialised data on `set`.
  Dat(Set set, std::string name)
      : set_(std::move(set)), name_(std::move(name)),
        view_("umesh::Dat::" + name_, detail::dat_rows<T, Dim, Layout>(set_.size())) {}

  /// Wraps an existing View, which must have one row per set element (or
  /// the rows a dat of this type allocates for the set).
  Dat(Set set, std::string name, view_type view)
      : set_(std::move(set)), name_(std::move(name)), view_(std::move(view)) {
    const std::size_t n = std::size_t(set_.size());
    if (view_.extent(0) != n && view_.extent(0) != detail::dat_rows<T, Dim, Layout>(n))
      detail::fail("dat '", name_, "' has ", view_.extent(0), " rows but set '", set_.name(),
                   "' has size ", set_.size());
    if (!view_.span_is_contiguous())
      detail::fail("dat '", name_, "' wraps a non-contiguous View");
  }

  /// Wraps a rank-1 View (`Kokkos::View<T*>`, any layout, unit stride) as
  /// the dat's one component, without a copy: the dat shares the View's
  /// memory and keeps it alive. One row per set element.
  template <class... P, int D = Dim, std::enable_if_t<D == 1, int> = 0>
  Dat(Set set, std::string name, const Kokkos::View<T *, P...> &view)
      : set_(std::move(set)), name_(std::move(name)) {
    static_assert(std::is_same<typename Kokkos::View<T *, P...>::memory_space, MemorySpace>::value,
                  "umesh::Dat: the wrapped View lives in another memory space than the dat's "
                  "(Dat<T, 1, Layout, View::memory_space> wraps it)");
    if (view.extent(0) != std::size_t(set_.size()))
      detail::fail("dat '", name_, "' wraps a View of ", view.extent(0), " values but set '",
                   set_.name(), "' has size ", set_.size());
    if (view.extent(0) > 1 && view.stride(0) != 1)
      detail::fail("dat '", name_, "' wraps a View of stride ", view.stride(0),
                   "; a dat needs its values adjacent");
    view_ = view_type(view.data(), view.extent(0));
    owner_ = std::make_shared<const Kokkos::View<T *, P...>>(view);
  }

  const Set &set() const { return set_; }
  const std::string &name() const { return name_; }
  const view_type &view() const { return view_; }
  int size() const { return set_.size(); }
  /// Rows of view(): size(), or a few more (SoA component alignment).
  int rows() const { return int(view_.extent(0)); }

private:
  Set set_;
  std::string name_;
  view_type view_;
  // A wrapped rank-1 View, which view_ (unmanaged) does not keep alive.
  std::shared_ptr<const void> owner_;
};

namespace detail {
// dst's points from src's (same set): one deep_copy where the Views match,
// else through host mirrors (deep_copy needs one layout and one row count).
template <class T, int Dim, class L1, class M1, class L2, class M2>
void copy_points(const Dat<T, Dim, L1, M1> &dst, const Dat<T, Dim, L2, M2> &src) {
  if constexpr (std::is_same<L1, L2>::value) {
    if (dst.rows() == src.rows()) {
      Kokkos::deep_copy(dst.view(), src.view()); // any memory spaces, no temporary
      return;
    }
  }
  auto from = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), src.view());
  auto to = Kokkos::create_mirror_view(dst.view());
  for (int i = 0; i < src.size(); ++i)
    for (int k = 0; k < Dim; ++k)
      to(i, k) = from(i, k);
  Kokkos::deep_copy(dst.view(), to);
}
} // namespace detail

/// Copies a dat into another memory space and/or layout, same set and name.
template <class DstSpace, class DstLayout = void, class T, int Dim, class L, class M>
auto clone_to(const Dat<T, Dim, L, M> &dat) {
  using Layout = std::conditional_t<std::is_void<DstLayout>::value, L, DstLayout>;
  Dat<T, Dim, Layout, DstSpace> out(dat.set(), dat.name());
  detail::copy_points(out, dat);
  return out;
}

/// Copies `src`'s values into `dst` (same set, any memory space or layout).
template <class T, int Dim, class L1, class M1, class L2, class M2>
void copy_values(const Dat<T, Dim, L1, M1> &dst, const Dat<T, Dim, L2, M2> &src) {
  if (dst.set() != src.set())
    detail::fail("copy_values: dat '", src.name(), "' on set '", src.set().name(),
                 "' cannot be copied into dat '", dst.name(), "' on set '", dst.set().name(), "'");
  detail::copy_points(dst, src);
}

namespace detail {
// Thread i sets values i, i + stride, i + 2 stride...: a store of a warp
// stays contiguous, and each thread does several.
template <class T> struct FillFunctor {
  T *data;
  T value;
  std::int64_t n, stride;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    for (std::int64_t j = i; j < n; j += stride)
      data[j] = value;
  }
};
} // namespace detail

/// Sets every value of the contiguous View `v` (a dat's view(): padding
/// rows too) to `value`, in order with the work on `space` and without the
/// host waiting: one flat launch, eight values a thread. (Kokkos 3.4's own
/// fill of a two-dimensional View was a multidimensional launch at low
/// occupancy: docs/performance-notes.md.)
template <class Space, class View>
void fill(const Space &space, const View &v, typename View::const_value_type &value) {
  static_assert(Kokkos::is_view<View>::value, "umesh::fill takes a Kokkos View (a dat's view())");
  static_assert(Kokkos::SpaceAccessibility<Space, typename View::memory_space>::accessible,
                "umesh::fill: the execution space cannot access the View's memory");
  if (!v.span_is_contiguous())
    detail::fail("umesh::fill: View '", v.label(), "' is not contiguous");
  const std::int64_t n = std::int64_t(v.span());
  const std::int64_t threads = (n + 7) / 8;
  Kokkos::parallel_for(
      "umesh::fill",
      Kokkos::Experimental::require(
          Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, threads),
          Kokkos::Experimental::WorkItemProperty::HintLightWeight),
      detail::FillFunctor<typename View::non_const_value_type>{v.data(), value, n, threads});
}

/// Sets a dat from host values laid out `[point][component]`.
template <class T, int Dim, class L, class M>
void copy_from_host(const Dat<T, Dim, L, M> &dat, const std::vector<T> &values) {
  if (values.size() != std::size_t(dat.size()) * Dim)
    detail::fail("copy_from_host: dat '", dat.name(), "' needs ", std::size_t(dat.size()) * Dim,
                 " values (", dat.size(), " points x ", Dim, "), got ", values.size());
  auto h = Kokkos::create_mirror_view(dat.view());
  for (int i = 0; i < dat.size(); ++i)
    for (int k = 0; k < Dim; ++k)
      h(i, k) = values[std::size_t(i) * Dim + k];
  Kokkos::deep_copy(dat.view(), h);
}

} // namespace umesh

#endif
