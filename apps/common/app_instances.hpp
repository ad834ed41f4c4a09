#ifndef UMESH_APPS_COMMON_APP_INSTANCES_HPP
#define UMESH_APPS_COMMON_APP_INSTANCES_HPP

// What one of an app's solver_instance.cpp objects instantiates, from the
// definitions CMake gives it (umesh_app_executor_objects, CMakeLists.txt):
//   UMESH_APP_INSTANCE_LAYOUT  AoS or SoA
//   UMESH_APP_INSTANCE_EXEC    one executor tag, or undefined: every
//                              executor the build keeps (app_built.hpp)
//   UMESH_APP_PIECE            defined where the build splits the solver
//                              into groups of loops; then
//   UMESH_APP_PIECE_<name>     the group this object holds (the app names
//                              them); neither: the whole solver
// Macros rather than templates: an explicit instantiation must name each
// type, and these expand to one line per executor (and backend).

#include "app_built.hpp"

#if !defined(UMESH_APP_INSTANCE_LAYOUT)
#error "UMESH_APP_INSTANCE_LAYOUT (AoS or SoA) must be defined"
#endif

#if defined(UMESH_APP_WITHOUT_Auto)
#define UMESH_APP_IF_Auto(x)
#else
#define UMESH_APP_IF_Auto(x) x
#endif
#if defined(UMESH_APP_WITHOUT_Hierarchical)
#define UMESH_APP_IF_Hierarchical(x)
#else
#define UMESH_APP_IF_Hierarchical(x) x
#endif
#if defined(UMESH_APP_WITHOUT_WarpCombine)
#define UMESH_APP_IF_WarpCombine(x)
#else
#define UMESH_APP_IF_WarpCombine(x) x
#endif
#if defined(UMESH_APP_WITHOUT_Segmented)
#define UMESH_APP_IF_Segmented(x)
#else
#define UMESH_APP_IF_Segmented(x) x
#endif
#if defined(UMESH_APP_WITHOUT_ScatterView)
#define UMESH_APP_IF_ScatterView(x)
#else
#define UMESH_APP_IF_ScatterView(x) x
#endif
#if defined(UMESH_APP_WITHOUT_GlobalColour)
#define UMESH_APP_IF_GlobalColour(x)
#else
#define UMESH_APP_IF_GlobalColour(x) x
#endif
#if defined(UMESH_APP_WITHOUT_Gather)
#define UMESH_APP_IF_Gather(x)
#else
#define UMESH_APP_IF_Gather(x) x
#endif
#if defined(UMESH_APP_WITHOUT_Atomic)
#define UMESH_APP_IF_Atomic(x)
#else
#define UMESH_APP_IF_Atomic(x) x
#endif
#if defined(UMESH_APP_WITHOUT_Serial)
#define UMESH_APP_IF_Serial(x)
#else
#define UMESH_APP_IF_Serial(x) x
#endif

/// M(Tag) for each executor tag (in umesh::exec) this object instantiates.
/// CMake's Auto is exec::AutoAll (app_built.hpp).
#if defined(UMESH_APP_INSTANCE_EXEC)
#define UMESH_APP_EACH_EXECUTOR(M) M(UMESH_APP_INSTANCE_EXEC)
#else
#define UMESH_APP_EACH_EXECUTOR(M)                                                                 \
  UMESH_APP_IF_Auto(M(AutoAll)) UMESH_APP_IF_Hierarchical(M(Hierarchical))                         \
      UMESH_APP_IF_WarpCombine(M(WarpCombine)) UMESH_APP_IF_Segmented(M(Segmented))                \
          UMESH_APP_IF_ScatterView(M(ScatterView)) UMESH_APP_IF_GlobalColour(M(GlobalColour))      \
              UMESH_APP_IF_Gather(M(Gather)) UMESH_APP_IF_Atomic(M(Atomic))                        \
                  UMESH_APP_IF_Serial(M(Serial))
#endif

/// M(Tag, Backend) for each backend the app has: LocalBackend, and
/// DistBackend in MPI builds.
#if defined(UMESH_APP_MPI)
#define UMESH_APP_EACH_BACKEND(M, E) M(E, LocalBackend) M(E, DistBackend)
#else
#define UMESH_APP_EACH_BACKEND(M, E) M(E, LocalBackend)
#endif

#endif
