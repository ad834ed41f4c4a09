#ifndef UMESH_PAR_LOOP_HPP
#define UMESH_PAR_LOOP_HPP

#include <umesh/detail/bind.hpp>
#include <umesh/detail/profiling_region.hpp>
#include <umesh/executors.hpp>
#include <umesh/plan.hpp>

#include <string>
#include <type_traits>

namespace umesh {

namespace detail {
template <class> inline constexpr bool not_loop_options = false;
} // namespace detail

/// Runs `kernel` once for every element of the plan's set, under the plan's
/// executor with loop options `loop` (the executor's `Exec::Loop`: the
/// hierarchical executor's staging and fallback, the warp executor's
/// register budget, ...; a hierarchical loop compiles the kernels its
/// options' type names). The kernel receives one accessor per argument, in
/// order. Arguments are validated first; an invalid one throws umesh::Error.
template <class Exec, class Space, class Loop, class Kernel, class... Args,
          std::enable_if_t<exec::is_loop_options_v<Loop>, int> = 0>
void par_loop(Plan<Exec, Space> &plan, const Loop &loop, const std::string &name,
              const Kernel &kernel, const Args &...args) {
  static_assert(exec::takes_loop_options<Exec, Loop>::value,
                "umesh::par_loop: these loop options are another executor's; a plan takes its "
                "own executor's (Exec::Loop), or none");
  detail::validate_all({name, plan.set()}, args...);
  const detail::ProfilingRegion region("umesh::par_loop::" + name);
  plan.run(loop, name, kernel, args...);
}

/// Runs `kernel` under the plan's executor with the default loop options.
template <class Exec, class Space, class Kernel, class... Args>
void par_loop(Plan<Exec, Space> &plan, const std::string &name, const Kernel &kernel,
              const Args &...args) {
  umesh::par_loop(plan, typename Exec::Loop{}, name, kernel, args...);
}

/// The form before plans carried their executor: a compile error that says
/// what to write instead.
template <class Tag, class Exec, class Space, class... Rest>
void par_loop(const Tag &, Plan<Exec, Space> &, const Rest &...) {
  static_assert(detail::not_loop_options<Tag>,
                "umesh::par_loop(exec, plan, ...): the plan carries its executor; write "
                "par_loop(plan, name, kernel, args...), or par_loop(plan, Exec::Loop{...}, name, "
                "kernel, args...) for loop options");
}

/// Executors that need no plan (Serial, Atomic) can run over a set directly.
template <class Exec, class Space, class Kernel, class... Args>
void par_loop(const Space &space, Exec, const Set &set, const std::string &name,
              const Kernel &kernel, const Args &...args) {
  static_assert(std::is_same<Exec, exec::Serial>::value || std::is_same<Exec, exec::Atomic>::value,
                "umesh::par_loop: this executor needs a plan; build one with "
                "umesh::make_plan(space, exec, set, maps...)");
  Plan<Exec, Space> plan(space, set);
  par_loop(plan, name, kernel, args...);
}

} // namespace umesh

#endif
