#ifndef UMESH_PAR_LOOP_HPP
#define UMESH_PAR_LOOP_HPP

#include <umesh/detail/bind.hpp>
#include <umesh/detail/executor_auto.hpp>
#include <umesh/detail/executor_colour.hpp>
#include <umesh/detail/executor_direct.hpp>
#include <umesh/detail/executor_gather.hpp>
#include <umesh/detail/executor_hierarchical.hpp>
#include <umesh/detail/executor_scatter.hpp>
#include <umesh/detail/executor_segmented.hpp>
#include <umesh/detail/executor_warp.hpp>
#include <umesh/detail/plan_options.hpp>
#include <umesh/detail/profiling_region.hpp>
#include <umesh/plan.hpp>

#include <string>
#include <type_traits>

namespace umesh {

/// Runs `kernel` once for every element of the plan's set, under executor
/// `Exec`. The kernel receives one accessor per argument, in order.
/// Arguments are validated first; an invalid one throws umesh::Error.
/// The tag's loop options apply (the hierarchical executor's staging and
/// fallback, ...); plan options (block size, ...) are the plan's, and a tag
/// that gives one other than the plan's is an Error (docs/executors.md).
/// A hierarchical plan serves every kernel set (exec::HierarchicalOf<K>):
/// the tag's set is what the loop compiles.
template <class Exec, class Space, class Kernel, class... Args>
void par_loop(const Exec &exec, Plan<exec::plan_tag_t<Exec>, Space> &plan, const std::string &name,
              const Kernel &kernel, const Args &...args) {
  if constexpr (detail::has_plan_options<Exec>::value)
    detail::check_plan_options(name, exec, plan.options());
  detail::validate_all({name, plan.set()}, args...);
  const detail::ProfilingRegion region("umesh::par_loop::" + name);
  plan.run(exec, name, kernel, args...);
}

/// Executors that need no plan (Serial, Atomic) can run over a set directly.
template <class Exec, class Space, class Kernel, class... Args>
void par_loop(const Space &space, Exec exec, const Set &set, const std::string &name,
              const Kernel &kernel, const Args &...args) {
  static_assert(std::is_same<Exec, exec::Serial>::value || std::is_same<Exec, exec::Atomic>::value,
                "umesh::par_loop: this executor needs a plan; build one with "
                "umesh::make_plan(space, exec, set, maps...)");
  Plan<Exec, Space> plan(space, set);
  par_loop(exec, plan, name, kernel, args...);
}

} // namespace umesh

#endif
