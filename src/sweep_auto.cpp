// exec::SweepAutoOf's candidates (umesh/detail/sweep_auto_candidates.hpp).
#include <umesh/detail/sweep_auto_candidates.hpp>
#include <umesh/detail/sweep_options.hpp>
#include <umesh/error.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace umesh::detail {

namespace {

// Sorted, each value once: a value listed twice would time one shape twice.
std::vector<int> distinct(std::vector<int> v, const char *what) {
  if (v.empty())
    fail("exec::SweepAuto: no ", what, " to try");
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

const char *form_name(SweepForm f) {
  return f == SweepForm::levels ? "levels" : f == SweepForm::teams ? "teams" : "flow";
}

// Every list checked on every backend, so that options a host accepts
// run on a GPU too.
struct Lists {
  std::vector<int> launch, per_team, groups, cells, lanes, host_cells;
  explicit Lists(const exec::SweepAutoOptions &o)
      : launch(distinct(o.directions_per_launch, "directions per launch")),
        per_team(distinct(o.directions_per_team, "directions per team")),
        groups(distinct(o.groups_per_team, "groups per team")),
        cells(distinct(o.cells_per_team, "cells per team")), lanes(distinct(o.lanes, "lanes")),
        host_cells(distinct(o.host_cells_per_ticket, "host cells per ticket")) {
    for (int v : launch)
      check_sweep_options(exec::SweepTeams{}.with_directions_per_launch(v));
    for (int v : per_team)
      check_sweep_options(exec::SweepTeams{}.with_directions_per_team(v));
    for (int v : groups)
      check_sweep_options(exec::SweepTeams{}.with_groups_per_team(v));
    for (int v : cells)
      check_sweep_options(exec::SweepTeams{}.with_cells_per_team(v));
    for (int v : lanes)
      check_sweep_options(exec::SweepTeams{}.with_lanes(v));
    for (int v : host_cells)
      check_sweep_options(exec::SweepDataFlow{}.with_cells_per_team(v));
  }
};

void add_teams(const Lists &o, bool host, std::vector<SweepCandidate> &out) {
  if (host) { // teams of one thread: the directions per team are the one shape left
    std::vector<int> per_team = o.per_team;
    if (std::find(per_team.begin(), per_team.end(), 2) == per_team.end())
      per_team.push_back(2);
    for (int d : per_team) {
      SweepCandidate c;
      c.form = SweepForm::teams;
      c.teams.directions_per_team = d;
      c.name = "teams/b0/d" + std::to_string(d) + "/g0";
      out.push_back(c);
    }
    return;
  }
  for (int b : o.launch)
    for (int d : o.per_team)
      for (int g : o.groups)
        for (int cells : o.cells)
          for (int lanes : o.lanes) {
            if (cells * lanes > 1024)
              continue; // no backend launches teams of more threads
            SweepCandidate c;
            c.form = SweepForm::teams;
            c.teams = exec::SweepTeams{}
                          .with_directions_per_launch(b)
                          .with_directions_per_team(d)
                          .with_groups_per_team(g)
                          .with_cells_per_team(cells)
                          .with_lanes(lanes);
            c.name = "teams/b" + std::to_string(b) + "/d" + std::to_string(d) + "/g" +
                     std::to_string(g) + "/c" + std::to_string(cells) + "/l" +
                     std::to_string(lanes);
            out.push_back(c);
          }
}

void add_flow(const Lists &o, bool host, std::vector<SweepCandidate> &out) {
  for (int cells : host ? o.host_cells : o.cells)
    for (int lanes : host ? std::vector<int>{1} : o.lanes) {
      if (cells * lanes > 1024)
        continue;
      SweepCandidate c;
      c.form = SweepForm::flow;
      c.flow = exec::SweepDataFlow{}.with_cells_per_team(cells).with_lanes(host ? 0 : lanes);
      c.name = "flow/c" + std::to_string(cells) + (host ? "" : "/l" + std::to_string(lanes));
      out.push_back(c);
    }
}

} // namespace

std::vector<SweepCandidate> sweep_auto_candidates(const exec::SweepAutoOptions &o,
                                                  const std::vector<SweepForm> &forms, bool host) {
  check_auto_options(o.tuning);
  const Lists lists(o);
  std::vector<SweepCandidate> out;
  for (SweepForm f : forms) {
    if (f == SweepForm::levels) {
      SweepCandidate c;
      c.name = "levels";
      out.push_back(c);
    } else if (f == SweepForm::teams) {
      add_teams(lists, host, out);
    } else {
      add_flow(lists, host, out);
    }
  }
  if (out.empty())
    fail("exec::SweepAuto: no candidate: every cells per team times lanes exceeds 1024 threads "
         "a team");
  return out;
}

std::vector<AutoCandidate> as_auto_candidates(const std::vector<SweepCandidate> &c) {
  std::vector<AutoCandidate> out;
  for (std::size_t i = 0; i < c.size(); ++i) {
    AutoCandidate a{};
    a.name = c[i].name;
    a.slot = int(i);
    out.push_back(a);
  }
  return out;
}

std::string sweep_signature(const char *body_type, int groups, const char *layout,
                            const std::vector<SweepForm> &forms) {
  std::uint64_t h = 1469598103934665603ull; // FNV-1a, as exec::Auto's
  for (const char *c = body_type; *c; ++c)
    h = (h ^ static_cast<unsigned char>(*c)) * 1099511628211ull;
  std::ostringstream os;
  os << "sweep:" << std::hex << h << std::dec << ":g" << groups << ":" << layout << ":";
  for (std::size_t i = 0; i < forms.size(); ++i)
    os << (i ? "," : "") << form_name(forms[i]);
  return os.str();
}

} // namespace umesh::detail
