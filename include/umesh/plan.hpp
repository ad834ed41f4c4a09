#ifndef UMESH_PLAN_HPP
#define UMESH_PLAN_HPP

// A plan holds what an executor needs that depends on the mesh and not on
// the data: colourings, permutations, inverse maps, scratch workspaces. It is
// built once on the host, kept in the execution space's memory and reused by
// every loop over the same set that increments through the plan's maps.

#include <umesh/block_plan.hpp>
#include <umesh/error.hpp>
#include <umesh/exec.hpp>
#include <umesh/map.hpp>
#include <umesh/set.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace umesh {

template <class Exec, class Space = Kokkos::DefaultExecutionSpace> class Plan;

/// The executor whose loops plan type P runs (Plan<Exec, Space>: Exec).
template <class P> struct plan_executor;
template <class Exec, class Space> struct plan_executor<Plan<Exec, Space>> { using type = Exec; };
template <class P> using plan_executor_t = typename plan_executor<P>::type;

/// Marks a map that loops only read through: the hierarchical executor stages
/// its points but colours only over the maps that are incremented through.
/// Other executors ignore it.
template <class MemorySpace> struct ReadOnlyMap { Map<MemorySpace> map; };
template <class M> ReadOnlyMap<M> read_only(const Map<M> &map) {
  return {map};
}

namespace detail {

template <class Space> class PlanBase {
public:
  using execution_space = Space;
  using memory_space = typename Space::memory_space;

  const Set &set() const { return set_; }
  const Space &space() const { return space_; }
  /// Seconds the host spent building the plan.
  double build_seconds() const { return build_seconds_; }

  /// Index of `map` among the plan's maps, or fails naming the loop.
  template <class MapT> int map_index(const MapT &map, const std::string &loop) const {
    for (std::size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] == map.view().data())
        return int(i);
    std::string names;
    for (const auto &n : names_)
      names += (names.empty() ? "'" : ", '") + n + "'";
    fail("loop '", loop, "' increments through map '", map.name(),
         "', but its plan was built over ", names.empty() ? "no maps" : names,
         ": pass that map to make_plan");
  }

protected:
  template <class... Maps>
  PlanBase(const Space &space, Set set, const Maps &...maps) : set_(std::move(set)), space_(space) {
    (add_map(maps), ...);
  }
  template <class M> void add_map(const ReadOnlyMap<M> &ro) {
    if (ro.map.from() != set_)
      fail("make_plan: map '", ro.map.name(), "' maps from set '", ro.map.from().name(),
           "', but the plan is for set '", set_.name(), "'");
  }
  template <class MapT> void add_map(const MapT &map) {
    if (map.from() != set_)
      fail("make_plan: map '", map.name(), "' maps from set '", map.from().name(),
           "', but the plan is for set '", set_.name(), "'");
    keys_.push_back(map.view().data());
    names_.push_back(map.name());
  }

  Set set_;
  Space space_;
  std::vector<const void *> keys_;
  std::vector<std::string> names_;
  double build_seconds_ = 0;
};

template <class T> struct is_read_only : std::false_type {};
template <class M> struct is_read_only<ReadOnlyMap<M>> : std::true_type {};

template <class MapT> std::vector<int> host_indices(const MapT &map) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), map.view());
  return std::vector<int>(h.data(), h.data() + h.size());
}

template <class M> const Map<M> &unwrap(const Map<M> &map) {
  return map;
}
template <class M> const Map<M> &unwrap(const ReadOnlyMap<M> &ro) {
  return ro.map;
}

/// Host copies of a plan's maps as connectivity, in the order given. Target
/// ids number the distinct to-sets densely, in order of first appearance
/// (`targets[id]`); `written` is false for read_only(map).
struct HostMaps {
  std::vector<std::vector<int>> indices;
  std::vector<BlockPlanMap> maps;
  std::vector<const void *> keys; ///< the maps' View data, to recognise them
  std::vector<Set> targets;

  /// Connectivity of the maps loops increment through.
  std::vector<HostConnectivity> written() const {
    std::vector<HostConnectivity> out;
    for (const auto &m : maps)
      if (m.written)
        out.push_back(m.conn);
    return out;
  }
};

template <class... Maps> HostMaps host_maps(const Maps &...wrapped) {
  HostMaps h;
  auto add = [&](const auto &w) {
    const auto &map = unwrap(w);
    h.indices.push_back(host_indices(map));
    h.keys.push_back(map.view().data());
    int target = 0;
    while (target < int(h.targets.size()) && h.targets[target] != map.to())
      ++target;
    if (target == int(h.targets.size()))
      h.targets.push_back(map.to());
    h.maps.push_back({{nullptr, map.arity(), target, map.to().size()},
                      !is_read_only<std::decay_t<decltype(w)>>::value});
  };
  (add(wrapped), ...);
  for (std::size_t m = 0; m < h.maps.size(); ++m) // vectors no longer move
    h.maps[m].conn.indices = h.indices[m].data();
  return h;
}

/// A device copy of a host vector.
template <class MemorySpace, class T>
Kokkos::View<T *, MemorySpace> upload(const std::vector<T> &v, const std::string &label) {
  Kokkos::View<T *, MemorySpace> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
                                   v.size());
  Kokkos::deep_copy(
      d, Kokkos::View<const T *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return d;
}

} // namespace detail

/// Builds the plan executor `Exec` needs to run loops over `set` that
/// increment through `maps`.
template <class Space, class Exec, class... Maps>
Plan<Exec, Space> make_plan(const Space &space, Exec, const Set &set, const Maps &...maps) {
  return Plan<Exec, Space>(space, set, maps...);
}

} // namespace umesh

#endif
