#ifndef UMESH_APPS_COMMON_EXEC_NAMES_HPP
#define UMESH_APPS_COMMON_EXEC_NAMES_HPP

// The apps' executors (names from umesh/exec_names.hpp), and the dispatch
// from a name to its tag type (the apps instantiate their solvers per tag).

#include "common/app_built.hpp"

#include <umesh/error.hpp>
#include <umesh/exec.hpp>
#include <umesh/exec_auto.hpp>
#include <umesh/exec_names.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>

#include <string>
#include <type_traits>
#include <vector>

namespace umesh::apps {

/// The executors the apps dispatch to: every one (umesh/exec_names.hpp),
/// "auto" over every other (exec::AutoAll: see app_built.hpp).
using AppExecutors = exec::Every;

/// Executors an app's '--exec all' runs, in order ('auto' is named apart).
inline std::vector<std::string> executor_names() {
  std::vector<std::string> out = exec::names(AppExecutors{});
  out.erase(std::remove(out.begin(), out.end(), exec::name_of_v<exec::AutoAll>), out.end());
  return out;
}

/// Calls f(tag) with the tag of the executor called `name` (one of
/// executor_names() or "auto"); false when `name` is none of them. Fails
/// (umesh::Error) when this build left that executor out (UMESH_APP_EXECUTORS).
template <class F> bool with_executor(const std::string &name, F &&f) {
  return exec::with_name(AppExecutors{}, name, [&](auto tag) {
    if constexpr (AppBuilt<decltype(tag)>::value)
      f(tag);
    else
      throw umesh::Error("executor '" + name + "' was left out of this build (it has " +
                         app_built_list() + "; CMake option UMESH_APP_EXECUTORS)");
  });
}

/// Calls f(layout) with umesh::SoA{} or umesh::AoS{}; fails (umesh::Error)
/// when this build left that layout out (UMESH_APP_LAYOUTS).
template <class F> void with_layout(bool soa, F &&f) {
  const auto call = [&](auto layout) {
    if constexpr (AppBuilt<decltype(layout)>::value)
      f(layout);
    else
      throw umesh::Error(std::string("layout ") + (soa ? "soa" : "aos") +
                         " was left out of this build (it has " + app_built_list() +
                         "; CMake option UMESH_APP_LAYOUTS)");
  };
  if (soa)
    call(umesh::SoA{});
  else
    call(umesh::AoS{});
}

/// Executor Exec's plan and loop options as an app's run options `o`
/// configure them (members hierarchical, warp and autotune), or the
/// defaults for executors without options.
template <class Exec, class O> typename Exec::Variant executor_from(const O &o) {
  if constexpr (std::is_same<Exec, exec::Hierarchical>::value)
    return o.hierarchical;
  else if constexpr (std::is_same<Exec, exec::WarpCombine>::value)
    return o.warp;
  else if constexpr (std::is_same<Exec, exec::AutoAll>::value)
    return {o.autotune, {}};
  else
    return {};
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
  execs.clear();
  for (const auto &name : all) { // those this build instantiated (and the apps' own)
    try {
      with_executor(name, [](auto) {});
      execs.push_back(name);
    } catch (const umesh::Error &) {
    }
  }
  if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) {
    execs.erase(std::remove(execs.begin(), execs.end(), "serial"), execs.end());
    std::printf("note: 'all' leaves out the serial executor on a GPU backend\n");
  }
  return {};
}

} // namespace umesh::apps

#endif
