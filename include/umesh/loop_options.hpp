#ifndef UMESH_LOOP_OPTIONS_HPP
#define UMESH_LOOP_OPTIONS_HPP

// Options by lifetime: an executor's tag holds its plan options (make_plan)
// and names its loop options, `Exec::Loop`, which par_loop takes per call.

#include <type_traits>

namespace umesh::exec {

/// The base of every executor's loop options: what par_loop(plan, options,
/// name, kernel, args...) takes between the plan and the loop's name.
struct LoopOptions {};

/// The loop options of executors that have none.
struct NoLoopOptions : LoopOptions {};

/// Whether L is an executor's loop options.
template <class L> inline constexpr bool is_loop_options_v = std::is_base_of<LoopOptions, L>::value;

/// An executor's plan options and loop options together, for programs that
/// choose both at once (a command line, a sweep of variants):
/// make_plan(space, v.plan(), ...) and par_loop(plan, v.loop(), ...).
/// Exec::Variant names the one of each executor (the hierarchical one has
/// setters for both sets of options).
template <class E> struct VariantOf {
  E plan_options{};
  typename E::Loop loop_options{};
  const E &plan() const { return plan_options; }
  const typename E::Loop &loop() const { return loop_options; }
};

/// Whether a plan of executor E runs loops under options L: E's own
/// (E::Loop), or any kernel set's for the hierarchical plan (see there).
template <class E, class L> struct takes_loop_options : std::is_same<typename E::Loop, L> {};

} // namespace umesh::exec

#endif
