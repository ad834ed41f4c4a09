#ifndef UMESH_SWEEP_EXEC_HPP
#define UMESH_SWEEP_EXEC_HPP

// Sweep loops (sweep.hpp): the executors, as tags whose fields are their
// options (plan options: make_sweep_plan takes them), and the tuner's tag.
// Each runs every (cell, direction, group) after the cells it waits for;
// they differ in how the waiting is done. docs/sweeps.md.

#include <umesh/exec_auto.hpp>

#include <string>
#include <utility>
#include <vector>

namespace umesh::exec {

/// One thread runs every direction in turn, each direction's cells level by
/// level, each cell's groups in turn: exact and slow, the reference.
struct SweepSerial {};

/// One launch per level: launch l runs level l of every direction, one
/// thread per (cell, direction, group), groups adjacent. As many launches as
/// the deepest direction has levels; the simple GPU form.
struct SweepLevels {};

/// Teams that each sweep one direction (or `directions_per_team` of them)
/// through all its levels, with a team barrier between levels: cells on the
/// team's threads, groups on their vector lanes. `groups_per_team` splits
/// the groups over several teams (groups never wait for each other), so
/// that more teams run at once. One launch per `directions_per_launch`
/// directions (0: all in one launch). Host backends run teams of one thread
/// and one lane (cells_per_team and lanes apply to GPUs only).
struct SweepTeams {
  int directions_per_launch = 0; ///< 0: every direction in one launch
  int directions_per_team = 1;   ///< directions a team sweeps together, level by level
  int groups_per_team = 0;       ///< 0: all groups
  int cells_per_team = 0;        ///< team threads (cells at once); 0: 16 on GPUs
  int lanes = 0;                 ///< vector lanes per cell, a power of two up to 32; 0: 16
  SweepTeams &with_directions_per_launch(int n) { return directions_per_launch = n, *this; }
  SweepTeams &with_directions_per_team(int n) { return directions_per_team = n, *this; }
  SweepTeams &with_groups_per_team(int n) { return groups_per_team = n, *this; }
  SweepTeams &with_cells_per_team(int n) { return cells_per_team = n, *this; }
  SweepTeams &with_lanes(int n) { return lanes = n, *this; }
};

/// Data flow, one launch: a counter per (cell, direction) holds how many
/// cells it still waits for. Teams take tickets in the order they start;
/// ticket t is the t-th run of `cells_per_team` (cell, direction) pairs in
/// level order (all directions' level 0, then level 1, ...). Each pair waits
/// until its counter is zero, runs its groups on the lanes, then counts down
/// the cells waiting for it. A pair waits only for pairs of earlier tickets,
/// held by teams that have started and wait for none after them, so the
/// launch cannot deadlock on any backend (GPUs of independent thread
/// scheduling: sm_70 and later). Upwind values are read past the GPU's L1.
/// Host backends run teams of one thread, cells_per_team pairs a ticket.
struct SweepDataFlow {
  int cells_per_team = 0; ///< pairs per ticket (GPUs: team threads); 0: 8 on GPUs, 32 on hosts
  int lanes = 0;          ///< vector lanes per pair, GPUs only; 0: 16
  SweepDataFlow &with_cells_per_team(int n) { return cells_per_team = n, *this; }
  SweepDataFlow &with_lanes(int n) { return lanes = n, *this; }
};

/// What exec::SweepAutoOf tries, and how it times (exec::Auto's tuner).
/// GPUs: every listed combination; host backends: the directions per team
/// and, for data flow, the cells per team (their teams are one thread).
struct SweepAutoOptions {
  std::vector<int> cells_per_team{8, 16, 32};
  std::vector<int> lanes{16, 32};
  std::vector<int> groups_per_team{0, 16};        ///< SweepTeams
  std::vector<int> directions_per_team{1};        ///< SweepTeams (host: also 2)
  std::vector<int> directions_per_launch{0, 16};  ///< SweepTeams, GPUs
  std::vector<int> host_cells_per_ticket{16, 64}; ///< SweepDataFlow on host backends
  /// The tuner's timing and memory, as exec::Auto's: trials, prune, finals,
  /// time_limit, tuning_file and candidates (names as the plan's
  /// candidates() give them, e.g. "teams/b0/d1/g16/c16/l32"). Its executor
  /// options have no effect here.
  AutoOptions tuning;
};

/// Times every candidate form and shape of a sweep loop on its first call
/// (on the loop's data: every candidate computes the same values) and runs
/// the fastest from then on; decisions go to the tuning file when one is
/// given (or $UMESH_TUNING_FILE). Forms: any of SweepLevels, SweepTeams,
/// SweepDataFlow; only their kernels are compiled.
template <class... Forms> struct SweepAutoOf : SweepAutoOptions {
  SweepAutoOf() = default;
  explicit SweepAutoOf(SweepAutoOptions o) : SweepAutoOptions(std::move(o)) {}
  SweepAutoOf &with_cells_per_team(std::vector<int> v) {
    return cells_per_team = std::move(v), *this;
  }
  SweepAutoOf &with_lanes(std::vector<int> v) { return lanes = std::move(v), *this; }
  SweepAutoOf &with_groups_per_team(std::vector<int> v) {
    return groups_per_team = std::move(v), *this;
  }
  SweepAutoOf &with_directions_per_team(std::vector<int> v) {
    return directions_per_team = std::move(v), *this;
  }
  SweepAutoOf &with_directions_per_launch(std::vector<int> v) {
    return directions_per_launch = std::move(v), *this;
  }
  SweepAutoOf &with_trials(int t) { return tuning.trials = t, *this; }
  SweepAutoOf &with_final_rounds(int r) { return tuning.final_rounds = r, *this; }
  SweepAutoOf &with_time_limit(double s) { return tuning.time_limit = s, *this; }
  SweepAutoOf &with_tuning_file(std::string path) {
    return tuning.tuning_file = std::move(path), *this;
  }
  SweepAutoOf &with_candidates(std::vector<std::string> names) {
    return tuning.candidates = std::move(names), *this;
  }
};

/// Every form.
using SweepAuto = SweepAutoOf<SweepLevels, SweepTeams, SweepDataFlow>;

} // namespace umesh::exec

#endif
