#ifndef UMESH_DETAIL_ELEMENT_PLANS_HPP
#define UMESH_DETAIL_ELEMENT_PLANS_HPP

// The plans of element loops, one per strategy: what each launches and how
// its combining rows fold into memory. Serial and Atomic need only the set;
// Colour holds the colouring of the elements over the maps loops fold
// through, and the teams of each colour for each elements_per_team used.

#include <umesh/colouring.hpp>
#include <umesh/detail/element_columns.hpp>
#include <umesh/detail/element_kernel.hpp>
#include <umesh/element_exec.hpp>
#include <umesh/plan.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>

#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh {

template <class Exec, class Space = Kokkos::DefaultExecutionSpace> class ElementPlan;

namespace detail {

/// How teams are launched: `per_team` elements share a team of `team_size`
/// threads with `lanes` vector lanes each.
struct TeamShape {
  int per_team, team_size, lanes;
};

template <class Space> constexpr bool runs_on_host() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
}

/// Launches `teams` teams of functor `f` (an ElementFunctor) in `shape`.
template <class Space, class F>
void launch_element_teams(const Space &space, const std::string &label, const F &f, int teams,
                          const TeamShape &shape) {
  if (teams <= 0)
    return;
  typename F::policy_type policy(space, teams, shape.team_size, shape.lanes);
  policy.set_scratch_size(0, Kokkos::PerTeam(f.team_bytes));
  Kokkos::parallel_for(label,
                       Kokkos::Experimental::require(
                           policy, Kokkos::Experimental::WorkItemProperty::HintLightWeight),
                       f);
}

// What the plans of Serial and Atomic share: the set, no maps needed.
template <class Space> class ElementDirectPlan : public PlanBase<Space> {
public:
  template <class MapT> const unsigned char *row_repeats(const MapT &, const std::string &) const {
    return nullptr;
  }
  /// Called before a loop binds its arguments (the gather plan's hook).
  void begin_loop() {}

protected:
  template <class... Maps>
  ElementDirectPlan(const Space &space, Set set, const Maps &...maps)
      : PlanBase<Space>(space, std::move(set), maps...) {}
};

} // namespace detail

/// Reference plan: one team of one thread runs every element in order.
template <class Space>
class ElementPlan<exec::ElementSerial, Space> : public detail::ElementDirectPlan<Space> {
public:
  using exec_type = exec::ElementSerial;
  static constexpr detail::RowFold fold = detail::RowFold::plain;
  template <class... Maps>
  ElementPlan(const Space &space, Set set, const Maps &...maps)
      : detail::ElementDirectPlan<Space>(space, std::move(set), maps...) {}

  detail::TeamShape shape(const ElementTeams &) const {
    return {this->set_.size() > 0 ? this->set_.size() : 1, 1, 1};
  }
  template <class F> void launch(const std::string &name, F f, const detail::TeamShape &s) const {
    f.schedule.n = this->set_.size();
    f.schedule.per_team = s.per_team;
    detail::launch_element_teams(this->space_, "umesh::element_serial::" + name, f,
                                 this->set_.size() > 0 ? 1 : 0, s);
  }
};

/// One launch, combining rows folded in with atomics.
template <class Space>
class ElementPlan<exec::ElementAtomic, Space> : public detail::ElementDirectPlan<Space> {
public:
  using exec_type = exec::ElementAtomic;
  static constexpr detail::RowFold fold = detail::RowFold::atomic;
  template <class... Maps>
  ElementPlan(const Space &space, Set set, const Maps &...maps)
      : detail::ElementDirectPlan<Space>(space, std::move(set), maps...) {}

  detail::TeamShape shape(const ElementTeams &t) const {
    constexpr bool host = detail::runs_on_host<Space>();
    return {t.elements_per_team, host ? 1 : t.elements_per_team, host ? 1 : t.lanes};
  }
  template <class F> void launch(const std::string &name, F f, const detail::TeamShape &s) const {
    const int n = this->set_.size();
    f.schedule.n = n;
    f.schedule.per_team = s.per_team;
    detail::launch_element_teams(this->space_, "umesh::element_atomic::" + name, f,
                                 (n + s.per_team - 1) / s.per_team, s);
  }
};

/// Elements coloured over the plan's maps; teams of one colour each, all
/// colours in one launch (ordered by tickets) or one launch per colour.
/// Elements whose row names a point twice (columns whose layers share
/// points, under extruded maps) fold atomically: their lanes may meet.
template <class Space>
class ElementPlan<exec::ElementColour, Space> : public detail::PlanBase<Space> {
public:
  using exec_type = exec::ElementColour;
  using memory_space = typename Space::memory_space;
  // Loads past L1 under per-colour launches too: one kernel for both forms.
  static constexpr detail::RowFold fold = detail::RowFold::coherent;

  template <class... Maps>
  ElementPlan(const Space &space, exec::ElementColour options, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, std::move(set), maps...), options_(options) {
    Kokkos::Timer timer;
    const int n = this->set_.size();
    std::vector<HostConnectivity> written;
    std::vector<detail::RowShape> shapes; // of the written maps, in order
    detail::HostMaps host;                // (kept: `written` points into it)
    if constexpr (sizeof...(Maps) > 0) {
      // Columns are coloured by their first layer's points (ExtrudedMap).
      host = detail::host_maps(detail::plain_map(maps)...);
      written = host.written();
      (detail::add_row_shape(shapes, maps), ...);
    }
    const Colouring colouring = greedy_colour(n, written);
    colour_start_.assign(colouring.colour_sizes.size() + 1, 0);
    for (std::size_t c = 0; c < colouring.colour_sizes.size(); ++c)
      colour_start_[c + 1] = colour_start_[c] + colouring.colour_sizes[c];
    std::vector<int> fill(colour_start_.begin(), colour_start_.end() - 1),
        perm(static_cast<std::size_t>(n));
    for (int e = 0; e < n; ++e) // each colour in element order: locality within it
      perm[fill[colouring.colour[e]]++] = e;
    perm_ = detail::upload<memory_space>(perm, "umesh::ElementColour::perm");
    colour_start_dev_ = detail::upload<memory_space>(colour_start_, "umesh::ElementColour::starts");
    const std::vector<unsigned char> repeats = detail::repeated_rows(n, written, shapes);
    if (!repeats.empty())
      repeats_ = detail::upload<memory_space>(repeats, "umesh::ElementColour::repeats");
    counters_ = Kokkos::View<int *, memory_space>("umesh::ElementColour::counters", 2);
    this->build_seconds_ = timer.seconds();
  }

  int num_colours() const { return int(colour_start_.size()) - 1; }
  /// First position of each colour in permutation() (and the end).
  const std::vector<int> &colour_starts() const { return colour_start_; }
  /// The elements, colour by colour.
  const Kokkos::View<const int *, memory_space> &permutation() const { return perm_; }
  /// Whether some element's row names a point twice (its folds are atomic).
  bool has_repeated_rows() const { return repeats_.size() > 0; }
  const exec::ElementColour &options() const { return options_; }
  /// Launches from now on as `o` says (the colouring stays).
  void set_options(const exec::ElementColour &o) { options_ = o; }

  void begin_loop() {}
  template <class MapT> const unsigned char *row_repeats(const MapT &map, const std::string &loop) {
    this->map_index(map, loop); // the colouring must cover it
    return repeats_.data();
  }

  detail::TeamShape shape(const ElementTeams &t) const {
    constexpr bool host = detail::runs_on_host<Space>();
    return {t.elements_per_team, host ? 1 : t.elements_per_team, host ? 1 : t.lanes};
  }
  template <class F> void launch(const std::string &name, F f, const detail::TeamShape &s) {
    const Teams &teams = teams_for(s.per_team);
    detail::ElementSchedule &sc = f.schedule;
    sc.perm = perm_.data();
    sc.n = this->set_.size();
    sc.per_team = s.per_team;
    sc.team_start = teams.device.data();
    sc.group_start = colour_start_dev_.data();
    sc.groups = num_colours();
    if (options_.one_launch) {
      Kokkos::deep_copy(this->space_, counters_, 0);
      sc.counters = counters_.data();
      detail::launch_element_teams(this->space_, "umesh::element_colour::" + name, f,
                                   teams.host.back(), s);
      return;
    }
    for (int c = 0; c < num_colours(); ++c) {
      sc.team_base = teams.host[c];
      detail::launch_element_teams(this->space_, "umesh::element_colour::" + name, f,
                                   teams.host[c + 1] - teams.host[c], s);
    }
  }

private:
  struct Teams {
    std::vector<int> host;
    Kokkos::View<int *, memory_space> device;
  };
  // First team of each colour for `per_team` elements a team (and the end).
  const Teams &teams_for(int per_team) {
    auto it = teams_.find(per_team);
    if (it != teams_.end())
      return it->second;
    Teams t;
    t.host.assign(colour_start_.size(), 0);
    for (int c = 0; c < num_colours(); ++c)
      t.host[c + 1] =
          t.host[c] + (colour_start_[c + 1] - colour_start_[c] + per_team - 1) / per_team;
    t.device = detail::upload<memory_space>(t.host, "umesh::ElementColour::teams");
    return teams_.emplace(per_team, std::move(t)).first->second;
  }

  exec::ElementColour options_;
  std::vector<int> colour_start_;
  Kokkos::View<const int *, memory_space> perm_, colour_start_dev_;
  Kokkos::View<const unsigned char *, memory_space> repeats_;
  Kokkos::View<int *, memory_space> counters_;
  std::map<int, Teams> teams_;
};

} // namespace umesh

#endif
