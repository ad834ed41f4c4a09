#ifndef UMESH_APPS_COMMON_APP_BUILT_HPP
#define UMESH_APPS_COMMON_APP_BUILT_HPP

// Which executors and layouts this build instantiated the apps' solvers for
// (CMake's UMESH_APP_EXECUTORS and UMESH_APP_LAYOUTS; all by default). A
// dispatch must not name a left-out one: its solver was never compiled. The
// executors come from the registry (umesh/exec_registry.hpp) through the
// header CMake writes (cmake/umeshExecutors.cmake).

#include <umesh/exec.hpp>
#include <umesh/exec_auto.hpp>
#include <umesh/layout.hpp>

#include <umesh_app_executors.hpp>

#include <type_traits>

namespace umesh::apps {

/// True unless the build left executor (or layout) tag E out. The apps'
/// 'auto' (CMake's Auto) tunes over every executor, exec::AutoAll, not
/// exec::Auto's short default list (docs/executors.md).
template <class E> struct AppBuilt : std::true_type {};
#define UMESH_APP_LEFT_OUT(Tag)                                                                    \
  template <> struct AppBuilt<exec::Tag> : std::false_type {};
UMESH_APP_LEFT_OUT_TAGS(UMESH_APP_LEFT_OUT)
#undef UMESH_APP_LEFT_OUT
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
