#ifndef UMESH_DIST_HPP
#define UMESH_DIST_HPP

// umesh over MPI ranks (needs MPI; CMake target umesh::dist): a mesh
// partitioned owner-compute style, data with halos, and par_loop with the
// halo exchanges its accesses need.

#include <umesh/dist/dat.hpp>
#include <umesh/dist/devices.hpp>
#include <umesh/dist/exchange.hpp>
#include <umesh/dist/exchange_baseline.hpp>
#include <umesh/dist/exchange_group.hpp>
#include <umesh/dist/gmsh_part.hpp>
#include <umesh/dist/graph_slice.hpp>
#include <umesh/dist/nccl.hpp>
#include <umesh/dist/overlap.hpp>
#include <umesh/dist/owners.hpp>
#include <umesh/dist/par_loop.hpp>
#include <umesh/dist/partition.hpp>
#include <umesh/dist/pieces.hpp>
#include <umesh/dist/ptscotch.hpp>

#endif
