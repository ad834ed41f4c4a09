#ifndef UMESH_DETAIL_EXECUTOR_DIRECT_HPP
#define UMESH_DETAIL_EXECUTOR_DIRECT_HPP

// Serial (reference) and Atomic executors: no planning needed.

#include <umesh/detail/bind.hpp>
#include <umesh/detail/loop_body.hpp>
#include <umesh/plan.hpp>
#include <umesh/subsets.hpp>

#include <type_traits>

namespace umesh {
namespace detail {

template <bool Atomic> struct DirectIncPolicy {
  template <Access A, class T, int D, class L, class M, class MM>
  auto combine(const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) const {
    return IndirectCombineDev<A, T, D, L, Atomic>{
        {}, dat_ptr(a.dat), a.map.view().data(), a.map.arity(), a.slot};
  }
};

// The plans of Serial and Atomic: the set's elements in order, or the
// elements of some Subsets of it, subset by subset, in one launch.
template <class Space> class DirectPlan : public PlanBase<Space> {
public:
  /// Elements a loop visits: the set's, or the subsets'.
  int size() const { return over_subsets_ ? int(order_.extent(0)) : this->set_.size(); }
  /// Whether loops visit Subsets' elements rather than the whole set.
  bool over_subsets() const { return over_subsets_; }

protected:
  template <class... Maps>
  DirectPlan(const Space &space, Set set, const Maps &...maps)
      : PlanBase<Space>(space, std::move(set), maps...) {}
  template <class M>
  DirectPlan(const Space &space, const Subsets<M> &subsets)
      : PlanBase<Space>(space, subsets.set()), order_(subsets.elements()), over_subsets_(true) {
    static_assert(Kokkos::SpaceAccessibility<Space, M>::accessible,
                  "umesh::make_plan: the subsets live in a memory space the plan's execution "
                  "space cannot access");
  }
  /// The subsets' elements in loop order, or null for the whole set.
  const int *order() const { return over_subsets_ ? order_.data() : nullptr; }

private:
  Kokkos::View<const int *, typename Space::memory_space> order_;
  bool over_subsets_ = false;
};

} // namespace detail

template <class Space> class Plan<exec::Serial, Space> : public detail::DirectPlan<Space> {
public:
  using exec_type = exec::Serial;
  template <class... Maps>
  Plan(const Space &space, Set set, const Maps &...maps)
      : detail::DirectPlan<Space>(space, std::move(set), maps...) {}
  /// Loops over the elements of `subsets`, subset by subset, in one launch.
  template <class M>
  Plan(const Space &space, const Subsets<M> &subsets) : detail::DirectPlan<Space>(space, subsets) {}

  template <class Kernel, class... Args>
  void run(const exec::NoLoopOptions &, const std::string &name, const Kernel &kernel,
           const Args &...args) {
    detail::DirectIncPolicy<false> policy;
    detail::run_loop<Space>(
        policy, kernel,
        [&](const auto &body, auto &total) {
          detail::launch_sequential(this->space_, "umesh::serial::" + name, body, this->size(),
                                    total, this->order());
        },
        args...);
  }
};

template <class Space> class Plan<exec::Atomic, Space> : public detail::DirectPlan<Space> {
public:
  using exec_type = exec::Atomic;
  template <class... Maps>
  Plan(const Space &space, Set set, const Maps &...maps)
      : detail::DirectPlan<Space>(space, std::move(set), maps...) {}
  /// Loops over the elements of `subsets`, subset by subset, in one launch.
  template <class M>
  Plan(const Space &space, const Subsets<M> &subsets) : detail::DirectPlan<Space>(space, subsets) {}

  template <class Kernel, class... Args>
  void run(const exec::NoLoopOptions &, const std::string &name, const Kernel &kernel,
           const Args &...args) {
    detail::DirectIncPolicy<true> policy;
    detail::run_loop<Space>(
        policy, kernel,
        [&](const auto &body, auto &total) {
          detail::launch_range(this->space_, "umesh::atomic::" + name, body, 0, this->size(),
                               this->order(), total);
        },
        args...);
  }
};

/// A plan that runs loops over the elements of `subsets` (subset by subset,
/// one launch for all), for the executors without a plan of their own
/// (Serial, Atomic).
template <class Space, class Exec, class M>
Plan<Exec, Space> make_plan(const Space &space, Exec, const Subsets<M> &subsets) {
  static_assert(std::is_same<Exec, exec::Serial>::value || std::is_same<Exec, exec::Atomic>::value,
                "umesh::make_plan over Subsets: element-local loops run under exec::Serial or "
                "exec::Atomic");
  return Plan<Exec, Space>(space, subsets);
}

} // namespace umesh

#endif
