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

/// M(Tag) for each executor tag (in umesh::exec) this object instantiates:
/// the one CMake names, or every one the build keeps (app_built.hpp).
#if defined(UMESH_APP_INSTANCE_EXEC)
#define UMESH_APP_EACH_EXECUTOR(M) M(UMESH_APP_INSTANCE_EXEC)
#else
#define UMESH_APP_EACH_EXECUTOR(M) UMESH_APP_BUILT_TAGS(M)
#endif

/// M(Tag, Backend) for each backend the app has: LocalBackend, and
/// DistBackend in MPI builds.
#if defined(UMESH_APP_MPI)
#define UMESH_APP_EACH_BACKEND(M, E) M(E, LocalBackend) M(E, DistBackend)
#else
#define UMESH_APP_EACH_BACKEND(M, E) M(E, LocalBackend)
#endif

#endif
