#ifndef UMESH_LULESH_BACKEND_HPP
#define UMESH_LULESH_BACKEND_HPP

// Where LULESH's mesh and data live: in one process (LocalBackend) or spread
// over MPI ranks (DistBackend, umesh::dist). The solver's loops are the same
// under both; a backend says how sets, maps and dats are made from the
// global mesh, how a loop runs and how values come back.

#include "problem.hpp"

#include "common/backend_loops.hpp"
#include "common/ranks.hpp"

#include <umesh/umesh.hpp>
#if defined(UMESH_APP_MPI)
#include <umesh/dist.hpp>
#endif

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace lulesh {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
/// Host memory the device copies from in stream order, so that a recorded
/// CUDA graph's copy reads it when the graph runs: pinned on CUDA.
#ifdef KOKKOS_ENABLE_CUDA
using PinnedMem = std::conditional_t<std::is_same<Space, Kokkos::Cuda>::value,
                                     Kokkos::CudaHostPinnedSpace, Kokkos::HostSpace>;
#else
using PinnedMem = Kokkos::HostSpace;
#endif
using MapT = umesh::Map<Mem>;

/// Where a dat lives: on the nodes, on the elements (the loop set of the
/// element loops), or on the elements as the neighbour map's targets (the
/// monotonic Q reads its neighbours' gradients there; one process: the
/// elements themselves).
enum class On { nodes, elems, neighbour_elems };

/// One process: the whole mesh.
struct LocalBackend : umesh::apps::LocalLoops {
  template <class T, int D, class L> using Dat = umesh::Dat<T, D, L, Mem>;

  struct Parts {
    umesh::Set nodes, elems;
    MapT elem_nodes, neighbours;
    std::vector<std::vector<int>> regions; // each region's elements
  };
  static std::shared_ptr<Parts> parts(const Mesh &m) {
    if (m.part)
      umesh::fail("LULESH: a rank's own part of the mesh runs over MPI ranks only");
    const umesh::Set nodes("nodes", m.num_nodes), elems("elems", m.num_elems);
    return std::make_shared<Parts>(
        Parts{nodes, elems, MapT("elem_nodes", elems, nodes, 8, m.elem_nodes),
              MapT("elem_neighbours", elems, elems, 6, m.neighbours), m.regions});
  }
  /// A dat, zero or set from global values `[item][D]`.
  template <class T, int D, class L>
  static Dat<T, D, L> make(const Parts &p, On on, const std::string &name,
                           const std::vector<T> *values = nullptr) {
    // The neighbour map reads the element dat itself (for_neighbours): no
    // copy is needed, so none is allocated.
    Dat<T, D, L> d(on == On::nodes   ? p.nodes
                   : on == On::elems ? p.elems
                                     : umesh::Set("unused", 0),
                   name);
    if (values)
      umesh::copy_from_host(d, *values);
    return d;
  }
  /// The element dat the neighbour map reads: the dat itself.
  template <class DatT> static const DatT &for_neighbours(const DatT &d, const DatT &) { return d; }
  /// One element's first component, on the host.
  template <class DatT> static double element_value(const Parts &, const DatT &d, int elem) {
    double v = 0;
    Kokkos::deep_copy(v, Kokkos::subview(d.view(), elem, 0));
    return v;
  }
  /// [elem] of a one-component element dat, elements [0, n).
  template <class DatT> static std::vector<double> gather(const Parts &, const DatT &d, int n) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.view());
    std::vector<double> out(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = h(i, 0);
    return out;
  }
};

#if defined(UMESH_APP_MPI)
/// MPI ranks (umesh::dist): elements dealt in contiguous z-slabs of
/// LULESH's element order, each rank building only its own slab
/// (make_mesh_part), by PT-Scotch over their graph (elements sharing a
/// node), each rank building only the elements dealt it (ptscotch_mesh), or
/// by METIS k-way, every rank building the whole mesh; each node
/// on the rank of the first element that reaches it; halos of nodes
/// (positions, velocities, forces) and of neighbouring elements (the
/// monotonic Q's gradients) exchanged by the loops as their accesses need.
struct DistBackend : umesh::apps::DistLoops {
  template <class T, int D, class L> using Dat = umesh::dist::Dat<T, D, L, Mem>;
  using PartitionT = umesh::dist::Partition<Mem>;

  struct Parts {
    umesh::Set nodes, elems; // this rank's: owned then halo nodes; owned elements
    MapT elem_nodes, neighbours;
    umesh::Set global_nodes, global_elems;
    std::vector<std::vector<int>> regions; // each region's elements, local numbering
    std::unique_ptr<PartitionT> partition;
    MPI_Comm comm = MPI_COMM_WORLD;
    std::string layout; // how the mesh was dealt: method, cut, each rank's share
    // Built from the rank's own part (own_part): the global ids of the
    // elements and of the nodes whose values the mesh's arrays hold.
    std::vector<int> own_elems, own_nodes;
    bool own_part = false; // (a rank's own part may hold no elements at all)
    // Setup seconds on this rank, wall and CPU: the partition (dealing the
    // elements, halos, directory), NCCL's communicator and connections.
    double partition_seconds = 0, nccl_seconds = 0, partition_cpu = 0, nccl_cpu = 0;
  };
  /// `nccl`: the halos go GPU to GPU through NCCL (Partition::use_nccl).
  /// `owners`: how the elements are dealt (dist::Owners; a rank's own part,
  /// `m.part`, was dealt already: its slab or PT-Scotch's elements). `timed`: each exchange fenced
  /// on the device (Partition::time_exchanges_on_device). `consumable`: `m` itself, whose
  /// element-node and neighbour arrays a rank's own part may take (else
  /// they are copied).
  static std::shared_ptr<Parts> parts(const Mesh &m, bool nccl = false,
                                      umesh::dist::Owners owners = umesh::dist::Owners::slabs,
                                      bool timed = false, MPI_Comm comm = MPI_COMM_WORLD,
                                      Mesh *consumable = nullptr) {
    if (consumable && consumable != &m)
      umesh::fail("LULESH: the mesh a partition may take must be the one it partitions");
    if (m.part)
      return own_parts(m, owners, nccl, timed, comm, consumable);
    Kokkos::Timer timer; // dealing the elements (METIS, PT-Scotch) and the partition
    const double cpu = umesh::apps::cpu_seconds();
    const umesh::Set nodes("nodes", m.num_nodes), elems("elems", m.num_elems);
    const umesh::HostConnectivity node_graph{m.elem_nodes.data(), 8, 0, m.num_nodes};
    const std::vector<int> owner =
        umesh::dist::element_owners(comm, owners, m.num_elems, {node_graph});
    // Elements with a face neighbour on another rank.
    std::int64_t cut = 0;
    for (std::size_t e = 0; e < owner.size(); ++e)
      cut += std::any_of(&m.neighbours[6 * e], &m.neighbours[6 * e] + 6,
                         [&](int n) { return owner[std::size_t(n)] != owner[e]; });
    // The neighbour map's targets are the elements again, owned where the
    // elements are: their owned points are this rank's elements, in the
    // same order, then a halo of neighbours.
    // (Each whole-mesh array copied once: a braced list copies twice.)
    std::vector<umesh::dist::MapSpec> maps;
    maps.push_back({"elem_nodes", nodes, 8, m.elem_nodes});
    maps.push_back({"elem_neighbours", elems, 6, m.neighbours});
    std::vector<umesh::dist::PointOwners> point_owners;
    point_owners.push_back({elems, owner});
    auto partition = std::make_unique<PartitionT>(comm, elems, owner, maps, point_owners);
    const std::string how = umesh::dist::owners_label(owners, comm) +
                            (partition->size() > 1 ? ", every rank building the whole mesh" : "");
    const double partition_seconds = timer.seconds(),
                 partition_cpu = umesh::apps::cpu_seconds() - cpu;
    auto p = from_partition(std::move(partition), m, nodes, elems, nccl, timed, comm, how, cut);
    p->partition_seconds += partition_seconds;
    p->partition_cpu += partition_cpu;
    return p;
  }
  /// This rank's part of the mesh when PT-Scotch deals the elements and no
  /// rank builds the whole mesh (collective): each rank takes a contiguous
  /// block of the elements and its slice of their graph (elements sharing
  /// a node, from the mesh's structure: element_graph_rows), PT-Scotch deals
  /// them over the slices, each element's id goes to the rank it was dealt,
  /// and each rank builds the elements it got (make_mesh_elements) with the
  /// nodes it owns. One rank builds the whole mesh as one slab, without
  /// PT-Scotch.
  static Mesh ptscotch_mesh(const Params &p, int threads, MPI_Comm comm = MPI_COMM_WORLD) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size == 1) // (the slab generator's threads)
      return make_mesh_part(p, 0, 1, threads);
    // PT-Scotch counts the graph's edges in 32-bit ints: (3s-2)^3 - s^3 of
    // them (each element's up to 26 neighbours), refused on every rank alike.
    const std::int64_t s3 = 3 * std::int64_t(p.size) - 2,
                       n = std::int64_t(p.size) * p.size * p.size;
    if (s3 * s3 * s3 - n > std::int64_t(INT_MAX))
      throw umesh::Error("umesh_lulesh: --partition ptscotch: -s " + std::to_string(p.size) +
                         " gives an element graph of " + std::to_string(s3 * s3 * s3 - n) +
                         " edge ends, more than PT-Scotch's 32-bit counts hold (at most -s 436; "
                         "use slabs)");
    // This rank's block as dist::ptscotch_owners deals slices (rounded up),
    // so that PT-Scotch sees the graph spread as when every rank built it.
    auto first_of = [&](int r) { return int((n * r + size - 1) / size); };
    const int first = first_of(rank), last = first_of(rank + 1);
    const std::vector<int> part =
        umesh::dist::ptscotch_parts(comm, element_graph_rows(p.size, first, last), size);
    std::vector<int> send_counts(std::size_t(size), 0), at(std::size_t(size), 0);
    for (int to : part)
      ++send_counts[std::size_t(to)];
    for (int r = 1; r < size; ++r)
      at[std::size_t(r)] = at[std::size_t(r - 1)] + send_counts[std::size_t(r - 1)];
    std::vector<int> dealt(part.size()); // this block's elements in rank order
    for (std::size_t e = 0; e < part.size(); ++e)
      dealt[std::size_t(at[std::size_t(part[e])]++)] = first + int(e);
    const std::size_t ranks = static_cast<std::size_t>(size);
    std::vector<int> recv_counts(ranks), send_at(ranks, 0), recv_at(ranks, 0);
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
    for (int r = 1; r < size; ++r) {
      send_at[std::size_t(r)] = send_at[std::size_t(r - 1)] + send_counts[std::size_t(r - 1)];
      recv_at[std::size_t(r)] = recv_at[std::size_t(r - 1)] + recv_counts[std::size_t(r - 1)];
    }
    std::vector<int> mine(std::size_t(recv_at.back() + recv_counts.back()));
    MPI_Alltoallv(dealt.data(), send_counts.data(), send_at.data(), MPI_INT, mine.data(),
                  recv_counts.data(), recv_at.data(), MPI_INT, comm);
    return make_mesh_elements(p, std::move(mine), threads);
  }
  /// From this rank's own part (make_mesh_part's slab, or the elements
  /// PT-Scotch dealt it, make_mesh_elements): its elements, their rows of
  /// both maps and the nodes it owns; the halos are found through the
  /// partition's directory, and no rank holds anything the size of the
  /// whole mesh. The partition is the one the dealing from global data
  /// gives for the same owners.
  static std::shared_ptr<Parts> own_parts(const Mesh &m, umesh::dist::Owners owners, bool nccl,
                                          bool timed, MPI_Comm comm, Mesh *consumable) {
    const umesh::Set nodes("nodes", m.num_nodes), elems("elems", m.num_elems);
    std::vector<int> own_elems = element_ids(m), own_nodes = node_ids(m);
    const bool slab = own_elems.empty() || own_elems.back() - own_elems.front() + 1 ==
                                               int(own_elems.size()); // contiguous ids
    Kokkos::Timer timer;
    const double cpu = umesh::apps::cpu_seconds();
    // Elements with a face neighbour on another rank: neighbours not held
    // here (a range test where the ids are contiguous).
    const int lo = slab && !own_elems.empty() ? own_elems.front() : 0,
              hi = slab && !own_elems.empty() ? own_elems.back() + 1 : 0;
    long long cut = 0, total_cut = 0;
    Kokkos::parallel_reduce(
        "lulesh::cut", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, own_elems.size()),
        [&](std::size_t e, long long &sum) {
          sum += std::any_of(&m.neighbours[6 * e], &m.neighbours[6 * e] + 6, [&](int n) {
            return slab ? n < lo || n >= hi
                        : !std::binary_search(own_elems.begin(), own_elems.end(), n);
          });
        },
        cut);
    MPI_Allreduce(&cut, &total_cut, 1, MPI_LONG_LONG, MPI_SUM, comm);
    // The rows taken from the mesh, or copied (once each: the partition
    // turns them into local numbering in place; a braced list would copy
    // every one twice).
    umesh::dist::OwnPart own{elems, own_elems, {}, {}};
    own.maps.push_back(
        {"elem_nodes", nodes, 8, consumable ? std::move(consumable->elem_nodes) : m.elem_nodes});
    own.maps.push_back({"elem_neighbours", elems, 6,
                        consumable ? std::move(consumable->neighbours) : m.neighbours});
    own.owned.push_back({nodes, own_nodes});
    own.owned.push_back({elems, own_elems});
    auto partition = std::make_unique<PartitionT>(comm, std::move(own));
    const double partition_seconds = timer.seconds(),
                 partition_cpu = umesh::apps::cpu_seconds() - cpu;
    auto p = from_partition(std::move(partition), m, nodes, elems, nccl, timed, comm,
                            (owners == umesh::dist::Owners::slabs
                                 ? std::string("slabs of z-planes")
                                 : umesh::dist::owners_label(owners, comm)) +
                                ", each rank building only its own",
                            total_cut);
    p->own_elems = std::move(own_elems);
    p->own_nodes = std::move(own_nodes);
    p->own_part = true;
    p->partition_seconds += partition_seconds;
    p->partition_cpu += partition_cpu;
    return p;
  }
  /// Parts holding `partition`: this rank's sets and maps, the mesh's
  /// regions (global ids of this rank's elements, or of all) in its local
  /// numbering, and the layout line: `how` the elements were dealt, `cut`
  /// of them with a face neighbour on another rank, each rank's share.
  static std::shared_ptr<Parts> from_partition(std::unique_ptr<PartitionT> partition, const Mesh &m,
                                               const umesh::Set &nodes, const umesh::Set &elems,
                                               bool nccl, bool timed, MPI_Comm comm,
                                               const std::string &how, long long cut) {
    Kokkos::Timer timer;
    double cpu = umesh::apps::cpu_seconds();
    if (nccl)
      partition->use_nccl();
    const double nccl_seconds = timer.seconds(), nccl_cpu = umesh::apps::cpu_seconds() - cpu;
    timer.reset();
    cpu = umesh::apps::cpu_seconds();
    partition->time_exchanges_on_device(timed);
    // One lookup for all regions (-r may be as large as the mesh).
    std::vector<int> members;
    for (const auto &r : m.regions)
      members.insert(members.end(), r.begin(), r.end());
    const std::vector<int> local = partition->elements()->local_ids(members);
    std::vector<std::vector<int>> regions;
    std::size_t at = 0;
    for (const auto &r : m.regions) {
      regions.emplace_back();
      for (std::size_t i = 0; i < r.size(); ++i, ++at)
        if (local[at] >= 0)
          regions.back().push_back(local[at]);
    }
    auto p = std::make_shared<Parts>(Parts{partition->part(nodes)->local,
                                           partition->elements()->local,
                                           partition->map("elem_nodes"),
                                           partition->map("elem_neighbours"),
                                           nodes,
                                           elems,
                                           std::move(regions),
                                           nullptr,
                                           comm,
                                           {},
                                           {},
                                           {}});
    p->partition = std::move(partition);
    p->partition_seconds = timer.seconds(); // (the regions' lookup; the callers add theirs)
    p->partition_cpu = umesh::apps::cpu_seconds() - cpu;
    p->nccl_seconds = nccl_seconds;
    p->nccl_cpu = nccl_cpu;
    p->layout = "elements dealt by " + how + ", " + std::to_string(cut) + " of " +
                std::to_string(m.num_elems) + " elements with a face neighbour on another rank\n" +
                umesh::dist::describe(umesh::dist::rank_shares(*p->partition), "elements");
    return p;
  }
  template <class T, int D, class L>
  static Dat<T, D, L> make(const Parts &p, On on, const std::string &name,
                           const std::vector<T> *values = nullptr) {
    const auto &part = on == On::elems   ? p.partition->elements()
                       : on == On::nodes ? p.partition->part(p.global_nodes)
                                         : p.partition->part(p.global_elems);
    Dat<T, D, L> d(part, name);
    const std::vector<int> &own = on == On::nodes ? p.own_nodes : p.own_elems;
    if (values && p.own_part) // this rank's own values, not the whole mesh's
      d.set_owned(own, *values);
    else if (values)
      d.set_global(*values);
    return d;
  }
  /// The element dat the neighbour map reads: `copy` (on the neighbour
  /// map's targets) takes `d`'s owned values; its halo is refreshed by the
  /// loop that reads it.
  template <class DatT> static const DatT &for_neighbours(const DatT &d, const DatT &copy) {
    const auto points = std::make_pair(0, d.part().owned); // both Views may have more rows
    Kokkos::deep_copy(Kokkos::subview(copy.local().view(), points, Kokkos::ALL),
                      Kokkos::subview(d.local().view(), points, Kokkos::ALL));
    copy.mark_halo_stale();
    return copy;
  }
  /// One element's first component, on every rank (from its owner, which
  /// the ranks find among themselves: no table of owners is kept).
  template <class DatT> static double element_value(const Parts &p, const DatT &d, int elem) {
    int rank = 0;
    MPI_Comm_rank(p.comm, &rank);
    const auto &ids = d.part().global_ids; // owned ones ascending (global order)
    const auto owned_end = ids.begin() + d.part().owned;
    const auto at = std::lower_bound(ids.begin(), owned_end, elem);
    const bool mine = at != owned_end && *at == elem;
    int owner = mine ? rank : -1;
    MPI_Allreduce(MPI_IN_PLACE, &owner, 1, MPI_INT, MPI_MAX, p.comm);
    if (owner < 0)
      umesh::fail("LULESH: no rank owns element ", elem);
    double v = 0;
    if (mine)
      Kokkos::deep_copy(v, Kokkos::subview(d.local().view(), int(at - ids.begin()), 0));
    MPI_Bcast(&v, 1, MPI_DOUBLE, owner, p.comm);
    return v;
  }
  /// [elem] of a one-component element dat, elements [0, n), on every rank:
  /// each owner adds its values into zeros (exact: one owner a value), so
  /// nothing the size of the whole mesh is gathered.
  template <class DatT> static std::vector<double> gather(const Parts &p, const DatT &d, int n) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.local().view());
    const auto &ids = d.part().global_ids;
    std::vector<double> out(std::size_t(n), 0.0);
    for (int i = 0; i < d.part().owned; ++i)
      if (ids[i] < n)
        out[std::size_t(ids[i])] = h(i, 0);
    MPI_Allreduce(MPI_IN_PLACE, out.data(), n, MPI_DOUBLE, MPI_SUM, p.comm);
    return out;
  }
};
#endif

} // namespace lulesh

#endif
