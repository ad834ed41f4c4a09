#ifndef UMESH_DIST_GRAPH_SLICE_HPP
#define UMESH_DIST_GRAPH_SLICE_HPP

// A rank's slice of a mesh's element graph, built from that rank's own
// elements alone: what dist::ptscotch_parts takes from a rank that does not
// hold the whole mesh.

#include <umesh/colouring.hpp>
#include <umesh/dist/directory.hpp>
#include <umesh/dist/ptscotch.hpp>
#include <umesh/partition.hpp>

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace umesh::dist {

/// This rank's slice of the element graph (two elements adjacent when they
/// share a point of one of `maps`), collective over `comm`. Each rank holds
/// `num_elements` elements, numbered after those of the lower ranks (rank 0
/// holds 0 .. n0-1, rank 1 n0 .. n0+n1-1, ...), and passes their rows of
/// each map (`indices` of num_elements x arity global point ids; `target`
/// tells the maps' sets apart, `target_size` is the set's global size). The
/// result lists each of this rank's elements' neighbours as global element
/// ids, ascending: the slice dist::ptscotch_parts takes, equal to the same
/// rows of umesh::element_graph over the whole mesh, but no rank holds more
/// than its own elements and the points they reach. A point id outside its
/// set is refused on every rank.
inline Graph element_graph_slice(MPI_Comm comm, int num_elements,
                                 const std::vector<HostConnectivity> &maps) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int n = std::max(0, num_elements);
  std::string problem;
  for (std::size_t m = 0; problem.empty() && m < maps.size(); ++m) {
    if (maps[m].arity < 1 || maps[m].target_size < 0) {
      problem = "map " + std::to_string(m) + ": arity " + std::to_string(maps[m].arity) +
                ", set size " + std::to_string(maps[m].target_size);
      break;
    }
    for (std::int64_t i = 0; i < std::int64_t(n) * maps[m].arity; ++i)
      if (maps[m].indices[i] < 0 || maps[m].indices[i] >= maps[m].target_size) {
        problem = "map " + std::to_string(m) + " row " + std::to_string(i / maps[m].arity) +
                  " holds point " + std::to_string(maps[m].indices[i]) + ", not in [0, " +
                  std::to_string(maps[m].target_size) + ")";
        break;
      }
  }
  detail::fail_together_as(comm, "dist::element_graph_slice", problem);
  // Every rank's first element, and the ranks' total.
  std::vector<int> firsts(std::size_t(size) + 1, 0), counts(std::size_t(size), 0);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  std::int64_t total = 0;
  for (int r = 0; r < size; ++r) {
    firsts[std::size_t(r)] = int(total);
    total += counts[std::size_t(r)];
  }
  detail::fail_together_as(
      comm, "dist::element_graph_slice",
      total > 2147483647 ? std::to_string(total) + " elements, more than 2^31-1" : "");
  firsts[std::size_t(size)] = int(total);
  const int first = firsts[std::size_t(rank)];
  // Each point's home rank (contiguous blocks of its set) learns the
  // elements that reach it: (map, point, element) triples.
  std::vector<std::vector<int>> to_home(static_cast<std::size_t>(size));
  for (std::size_t m = 0; m < maps.size(); ++m) {
    const int points = maps[m].target_size;
    for (std::int64_t i = 0; i < std::int64_t(n) * maps[m].arity; ++i) {
      const int p = maps[m].indices[i];
      auto &out = to_home[std::size_t(std::int64_t(p) * size / points)];
      out.insert(out.end(), {int(m), p, first + int(i / maps[m].arity)});
    }
  }
  const std::vector<std::vector<int>> at_home = umesh::detail::exchange_lists(comm, to_home);
  std::vector<std::array<int, 3>> reached;
  for (const auto &from : at_home)
    for (std::size_t i = 0; i + 2 < from.size(); i += 3)
      reached.push_back({from[i], from[i + 1], from[i + 2]});
  std::sort(reached.begin(), reached.end());
  // The elements sharing a point are neighbours: each learns the others.
  auto owner_of = [&](int e) {
    return int(std::upper_bound(firsts.begin(), firsts.end(), e) - firsts.begin()) - 1;
  };
  std::vector<std::vector<int>> to_owner(static_cast<std::size_t>(size));
  for (std::size_t a = 0; a < reached.size();) {
    std::size_t b = a;
    while (b < reached.size() && reached[b][0] == reached[a][0] && reached[b][1] == reached[a][1])
      ++b;
    for (std::size_t i = a; i < b; ++i)
      for (std::size_t j = a; j < b; ++j)
        if (reached[i][2] != reached[j][2]) {
          auto &out = to_owner[std::size_t(owner_of(reached[i][2]))];
          out.insert(out.end(), {reached[i][2], reached[j][2]});
        }
    a = b;
  }
  const std::vector<std::vector<int>> pairs = umesh::detail::exchange_lists(comm, to_owner);
  std::vector<std::vector<int>> neighbours(static_cast<std::size_t>(n));
  for (const auto &from : pairs)
    for (std::size_t i = 0; i + 1 < from.size(); i += 2)
      neighbours[std::size_t(from[i] - first)].push_back(from[i + 1]);
  Graph g;
  g.offsets.push_back(0);
  for (auto &list : neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    g.adjacency.insert(g.adjacency.end(), list.begin(), list.end());
    g.offsets.push_back(std::int64_t(g.adjacency.size()));
  }
  return g;
}

} // namespace umesh::dist

#endif
