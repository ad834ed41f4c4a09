// Sweep plan files (umesh/sweep_schedule.hpp), in the format of every plan
// file (detail/plan_file.hpp): kind "sweep plan", the fingerprint of the
// mesh and directions, the options, then per direction its order, level
// offsets and lagged faces, and its report. A file is untrusted input: what
// it holds is used only after the checks below, which make sure no sweep
// reads a value before it is written.
#include "sweep_tables.hpp"

#include <umesh/detail/plan_file.hpp>
#include <umesh/error.hpp>
#include <umesh/sweep_schedule.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace umesh {

namespace {

constexpr const char *kind = "sweep plan";

// Direction d's order, level offsets and lags (already in t) checked, and
// its flags set; fails through `bad` naming the first broken invariant.
template <class Bad> void check_direction(detail::SweepTables &t, int d, const Bad &bad) {
  const int n = t.cells, f = t.faces;
  const int first = t.dir_levels[d], last = t.dir_levels[d + 1];
  if (last <= first || last > int(t.level_offsets.size()))
    bad("direction ", d, "'s level offsets ", first, " to ", last);
  const int levels = last - first - 1;
  const int *off = &t.level_offsets[first];
  if (off[0] != 0 || off[levels] != n)
    bad("direction ", d, "'s levels do not run from 0 to ", n);
  std::vector<int> level(std::size_t(n), -1);
  const int *order = &t.order[std::size_t(d) * n];
  for (int l = 0; l < levels; ++l) {
    if (off[l + 1] <= off[l])
      bad("direction ", d, "'s level ", l, " is empty or ends before it starts");
    for (int i = off[l]; i < off[l + 1]; ++i) {
      const int c = order[i];
      if (c < 0 || c >= n || level[c] >= 0)
        bad("direction ", d, "'s order names cell ", c, " outside [0, ", n, ") or twice");
      level[c] = l;
    }
  }
  std::uint16_t *flags = &t.flags[std::size_t(d) * n];
  detail::sweep_inflow(t, d, flags);
  const int lag_first = t.lag_offsets[d], lag_last = t.lag_offsets[d + 1];
  if (lag_last < lag_first || lag_last > int(t.lag_keys.size()))
    bad("direction ", d, "'s lagged faces ", lag_first, " to ", lag_last);
  for (int i = lag_first; i < lag_last; ++i) {
    const int key = t.lag_keys[i];
    if (key < 0 || key >= n * f || (i > lag_first && key <= t.lag_keys[i - 1]))
      bad("direction ", d, "'s lagged face ", key, " is outside [0, ", n * f, ") or out of order");
    const int c = key / f, s = key % f;
    if (t.neighbours[key] < 0 || !(flags[c] >> s & 1u))
      bad("direction ", d, " lags slot ", s, " of cell ", c,
          ", which is not an inflow face between two cells");
    flags[c] = std::uint16_t(flags[c] | 1u << (8 + s));
  }
  for (int c = 0; c < n; ++c)
    for (int s = 0; s < f; ++s) {
      const int nb = t.neighbours[std::size_t(c) * f + s];
      if (nb >= 0 && (flags[c] >> s & 1u) && !(flags[c] >> (8 + s) & 1u) && level[nb] >= level[c])
        bad("direction ", d, ": cell ", c, " (level ", level[c], ") waits for cell ", nb,
            " (level ", level[nb], ") through slot ", s, ", which is not in an earlier level");
    }
}

} // namespace

void write_sweep_plan_file(const std::string &path, const SweepSchedule &s,
                           const SweepOptions &options) {
  const detail::SweepTables &t = s.tables();
  detail::PlanWriter w(kind, s.fingerprint(), detail::sweep_options_text(options));
  w.ints({t.cells, t.faces, t.directions});
  for (const auto *v : {&t.order, &t.level_offsets, &t.dir_levels, &t.lag_offsets, &t.lag_keys})
    w.ints(*v);
  std::vector<int> found;
  for (const auto &r : t.reports)
    found.insert(found.end(), {r.cycles, r.largest_cycle});
  w.ints(found);
  w.save(path);
}

SweepSchedule read_sweep_plan_file(const std::string &path, const SweepMesh &mesh,
                                   const std::vector<double> &directions,
                                   const SweepOptions &options) {
  const auto start = std::chrono::steady_clock::now();
  detail::SweepTables t = detail::sweep_geometry(mesh, directions, options);
  const std::uint64_t fp = detail::sweep_fingerprint(t);
  detail::PlanReader r(path, kind, fp, detail::sweep_options_text(options));
  const auto bad = [&](const auto &...why) {
    fail("plan file '", path, "' holds an invalid sweep plan: ", why...,
         "; delete it to rebuild the plan");
  };
  const std::vector<int> head = r.ints();
  if (head != std::vector<int>{t.cells, t.faces, t.directions})
    bad("a header for other cells, faces or directions");
  t.order = r.ints();
  t.level_offsets = r.ints();
  t.dir_levels = r.ints();
  t.lag_offsets = r.ints();
  t.lag_keys = r.ints();
  const std::vector<int> found = r.ints();
  r.finish();
  const int nd = t.directions;
  if (t.order.size() != std::size_t(nd) * t.cells || int(t.dir_levels.size()) != nd + 1 ||
      int(t.lag_offsets.size()) != nd + 1 || int(found.size()) != 2 * nd || t.dir_levels[0] != 0 ||
      t.lag_offsets[0] != 0 || t.lag_offsets[nd] != int(t.lag_keys.size()) ||
      t.dir_levels[nd] != int(t.level_offsets.size()))
    bad("arrays whose sizes do not fit ", nd, " directions of ", t.cells, " cells");
  if (options.cycles == SweepCycles::fail && !t.lag_keys.empty())
    bad("lagged faces, though its options fail on cycles");
  t.flags.assign(std::size_t(nd) * t.cells, 0);
  t.reports.assign(std::size_t(nd), {});
  for (int d = 0; d < nd; ++d) {
    check_direction(t, d, bad);
    t.reports[d].cycles = found[2 * d];
    t.reports[d].largest_cycle = found[2 * d + 1];
    if (found[2 * d] < 0 || found[2 * d + 1] < 0 || found[2 * d + 1] > t.cells)
      bad("direction ", d, "'s cycle counts ", found[2 * d], " and ", found[2 * d + 1]);
    detail::sweep_level_report(t, d, t.reports[d]);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return SweepSchedule(mesh.cells, std::move(t), fp, seconds, true);
}

} // namespace umesh
