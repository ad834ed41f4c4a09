#ifndef UMESH_UMESH_HPP
#define UMESH_UMESH_HPP

// umesh: race-free, fast loops over unstructured meshes on Kokkos.

#include <umesh/access.hpp>
#include <umesh/accessor.hpp>
#include <umesh/block_plan.hpp>
#include <umesh/colouring.hpp>
#include <umesh/compact_map.hpp>
#include <umesh/concurrency.hpp>
#include <umesh/connectivity.hpp>
#include <umesh/dat.hpp>
#include <umesh/decimal.hpp>
#include <umesh/device_global.hpp>
#include <umesh/element_args.hpp>
#include <umesh/element_auto.hpp>
#include <umesh/element_exec.hpp>
#include <umesh/element_loop.hpp>
#include <umesh/element_team.hpp>
#include <umesh/error.hpp>
#include <umesh/exec.hpp>
#include <umesh/exec_auto.hpp>
#include <umesh/exec_hierarchical.hpp>
#include <umesh/exec_names.hpp>
#include <umesh/extruded.hpp>
#include <umesh/global.hpp>
#include <umesh/gmsh.hpp>
#include <umesh/layout.hpp>
#include <umesh/loop_graph.hpp>
#include <umesh/map.hpp>
#include <umesh/math.hpp>
#include <umesh/mesh.hpp>
#include <umesh/par_loop.hpp>
#include <umesh/partition.hpp>
#include <umesh/permutation.hpp>
#include <umesh/plan.hpp>
#include <umesh/plan_file.hpp>
#include <umesh/renumber.hpp>
#include <umesh/segment_table.hpp>
#include <umesh/set.hpp>
#include <umesh/subsets.hpp>
#include <umesh/sweep.hpp>
#include <umesh/sweep_auto.hpp>
#include <umesh/sweep_mesh.hpp>
#include <umesh/sweep_schedule.hpp>
#include <umesh/timing.hpp>
#include <umesh/tuning_file.hpp>

#endif
