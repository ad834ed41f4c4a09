#ifndef UMESH_DETAIL_TEAM_LAUNCH_HPP
#define UMESH_DETAIL_TEAM_LAUNCH_HPP

// What the team executors share: the check of a loop's team scratch against
// the backend's budget and the record of each loop's scratch for their
// summaries (segmented, warp), and the launch (a league of `teams` teams of
// `team_size` threads with `scratch` bytes each, checked against what the
// kernel can launch first; the hierarchical executor's too).

#include <umesh/detail/graph_recording.hpp>
#include <umesh/detail/hierarchical_checks.hpp> // check_team_size
#include <umesh/detail/launch_weight.hpp>
#include <umesh/detail/loop_body.hpp> // reduce_launch
#include <umesh/detail/team_scratch.hpp>

#include <Kokkos_Core.hpp>

#include <map>
#include <sstream>
#include <string>

namespace umesh::detail {

/// Fails naming the loop, both numbers, `what` (how the scratch is made up)
/// and `remedy` when `scratch` bytes per team exceed the backend's budget.
template <class Space>
void check_team_scratch(const std::string &loop, const char *executor, int scratch,
                        const std::string &what, const char *remedy) {
  const int budget = team_scratch_budget<Space>();
  if (scratch > budget)
    fail("loop '", loop, "' under the ", executor, " executor needs ", scratch,
         " bytes of team scratch per block (", what, "), but the backend grants ", budget,
         " per team: ", remedy);
}

/// Team scratch per block of each loop's last run.
struct LoopScratch {
  std::map<std::string, int> bytes;
  /// 0 if `loop` never ran.
  int of(const std::string &loop) const {
    auto it = bytes.find(loop);
    return it == bytes.end() ? 0 : it->second;
  }
  /// "; loop 'name': scratch N B/block" per loop, for plan summaries.
  void describe(std::ostream &os) const {
    for (const auto &[loop, b] : bytes)
      os << "; loop '" << loop << "': scratch " << b << " B/block";
  }
};

/// `Bounds`: a Kokkos::LaunchBounds (a register budget), none by default.
template <class Space, class Bounds = Kokkos::LaunchBounds<>, class Body, class Functor>
void launch_teams(const Space &space, const std::string &loop, const char *executor,
                  const Functor &f, int teams, int team_size, int block_size, int scratch,
                  const Body &body, typename Body::reduce_value &total) {
  if constexpr (!bounded_launch_fits<Functor, Bounds>()) {
    fail_bounded_launch(loop, executor, sizeof(Functor));
  } else {
    using TeamPolicy = Kokkos::TeamPolicy<Space, Kokkos::IndexType<int>, Bounds>;
    // Light weight where it can: the functor goes as a kernel argument (see
    // launch_range and launch_weight.hpp).
    const auto make_policy = [&](int threads) {
      return Kokkos::Experimental::require(
          TeamPolicy(space, teams, threads)
              .set_scratch_size(team_scratch_level<Space>(), Kokkos::PerTeam(scratch)),
          launch_weight<Functor, Bounds>());
    };
    const std::string label = std::string("umesh::") + executor + "::" + loop;
    check_graph_launch(space, label, sizeof(Functor));
    const auto probe = make_policy(1);
    if constexpr (Body::has_reduction) {
      check_team_size(loop, probe.team_size_max(f, Kokkos::ParallelReduceTag()), team_size,
                      block_size, Space::name(), executor);
      reduce_launch<Space>(label, make_policy(team_size), f, body, total);
    } else {
      check_team_size(loop, probe.team_size_max(f, Kokkos::ParallelForTag()), team_size, block_size,
                      Space::name(), executor);
      Kokkos::parallel_for(label, make_policy(team_size), f);
    }
  }
}

} // namespace umesh::detail

#endif
