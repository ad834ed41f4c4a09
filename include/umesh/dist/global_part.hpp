#ifndef UMESH_DIST_GLOBAL_PART_HPP
#define UMESH_DIST_GLOBAL_PART_HPP

// A Partition's part of a target set from global data (every rank passes
// the whole mesh): the counterpart of make_own_part (dist/own_part.hpp).

#include <umesh/detail/host_loops.hpp>
#include <umesh/dist/local_order.hpp>
#include <umesh/dist/set_part.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace umesh::detail {

/// Rank `rank`'s part of `s` (of `size` ranks) whose points `owner` deals
/// (-1: dealt in contiguous blocks, as contiguous_owners does), for elements
/// dealt by `element_owner`: owned points (ascending global id), then the
/// halo reached by this rank's elements, grouped by owner; the exchange
/// lists go to `halo`. Every rank computes what every other rank reaches
/// of its own points from the same global data, so no communication.
inline std::shared_ptr<dist::SetPart> make_global_part(MPI_Comm comm, int rank, int size,
                                                       const Set &s, std::vector<int> &owner,
                                                       const std::vector<dist::MapSpec> &maps,
                                                       const std::vector<int> &element_owner,
                                                       PendingHalo &halo) {
  const int n = s.size();
  host_for(n, [&](std::int64_t p) {
    if (owner[p] < 0)
      owner[p] = int(p * size / n);
  });
  // The points this rank's elements reach, and (other rank, point) for the
  // points owned here that other ranks' elements reach: only those cut by
  // the partition, so a list to sort rather than a table per rank.
  std::vector<char> reached(std::size_t(n), 0);
  std::vector<std::int64_t> shared; // other rank * n + point
  for (const auto &m : maps)
    if (m.to == s)
      for (std::size_t e = 0; e < m.indices.size() / m.arity; ++e) {
        const int r = element_owner[e];
        const int *row = m.indices.data() + e * m.arity;
        if (r == rank)
          for (int k = 0; k < m.arity; ++k)
            reached[std::size_t(row[k])] = 1;
        else
          for (int k = 0; k < m.arity; ++k)
            if (owner[std::size_t(row[k])] == rank)
              shared.push_back(std::int64_t(r) * n + row[k]);
      }
  std::sort(shared.begin(), shared.end());
  shared.erase(std::unique(shared.begin(), shared.end()), shared.end());

  auto part = std::make_shared<dist::SetPart>();
  part->global = s;
  std::vector<std::vector<int>> recv_from(size);
  std::vector<int> local_of(std::size_t(n), -1);
  for (int p = 0; p < n; ++p)
    if (owner[p] == rank) {
      local_of[p] = int(part->global_ids.size());
      part->global_ids.push_back(p);
    } else if (reached[p])
      recv_from[owner[p]].push_back(p); // my halo, owned by owner[p]
  part->owned = int(part->global_ids.size());
  halo.part = part.get();
  std::size_t at = 0; // into `shared`, ascending by rank then point
  for (int q = 0; q < size; ++q) {
    std::vector<int> send_local;
    for (; at < shared.size() && shared[at] / n == q; ++at) // my point, in q's halo
      send_local.push_back(local_of[std::size_t(shared[at] % n)]);
    halo.add(q, recv_from[q], std::move(send_local));
  }
  part->local = Set(s.name() + "@" + std::to_string(rank), int(part->global_ids.size()));
  part->comm = comm;
  return part;
}

} // namespace umesh::detail

#endif
