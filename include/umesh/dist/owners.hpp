#ifndef UMESH_DIST_OWNERS_HPP
#define UMESH_DIST_OWNERS_HPP

// Which rank owns what, before a Partition is built: contiguous slabs of the
// mesh's numbering, or a partition of its graph (fewer points on the ranks'
// boundaries, so smaller halos and fewer neighbours) by METIS k-way on one
// rank or PT-Scotch over all of them, and a summary of the Partition that
// results.

#include <umesh/dist/partition.hpp>
#include <umesh/dist/ptscotch.hpp>
#include <umesh/partition.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

namespace umesh::dist {

/// How a distributed mesh is dealt to ranks.
enum class Owners {
  slabs,   ///< contiguous slabs of the numbering (contiguous_owners)
  metis,   ///< METIS k-way over the mesh's graph, on rank 0 (builds with METIS only)
  ptscotch ///< PT-Scotch over the mesh's graph, every rank a slice (builds with PT-Scotch only)
};

/// METIS when umesh was built with it, else slabs.
inline Owners default_owners() {
  return has_metis() ? Owners::metis : Owners::slabs;
}

/// "metis", "ptscotch" or "slabs", as parse_owners reads them.
inline const char *to_string(Owners o) {
  return o == Owners::metis ? "metis" : o == Owners::ptscotch ? "ptscotch" : "slabs";
}

/// How a run describes its owners: "METIS k-way", "PT-Scotch", "slabs", or
/// "one rank" (one rank owns everything, whatever the method).
inline std::string owners_label(Owners o, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size == 1               ? "one rank"
         : o == Owners::metis    ? "METIS k-way"
         : o == Owners::ptscotch ? "PT-Scotch"
                                 : "slabs";
}

/// "slabs", "metis" or "ptscotch"; anything else, and a partitioner this
/// build lacks, throws umesh::Error naming the value.
inline Owners parse_owners(const std::string &name) {
  if (name == "slabs")
    return Owners::slabs;
  if (name == "metis") {
    if (!has_metis())
      umesh::detail::fail(
          "partition 'metis': umesh was built without METIS (use 'slabs', or install "
          "libmetis-dev and reconfigure)");
    return Owners::metis;
  }
  if (name == "ptscotch") {
    if (!has_ptscotch())
      umesh::detail::fail("partition 'ptscotch': umesh was built without PT-Scotch (use ",
                          has_metis() ? "'metis' or 'slabs'" : "'slabs'",
                          ", or install libptscotch-dev and reconfigure)");
    return Owners::ptscotch;
  }
  umesh::detail::fail("unknown partition '", name, "' (slabs, metis, ptscotch)");
}

namespace detail {
// METIS runs on rank 0 alone and the owners are broadcast: every rank gets
// the same answer, whatever METIS does with several processes. A failure
// there is broadcast too, so that every rank throws instead of waiting.
template <class Partitioner>
std::vector<int> broadcast_owners(MPI_Comm comm, int n, Partitioner &&partition) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<int> owner(std::size_t(std::max(0, n)));
  std::string error;
  if (rank == 0) {
    try {
      owner = partition();
      if (owner.size() != std::size_t(std::max(0, n)))
        error = "the partitioner gave " + std::to_string(owner.size()) + " owners for " +
                std::to_string(n) + " items";
    } catch (const std::exception &e) {
      error = e.what();
    }
  }
  fail_together_as(comm, "dist owners", error); // "dist owners (on rank 0): ..."
  MPI_Bcast(owner.data(), n, MPI_INT, 0, comm);
  return owner;
}

// The owners of `n` items: slabs, METIS k-way over `graph()` on rank 0, or
// PT-Scotch over slices of it. Every rank refuses a partitioner the build
// lacks, before any collective.
template <class MakeGraph>
std::vector<int> owners_of(MPI_Comm comm, Owners how, int n, MakeGraph &&graph) {
  if (how == Owners::metis && !has_metis())
    umesh::detail::fail("dist owners: METIS k-way asked for, but umesh was built without METIS");
  if (how == Owners::ptscotch && !has_ptscotch())
    umesh::detail::fail("dist owners: PT-Scotch asked for, but umesh was built without PT-Scotch");
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (how == Owners::slabs || size == 1)
    return contiguous_owners(n, size);
  if (how == Owners::ptscotch)
    return ptscotch_owners(comm, n, graph);
  return broadcast_owners(comm, n, [&] { return partition_kway(graph(), size); });
}
} // namespace detail

/// The rank of each of `num_points` points of one set, for the ranks of
/// `comm` (collective): slabs of the points' numbering, or METIS k-way or
/// PT-Scotch over the point graph (two points adjacent when an element of one of `maps`,
/// which all map `num_elements` elements into this set, references both;
/// for miniAero's faces-to-cells map, the cells' face neighbours).
inline std::vector<int> point_owners(MPI_Comm comm, Owners how, int num_points, int num_elements,
                                     const std::vector<HostConnectivity> &maps) {
  for (const auto &m : maps)
    if (m.target_size != num_points)
      umesh::detail::fail("dist::point_owners: a map into ", m.target_size, " points, not ",
                          num_points);
  return detail::owners_of(comm, how, num_points, [&] { return point_graph(num_elements, maps); });
}

/// The rank of each of `num_elements` elements (collective): slabs of the
/// elements' numbering, or METIS k-way or PT-Scotch over the element graph
/// (adjacent when they share a point of one of `maps`; LULESH's hexes
/// through their nodes).
inline std::vector<int> element_owners(MPI_Comm comm, Owners how, int num_elements,
                                       const std::vector<HostConnectivity> &maps) {
  return detail::owners_of(comm, how, num_elements,
                           [&] { return element_graph(num_elements, maps); });
}

/// Elements of a map whose points lie on more than one rank under `owner`
/// (for a map of arity 2, the point graph's edge cut).
inline std::int64_t cut_elements(const HostConnectivity &map, int num_elements,
                                 const std::vector<int> &owner) {
  std::int64_t cut = 0;
  for (std::int64_t e = 0; e < num_elements; ++e) {
    const int *p = map.indices + e * map.arity;
    const int first = owner[std::size_t(p[0])];
    for (int k = 1; k < map.arity; ++k)
      if (owner[std::size_t(p[k])] != first) {
        ++cut;
        break;
      }
  }
  return cut;
}

/// One rank's share of a Partition: its elements, and for each target set
/// the points it owns and its halo, and how many ranks it exchanges with.
struct RankShare {
  std::int64_t elements = 0;
  struct Points {
    std::string set;
    std::int64_t owned = 0, halo = 0;
    int neighbours = 0;
  };
  std::vector<Points> targets;
};

/// Every rank's share of `p`, on every rank (collective).
template <class M> std::vector<RankShare> rank_shares(const Partition<M> &p) {
  // Per rank: elements, then (owned, halo, neighbours) per target set.
  std::vector<std::int64_t> mine{std::int64_t(p.elements()->local.size())};
  for (const auto &t : p.targets()) {
    mine.push_back(t->owned);
    mine.push_back(t->local.size() - t->owned);
    mine.push_back(t->halo ? t->halo->neighbours() : 0);
  }
  const int width = int(mine.size());
  std::vector<std::int64_t> all(std::size_t(width) * std::size_t(p.size()));
  MPI_Allgather(mine.data(), width, MPI_INT64_T, all.data(), width, MPI_INT64_T, p.comm());
  std::vector<RankShare> shares(std::size_t(p.size()));
  for (int r = 0; r < p.size(); ++r) {
    const std::int64_t *v = all.data() + std::size_t(r) * std::size_t(width);
    shares[std::size_t(r)].elements = v[0];
    for (std::size_t t = 0; t < p.targets().size(); ++t)
      shares[std::size_t(r)].targets.push_back(
          {p.targets()[t]->global.name(), v[1 + 3 * t], v[2 + 3 * t], int(v[3 + 3 * t])});
  }
  return shares;
}

/// One line per rank: "rank 0: 1024 faces; cells 512 owned + 64 halo, 1
/// neighbour".
inline std::string describe(const std::vector<RankShare> &shares, const std::string &elements) {
  std::ostringstream out;
  for (std::size_t r = 0; r < shares.size(); ++r) {
    out << "rank " << r << ": " << shares[r].elements << ' ' << elements;
    for (const auto &t : shares[r].targets)
      out << "; " << t.set << ' ' << t.owned << " owned + " << t.halo << " halo, " << t.neighbours
          << (t.neighbours == 1 ? " neighbour" : " neighbours");
    out << '\n';
  }
  return out.str();
}

} // namespace umesh::dist

#endif
