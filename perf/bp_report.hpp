#ifndef UMESH_PERF_BP_REPORT_HPP
#define UMESH_PERF_BP_REPORT_HPP

// umesh_bp_bench's options, rows, CSV and summary. Rows report DoF/s as
// CEED does: nodes x applications / seconds.

#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace umesh::perf {

struct BpOptions {
  std::vector<int> bps{1, 3};
  std::vector<int> orders{1, 2, 3, 4};
  std::vector<long> dofs{1000000};
  std::vector<std::string> strategies{"atomic", "colour", "colour-per"};
  std::vector<int> per_team{1, 2, 4, 8, 16, 32};         // team form
  std::vector<int> lanes{8, 16, 32};                     // team form
  std::vector<int> thread_per_team{1, 32, 64, 128, 256}; // one thread per element
  bool tune = true;                                      // an ElementAuto row
  bool shuffle = true, rotate = true;
  double distort = 0.2;
  int repeats = 10, warmup = 2;
  std::string csv = "results_bp.csv";
  std::string export_dir; // mesh files for the peer's driver
  bool export_only = false;
};

struct BpRow {
  int bp = 0, p = 0, q = 0, dofs = 0, elements = 0;
  std::string form, strategy, status, note; // form: team, thread, auto
  int colours = 0, per_team = 0, lanes = 0;
  double ms = 0, gdofs = 0, gbps = 0, copy_gbps = 0, max_rel_err = 0;
};

inline const char *bp_csv_header() {
  return "bp,p,q,dofs,elements,form,strategy,colours,elements_per_team,lanes,ms,gdofs_per_s,gbps,"
         "copy_gbps,max_rel_err,status,note";
}

inline std::string format_row(const BpRow &r) {
  std::ostringstream os;
  os << "bp" << r.bp << ',' << r.p << ',' << r.q << ',' << r.dofs << ',' << r.elements << ','
     << r.form << ',' << r.strategy << ',' << r.colours << ',' << r.per_team << ',' << r.lanes
     << ',' << r.ms << ',' << r.gdofs << ',' << r.gbps << ',' << r.copy_gbps << ',' << r.max_rel_err
     << ',' << r.status << ",\"" << r.note << '"';
  return os.str();
}

/// Per problem, order and size: the best team row, the best one-thread-per-
/// element row and their ratio, the tuned row against the best team row.
inline void summarise(const std::vector<BpRow> &rows) {
  using Key = std::tuple<int, int, int>;
  std::map<Key, const BpRow *> team, thread, tuned;
  for (const BpRow &r : rows) {
    if (r.status != "ok")
      continue;
    auto &best = r.form == "team" ? team : r.form == "thread" ? thread : tuned;
    const Key k{r.bp, r.p, r.dofs};
    if (!best.count(k) || r.gdofs > best[k]->gdofs)
      best[k] = &r;
  }
  std::printf("\nbest rows (GDoF/s; one thread per element is the baseline):\n");
  for (const auto &[k, b] : team) {
    std::printf("  bp%d p%d %9d nodes: team %-10s %2d x %2d lanes %.4g GDoF/s (%.0f%% of copy)",
                b->bp, b->p, b->dofs, b->strategy.c_str(), b->per_team, b->lanes, b->gdofs,
                100 * b->gbps / b->copy_gbps);
    if (thread.count(k))
      std::printf("; thread %s %d a team %.4g: %.2fx", thread[k]->strategy.c_str(),
                  thread[k]->per_team, thread[k]->gdofs, b->gdofs / thread[k]->gdofs);
    if (tuned.count(k))
      std::printf("; auto %s: %.4g (%.0f%% of the best)", tuned[k]->note.c_str(), tuned[k]->gdofs,
                  100 * tuned[k]->gdofs / b->gdofs);
    std::printf("\n");
  }
}

} // namespace umesh::perf

#endif
