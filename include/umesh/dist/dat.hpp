#ifndef UMESH_DIST_DAT_HPP
#define UMESH_DIST_DAT_HPP

// Data on one rank's part of a distributed set: a umesh::Dat over the local
// points (owned, then halo) and whether the halo copies are stale.

#include <umesh/dat.hpp>
#include <umesh/detail/host_loops.hpp>
#include <umesh/dist/id_index.hpp>
#include <umesh/dist/partition.hpp>

#include <mpi.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace umesh::dist {

template <class T> MPI_Datatype mpi_type() {
  if constexpr (std::is_same<T, double>::value)
    return MPI_DOUBLE;
  else if constexpr (std::is_same<T, float>::value)
    return MPI_FLOAT;
  else if constexpr (std::is_same<T, int>::value)
    return MPI_INT;
  else if constexpr (std::is_same<T, long long>::value)
    return MPI_LONG_LONG;
  else
    static_assert(sizeof(T) == 0, "umesh::dist: no MPI type for this value type");
}

template <class T, int Dim, class Layout = AoS,
          class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class Dat {
public:
  using local_type = umesh::Dat<T, Dim, Layout, MemorySpace>;

  /// Zero-initialised data on this rank's part of a set.
  Dat(std::shared_ptr<SetPart> part, std::string name)
      : part_(std::move(part)), local_(part_->local, std::move(name)),
        stale_(std::make_shared<bool>(false)) {}

  const local_type &local() const { return local_; }
  const SetPart &part() const { return *part_; }
  const std::string &name() const { return local_.name(); }

  /// Halo copies no longer hold their owners' values (after a write here).
  void mark_halo_stale() const { *stale_ = part_->halo && part_->halo->neighbours() > 0; }
  bool halo_stale() const { return *stale_; }
  /// The halo copies hold their owners' values (an import is under way
  /// that makes them so before anyone reads them).
  void mark_halo_fresh() const { *stale_ = false; }
  /// Imports the owners' values if the halo is stale.
  void refresh_halo() const {
    if (*stale_)
      part_->halo->import(local_);
    *stale_ = false;
  }
  /// Zeroes the halo copies (before a loop increments through them).
  void zero_halo() const { fill_halo(T(0)); }
  /// Sets the halo copies to `value` (the identity of a min or max).
  void fill_halo(T value) const {
    const auto v = local_.view();
    const int first = part_->owned, last = local_.size();
    if (first == last) // no halo here: no launch
      return;
    using Exec = typename local_type::view_type::execution_space;
    Kokkos::parallel_for(
        "umesh::dist::zero_halo", Kokkos::RangePolicy<Exec>(first, last), KOKKOS_LAMBDA(int i) {
          for (int k = 0; k < Dim; ++k)
            v(i, k) = value;
        });
  }

  /// Sets owned and halo points from global values `[global point][Dim]`
  /// (every rank passes the same vector).
  void set_global(const std::vector<T> &values) const {
    if (values.size() != std::size_t(part_->global.size()) * Dim)
      detail::fail("dist::Dat '", name(), "': ", values.size(), " global values for set '",
                   part_->global.name(), "' of size ", part_->global.size(), " x ", Dim);
    auto h = Kokkos::create_mirror_view(local_.view());
    for (int i = 0; i < local_.size(); ++i)
      for (int k = 0; k < Dim; ++k)
        h(i, k) = values[std::size_t(part_->global_ids[i]) * Dim + k];
    Kokkos::deep_copy(local_.view(), h);
    *stale_ = false;
  }

  /// Sets this rank's owned points from its own values: `values[i][Dim]`
  /// of global point `ids[i]` (any order; every owned point among them,
  /// others ignored), then imports the halo copies from their owners. For
  /// parts built from each rank's own mesh (OwnPart), where no rank has
  /// the global values. Collective over the ranks of the part.
  void set_owned(const std::vector<int> &ids, const std::vector<T> &values) const {
    std::string problem;
    if (values.size() != ids.size() * Dim)
      problem = "dist::Dat '" + name() + "': " + std::to_string(values.size()) + " values for " +
                std::to_string(ids.size()) + " points x " + std::to_string(Dim);
    const detail::IdIndex at(ids);
    auto h = Kokkos::create_mirror_view(local_.view());
    const int *global = part_->global_ids.data();
    const std::int64_t missing = detail::first_where(
        problem.empty() ? part_->owned : 0, [&](std::int64_t i) { return at(global[i]) < 0; });
    if (missing < part_->owned && problem.empty())
      problem = "dist::Dat '" + name() + "': no value given for owned point " +
                std::to_string(global[missing]) + " of set '" + part_->global.name() + "'";
    detail::fail_together(part_->comm, problem);
    detail::host_for(part_->owned, [&](std::int64_t i) { // (on the host's threads: a whole part)
      const std::size_t k = std::size_t(at(global[i]));
      for (int d = 0; d < Dim; ++d)
        h(i, d) = values[k * Dim + d];
    });
    for (int i = part_->owned; i < local_.size(); ++i)
      for (int k = 0; k < Dim; ++k)
        h(i, k) = T(0);
    Kokkos::deep_copy(local_.view(), h);
    mark_halo_stale();
    refresh_halo();
  }

  /// Every rank gets the whole set's values `[global point][Dim]`, each
  /// point from its owner.
  std::vector<T> gather_global(MPI_Comm comm) const {
    int size = 1;
    MPI_Comm_size(comm, &size);
    const int owned = part_->owned;
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), local_.view());
    std::vector<T> mine(std::size_t(owned) * Dim);
    for (int i = 0; i < owned; ++i)
      for (int k = 0; k < Dim; ++k)
        mine[std::size_t(i) * Dim + k] = h(i, k);
    std::vector<int> counts(size), offsets(size, 0);
    MPI_Allgather(&owned, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
    for (int r = 1; r < size; ++r)
      offsets[r] = offsets[r - 1] + counts[r - 1];
    const int total = offsets[size - 1] + counts[size - 1];
    std::vector<int> ids(total);
    MPI_Allgatherv(part_->global_ids.data(), owned, MPI_INT, ids.data(), counts.data(),
                   offsets.data(), MPI_INT, comm);
    for (int r = 0; r < size; ++r)
      counts[r] *= Dim, offsets[r] *= Dim;
    std::vector<T> all(std::size_t(total) * Dim);
    MPI_Allgatherv(mine.data(), owned * Dim, mpi_type<T>(), all.data(), counts.data(),
                   offsets.data(), mpi_type<T>(), comm);
    std::vector<T> out(std::size_t(part_->global.size()) * Dim, T(0));
    for (int j = 0; j < total; ++j)
      for (int k = 0; k < Dim; ++k)
        out[std::size_t(ids[j]) * Dim + k] = all[std::size_t(j) * Dim + k];
    return out;
  }

private:
  std::shared_ptr<SetPart> part_;
  local_type local_;
  std::shared_ptr<bool> stale_; // shared by copies of this dat
};

} // namespace umesh::dist

#endif
