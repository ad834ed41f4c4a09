#ifndef UMESH_DETAIL_EXECUTOR_GATHER_HPP
#define UMESH_DETAIL_EXECUTOR_GATHER_HPP

// Two-step gather: the kernel stores each increment (or min/max candidate) at
// temp[(element * arity + slot) * Dim + k]; then, for every (dat, map) pair,
// one kernel over the points combines the entries of the inverse map.

#include <umesh/colouring.hpp>
#include <umesh/detail/bind.hpp>
#include <umesh/detail/loop_body.hpp>
#include <umesh/plan.hpp>

#include <Kokkos_Timer.hpp>

#include <functional>
#include <map>
#include <utility>

namespace umesh {
namespace detail {

template <Access A, class T, int Dim, class Layout> struct GatherSum {
  DatPtr<T, Dim, Layout> dat;
  const T *temp;
  const int *offsets, *entries;
  int arity;
  unsigned slot_mask; // slots some argument stored to
  KOKKOS_INLINE_FUNCTION void operator()(int p) const {
    T sum[Dim];
    for (int k = 0; k < Dim; ++k)
      sum[k] = Combine<A>::template identity<T>();
    for (int j = offsets[p]; j < offsets[p + 1]; ++j) {
      const int idx = entries[j];
      if (!(slot_mask >> (idx % arity) & 1u))
        continue;
      const T *t = temp + std::size_t(idx) * Dim;
      for (int k = 0; k < Dim; ++k)
        sum[k] = Combine<A>::apply(sum[k], t[k]);
    }
    T *d = dat.at(p);
    const int s = dat.stride()();
    for (int k = 0; k < Dim; ++k)
      d[k * s] = Combine<A>::apply(d[k * s], sum[k]);
  }
};

template <class PlanT> struct GatherIncPolicy {
  PlanT &plan;
  const std::string &loop;
  struct Group {
    const void *dat, *map;
    unsigned slot_mask;
    std::function<void()> sum;
  };
  std::vector<Group> groups;

  template <Access A, class T, int D, class L, class M, class MM>
  auto combine(const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) {
    const int m = plan.map_index(a.map, loop);
    const auto &inv = plan.inverse(m);
    if (a.map.arity() > 32)
      fail("loop '", loop,
           "': the gather executor supports maps of arity up "
           "to 32; map '",
           a.map.name(), "' has arity ", a.map.arity());
    T *temp = reinterpret_cast<T *>(plan.workspace(
        a.dat.view().data(), m, std::size_t(a.map.from().size()) * a.map.arity() * D * sizeof(T)));
    Group *group = nullptr;
    for (auto &g : groups)
      if (g.dat == a.dat.view().data() && g.map == a.map.view().data())
        group = &g;
    if (!group) {
      groups.push_back({a.dat.view().data(), a.map.view().data(), 0u, {}});
      group = &groups.back();
    }
    const bool accumulate = group->slot_mask >> a.slot & 1u;
    group->slot_mask |= 1u << a.slot;
    GatherSum<A, T, D, L> sum{dat_ptr(a.dat),     temp,          inv.offsets.data(),
                              inv.entries.data(), a.map.arity(), group->slot_mask};
    const int n = a.dat.size();
    auto space = plan.space();
    const std::string label = "umesh::gather::sum::" + loop;
    // The last argument of a group sets the final mask; earlier closures are
    // replaced, so each group sums once.
    group->sum = [=]() {
      Kokkos::parallel_for(
          label,
          Kokkos::RangePolicy<typename PlanT::execution_space, Kokkos::IndexType<int>>(space, 0, n),
          sum);
    };
    return BufferedCombineDev<A, T, D>{{}, temp, a.map.arity(), a.slot, accumulate};
  }
};

} // namespace detail

template <class Space> class Plan<exec::Gather, Space> : public detail::PlanBase<Space> {
public:
  using exec_type = exec::Gather;
  using memory_space = typename Space::memory_space;
  struct Inverse {
    Kokkos::View<int *, memory_space> offsets, entries;
  };

  template <class... Maps>
  Plan(const Space &space, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, std::move(set), maps...) {
    Kokkos::Timer timer;
    (add_inverse(maps), ...);
    this->build_seconds_ = timer.seconds();
  }

  const Inverse &inverse(int m) const { return inverses_[m]; }

  /// Temporary increment array for (dat, map), kept between loops.
  void *workspace(const void *dat, int map, std::size_t bytes) {
    auto &buf = workspace_[{dat, map}];
    if (buf.extent(0) < bytes)
      buf = Kokkos::View<char *, memory_space>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Gather::temp"), bytes);
    return buf.data();
  }

  template <class Kernel, class... Args>
  void run(const exec::NoLoopOptions &, const std::string &name, const Kernel &kernel,
           const Args &...args) {
    detail::GatherIncPolicy<Plan> policy{*this, name, {}};
    const int n = this->set_.size();
    detail::run_loop<Space>(
        policy, kernel,
        [&](const auto &body, auto &total) {
          detail::launch_range(this->space_, "umesh::gather::" + name, body, 0, n, nullptr, total);
          for (auto &g : policy.groups)
            g.sum();
        },
        args...);
  }

private:
  template <class M> void add_inverse(const ReadOnlyMap<M> &) {}
  template <class MapT> void add_inverse(const MapT &map) {
    auto host = detail::host_indices(map);
    InverseMap inv = invert_map(map.from().size(), host.data(), map.arity(), map.to().size());
    inverses_.push_back({detail::upload<memory_space>(inv.offsets, "umesh::Gather::inv_offsets"),
                         detail::upload<memory_space>(inv.entries, "umesh::Gather::inv_entries")});
  }

  std::vector<Inverse> inverses_;
  std::map<std::pair<const void *, int>, Kokkos::View<char *, memory_space>> workspace_;
};

} // namespace umesh

#endif
