#ifndef UMESH_DETAIL_TEAM_LAUNCH_HPP
#define UMESH_DETAIL_TEAM_LAUNCH_HPP

// The launch shared by the one-launch team executors (segmented, warp): a
// league of `teams` teams of `team_size` threads with `scratch` bytes of
// team scratch each, checked against what the kernel can launch first.

#include <umesh/detail/hierarchical_checks.hpp> // check_team_size

#include <Kokkos_Core.hpp>

#include <string>

namespace umesh::detail {

template <class Space, class Body, class Functor>
void launch_teams(const Space &space, const std::string &loop, const char *executor,
                  const Functor &f, int teams, int team_size, int block_size, int scratch,
                  const Body &body, typename Body::reduce_value &total) {
  using TeamPolicy = Kokkos::TeamPolicy<Space, Kokkos::IndexType<int>>;
  // Light weight: the functor goes as a kernel argument (see launch_range).
  const auto make_policy = [&](int threads) {
    return Kokkos::Experimental::require(
        TeamPolicy(space, teams, threads).set_scratch_size(0, Kokkos::PerTeam(scratch)),
        Kokkos::Experimental::WorkItemProperty::HintLightWeight);
  };
  const std::string label = std::string("umesh::") + executor + "::" + loop;
  const auto probe = make_policy(1);
  if constexpr (Body::has_reduction) {
    check_team_size(loop, probe.team_size_max(f, Kokkos::ParallelReduceTag()), team_size,
                    block_size, Space::name(), executor);
    typename Body::reduce_value partial;
    Kokkos::parallel_reduce(label, make_policy(team_size), f, partial);
    body.join(total, partial);
  } else {
    check_team_size(loop, probe.team_size_max(f, Kokkos::ParallelForTag()), team_size, block_size,
                    Space::name(), executor);
    Kokkos::parallel_for(label, make_policy(team_size), f);
  }
}

} // namespace umesh::detail

#endif
