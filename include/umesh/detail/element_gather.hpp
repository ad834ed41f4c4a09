#ifndef UMESH_DETAIL_ELEMENT_GATHER_HPP
#define UMESH_DETAIL_ELEMENT_GATHER_HPP

// exec::ElementGather's plan: the loop's combining rows fold into the
// element's own slots of a temporary [element][slot][component] (set to the
// access's identity first); then, one launch per such row, every point folds
// its slots in ascending (element, slot) order over the map's inverse and
// folds the result into the dat. Nothing races and the order never depends
// on the team shape or the backend: results are bitwise reproducible.

#include <umesh/colouring.hpp>
#include <umesh/dat.hpp>
#include <umesh/detail/element_plans.hpp>
#include <umesh/detail/element_rows.hpp>
#include <umesh/element_args.hpp>
#include <umesh/extruded.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>

#include <functional>
#include <string>
#include <vector>

namespace umesh {
namespace detail {

/// Point p of a map's to-set folds its entries (element * arity + slot,
/// ascending) of `temp` into the dat.
template <Access A, class T, int Dim, class Layout> struct GatherRowsFunctor {
  DatPtr<T, Dim, Layout> dat;
  const T *temp;
  const int *offsets, *entries;
  KOKKOS_INLINE_FUNCTION void operator()(int p) const {
    const int first = offsets[p], last = offsets[p + 1];
    if (first == last)
      return;
    T v[Dim];
    for (int k = 0; k < Dim; ++k)
      v[k] = temp[std::size_t(entries[first]) * Dim + k];
    for (int c = first + 1; c < last; ++c)
      for (int k = 0; k < Dim; ++k)
        v[k] = Combine<A>::apply(v[k], temp[std::size_t(entries[c]) * Dim + k]);
    T *d = dat.at(p);
    const int s = dat.stride()();
    for (int k = 0; k < Dim; ++k)
      d[k * s] = Combine<A>::apply(d[k * s], v[k]);
  }
};

} // namespace detail

/// One launch of the loop's elements (as ElementAtomic's), then one per
/// combining row to fold its slots into the points.
template <class Space>
class ElementPlan<exec::ElementGather, Space> : public detail::PlanBase<Space> {
public:
  using exec_type = exec::ElementGather;
  using memory_space = typename Space::memory_space;
  static constexpr detail::RowFold fold = detail::RowFold::buffer;

  template <class... Maps>
  ElementPlan(const Space &space, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, std::move(set), maps...) {
    Kokkos::Timer timer;
    (add_inverse(maps), ...);
    this->build_seconds_ = timer.seconds();
  }

  void begin_loop() {
    before_.clear();
    after_.clear();
    used_ = 0;
  }

  /// A combining row's device form: its temporary (kept by the plan for the
  /// next loops), the identity fill before the loop, the fold after it.
  template <Access A, class T, int D, class L, class M, class MM, int N>
  auto buffered_row(const RowArg<A, Dat<T, D, L, M>, Map<MM>, N> &a, const std::string &loop) {
    const Inverse &inv = inverses_[this->map_index(a.map, loop)];
    const std::size_t count = std::size_t(this->set_.size()) * a.map.arity() * D;
    if (used_ == buffers_.size())
      buffers_.emplace_back();
    auto &buffer = buffers_[used_++];
    if (buffer.size() < count * sizeof(T))
      buffer = Kokkos::View<char *, memory_space>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::ElementGather::slots"),
          count * sizeof(T));
    T *temp = reinterpret_cast<T *>(buffer.data());
    const Space space = this->space_;
    before_.push_back([=] {
      const Kokkos::View<T *, memory_space, Kokkos::MemoryUnmanaged> slots(temp, count);
      if (count > 0)
        umesh::fill(space, slots, detail::Combine<A>::template identity<T>());
    });
    const detail::GatherRowsFunctor<A, T, D, L> fold{detail::dat_ptr(a.dat), temp,
                                                     inv.offsets.data(), inv.entries.data()};
    const int points = a.map.to().size();
    const std::string label = "umesh::element_gather::" + loop;
    after_.push_back([=] {
      Kokkos::parallel_for(
          label, Kokkos::RangePolicy<Space, Kokkos::IndexType<int>>(space, 0, points), fold);
    });
    return detail::BufferedRowDev<A, T, D, N>{a.map.view().data(), a.map.arity(), temp};
  }

  detail::TeamShape shape(const ElementTeams &t) const {
    constexpr bool host = detail::runs_on_host<Space>();
    return {t.elements_per_team, host ? 1 : t.elements_per_team, host ? 1 : t.lanes};
  }
  template <class F> void launch(const std::string &name, F f, const detail::TeamShape &s) {
    for (const auto &step : before_)
      step();
    const int n = this->set_.size();
    f.schedule.n = n;
    f.schedule.per_team = s.per_team;
    detail::launch_element_teams(this->space_, "umesh::element_gather::" + name, f,
                                 (n + s.per_team - 1) / s.per_team, s);
    for (const auto &step : after_)
      step();
    begin_loop();
  }

private:
  struct Inverse {
    Kokkos::View<const int *, memory_space> offsets, entries;
  };
  template <class M> void add_inverse(const ReadOnlyMap<M> &) {} // (no key: never folded)
  template <class M> void add_inverse(const ExtrudedMap<M> &) {
    inverses_.emplace_back(); // (refused by the loop)
  }
  template <class M> void add_inverse(const Map<M> &map) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), map.view());
    const InverseMap inv = invert_map(map.from().size(), host.data(), map.arity(), map.to().size());
    inverses_.push_back(
        {detail::upload<memory_space>(inv.offsets, "umesh::ElementGather::offsets"),
         detail::upload<memory_space>(inv.entries, "umesh::ElementGather::entries")});
  }

  std::vector<Inverse> inverses_; // per map, in the plan's order
  std::vector<Kokkos::View<char *, memory_space>> buffers_;
  std::size_t used_ = 0;
  std::vector<std::function<void()>> before_, after_;
};

} // namespace umesh

#endif
