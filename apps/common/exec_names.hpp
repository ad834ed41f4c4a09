#ifndef UMESH_APPS_COMMON_EXEC_NAMES_HPP
#define UMESH_APPS_COMMON_EXEC_NAMES_HPP

// The executors' names on the apps' command lines, and the dispatch from a
// name to its tag type (the apps instantiate their solvers per tag).

#include <umesh/exec.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>

#include <string>
#include <type_traits>
#include <vector>

namespace umesh::perf {

/// Executors an app's '--exec all' runs, in order ('auto' is named apart).
inline std::vector<std::string> executor_names() {
  return {"serial", "atomic", "gather", "colour", "scatterview", "hierarchical", "warp"};
}

/// Calls f(tag) with the tag of the executor called `name` (one of
/// executor_names() or "auto"); false when `name` is none of them.
template <class F> bool with_executor(const std::string &name, F &&f) {
  if (name == "serial")
    f(exec::Serial{});
  else if (name == "atomic")
    f(exec::Atomic{});
  else if (name == "gather")
    f(exec::Gather{});
  else if (name == "colour")
    f(exec::GlobalColour{});
  else if (name == "scatterview")
    f(exec::ScatterView{});
  else if (name == "hierarchical")
    f(exec::Hierarchical{});
  else if (name == "warp")
    f(exec::WarpCombine{});
  else if (name == "auto")
    f(exec::Auto{});
  else
    return false;
  return true;
}

/// The executor Exec as an app's run options `o` configure it (members
/// hierarchical, warp and autotune), or Exec{} for executors without options.
template <class Exec, class O> Exec executor_from(const O &o) {
  if constexpr (std::is_same<Exec, exec::Hierarchical>::value)
    return o.hierarchical;
  else if constexpr (std::is_same<Exec, exec::WarpCombine>::value)
    return o.warp;
  else if constexpr (std::is_same<Exec, exec::Auto>::value)
    return o.autotune;
  else
    return Exec{};
}

/// Replaces '--exec all' by `all`; on a GPU backend (memory space `Mem` not
/// host-accessible) without "serial", one device thread, minutes per case
/// there (name it to run it anyway). Returns why the list is wrong ('all'
/// not alone), or empty.
template <class Mem>
std::string expand_all_executors(std::vector<std::string> &execs,
                                 const std::vector<std::string> &all) {
  if (std::find(execs.begin(), execs.end(), "all") == execs.end())
    return {};
  if (execs.size() != 1)
    return "--exec: 'all' stands alone";
  execs = all;
  if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) {
    execs.erase(std::remove(execs.begin(), execs.end(), "serial"), execs.end());
    std::printf("note: 'all' leaves out the serial executor on a GPU backend\n");
  }
  return {};
}

} // namespace umesh::perf

#endif
