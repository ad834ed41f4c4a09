#ifndef UMESH_PERF_MAIN_REPORT_HPP
#define UMESH_PERF_MAIN_REPORT_HPP

// The main job's results: one row per timed configuration, one per
// hierarchical plan; printed as tables and written as CSV.

#include "common/output.hpp"
#include "main_options.hpp"

#include <umesh/umesh.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace umesh::perf {

struct Row {
  std::string kernel, executor, layout;
  int block_size = 0;
  double time_ms = 0, gbps = 0, max_rel_err = 0;
  double tolerance = 1e-10; // largest max_rel_err that validates (single precision: looser)
  std::string note;
  int scratch = -1; // hierarchical: team scratch bytes per block
  std::string reorder = "none";
  std::int64_t elements = -1; // the loop's elements: 0 validates nothing (-1: not known)
  bool reproducible = false;  // its executor and options give the same bits run to run here
  std::uint64_t bits = 0;     // --reproducible: a hash of the output after one run
};

struct PlanRow {
  std::string kernel, reorder;
  BlockPlan plan; // metrics only: point lists live on the device
  double reorder_seconds;
};

/// --reproducible: kernel k's fastest reproducible row against its fastest
/// other row (what reproducibility costs here).
inline void reproducible_cost(const std::vector<Row> &rows, const std::string &k) {
  const Row *same = nullptr, *other = nullptr;
  for (const auto &r : rows)
    if (r.kernel == k && !std::isnan(r.time_ms)) {
      const Row *&slot = r.reproducible ? same : other;
      if (!slot || r.time_ms < slot->time_ms)
        slot = &r;
    }
  const auto describe = [](const Row &r) {
    return r.executor + " " + r.layout + " " + r.reorder +
           (r.block_size > 0 ? " block " + std::to_string(r.block_size) : "");
  };
  if (!same)
    std::printf("  reproducible: no reproducible row ran\n");
  else if (!other)
    std::printf("  reproducible: %s, %.4f ms (no other row ran)\n", describe(*same).c_str(),
                same->time_ms);
  else
    std::printf("  reproducible: %s, %.4f ms: %.2fx the time of the fastest other row (%s, "
                "%.4f ms)\n",
                describe(*same).c_str(), same->time_ms, same->time_ms / other->time_ms,
                describe(*other).c_str(), other->time_ms);
}

/// --reproducible: a hash of each reproducible row's output after one run
/// (another run of the same command prints the same lines; auto's only
/// when it chooses the same, as from $UMESH_TUNING_FILE).
inline void reproducible_bits(const std::vector<Row> &rows) {
  std::printf("\nreproducible rows' results (a hash of the output's bits after one run; another "
              "run prints the same)\n");
  for (const auto &r : rows)
    if (r.reproducible && !std::isnan(r.max_rel_err)) {
      // auto's row names its choice (the bits are that candidate's).
      const std::string choice =
          r.executor == exec::name_of_v<exec::AutoAll> ? "  " + r.note : std::string();
      std::printf("bits %-18s %-15s %-6s %-15s %5d %016llx%s\n", r.kernel.c_str(),
                  r.executor.c_str(), r.layout.c_str(), r.reorder.c_str(), r.block_size,
                  static_cast<unsigned long long>(r.bits), choice.c_str());
    }
}

/// Prints the tables, writes both CSVs (`csv` and `plans` were opened when
/// the run began; `plans` is null where `csv` is written in place), and last the headline (best per
/// kernel against atomics), the `closing` lines, where the tables are and whether every row
/// validated; returns the exit status: 1 when an executor failed validation or when nothing was
/// validated (then no CSV is written and the previous ones stay). Throws ResourceError when a write
/// fails.
inline int report(const Options &o, const std::vector<Row> &rows,
                  const std::vector<PlanRow> &plan_rows, double copy_gbps, apps::ResultFile &csv,
                  apps::ResultFile *plans, const std::vector<std::string> &closing = {}) {
  // Speedup against the atomic executor of the same kernel, layout and
  // reordering.
  auto atomic_ms = [&](const Row &r) {
    for (const auto &a : rows)
      if (a.kernel == r.kernel && a.layout == r.layout && a.reorder == r.reorder &&
          a.executor == exec::name_of_v<exec::Atomic>)
        return a.time_ms;
    return double(NAN);
  };
  std::printf("\n%-18s %-15s %-6s %-15s %5s %9s %8s %7s %9s %11s %8s  %s\n", "kernel", "executor",
              "layout", "reorder", "block", "time_ms", "GB/s", "of_copy", "vs_atomic",
              "max_rel_err", "scratch", "note");
  csv << "kernel,executor,layout,reorder,block_size,time_ms,gbps,copy_gbps,speedup_vs_atomic,"
         "max_rel_err\n";
  bool ok = true;
  int skipped = 0, ran = 0, empty = 0;
  for (const auto &r : rows) {
    if (std::isnan(r.time_ms)) { // did not fit this device: reported, not timed
      ++skipped;
      std::printf("%-18s %-15s %-6s %-15s %5d %9s  not run: %s\n", r.kernel.c_str(),
                  r.executor.c_str(), r.layout.c_str(), r.reorder.c_str(), r.block_size, "-",
                  r.note.c_str());
      continue;
    }
    const double speedup = atomic_ms(r) / r.time_ms;
    // A loop over no elements matches the reference trivially: it checked
    // nothing (a mesh file whose cells share no side).
    const bool no_elements = r.elements == 0;
    const bool valid = !no_elements && r.max_rel_err < r.tolerance &&
                       r.note.find("INCOMPLETE") == std::string::npos;
    ok = ok && valid;
    ++ran;
    empty += no_elements;
    std::printf("%-18s %-15s %-6s %-15s %5d %9.4f %8.1f %6.1f%% %9.2f %11.2e %8s  %s%s\n",
                r.kernel.c_str(), r.executor.c_str(), r.layout.c_str(), r.reorder.c_str(),
                r.block_size, r.time_ms, r.gbps, 100 * r.gbps / copy_gbps, speedup, r.max_rel_err,
                r.scratch >= 0 ? std::to_string(r.scratch).c_str() : "-",
                valid         ? ""
                : no_elements ? "NOTHING VALIDATED: the loop has no elements "
                              : "FAILED VALIDATION ",
                r.note.c_str());
    csv << r.kernel << ',' << r.executor << ',' << r.layout << ',' << r.reorder << ','
        << r.block_size << ',' << r.time_ms << ',' << r.gbps << ',' << copy_gbps << ',' << speedup
        << ',' << r.max_rel_err << '\n';
  }
  if (ran == 0) { // "every executor validated" would be a lie
    std::printf("\nNOTHING WAS VALIDATED: no configuration ran (%d did not fit this device or "
                "these options); %s is not written\n",
                skipped, apps::absolute_path(o.csv).c_str());
    return apps::exit_check_failed;
  }
  if (empty == ran) {
    std::printf("\nNOTHING WAS VALIDATED: every loop ran over no elements (the mesh has no "
                "interior edges or faces); %s is not written\n",
                apps::absolute_path(o.csv).c_str());
    return apps::exit_check_failed;
  }
  if (!plan_rows.empty() && !plans)
    std::printf("\nhierarchical plans' table not written: --csv %s is written in place\n",
                o.csv.c_str());
  if (!plan_rows.empty() && plans) {
    apps::ResultFile &pcsv = *plans;
    pcsv << "kernel,reorder,block_size,blocks,block_colours,thread_colours_mean,thread_colours_max,"
            "reuse,staged_points_per_block,cache_lines_per_block,reorder_seconds,plan_seconds,"
            "plan_phases\n";
    std::printf(
        "\nhierarchical plans (staged points and 32-byte lines per block over all staged "
        "maps, lines for 8-byte scalar data)\n%-18s %-15s %5s %8s %7s %12s %7s %10s %10s %9s "
        "%8s\n",
        "kernel", "reorder", "block", "blocks", "bcolours", "tcolours", "reuse", "points/blk",
        "lines/blk", "reorder_s", "plan_s");
    for (const auto &pr : plan_rows) {
      const BlockPlan &p = pr.plan;
      std::printf("%-18s %-15s %5d %8d %7d %6.2f/%-5d %7.3f %10.1f %10.1f %9.2f %8.3f\n",
                  pr.kernel.c_str(), pr.reorder.c_str(), p.block_size, p.num_blocks(),
                  p.num_block_colours(), p.mean_thread_colours, p.max_thread_colours, p.reuse,
                  p.mean_staged_points, p.mean_cache_lines, pr.reorder_seconds, p.build_seconds);
      pcsv << pr.kernel << ',' << pr.reorder << ',' << p.block_size << ',' << p.num_blocks() << ','
           << p.num_block_colours() << ',' << p.mean_thread_colours << ',' << p.max_thread_colours
           << ',' << p.reuse << ',' << p.mean_staged_points << ',' << p.mean_cache_lines << ','
           << pr.reorder_seconds << ',' << p.build_seconds << ",\"" << format(p.phases) << "\"\n";
    }
    pcsv.flush();
  }
  // Both written out before either is moved into place: a failed write
  // replaces neither.
  csv.flush();
  if (!plan_rows.empty() && plans) {
    plans->commit();
    std::printf("wrote %s\n", apps::absolute_path(plans->path()).c_str());
  }
  csv.commit();
  if (skipped)
    std::printf("%d configurations did not fit this device and were not run (see 'not run')\n",
                skipped);
  std::printf("\nbandwidth = bytes of every dat and map touched (incremented dats twice) / time; "
              "of_copy = that / measured copy bandwidth\nmax_rel_err = largest |executor - "
              "serial| / max(1, |serial|) (single precision: / max(1, the component's largest "
              "|serial|)); valid below 1e-10 (single: 1e-5)\n");
  // Per kernel: the fastest configuration against the fastest atomic and
  // gather runs of any layout and reordering, all from this run.
  std::vector<std::string> kernels;
  for (const auto &r : rows)
    if (std::find(kernels.begin(), kernels.end(), r.kernel) == kernels.end())
      kernels.push_back(r.kernel);
  if (!kernels.empty())
    std::printf("\nbest per kernel (any layout, reordering, block size)\n");
  for (const auto &k : kernels) {
    const Row *best = nullptr, *atomic = nullptr, *gather = nullptr;
    for (const auto &r : rows) {
      if (r.kernel != k || std::isnan(r.time_ms))
        continue;
      auto take = [&](const Row *&slot) {
        if (!slot || r.time_ms < slot->time_ms)
          slot = &r;
      };
      take(best);
      if (r.executor == exec::name_of_v<exec::Atomic>)
        take(atomic);
      if (r.executor == exec::name_of_v<exec::Gather>)
        take(gather);
    }
    if (!best)
      continue;
    std::printf("%-18s %s %s %s block %d: %.4f ms, %.1f%% of copy", k.c_str(),
                best->executor.c_str(), best->layout.c_str(), best->reorder.c_str(),
                best->block_size, best->time_ms, 100 * best->gbps / copy_gbps);
    if (atomic)
      std::printf("; best atomic (%s %s) %.4f ms: %.2fx", atomic->layout.c_str(),
                  atomic->reorder.c_str(), atomic->time_ms, atomic->time_ms / best->time_ms);
    if (gather)
      std::printf("; best gather (%s %s) %.4f ms: %.2fx", gather->layout.c_str(),
                  gather->reorder.c_str(), gather->time_ms, gather->time_ms / best->time_ms);
    std::printf("\n");
    // The layout is a type, so exec::Auto cannot choose it: say which wins.
    const Row *aos = nullptr, *soa = nullptr;
    for (const auto &r : rows)
      if (r.kernel == k && !std::isnan(r.time_ms)) {
        const Row *&slot = r.layout == "AoS" ? aos : soa;
        if (!slot || r.time_ms < slot->time_ms)
          slot = &r;
      }
    if (aos && soa) {
      const Row &win = soa->time_ms <= aos->time_ms ? *soa : *aos;
      const Row &lose = &win == soa ? *aos : *soa;
      std::printf("  layout: %s (%s %s, %.4f ms) %.2fx faster than %s (%s %s, %.4f ms)\n",
                  win.layout.c_str(), win.executor.c_str(), win.reorder.c_str(), win.time_ms,
                  lose.time_ms / win.time_ms, lose.layout.c_str(), lose.executor.c_str(),
                  lose.reorder.c_str(), lose.time_ms);
    }
    if (o.reproducible)
      reproducible_cost(rows, k);
    for (const auto &r : rows) // each tuned row against the best of its layout and reordering
      if (r.kernel == k && r.executor == exec::name_of_v<exec::AutoAll> && !std::isnan(r.time_ms)) {
        double best_same = r.time_ms;
        for (const auto &q : rows)
          if (q.kernel == k && q.layout == r.layout && q.reorder == r.reorder &&
              q.executor != exec::name_of_v<exec::AutoAll> && !std::isnan(q.time_ms))
            best_same = std::min(best_same, q.time_ms);
        std::printf("  auto %s %s: %.4f ms, %+.1f%% against the best of that layout and "
                    "reordering (%s)\n",
                    r.layout.c_str(), r.reorder.c_str(), r.time_ms,
                    100 * (r.time_ms / best_same - 1), r.note.c_str());
      }
  }
  if (o.reproducible)
    reproducible_bits(rows);
  for (const auto &line : closing)
    std::printf("%s\n", line.c_str());
  std::printf("tables: %s (hierarchical plan metrics: %s); charts: perf/plot %s draws them "
              "(./setup.sh main does)\n%s\n",
              apps::absolute_path(o.csv).c_str(),
              plan_rows.empty() ? "none" : apps::absolute_path(plans_csv(o.csv)).c_str(),
              apps::absolute_path(o.csv).c_str(),
              ok      ? "every executor validated against the serial reference"
              : empty ? "SOME LOOPS RAN OVER NO ELEMENTS AND VALIDATED NOTHING"
                      : "SOME EXECUTORS FAILED VALIDATION");
  return ok ? apps::exit_ok : apps::exit_check_failed;
}

} // namespace umesh::perf

#endif
