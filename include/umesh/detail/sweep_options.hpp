#ifndef UMESH_DETAIL_SWEEP_OPTIONS_HPP
#define UMESH_DETAIL_SWEEP_OPTIONS_HPP

// Each sweep executor's options checked on their own (make_sweep_plan, and
// exec::SweepAuto's candidates): values no backend runs are an Error naming
// the executor, the option and the value.

#include <umesh/error.hpp>
#include <umesh/sweep_exec.hpp>

namespace umesh::detail {

inline bool sweep_lanes_ok(int lanes) {
  return lanes == 0 || (lanes >= 1 && lanes <= 32 && (lanes & (lanes - 1)) == 0);
}

inline void check_sweep_options(const exec::SweepSerial &) {}
inline void check_sweep_options(const exec::SweepLevels &) {}
inline void check_sweep_options(const exec::SweepTeams &o) {
  const char *who = "sweep plan under exec::SweepTeams";
  if (o.directions_per_launch < 0)
    fail(who, ": directions_per_launch ", o.directions_per_launch, " is negative (0: all)");
  if (o.directions_per_team < 1)
    fail(who, ": directions_per_team ", o.directions_per_team, " must be at least 1");
  if (o.groups_per_team < 0)
    fail(who, ": groups_per_team ", o.groups_per_team, " is negative (0: all)");
  if (o.cells_per_team < 0 || o.cells_per_team > 1024)
    fail(who, ": cells_per_team ", o.cells_per_team, " is outside [0, 1024] (0: the default)");
  if (!sweep_lanes_ok(o.lanes))
    fail(who, ": lanes ", o.lanes, " is not a power of two in [1, 32] (0: the default)");
  if (o.cells_per_team * o.lanes > 1024)
    fail(who, ": ", o.cells_per_team, " cells per team of ", o.lanes, " lanes make teams of ",
         o.cells_per_team * o.lanes, " threads; at most 1024");
}
inline void check_sweep_options(const exec::SweepDataFlow &o) {
  const char *who = "sweep plan under exec::SweepDataFlow";
  if (o.cells_per_team < 0 || o.cells_per_team > 1024)
    fail(who, ": cells_per_team ", o.cells_per_team, " is outside [0, 1024] (0: the default)");
  if (!sweep_lanes_ok(o.lanes))
    fail(who, ": lanes ", o.lanes, " is not a power of two in [1, 32] (0: the default)");
  if (o.cells_per_team * o.lanes > 1024)
    fail(who, ": ", o.cells_per_team, " cells per team of ", o.lanes, " lanes make teams of ",
         o.cells_per_team * o.lanes, " threads; at most 1024");
}

} // namespace umesh::detail

#endif
