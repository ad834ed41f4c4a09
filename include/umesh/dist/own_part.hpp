#ifndef UMESH_DIST_OWN_PART_HPP
#define UMESH_DIST_OWN_PART_HPP

// A Partition built from each rank's own part (dist::OwnPart): the halo of
// a target set found through the directory (dist/directory.hpp), no rank
// holding anything the size of the whole mesh.

#include <umesh/detail/host_loops.hpp>
#include <umesh/dist/directory.hpp>
#include <umesh/dist/id_index.hpp>
#include <umesh/dist/local_order.hpp>
#include <umesh/dist/set_part.hpp>

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace umesh::detail {

// An OwnPart's elements in ascending global id, their rows with them (the
// order the constructor from global data gives them).
inline void sort_own_elements(dist::OwnPart &own) {
  const std::vector<int> &ids = own.element_ids;
  if (std::is_sorted(ids.begin(), ids.end()))
    return;
  std::vector<int> perm(ids.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    perm[i] = int(i);
  std::sort(perm.begin(), perm.end(), [&](int a, int b) { return ids[a] < ids[b]; });
  std::vector<int> sorted(ids.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    sorted[i] = ids[perm[i]];
  for (auto &m : own.maps) {
    if (m.indices.size() != ids.size() * std::size_t(m.arity))
      continue; // the constructor names it
    std::vector<int> moved(m.indices.size());
    for (std::size_t i = 0; i < perm.size(); ++i)
      std::copy_n(m.indices.begin() + std::size_t(perm[i]) * m.arity, m.arity,
                  moved.begin() + i * m.arity);
    m.indices = std::move(moved);
  }
  own.element_ids = std::move(sorted);
}

// make_part's counterpart from this rank's own part: its owned points
// (`owned`, any order), then the halo its elements reach through `maps` and
// the further points `extra` names, grouped by owner (found through the
// directory) in ascending global id; each owner learns what to send from
// the ranks that need it.
inline std::shared_ptr<dist::SetPart> make_own_part(MPI_Comm comm, const Set &s,
                                                    std::vector<int> owned,
                                                    const std::vector<dist::MapSpec> &maps,
                                                    const std::vector<int> &extra,
                                                    PendingHalo &halo) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (!std::is_sorted(owned.begin(), owned.end())) // (a block of ids usually is)
    std::sort(owned.begin(), owned.end());
  const IdIndex owned_at(owned);
  // The points the maps reach that are not owned here, each chunk of a
  // map's entries on its own thread (a block of owned ids: a range test).
  const bool block = !owned.empty() && owned_at.contiguous();
  const int lo = block ? owned.front() : 0, hi = block ? owned.back() : -1;
  std::vector<int> wanted;
  for (const auto &m : maps)
    if (m.to == s) {
      const int *at = m.indices.data();
      const auto n = std::int64_t(m.indices.size());
      std::vector<std::vector<int>> found(std::size_t(host_chunks(n)));
      for_chunks(n, [&](std::int64_t c, std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i)
          if (block ? at[i] < lo || at[i] > hi : owned_at(at[i]) < 0)
            found[std::size_t(c)].push_back(at[i]);
      });
      for (const auto &f : found)
        wanted.insert(wanted.end(), f.begin(), f.end());
    }
  std::string problem;
  for (int p : extra)
    if (p < 0 || p >= s.size())
      problem = "dist::Partition: halo point " + std::to_string(p) + " of set '" + s.name() +
                "' on rank " + std::to_string(rank) + " is not in [0, " + std::to_string(s.size()) +
                ")";
    else if (owned_at(p) < 0)
      wanted.push_back(p);
  fail_together(comm, problem);
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  const std::vector<int> owner = find_owners(comm, s.name(), s.size(), owned, wanted);
  long long count = (long long)owned.size(), total = 0;
  MPI_Allreduce(&count, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
  if (total != s.size())
    fail("dist::Partition: the ranks own ", total, " points of set '", s.name(), "' of size ",
         s.size(), ": give every point an owner");
  std::vector<std::vector<int>> recv_from(size);
  for (std::size_t i = 0; i < wanted.size(); ++i)
    recv_from[owner[i]].push_back(wanted[i]);
  const std::vector<std::vector<int>> send_to = exchange_lists(comm, recv_from);
  auto part = std::make_shared<dist::SetPart>();
  part->global = s;
  part->global_ids = std::move(owned);
  part->owned = int(part->global_ids.size());
  part->global_ids.reserve(part->global_ids.size() + wanted.size());
  halo.part = part.get();
  for (int q = 0; q < size; ++q) {
    std::vector<int> send_local;
    for (int p : send_to[q])
      send_local.push_back(owned_at(p)); // (asked for by q: owned here)
    halo.add(q, recv_from[q], std::move(send_local));
  }
  part->local = Set(s.name() + "@" + std::to_string(rank), int(part->global_ids.size()));
  part->comm = comm;
  return part;
}

} // namespace umesh::detail

#endif
