#ifndef UMESH_APPS_COMMON_APP_BUILT_HPP
#define UMESH_APPS_COMMON_APP_BUILT_HPP

// Which executors and layouts this build instantiated the apps' solvers for
// (CMake's UMESH_APP_EXECUTORS and UMESH_APP_LAYOUTS; all by default). A
// dispatch must not name a left-out one: its solver was never compiled.

#include <umesh/exec.hpp>
#include <umesh/exec_auto.hpp>
#include <umesh/layout.hpp>

#include <type_traits>

namespace umesh::apps {

/// True unless the build left executor (or layout) tag E out.
template <class E> struct AppBuilt : std::true_type {};
#if defined(UMESH_APP_WITHOUT_Serial)
template <> struct AppBuilt<exec::Serial> : std::false_type {};
#endif
#if defined(UMESH_APP_WITHOUT_Atomic)
template <> struct AppBuilt<exec::Atomic> : std::false_type {};
#endif
#if defined(UMESH_APP_WITHOUT_Gather)
template <> struct AppBuilt<exec::Gather> : std::false_type {};
#endif
#if defined(UMESH_APP_WITHOUT_GlobalColour)
template <> struct AppBuilt<exec::GlobalColour> : std::false_type {};
#endif
#if defined(UMESH_APP_WITHOUT_ScatterView)
template <> struct AppBuilt<exec::ScatterView> : std::false_type {};
#endif
#if defined(UMESH_APP_WITHOUT_Hierarchical)
template <> struct AppBuilt<exec::Hierarchical> : std::false_type {};
#endif
#if defined(UMESH_APP_WITHOUT_Segmented)
template <> struct AppBuilt<exec::Segmented> : std::false_type {};
#endif
#if defined(UMESH_APP_WITHOUT_WarpCombine)
template <> struct AppBuilt<exec::WarpCombine> : std::false_type {};
#endif
// The apps' 'auto' (CMake's Auto) tunes over every executor, exec::AutoAll,
// not exec::Auto's short default list: on the GPU miniAero's limiter stencil
// runs fastest under a hierarchical variant and its gradient under warp
// (perf/results/apps-h200), LULESH's stress loop under a hierarchical one
// (perf/results/lulesh-h100); on hosts the hierarchical 'none' staging wins
// some loops (perf/results/cpu-auto).
#if defined(UMESH_APP_WITHOUT_Auto)
template <> struct AppBuilt<exec::AutoAll> : std::false_type {};
#endif
#if defined(UMESH_APP_WITHOUT_AoS)
template <> struct AppBuilt<AoS> : std::false_type {};
#endif
#if defined(UMESH_APP_WITHOUT_SoA)
template <> struct AppBuilt<SoA> : std::false_type {};
#endif

/// What the build instantiated, for messages.
inline const char *app_built_list() {
#if defined(UMESH_APP_BUILT_EXECUTORS) && defined(UMESH_APP_BUILT_LAYOUTS)
  return "executors " UMESH_APP_BUILT_EXECUTORS ", layouts " UMESH_APP_BUILT_LAYOUTS;
#else
  return "every executor and layout";
#endif
}

} // namespace umesh::apps

#endif
