#ifndef UMESH_DETAIL_EXECUTOR_DIRECT_HPP
#define UMESH_DETAIL_EXECUTOR_DIRECT_HPP

// Serial (reference) and Atomic executors: no planning needed.

#include <umesh/detail/bind.hpp>
#include <umesh/detail/loop_body.hpp>
#include <umesh/plan.hpp>

namespace umesh {
namespace detail {

template <bool Atomic> struct DirectIncPolicy {
  template <Access A, class T, int D, class L, class M, class MM>
  auto combine(const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) const {
    return IndirectCombineDev<A, T, D, L, Atomic>{
        {}, dat_ptr(a.dat), a.map.view().data(), a.map.arity(), a.slot};
  }
};

} // namespace detail

template <class Space> class Plan<exec::Serial, Space> : public detail::PlanBase<Space> {
public:
  using exec_type = exec::Serial;
  template <class... Maps>
  Plan(const Space &space, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, std::move(set), maps...) {}

  template <class Kernel, class... Args>
  void run(const exec_type &, const std::string &name, const Kernel &kernel, const Args &...args) {
    detail::DirectIncPolicy<false> policy;
    const int n = this->set_.size();
    detail::run_loop<Space>(
        policy, kernel,
        [&](const auto &body, auto &total) {
          detail::launch_sequential(this->space_, "umesh::serial::" + name, body, n, total);
        },
        args...);
  }
};

template <class Space> class Plan<exec::Atomic, Space> : public detail::PlanBase<Space> {
public:
  using exec_type = exec::Atomic;
  template <class... Maps>
  Plan(const Space &space, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, std::move(set), maps...) {}

  template <class Kernel, class... Args>
  void run(const exec_type &, const std::string &name, const Kernel &kernel, const Args &...args) {
    detail::DirectIncPolicy<true> policy;
    const int n = this->set_.size();
    detail::run_loop<Space>(
        policy, kernel,
        [&](const auto &body, auto &total) {
          detail::launch_range(this->space_, "umesh::atomic::" + name, body, 0, n, nullptr, total);
        },
        args...);
  }
};

} // namespace umesh

#endif
