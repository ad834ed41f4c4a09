#ifndef UMESH_DETAIL_EXECUTOR_SCATTER_HPP
#define UMESH_DETAIL_EXECUTOR_SCATTER_HPP

// Kokkos' ScatterView with the backend's default duplication and
// contribution: one ScatterView per combined (dat, access), kept in the plan.

#include <umesh/detail/bind.hpp>
#include <umesh/detail/loop_body.hpp>
#include <umesh/plan.hpp>

#include <Kokkos_ScatterView.hpp>

#include <any>
#include <functional>
#include <map>
#include <tuple>
#include <type_traits>

namespace umesh {
namespace detail {

template <class SV> struct ScatterContribution;
template <class D, class L, class Dev, class Op, class Dup, class C>
struct ScatterContribution<Kokkos::Experimental::ScatterView<D, L, Dev, Op, Dup, C>> {
  using type = C;
};

template <class PlanT> struct ScatterIncPolicy {
  PlanT &plan;
  std::vector<const void *> dats;
  std::vector<std::function<void()>> contribute;

  template <Access A, class T, int D, class L, class M, class MM>
  auto combine(const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) {
    using Op =
        std::conditional_t<A == Access::inc, Kokkos::Experimental::ScatterSum,
                           std::conditional_t<A == Access::min, Kokkos::Experimental::ScatterMin,
                                              Kokkos::Experimental::ScatterMax>>;
    using SV = Kokkos::Experimental::ScatterView<T *[D], L, typename PlanT::execution_space, Op>;
#if KOKKOS_VERSION < 40000
    // Kokkos 3's atomic ScatterMin/ScatterMax retry test divides by the old
    // value and accepts wrong results for negative ones; where ScatterView
    // would use atomics (GPUs), min and max use Kokkos' atomic_fetch_min/max.
    if constexpr (A != Access::inc && std::is_same<typename ScatterContribution<SV>::type,
                                                   Kokkos::Experimental::ScatterAtomic>::value) {
      return IndirectCombineDev<A, T, D, L, true>{
          {}, dat_ptr(a.dat), a.map.view().data(), a.map.arity(), a.slot};
    } else
#endif
    {
      return bind_scatter<SV>(a);
    }
  }

  template <class SV, Access A, class T, int D, class L, class M, class MM>
  auto bind_scatter(const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) {
    const void *key = a.dat.view().data();
    std::any &slot = plan.scatter_slot(key, a.dat.view().size(), A);
    if (std::any_cast<SV>(&slot) == nullptr)
      slot = SV(a.dat.view());
    SV sv = std::any_cast<SV>(slot);
    bool first = true;
    for (auto d : dats)
      first = first && d != key;
    if (first) {
      // reset_except keeps the dat's own values when the ScatterView
      // aliases it (atomic and non-duplicated strategies).
      sv.reset_except(a.dat.view());
      dats.push_back(key);
      auto view = a.dat.view();
      contribute.push_back([sv, view]() mutable { Kokkos::Experimental::contribute(view, sv); });
    }
    return ScatterIncDev<SV>{{}, sv, a.map.view().data(), a.map.arity(), a.slot};
  }
};

} // namespace detail

template <class Space> class Plan<exec::ScatterView, Space> : public detail::PlanBase<Space> {
public:
  using exec_type = exec::ScatterView;
  template <class... Maps>
  Plan(const Space &space, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, std::move(set), maps...) {}

  /// The cached ScatterView of a dat (empty before its first loop).
  std::any &scatter_slot(const void *dat, std::size_t size, Access a) {
    return scatter_[{dat, size, a}];
  }

  template <class Kernel, class... Args>
  void run(const exec::NoLoopOptions &, const std::string &name, const Kernel &kernel,
           const Args &...args) {
    detail::ScatterIncPolicy<Plan> policy{*this, {}, {}};
    const int n = this->set_.size();
    detail::run_loop<Space>(
        policy, kernel,
        [&](const auto &body, auto &total) {
          detail::launch_range(this->space_, "umesh::scatterview::" + name, body, 0, n, nullptr,
                               total);
          for (auto &c : policy.contribute)
            c();
        },
        args...);
  }

private:
  std::map<std::tuple<const void *, std::size_t, Access>, std::any> scatter_;
};

} // namespace umesh

#endif
