#ifndef UMESH_DIST_LOCAL_ORDER_HPP
#define UMESH_DIST_LOCAL_ORDER_HPP

// A Partition's local order (dist/partition.hpp): each rank renumbers its
// part for locality as umesh::reorder renumbers a whole mesh, its elements
// and the owned points of the parts it makes; halo points keep their places,
// so the exchanges' receive lists stand and only their send lists move.

#include <umesh/dist/set_part.hpp>
#include <umesh/renumber.hpp>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

namespace umesh::detail {

/// The exchange of a part a Partition makes: its neighbours' lists, kept
/// until the local order (if any) has moved the owned points.
struct PendingHalo {
  dist::SetPart *part = nullptr;
  struct Lists {
    int rank;
    std::vector<int> send, recv; // local ids
  };
  std::vector<Lists> neighbours;
  /// Neighbour `rank`: its points in this rank's halo (`recv_global`,
  /// global ids) appended to the part's points, and the local points this
  /// rank sends it.
  void add(int rank, const std::vector<int> &recv_global, std::vector<int> send_local) {
    std::vector<int> recv;
    recv.reserve(recv_global.size());
    for (int p : recv_global) {
      recv.push_back(int(part->global_ids.size()));
      part->global_ids.push_back(p);
    }
    neighbours.push_back({rank, std::move(send_local), std::move(recv)});
  }
  void build(MPI_Comm comm) const {
    auto ex = std::make_shared<dist::Exchange>(comm);
    for (const auto &n : neighbours)
      ex->add_neighbour(n.rank, n.send, n.recv);
    part->halo = ex;
  }
};

/// A rank's elements in the order `perm` (new position -> old position):
/// their global ids and their rows of every map.
inline void move_elements(dist::SetPart &elements, const std::vector<int> &perm,
                          const std::vector<dist::MapSpec> &maps,
                          std::vector<std::vector<int>> &rows) {
  std::vector<int> ids(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    ids[i] = elements.global_ids[perm[i]];
  elements.global_ids = std::move(ids);
  for (std::size_t k = 0; k < maps.size(); ++k) {
    const int a = maps[k].arity;
    std::vector<int> moved(rows[k].size());
    for (std::size_t i = 0; i < perm.size(); ++i)
      std::copy_n(rows[k].begin() + std::size_t(perm[i]) * a, a, moved.begin() + i * a);
    rows[k] = std::move(moved);
  }
}

/// Renumbers a rank's part by `o` over its own connectivity: `rows[k]` is map
/// k's [local element][arity] in local points of `to[k]`; the elements move,
/// and the owned points of each part in `halos` (the parts this Partition
/// makes; others belong to an earlier one and keep their numbering).
inline void renumber_locally(const ReorderOptions &o, dist::SetPart &elements,
                             const std::vector<dist::MapSpec> &maps,
                             const std::vector<const dist::SetPart *> &to,
                             std::vector<std::vector<int>> &rows, std::vector<PendingHalo> &halos) {
  if (!o.plan_file.empty())
    fail("dist::Partition of '", elements.global.name(),
         "': a local order takes no plan file (each rank computes its own)");
  std::vector<const dist::SetPart *> target_of_id;
  std::vector<BlockPlanMap> host;
  for (std::size_t k = 0; k < maps.size(); ++k) {
    if (maps[k].to == elements.global)
      fail("dist::Partition of '", elements.global.name(), "': map '", maps[k].name,
           "' maps the elements to themselves, which a local order cannot renumber");
    const int id =
        int(std::find(target_of_id.begin(), target_of_id.end(), to[k]) - target_of_id.begin());
    if (id == int(target_of_id.size()))
      target_of_id.push_back(to[k]);
    host.push_back({{rows[k].data(), maps[k].arity, id, to[k]->local.size()}, true});
  }
  const RenumberResult r = compute_renumbering(o, elements.owned, host, elements.local.name());
  std::vector<int> perm(r.elements.size()); // new position -> old
  for (std::size_t old = 0; old < r.elements.size(); ++old)
    perm[r.elements[old]] = int(old);
  move_elements(elements, perm, maps, rows);
  for (std::size_t t = 0; t < target_of_id.size(); ++t) {
    const auto h = std::find_if(halos.begin(), halos.end(),
                                [&](const PendingHalo &p) { return p.part == target_of_id[t]; });
    if (h == halos.end())
      continue;
    dist::SetPart &part = *h->part;
    // Owned points in the method's order; halo points where they are.
    std::vector<int> owned(part.owned);
    for (int p = 0; p < part.owned; ++p)
      owned[p] = p;
    std::stable_sort(owned.begin(), owned.end(),
                     [&](int a, int b) { return r.targets[t][a] < r.targets[t][b]; });
    std::vector<int> new_of_old(part.local.size());
    for (int p = part.owned; p < part.local.size(); ++p)
      new_of_old[p] = p;
    std::vector<int> ids = part.global_ids;
    for (int i = 0; i < part.owned; ++i) {
      new_of_old[owned[i]] = i;
      ids[i] = part.global_ids[owned[i]];
    }
    part.global_ids = std::move(ids);
    for (std::size_t k = 0; k < maps.size(); ++k)
      if (to[k] == &part)
        for (int &p : rows[k])
          p = new_of_old[p];
    for (auto &n : h->neighbours)
      for (int &p : n.send)
        p = new_of_old[p];
  }
}

} // namespace umesh::detail

#endif
