#ifndef UMESH_EXEC_REGISTRY_HPP
#define UMESH_EXEC_REGISTRY_HPP

// The executor registry: every executor, once, in the order programs list
// them. One line each: X(Tag, name, role), with
//   Tag   its tag in umesh::exec (defined with its plan in its own headers,
//         included by umesh/executors.hpp);
//   name  how command lines, result rows and tuning files call it;
//   role  reference (exec::Serial: what the others are checked against),
//         candidate (exec::AutoAll tries it, in this order: the tuning
//         files' keys list candidates so) or tuner (exec::AutoAll).
// Generated from these lines: exec::Every, exec::name_of and exec::AutoAll
// (umesh/exec_names.hpp, umesh/exec_auto.hpp); CMake's executor lists
// (cmake/umesh_executors.cmake reads this file: UMESH_APP_EXECUTORS, the
// apps' instances, the executor tests) and setup.sh's.
// Adding an executor: its headers, one line here, one include in
// umesh/executors.hpp.
#define UMESH_EXECUTORS(X)                                                                         \
  X(Serial, serial, reference)                                                                     \
  X(Atomic, atomic, candidate)                                                                     \
  X(ScatterView, scatterview, candidate)                                                           \
  X(Gather, gather, candidate)                                                                     \
  X(GlobalColour, colour, candidate)                                                               \
  X(Hierarchical, hierarchical, candidate)                                                         \
  X(Segmented, segmented, candidate)                                                               \
  X(WarpCombine, warp, candidate)                                                                  \
  X(AutoAll, auto, tuner)

#endif
