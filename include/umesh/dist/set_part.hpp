#ifndef UMESH_DIST_SET_PART_HPP
#define UMESH_DIST_SET_PART_HPP

// What a Partition gives each rank of one set, and what it is built from:
// the global connectivity of a map and chosen owners of points.

#include <umesh/detail/host_loops.hpp>
#include <umesh/dist/exchange.hpp>
#include <umesh/dist/id_index.hpp>
#include <umesh/map.hpp>
#include <umesh/set.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace umesh::dist {

/// One set as this rank holds it: the local umesh::Set (owned points, then
/// halo points), the global id of each local point, and the exchange with
/// the ranks that own this rank's halo or hold its owned points as halo.
struct SetPart {
  Set global{"", 0};
  Set local{"", 0};
  int owned = 0;                  ///< local points [0, owned) are owned here
  std::vector<int> global_ids;    ///< [local point] -> global id
  std::shared_ptr<Exchange> halo; ///< no neighbours for the element set
  MPI_Comm comm = MPI_COMM_NULL;
  /// Maps into this set (by element set and name) through which no rank's
  /// elements reach a halo point, such as boundary faces kept with their
  /// cell: loops through them need no exchange. Every rank holds the same
  /// list (Partition agrees on it over the ranks).
  std::vector<std::pair<Set, std::string>> halo_free_maps;

  /// Whether a loop through `m` may touch a halo point of this set on some
  /// rank; true for maps it does not know. A Partition's map, a copy of it,
  /// or a map made on that partition's local element set under its name.
  template <class M> bool reaches_halo(const Map<M> &m) const {
    for (const auto &[from, name] : halo_free_maps)
      if (from == m.from() && name == m.name())
        return false;
    return true;
  }

  /// The local id of each of `ids` (global ids of this set), or -1 where
  /// this rank holds the point neither as owned nor as halo: for maps an
  /// application builds itself on the local set.
  std::vector<int> local_ids(const std::vector<int> &ids) const {
    const detail::IdIndex local_of(global_ids);
    std::vector<int> out(ids.size());
    detail::host_for(std::int64_t(ids.size()), [&](std::int64_t i) { out[i] = local_of(ids[i]); });
    return out;
  }
};

/// Global connectivity of one map (the same on every rank).
struct MapSpec {
  std::string name;
  Set to;
  int arity;
  std::vector<int> indices; ///< [global element][arity], global point ids
};

/// Owners chosen for the points of one target set (global point -> rank).
struct PointOwners {
  Set set;
  std::vector<int> owner;
};

/// What one rank holds of a mesh that no rank holds whole, for a Partition
/// each rank builds from its own part: its elements (global ids; every
/// element of `elements` on exactly one rank), their rows of each map
/// (MapSpec::indices: [this rank's element][arity], global point ids, in
/// the order of `element_ids`), and per target set the global ids of the
/// points it owns (every point on exactly one rank) and of further points
/// it holds as halo beyond those its elements reach (`halo`: a stencil over
/// the points themselves, such as the cells beside this rank's cells across
/// faces another rank owns; ids it owns are ignored).
struct OwnPart {
  Set elements;
  std::vector<int> element_ids;
  std::vector<MapSpec> maps;
  struct Owned {
    Set set;
    std::vector<int> ids;
    std::vector<int> halo = {};
  };
  std::vector<Owned> owned;
};

/// Owners that deal `n` items to `ranks` ranks in contiguous blocks of
/// nearly equal size, in item order: slabs of a generated mesh's numbering.
inline std::vector<int> contiguous_owners(int n, int ranks) {
  std::vector<int> owner(std::size_t(std::max(0, n)));
  for (int i = 0; i < n; ++i)
    owner[i] = int(std::int64_t(i) * ranks / n);
  return owner;
}

} // namespace umesh::dist

#endif
