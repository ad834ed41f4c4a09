#ifndef UMESH_DIST_PARTITION_HPP
#define UMESH_DIST_PARTITION_HPP

// A mesh spread over MPI ranks, owner-compute as OP2 does it: each rank owns
// some elements of the loop set and some points of every target set; its
// local numbering of a target set has its owned points first, then a halo of
// points owned elsewhere that its elements reach. Reads of halo points are
// imported from their owners before a loop; increments to them are exported
// to their owners after it (dist/par_loop.hpp).

#include <umesh/detail/host_loops.hpp>
#include <umesh/dist/directory.hpp>
#include <umesh/dist/exchange.hpp>
#include <umesh/dist/global_part.hpp>
#include <umesh/dist/id_index.hpp>
#include <umesh/dist/local_order.hpp>
#include <umesh/dist/own_part.hpp>
#include <umesh/dist/pieces.hpp>
#include <umesh/dist/set_part.hpp>
#include <umesh/map.hpp>
#include <umesh/renumber.hpp>
#include <umesh/set.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace umesh::dist {

/// Seconds one step of building a Partition took on this rank (wall), for
/// reports of where a distributed setup goes.
struct SetupStep {
  const char *name; ///< a literal: "owners", "halos", ... (Partition::setup_steps)
  double seconds;
};

/// Distributes the loop set `elements` and the targets of `maps` over the
/// ranks of `comm`: element e goes to rank `element_owner[e]`; a point goes
/// to the rank `point_owners` gives it for its set, else to the owner of the
/// lowest-numbered element that reaches it (points no element reaches go to
/// ranks in contiguous blocks). Every rank passes the same global data; each
/// keeps its own part.
///
/// A further loop set over the same points (boundary faces beside interior
/// ones, say) takes the first partition's parts (`targets()`): its elements
/// must reach only points that are local (owned or halo) on their rank, and
/// no halo grows, so dats made on those parts serve both.
///
/// `order` numbers each rank's elements in ascending global id, or cut into
/// pieces for make_overlap_plan (ElementOrder::overlap). Code that assumes
/// local element i is the i-th owned point of a target set (a map from the
/// elements to themselves) keeps the global order.
///
/// `local_order` renumbers each rank's part for locality, as umesh::reorder
/// renumbers a whole mesh (rcm, gps, metis, builtin): the rank's elements,
/// and the owned points of the target sets this partition makes, each in
/// the order the method gives them over the rank's own connectivity; halo
/// points stay after the owned ones, in the exchange's order. Before the
/// overlap order when both are asked (its pieces keep the renumbered order
/// within each). Not with a map from the elements to themselves.
template <class MemorySpace> class Partition {
public:
  Partition(MPI_Comm comm, const Set &elements, const std::vector<int> &element_owner,
            const std::vector<MapSpec> &maps, const std::vector<PointOwners> &point_owners = {},
            ElementOrder order = ElementOrder::global, const ReorderOptions &local_order = {})
      : Partition(comm, elements, element_owner, maps, point_owners, {}, order, local_order) {}
  Partition(MPI_Comm comm, const Set &elements, const std::vector<int> &element_owner,
            const std::vector<MapSpec> &maps, const std::vector<std::shared_ptr<SetPart>> &existing,
            ElementOrder order = ElementOrder::global, const ReorderOptions &local_order = {})
      : Partition(comm, elements, element_owner, maps, {}, existing, order, local_order) {}

  /// From each rank's own part (OwnPart), for meshes no rank holds whole:
  /// the numbering, halos and maps the constructors above give for the same
  /// owners (owned elements and points in ascending global id, halos
  /// grouped by owner), found through a directory spread over the ranks
  /// (dist/directory.hpp) instead of from global data. With `existing`, the
  /// parts of an earlier partition that this one's maps reach (as above;
  /// `own.owned` need not list their sets).
  Partition(MPI_Comm comm, OwnPart own, ElementOrder order = ElementOrder::global,
            const ReorderOptions &local_order = {},
            const std::vector<std::shared_ptr<SetPart>> &existing = {})
      : comm_(comm) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
    detail::sort_own_elements(own);
    const Set &elements = own.elements;
    // Every element on exactly one rank: the directory finds the doubles,
    // the count the missing.
    const std::vector<int> none;
    detail::find_owners(comm_, elements.name(), elements.size(), own.element_ids, none);
    long long count = (long long)own.element_ids.size(), total = 0;
    MPI_Allreduce(&count, &total, 1, MPI_LONG_LONG, MPI_SUM, comm_);
    if (total != elements.size())
      detail::fail("dist::Partition: the ranks' parts hold ", total, " elements of set '",
                   elements.name(), "' of size ", elements.size());
    elements_ = std::make_shared<SetPart>();
    elements_->global = elements;
    elements_->owned = int(own.element_ids.size());
    elements_->global_ids = std::move(own.element_ids); // (own is this constructor's copy)
    const std::vector<int> &element_ids = elements_->global_ids;
    elements_->local = Set(elements.name() + "@" + std::to_string(rank_), elements_->owned);
    elements_->halo = std::make_shared<Exchange>(comm_);
    elements_->comm = comm_;
    std::string problem;
    for (const auto &m : own.maps) {
      if (m.indices.size() != element_ids.size() * std::size_t(m.arity))
        problem = "dist::Partition: map '" + m.name + "' has " + std::to_string(m.indices.size()) +
                  " indices on rank " + std::to_string(rank_) + ", expected " +
                  std::to_string(element_ids.size() * m.arity);
      if (!problem.empty())
        continue;
      const int *at = m.indices.data(), n = m.to.size();
      const std::size_t i = std::size_t(detail::first_where(
          std::int64_t(m.indices.size()), [=](std::int64_t j) { return at[j] < 0 || at[j] >= n; }));
      if (i < m.indices.size())
        problem = "dist::Partition: map '" + m.name + "' element " +
                  std::to_string(element_ids[i / m.arity]) + " slot " +
                  std::to_string(i % m.arity) + " points to " + std::to_string(m.indices[i]) +
                  ", not in [0, " + std::to_string(m.to.size()) + ")";
    }
    detail::fail_together(comm_, problem);
    step("elements sorted and checked");
    for (const auto &e : existing)
      targets_.push_back(e);
    std::vector<detail::PendingHalo> halos;
    for (const auto &m : own.maps)
      if (!part_of(m.to)) {
        const auto given = std::find_if(own.owned.begin(), own.owned.end(),
                                        [&](const OwnPart::Owned &o) { return o.set == m.to; });
        if (given == own.owned.end())
          detail::fail("dist::Partition: no owned points given for set '", m.to.name(),
                       "', which map '", m.name, "' reaches");
        halos.emplace_back();
        targets_.push_back(detail::make_own_part(comm_, m.to, std::move(given->ids), own.maps,
                                                 given->halo, halos.back()));
      }
    step("halos");
    // Each map's rows turned to local points in place (finish needs no
    // global ids): a point neither owned nor in the halo as -1 - its
    // global id, for the message.
    std::vector<std::vector<int>> rows;
    std::vector<int> reaches_halo; // per map, on this rank
    for (auto &m : own.maps) {
      rows.push_back(std::move(m.indices));
      if (!problem.empty())
        continue;
      const SetPart &to = *part_of(m.to);
      const detail::IdIndex local_of(to.global_ids);
      int *row = rows.back().data();
      const auto n = std::int64_t(rows.back().size());
      const detail::Filled f = detail::fill(n, row, to.owned, [&](std::int64_t j) {
        const int local = local_of(row[j]);
        return local >= 0 ? local : -1 - row[j];
      });
      reaches_halo.push_back(f.any_at_least);
      const auto i = std::size_t(f.first_negative);
      if (i < rows.back().size()) // only where the parts came from another partition
        problem = "dist::Partition: element " + std::to_string(element_ids[i / m.arity]) + " of '" +
                  elements.name() + "' (rank " + std::to_string(rank_) + ") reaches point " +
                  std::to_string(-1 - row[i]) + " of '" + m.to.name() + "' through map '" + m.name +
                  "', but that point is neither owned nor in the halo on rank " +
                  std::to_string(rank_) + ": give such elements to the rank that owns their points";
    }
    detail::fail_together(comm_, problem);
    step("local rows");
    finish(own.maps, rows, reaches_halo, halos, order, local_order);
  }

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm comm() const { return comm_; }
  /// This rank's elements (local set, global ids).
  const std::shared_ptr<SetPart> &elements() const { return elements_; }
  /// This rank's parts of the target sets, for a further element set.
  const std::vector<std::shared_ptr<SetPart>> &targets() const { return targets_; }
  /// This rank's part of a target set.
  const std::shared_ptr<SetPart> &part(const Set &global) const {
    for (const auto &t : targets_)
      if (t->global == global)
        return t;
    detail::fail("dist::Partition: set '", global.name(), "' is not the target of any map");
  }
  /// A map in local numbering: from this rank's elements to its local
  /// points of the target set.
  const Map<MemorySpace> &map(const std::string &name) const {
    const auto it = maps_.find(name);
    if (it == maps_.end())
      detail::fail("dist::Partition: no map called '", name, "'");
    return it->second;
  }
  /// Halo exchanges of this partition's sets (dats in the default device's
  /// memory) go device to device through NCCL instead of through the host.
  /// Collective: every rank calls it. Returns the communicator, which
  /// further partitions over the same ranks can take instead of making
  /// their own (a new one when `comm` is empty). Fails in builds without
  /// NCCL and when ranks share a GPU.
  std::shared_ptr<const NcclComm> use_nccl(std::shared_ptr<const NcclComm> comm = {}) const {
    if (!comm)
      comm = std::make_shared<NcclComm>(comm_);
    elements_->halo->use_nccl(comm);
    for (const auto &t : targets_)
      t->halo->use_nccl(comm);
    return comm;
  }
  /// Halo exchanges of this partition's sets time the device's part too
  /// (Exchange::time_on_device), for reports of the communication share.
  void time_exchanges_on_device(bool on) const {
    elements_->halo->time_on_device(on);
    for (const auto &t : targets_)
      t->halo->time_on_device(on);
  }
  /// Where this rank's construction went, step by step (wall seconds):
  /// "owners" (from global data) or "elements sorted and checked" (from an
  /// OwnPart: sorted, checked, no doubles through the directory), "halos",
  /// "local rows", then "local order" (with a local order), "exchanges",
  /// "maps" (made in the memory space), "overlap order" and "pieces" (with
  /// ElementOrder::overlap). The list depends only on the constructor and
  /// its options, so it is the same on every rank.
  const std::vector<SetupStep> &setup_steps() const { return steps_; }
  /// How this rank's elements are numbered.
  ElementOrder order() const {
    return pieces_.empty() ? ElementOrder::global : ElementOrder::overlap;
  }
  /// This rank's elements as three pieces (core, boundary, core) with the
  /// maps restricted to each; ElementOrder::overlap only.
  const std::vector<Piece<MemorySpace>> &pieces() const {
    if (pieces_.empty())
      detail::fail("dist::Partition of '", elements_->global.name(),
                   "': no pieces; construct it with ElementOrder::overlap");
    return pieces_;
  }

private:
  Partition(MPI_Comm comm, const Set &elements, const std::vector<int> &element_owner,
            const std::vector<MapSpec> &maps, const std::vector<PointOwners> &point_owners,
            const std::vector<std::shared_ptr<SetPart>> &existing, ElementOrder order,
            const ReorderOptions &local_order)
      : comm_(comm), element_owner_(element_owner) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
    if (element_owner.size() != std::size_t(elements.size()))
      detail::fail("dist::Partition: ", element_owner.size(), " element owners for set '",
                   elements.name(), "' of size ", elements.size());
    for (std::size_t e = 0; e < element_owner.size(); ++e)
      if (element_owner[e] < 0 || element_owner[e] >= size_)
        detail::fail("dist::Partition: element ", e, " of '", elements.name(), "' owned by rank ",
                     element_owner[e], ", not in [0, ", size_, ")");
    // This rank's elements, in global order; no element halo.
    elements_ = std::make_shared<SetPart>();
    elements_->global = elements;
    for (int e = 0; e < elements.size(); ++e)
      if (element_owner[e] == rank_)
        elements_->global_ids.push_back(e);
    elements_->owned = int(elements_->global_ids.size());
    elements_->local = Set(elements.name() + "@" + std::to_string(rank_), elements_->owned);
    elements_->halo = std::make_shared<Exchange>(comm_);
    elements_->comm = comm_;

    // Point owners, per target set: given, else from every map into it.
    std::vector<std::pair<Set, std::vector<int>>> owners;
    auto owner_of = [&](const Set &s) -> std::vector<int> & {
      for (auto &kv : owners)
        if (kv.first == s)
          return kv.second;
      owners.emplace_back(s, std::vector<int>());
      return owners.back().second;
    };
    for (const auto &m : maps) {
      if (m.indices.size() != std::size_t(elements.size()) * std::size_t(m.arity))
        detail::fail("dist::Partition: map '", m.name, "' has ", m.indices.size(),
                     " indices, expected ", std::size_t(elements.size()) * m.arity);
      const int *at = m.indices.data(), n = m.to.size();
      const std::size_t i = std::size_t(detail::first_where(
          std::int64_t(m.indices.size()), [=](std::int64_t j) { return at[j] < 0 || at[j] >= n; }));
      if (i < m.indices.size())
        detail::fail("dist::Partition: map '", m.name, "' element ", i / m.arity, " slot ",
                     i % m.arity, " points to ", at[i], ", not in [0, ", n, ")");
    }
    for (const auto &given : point_owners) {
      if (given.owner.size() != std::size_t(given.set.size()))
        detail::fail("dist::Partition: ", given.owner.size(), " point owners for set '",
                     given.set.name(), "' of size ", given.set.size());
      for (std::size_t p = 0; p < given.owner.size(); ++p)
        if (given.owner[p] < 0 || given.owner[p] >= size_)
          detail::fail("dist::Partition: point ", p, " of '", given.set.name(), "' owned by rank ",
                       given.owner[p], ", not in [0, ", size_, ")");
      owner_of(given.set) = given.owner;
    }
    // Else the owner of the lowest-numbered element that reaches the point
    // (maps in order); given owners replace these, so are not derived.
    for (const auto &m : maps) {
      if (std::any_of(point_owners.begin(), point_owners.end(),
                      [&](const PointOwners &given) { return given.set == m.to; }))
        continue;
      auto &own = owner_of(m.to);
      if (own.empty())
        own.assign(std::size_t(m.to.size()), -1);
      for (std::size_t i = 0; i < m.indices.size(); ++i) {
        int &o = own[std::size_t(m.indices[i])];
        if (o < 0)
          o = element_owner[i / m.arity];
      }
    }
    step("owners");
    for (const auto &e : existing)
      targets_.push_back(e);
    std::vector<detail::PendingHalo> halos; // the exchanges of the parts made here, built last
    for (const auto &m : maps)
      if (!part_of(m.to)) {
        halos.emplace_back();
        std::vector<int> &own = owner_of(m.to);
        if (own.empty()) // (a set of no points)
          own.assign(std::size_t(m.to.size()), -1);
        targets_.push_back(detail::make_global_part(comm_, rank_, size_, m.to, own, maps,
                                                    element_owner_, halos.back()));
      }
    step("halos");
    std::vector<std::vector<int>> rows; // per map: [local element][arity], local points
    std::vector<int> reaches_halo;      // per map, on this rank
    for (const auto &m : maps) {
      const SetPart &to = *part_of(m.to);
      std::vector<int> local_of(to.global.size(), -1); // global -> local id
      for (int i = 0; i < int(to.global_ids.size()); ++i)
        local_of[to.global_ids[i]] = i;
      rows.emplace_back(std::size_t(elements_->owned) * m.arity);
      const int a = m.arity, *global = m.indices.data(), *element = elements_->global_ids.data();
      int *local = rows.back().data();
      detail::host_for(elements_->owned, [&](std::int64_t e) {
        for (int s = 0; s < a; ++s)
          local[e * a + s] = local_of[std::size_t(global[std::size_t(element[e]) * a + s])];
      });
      const detail::Filled f = detail::fill(std::int64_t(rows.back().size()), local, to.owned,
                                            [=](std::int64_t j) { return local[j]; });
      reaches_halo.push_back(f.any_at_least);
      const auto i = std::size_t(f.first_negative);
      if (i < rows.back().size()) // only where the parts came from another partition
        detail::fail("dist::Partition: element ", element[i / a], " of '", elements.name(),
                     "' (rank ", rank_, ") reaches point ",
                     global[std::size_t(element[i / a]) * a + i % a], " of '", m.to.name(),
                     "' through map '", m.name,
                     "', but that point is neither owned nor in the halo on rank ", rank_,
                     ": give such elements to the rank that owns their points");
    }
    step("local rows");
    finish(maps, rows, reaches_halo, halos, order, local_order);
  }

  // What both ways of building end with: `rows[k]` is map k's [local
  // element][arity] in local points; the local order, the exchanges, the
  // maps and the pieces.
  void finish(const std::vector<MapSpec> &maps, std::vector<std::vector<int>> &rows,
              std::vector<int> &reaches_halo, std::vector<detail::PendingHalo> &halos,
              ElementOrder order, const ReorderOptions &local_order) {
    MPI_Allreduce(MPI_IN_PLACE, reaches_halo.data(), int(maps.size()), MPI_INT, MPI_LOR, comm_);
    if (local_order.method != Reorder::none) {
      std::vector<const SetPart *> to;
      for (const auto &m : maps)
        to.push_back(part_of(m.to));
      detail::renumber_locally(local_order, *elements_, maps, to, rows, halos);
      step("local order");
    }
    for (auto &h : halos)
      h.build(comm_);
    step("exchanges");
    int counts[3] = {elements_->owned, 0, 0};
    if (order == ElementOrder::overlap) { // renumber: [core | boundary | core]
      std::vector<char> boundary(elements_->owned, 0);
      for (std::size_t k = 0; k < maps.size(); ++k) {
        const int a = maps[k].arity, owned = part_of(maps[k].to)->owned;
        for (int i = 0; i < elements_->owned; ++i)
          for (int s = 0; s < a; ++s)
            boundary[i] |= rows[k][std::size_t(i) * a + s] >= owned;
      }
      detail::move_elements(*elements_, detail::overlap_order(boundary, counts), maps, rows);
      step("overlap order");
    }
    std::vector<const Map<MemorySpace> *> made;
    for (std::size_t k = 0; k < maps.size(); ++k) {
      const Map<MemorySpace> m(maps[k].name, elements_->local, part_of(maps[k].to)->local,
                               maps[k].arity, rows[k]);
      made.push_back(&maps_.emplace(maps[k].name, m).first->second);
      if (!reaches_halo[k])
        part(maps[k].to)->halo_free_maps.emplace_back(elements_->local, maps[k].name);
    }
    step("maps");
    if (order == ElementOrder::overlap) {
      pieces_ = detail::make_pieces(elements_->local, counts, made);
      step("pieces");
    }
  }

  // Ends a step of the construction (step_start_ is set just before a
  // constructor's body).
  void step(const char *name) {
    const auto now = std::chrono::steady_clock::now();
    steps_.push_back({name, std::chrono::duration<double>(now - step_start_).count()});
    step_start_ = now;
  }

  const SetPart *part_of(const Set &s) const {
    for (const auto &t : targets_)
      if (t->global == s)
        return t.get();
    return nullptr;
  }

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::vector<int> element_owner_;
  std::shared_ptr<SetPart> elements_;
  std::vector<std::shared_ptr<SetPart>> targets_;
  std::map<std::string, Map<MemorySpace>> maps_;
  std::vector<Piece<MemorySpace>> pieces_; // ElementOrder::overlap: always three
  std::vector<SetupStep> steps_;
  // Last, so initialised just before a constructor's body; a time point
  // (not a Kokkos::Timer, which cannot be copied) keeps Partition copyable.
  std::chrono::steady_clock::time_point step_start_ = std::chrono::steady_clock::now();
};

} // namespace umesh::dist

#endif
