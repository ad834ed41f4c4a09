#ifndef UMESH_DETAIL_SWEEP_AUTO_CANDIDATES_HPP
#define UMESH_DETAIL_SWEEP_AUTO_CANDIDATES_HPP

// exec::SweepAutoOf's candidates: each form of its list at each shape the
// options allow, named "levels", "teams/b<directions per launch>/d<per
// team>/g<groups per team>/c<cells>/l<lanes>" and "flow/c<cells>/l<lanes>"
// (host backends: "teams/b0/d<per team>/g0", "flow/c<pairs per ticket>").
// Compiled once, in src/sweep_auto.cpp.

#include <umesh/detail/auto_candidates.hpp>
#include <umesh/sweep_exec.hpp>

#include <string>
#include <vector>

namespace umesh::detail {

enum class SweepForm { levels, teams, flow };

struct SweepCandidate {
  SweepForm form = SweepForm::levels;
  exec::SweepTeams teams;
  exec::SweepDataFlow flow;
  std::string name;
};

/// Every candidate of `forms` (the list's, in order) under options `o`;
/// `host`: a host backend. Fails (umesh::Error) on bad options: a value
/// their executor refuses, an empty list a form needs, the tuner's options.
std::vector<SweepCandidate> sweep_auto_candidates(const exec::SweepAutoOptions &o,
                                                  const std::vector<SweepForm> &forms, bool host);

/// The tuner's view of them: a name each, `slot` their position.
std::vector<AutoCandidate> as_auto_candidates(const std::vector<SweepCandidate> &c);

/// A loop's signature for the tuner: its body's type name, groups and
/// layout, and the form list, hashed, marked as a sweep's.
std::string sweep_signature(const char *body_type, int groups, const char *layout,
                            const std::vector<SweepForm> &forms);

} // namespace umesh::detail

#endif
