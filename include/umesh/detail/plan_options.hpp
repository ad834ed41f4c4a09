#ifndef UMESH_DETAIL_PLAN_OPTIONS_HPP
#define UMESH_DETAIL_PLAN_OPTIONS_HPP

// Plan options belong to make_plan, loop options to par_loop: a plan option
// that par_loop's tag gives (through its setter, or a value other than the
// default) must equal the one the plan was built with, else the loop would
// silently run with the plan's. Compiled once in src/plan_options.cpp.

#include <umesh/exec.hpp>
#include <umesh/exec_auto.hpp>

#include <string>
#include <type_traits>

namespace umesh::detail {

/// Fails (umesh::Error naming the loop, the option and both values) when
/// `loop_tag` gives a plan option other than `plan`'s.
void check_plan_options(const std::string &loop, const exec::HierarchicalOptions &loop_tag,
                        const exec::HierarchicalOptions &plan);
void check_plan_options(const std::string &loop, const exec::Segmented &loop_tag,
                        const exec::Segmented &plan);
void check_plan_options(const std::string &loop, const exec::WarpCombine &loop_tag,
                        const exec::WarpCombine &plan);
void check_plan_options(const std::string &loop, const exec::AutoOptions &loop_tag,
                        const exec::AutoOptions &plan);

/// The executors whose tags carry plan options (their plans keep theirs:
/// Plan::options()).
template <class Exec> struct has_plan_options : std::is_base_of<exec::AutoOptions, Exec> {};
template <unsigned K> struct has_plan_options<exec::HierarchicalOf<K>> : std::true_type {};
template <> struct has_plan_options<exec::Segmented> : std::true_type {};
template <> struct has_plan_options<exec::WarpCombine> : std::true_type {};

} // namespace umesh::detail

#endif
