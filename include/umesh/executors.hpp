#ifndef UMESH_EXECUTORS_HPP
#define UMESH_EXECUTORS_HPP

// Every executor's plan and launches, one include each: the implementations
// of the tags the registry lists (umesh/exec_registry.hpp). A new executor
// adds its line there and its include here.

#include <umesh/detail/executor_auto.hpp>
#include <umesh/detail/executor_colour.hpp>
#include <umesh/detail/executor_direct.hpp>
#include <umesh/detail/executor_gather.hpp>
#include <umesh/detail/executor_hierarchical.hpp>
#include <umesh/detail/executor_scatter.hpp>
#include <umesh/detail/executor_segmented.hpp>
#include <umesh/detail/executor_warp.hpp>

#endif
