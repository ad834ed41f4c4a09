// Sweep schedules (umesh/sweep_schedule.hpp): per direction, the cells'
// dependency graph and its levels (Kahn); where Kahn's algorithm finds a
// cycle, the graph's strongly connected components (Tarjan), cycles broken
// by lagging the back edges of a depth-first search inside each component,
// and the levels of what remains. Directions are
// independent: they are built on the host's threads, each deterministic.
#include "sweep_tables.hpp"

#include <umesh/detail/plan_file.hpp>
#include <umesh/error.hpp>
#include <umesh/sweep_schedule.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace umesh::detail {

namespace {

// One direction's graph: cell c waits for neighbour(c, s) when slot s is an
// inflow face of c (low byte of flags) that is not lagged (high byte).
struct DirectionGraph {
  const SweepTables &t;
  std::uint16_t *flags; // this direction's

  int upwind(int c, int s) const { // the cell c waits for through s, or -1
    const std::uint16_t f = flags[c];
    if (!(f >> s & 1u) || (f >> (8 + s) & 1u))
      return -1;
    const int nb = t.neighbours[std::size_t(c) * t.faces + s];
    return nb >= 0 ? nb : -1;
  }
};

struct Frame {
  int cell, slot;
};

// Tarjan's strongly connected components, without recursion (a sweep's
// dependency chains are as long as the mesh is wide). comp[c]: c's
// component; returns the components' sizes.
std::vector<int> components(const DirectionGraph &g, std::vector<int> &comp) {
  const int n = g.t.cells, f = g.t.faces;
  std::vector<int> index(std::size_t(n), -1), low(std::size_t(n), 0), stack;
  std::vector<char> on_stack(std::size_t(n), 0);
  std::vector<Frame> frames;
  std::vector<int> sizes;
  comp.assign(std::size_t(n), -1);
  int counter = 0;
  const auto visit = [&](int v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = 1;
    frames.push_back({v, 0});
  };
  for (int root = 0; root < n; ++root) {
    if (index[root] >= 0)
      continue;
    visit(root);
    while (!frames.empty()) {
      Frame &fr = frames.back();
      const int v = fr.cell;
      if (fr.slot < f) {
        const int w = g.upwind(v, fr.slot++);
        if (w < 0)
          continue;
        if (index[w] < 0)
          visit(w); // (fr is invalid from here)
        else if (on_stack[w])
          low[v] = std::min(low[v], index[w]);
        continue;
      }
      if (low[v] == index[v]) {
        int size = 0, x;
        do {
          x = stack.back();
          stack.pop_back();
          on_stack[x] = 0;
          comp[x] = int(sizes.size());
          ++size;
        } while (x != v);
        sizes.push_back(size);
      }
      frames.pop_back();
      if (!frames.empty())
        low[frames.back().cell] = std::min(low[frames.back().cell], low[v]);
    }
  }
  return sizes;
}

// Inside each component of more than one cell, a depth-first search from
// its cells in order; an edge to a cell on the search's path closes a cycle:
// that face is lagged. What remains of the component has no cycle.
void lag_back_edges(const DirectionGraph &g, const std::vector<int> &comp,
                    const std::vector<int> &sizes) {
  const int n = g.t.cells, f = g.t.faces;
  std::vector<char> state(std::size_t(n), 0); // 0 new, 1 on the path, 2 done
  std::vector<Frame> frames;
  for (int root = 0; root < n; ++root) {
    if (sizes[comp[root]] < 2 || state[root])
      continue;
    state[root] = 1;
    frames.push_back({root, 0});
    while (!frames.empty()) {
      Frame &fr = frames.back();
      const int v = fr.cell;
      if (fr.slot == f) {
        state[v] = 2;
        frames.pop_back();
        continue;
      }
      const int s = fr.slot++;
      const int w = g.upwind(v, s);
      if (w < 0 || comp[w] != comp[v])
        continue;
      if (state[w] == 1)
        g.flags[v] = std::uint16_t(g.flags[v] | 1u << (8 + s));
      else if (state[w] == 0) {
        state[w] = 1;
        frames.push_back({w, 0}); // (fr is invalid from here)
      }
    }
  }
}

// Levels by Kahn's algorithm over the edges that remain; the cells ordered
// by level, then by number. False if a cycle remains (a bug).
bool levels(const DirectionGraph &g, int *order, std::vector<int> &offsets) {
  const int n = g.t.cells, f = g.t.faces;
  std::vector<int> waiting(std::size_t(n), 0), level(std::size_t(n), 0), ready;
  for (int c = 0; c < n; ++c) {
    for (int s = 0; s < f; ++s)
      waiting[c] += g.upwind(c, s) >= 0;
    if (waiting[c] == 0)
      ready.push_back(c);
  }
  int deepest = -1;
  for (std::size_t i = 0; i < ready.size(); ++i) {
    const int v = ready[i];
    deepest = std::max(deepest, level[v]);
    for (int s = 0; s < f; ++s) {
      const std::size_t at = std::size_t(v) * f + s;
      const int m = g.t.neighbours[at];
      if (m < 0 || g.upwind(m, g.t.partner[at]) != v)
        continue;
      level[m] = std::max(level[m], level[v] + 1);
      if (--waiting[m] == 0)
        ready.push_back(m);
    }
  }
  if (int(ready.size()) != n)
    return false;
  offsets.assign(std::size_t(deepest + 2), 0);
  for (int c = 0; c < n; ++c)
    ++offsets[level[c] + 1];
  for (int l = 0; l <= deepest; ++l)
    offsets[l + 1] += offsets[l];
  std::vector<int> next(offsets.begin(), offsets.end() - 1);
  for (int c = 0; c < n; ++c)
    order[next[level[c]]++] = c;
  return true;
}

struct DirectionResult {
  std::vector<int> offsets, lags;
  SweepDirectionReport report;
};

void build_direction(SweepTables &t, int d, SweepCycles cycles, DirectionResult &out) {
  std::uint16_t *flags = t.flags.data() + std::size_t(d) * t.cells;
  int *order = t.order.data() + std::size_t(d) * t.cells;
  sweep_inflow(t, d, flags);
  const DirectionGraph g{t, flags};
  // Kahn's algorithm orders every cell exactly when there is no cycle (the
  // common case): the components are then all single cells.
  if (levels(g, order, out.offsets))
    return;
  std::vector<int> comp;
  const std::vector<int> sizes = components(g, comp);
  for (int s : sizes)
    if (s > 1) {
      ++out.report.cycles;
      out.report.largest_cycle = std::max(out.report.largest_cycle, s);
    }
  if (cycles == SweepCycles::fail) {
    const int big = int(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
    std::ostringstream cells;
    int listed = 0;
    for (int c = 0; c < t.cells && listed < 8; ++c)
      if (comp[c] == big)
        cells << (listed++ ? ", " : "") << c;
    fail("sweep plan: direction ", d, " ", sweep_direction_text(t, d), " has ", out.report.cycles,
         " cycle(s) of dependencies; the largest joins ", sizes[big], " cells (", cells.str(),
         sizes[big] > 8 ? ", ..." : "",
         "), each waiting for the next: SweepCycles::lag breaks cycles by lagging faces");
  }
  lag_back_edges(g, comp, sizes);
  if (!levels(g, order, out.offsets))
    fail("sweep plan: direction ", d, " still has a cycle after lagging (a bug in umesh)");
  for (int c = 0; c < t.cells; ++c)
    for (int s = 0; s < t.faces; ++s)
      if (flags[c] >> (8 + s) & 1u)
        out.lags.push_back(c * t.faces + s);
}

} // namespace

} // namespace umesh::detail

namespace umesh {

int SweepSchedule::max_levels() const {
  int most = 0;
  for (const auto &r : t_.reports)
    most = std::max(most, r.levels);
  return most;
}

const SweepDirectionReport &SweepSchedule::report(int d) const {
  if (d < 0 || d >= t_.directions)
    fail("sweep plan: direction ", d, " is outside [0, ", t_.directions, ")");
  return t_.reports[d];
}

std::uint16_t SweepSchedule::flag(int d, int c) const {
  if (d < 0 || d >= t_.directions || c < 0 || c >= t_.cells)
    fail("sweep plan: (direction ", d, ", cell ", c, ") is outside its ", t_.directions,
         " directions and ", t_.cells, " cells");
  return t_.flags[std::size_t(d) * t_.cells + c];
}

std::vector<int> SweepSchedule::level_cells(int d, int l) const {
  if (l < 0 || l >= levels(d))
    fail("sweep plan: direction ", d, " has ", levels(d), " levels, not a level ", l);
  const int *off = &t_.level_offsets[t_.dir_levels[d]];
  const int *order = &t_.order[std::size_t(d) * t_.cells];
  return std::vector<int>(order + off[l], order + off[l + 1]);
}

std::vector<std::pair<int, int>> SweepSchedule::lags(int d) const {
  report(d); // (checks d)
  std::vector<std::pair<int, int>> out;
  for (int i = t_.lag_offsets[d]; i < t_.lag_offsets[d + 1]; ++i)
    out.emplace_back(t_.lag_keys[i] / t_.faces, t_.lag_keys[i] % t_.faces);
  return out;
}

long long SweepSchedule::lagged_faces() const {
  return t_.lag_keys.size();
}

std::string SweepSchedule::summary() const {
  long long levels = 0, cycles = 0, lagging = 0;
  for (const auto &r : t_.reports) {
    levels += r.levels;
    cycles += r.cycles;
    lagging += r.lagged_faces > 0;
  }
  std::ostringstream os;
  os.precision(4);
  os << "sweep plan of " << t_.cells << " cells, " << t_.directions << " directions: levels mean "
     << (t_.directions ? double(levels) / t_.directions : 0.0) << ", most " << max_levels() << "; "
     << cycles << " cycle(s), " << lagged_faces() << " lagged face(s) in " << lagging
     << " direction(s); " << (from_file_ ? "read in " : "built in ") << seconds_ << " s";
  return os.str();
}

namespace {

SweepSchedule build(const SweepMesh &mesh, const std::vector<double> &directions,
                    const SweepOptions &options) {
  const auto start = std::chrono::steady_clock::now();
  detail::SweepTables t = detail::sweep_geometry(mesh, directions, options);
  const int nd = t.directions;
  t.flags.assign(std::size_t(nd) * t.cells, 0);
  t.order.assign(std::size_t(nd) * t.cells, 0);
  std::vector<detail::DirectionResult> results(static_cast<std::size_t>(nd));
  detail::for_each_direction(
      nd, [&](int d) { detail::build_direction(t, d, options.cycles, results[d]); });
  t.dir_levels.assign(1, 0);
  t.lag_offsets.assign(1, 0);
  for (int d = 0; d < nd; ++d) {
    t.level_offsets.insert(t.level_offsets.end(), results[d].offsets.begin(),
                           results[d].offsets.end());
    t.dir_levels.push_back(int(t.level_offsets.size()));
    t.lag_keys.insert(t.lag_keys.end(), results[d].lags.begin(), results[d].lags.end());
    t.lag_offsets.push_back(int(t.lag_keys.size()));
  }
  t.reports.resize(std::size_t(nd));
  for (int d = 0; d < nd; ++d) {
    t.reports[d] = results[d].report;
    detail::sweep_level_report(t, d, t.reports[d]);
  }
  const std::uint64_t fp = detail::sweep_fingerprint(t);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return SweepSchedule(mesh.cells, std::move(t), fp, seconds, false);
}

} // namespace

SweepSchedule make_sweep_schedule(const SweepMesh &mesh, const std::vector<double> &directions,
                                  const SweepOptions &options) {
  if (!options.plan_file.empty() && detail::file_exists(options.plan_file))
    return read_sweep_plan_file(options.plan_file, mesh, directions, options);
  SweepSchedule s = build(mesh, directions, options);
  if (!options.plan_file.empty())
    write_sweep_plan_file(options.plan_file, s, options);
  return s;
}

} // namespace umesh
