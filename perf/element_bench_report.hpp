#ifndef UMESH_PERF_ELEMENT_BENCH_REPORT_HPP
#define UMESH_PERF_ELEMENT_BENCH_REPORT_HPP

// The element benchmark's options, rows, CSV and summary.

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace umesh::perf {

struct BenchOptions {
  long elements = 1000000;
  std::vector<std::string> shapes{"tri", "quad", "tet", "hex"};
  std::vector<int> orders{1, 2};
  std::vector<std::string> ops{"interp", "transpose", "matvec"};
  std::vector<std::string> strategies{"atomic", "colour", "colour-per", "gather"};
  std::vector<int> per_team;                     // 1..32 unless given
  std::vector<int> lanes{0};                     // 0: the element's own
  int base_nx = 600, base_ny = 300, layers = 40; // matvec's extruded mesh
  std::vector<int> dofs{8};                      // matvec's dofs a cell: 8, 27
  int repeats = 10, warmup = 2;
  bool tune = true; // an exec::ElementAuto row per operator
  std::string csv = "results_element.csv";
};

struct BenchRow {
  std::string op, shape, strategy, status, note;
  int p = 0, nodes_per_element = 0, qpoints = 0, elements = 0, nodes = 0;
  int per_team = 0, lanes = 0, colours = 0;
  double ms = 0, gbps = 0, copy_gbps = 0, max_rel_err = 0;
};

inline const char *csv_header() {
  return "op,shape,p,nodes_per_element,qpoints,elements,nodes,strategy,colours,elements_per_team,"
         "lanes,ms,gbps,copy_gbps,max_rel_err,status,note";
}

inline std::string format_row(const BenchRow &r) {
  std::ostringstream os;
  os << r.op << ',' << r.shape << ',' << r.p << ',' << r.nodes_per_element << ',' << r.qpoints
     << ',' << r.elements << ',' << r.nodes << ',' << r.strategy << ',' << r.colours << ','
     << r.per_team << ',' << r.lanes << ',' << r.ms << ',' << r.gbps << ',' << r.copy_gbps << ','
     << r.max_rel_err << ',' << r.status << ",\"" << r.note << '"';
  return os.str();
}

/// Per operator, shape, order and strategy: the fastest row against one
/// element per team (same lanes).
inline void summarise(const std::vector<BenchRow> &rows) {
  using Key = std::tuple<std::string, std::string, int, std::string>;
  std::map<Key, const BenchRow *> best;
  for (const BenchRow &r : rows) {
    if (r.status != "ok" || r.strategy == "auto")
      continue;
    const Key k{r.op, r.shape, r.p, r.strategy};
    if (!best.count(k) || r.ms < best[k]->ms)
      best[k] = &r;
  }
  std::printf("\nbest elements per team (against one element per team, same lanes):\n");
  for (const auto &[k, b] : best) {
    const BenchRow *one = nullptr;
    for (const BenchRow &r : rows)
      if (r.status == "ok" && r.op == b->op && r.shape == b->shape && r.p == b->p &&
          r.strategy == b->strategy && r.lanes == b->lanes && r.per_team == 1)
        one = &r;
    std::printf("  %-9s %-4s p%d %-10s: %2d elements x %2d lanes %.4f ms, %.1f GB/s (%.0f%% of "
                "copy)",
                b->op.c_str(), b->shape.c_str(), b->p, b->strategy.c_str(), b->per_team, b->lanes,
                b->ms, b->gbps, 100 * b->gbps / b->copy_gbps);
    if (one)
      std::printf("; one element per team %.4f ms: %.2fx\n", one->ms, one->ms / b->ms);
    else
      std::printf("\n");
  }
  // exec::ElementAuto's pick against the fastest row of any strategy.
  std::printf("\nexec::ElementAuto's pick against the exhaustive best (any strategy):\n");
  for (const BenchRow &a : rows) {
    if (a.strategy != "auto" || a.status != "ok")
      continue;
    const BenchRow *b = nullptr;
    for (const auto &[k, r] : best)
      if (r->op == a.op && r->shape == a.shape && r->p == a.p && (!b || r->ms < b->ms))
        b = r;
    std::printf("  %-9s %-4s p%d: %s %.4f ms", a.op.c_str(), a.shape.c_str(), a.p, a.note.c_str(),
                a.ms);
    if (b)
      std::printf("; best %s %d x %d %.4f ms: auto at %.1f%% over", b->strategy.c_str(),
                  b->per_team, b->lanes, b->ms, 100 * (a.ms / b->ms - 1));
    std::printf("\n");
  }
}

} // namespace umesh::perf

#endif
