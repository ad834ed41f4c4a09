#ifndef UMESH_PERF_MAIN_RUN_HPP
#define UMESH_PERF_MAIN_RUN_HPP

// What every kernel of the main job shares: the plans of each executor, the
// renumbering, the validated and timed run of every executor asked for (one
// run's check and timing: main_measure.hpp), and the copy bandwidth the
// results are measured against. A kernel is a case_*.hpp that sets up its
// data and reference and calls run_all.

#include "common/bandwidth.hpp"
#include "main_measure.hpp"
#include "main_options.hpp"
#include "main_report.hpp"

#include <umesh/exec_names.hpp>
#include <umesh/umesh.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::perf {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using HostSpace = Kokkos::DefaultHostExecutionSpace;

// The main job sweeps every hierarchical variant (the and the
// paper's), so it compiles every hierarchical kernel; its 'auto' row tunes
// over the same executors and variants the sweep times.
using MainHierarchical = exec::HierarchicalAll;
using MainAuto = exec::AutoOf<exec::Atomic, exec::ScatterView, exec::Gather, exec::GlobalColour,
                              MainHierarchical, exec::Segmented, exec::WarpCombine>;

// Every plan a kernel needs, built once per mesh and shared by both layouts.
struct Plans {
  Plan<exec::Serial, Space> serial;
  Plan<exec::Atomic, Space> atomic;
  Plan<exec::Gather, Space> gather;
  Plan<exec::GlobalColour, Space> colour;
  Plan<exec::ScatterView, Space> scatter;
  std::vector<Plan<exec::Hierarchical, Space>> hier;
  std::vector<Plan<exec::Segmented, Space>> segmented; // one per block size
  std::vector<Plan<exec::WarpCombine, Space>> warp;    // one per block size (multiples of 32)
  double colour_seconds = 0, gather_seconds = 0;
  // One tuner per layout ("AoS", "SoA"): the layout is a type, and each
  // tunes for its own. Over every executor (exec::AutoAll, not exec::Auto's
  // default few): the sweep's 'auto' row is measured against all the others.
  std::map<std::string, Plan<MainAuto, Space>> autotune;
};

/// Seconds since the main job started (first called at its start), for the
/// progress lines.
inline double main_elapsed() {
  static const auto start = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Whether the options ask for executor E.
template <class E> bool wants(const Options &o) {
  return std::count(o.executors.begin(), o.executors.end(), exec::name_of_v<E>) > 0;
}

// `inc_map` is incremented through; `reads` are only read through. Maps are
// in the renumbering's numbering; block renumberings (metis, builtin) give
// the hierarchical plan its blocks, at the renumbering's block size.
template <class... Reads>
Plans make_plans(const Options &o, const Renumbering &ren, const Map<Mem> &inc_map,
                 const Reads &...reads) {
  Space space;
  const Set &set = inc_map.from();
  Plans p{Plan<exec::Serial, Space>(space, set),
          Plan<exec::Atomic, Space>(space, set),
          Plan<exec::Gather, Space>(space, set, inc_map),
          Plan<exec::GlobalColour, Space>(space, set, inc_map),
          Plan<exec::ScatterView, Space>(space, set),
          {},
          {},
          {},
          0,
          0,
          {}};
  p.colour_seconds = p.colour.build_seconds();
  p.gather_seconds = p.gather.build_seconds();
  if (wants<exec::AutoAll>(o))
    for (const auto &l : o.layouts)
      p.autotune.emplace(
          l == "aos" ? "AoS" : "SoA",
          Plan<MainAuto, Space>(
              space, MainAuto{}.with_block_sizes(o.blocks).with_reproducible(o.reproducible), set,
              inc_map, read_only(reads)...));
  if (wants<exec::Segmented>(o))
    for (int b : o.blocks) {
      p.segmented.emplace_back(space, exec::Segmented{}.with_block_size(b), set, inc_map);
      if (!o.check)
        std::printf("  segmented plan: %s (%.2f s)\n", p.segmented.back().summary().c_str(),
                    p.segmented.back().build_seconds());
    }
  if (wants<exec::WarpCombine>(o))
    for (int b : o.blocks) {
      if (b % 32 != 0) {
        if (!o.check)
          std::printf("  warp plan: block size %d is not a multiple of 32: not run\n", b);
        continue;
      }
      p.warp.emplace_back(space, exec::WarpCombine{}.with_block_size(b), set, inc_map);
    }
  if (!wants<exec::Hierarchical>(o))
    return p;
  auto add = [&](exec::Hierarchical options) {
    p.hier.emplace_back(space, options, set, inc_map, read_only(reads)...);
    if (!o.check)
      std::printf("  hierarchical plan: %s\n", p.hier.back().summary().c_str());
  };
  if (ren.blocks())
    add(exec::Hierarchical{}.with_block_size(o.reorder_block).with_blocks(ren.blocks()));
  else
    for (int b : o.blocks)
      add(exec::Hierarchical{}.with_block_size(b));
  return p;
}

// The renumbering a reorder name asks for, with its time per phase printed.
template <class... Maps>
Renumbering renumber(const Options &o, const std::string &name, const Set &set,
                     const Maps &...maps) {
  const Renumbering r =
      reorder(parse_reorder_options(name).with_block_size(o.reorder_block), set, maps...);
  if (r.method() != Reorder::none && !o.check)
    std::printf("  reorder %s: %.2f s (%s)\n", name.c_str(), r.seconds(),
                format(r.phases()).c_str());
  return r;
}

// One progress line after each kernel, layout and reordering: its rows, the
// fastest and the atomic one, and the time since the job started.
inline void progress(const std::string &label, const char *layout, const std::string &reorder,
                     const std::vector<Row> &rows) {
  const Row *best = nullptr, *atomic = nullptr;
  int failed = 0;
  for (const auto &r : rows) {
    if (std::isnan(r.time_ms))
      continue;
    failed += !(r.max_rel_err < r.tolerance);
    if (!best || r.time_ms < best->time_ms)
      best = &r;
    if (r.executor == exec::name_of_v<exec::Atomic>)
      atomic = &r;
  }
  std::printf("  [%4.0f s] %s %s %s: %zu rows", main_elapsed(), label.c_str(), layout,
              reorder.c_str(), rows.size());
  if (best)
    std::printf(", fastest %s %.4f ms", best->executor.c_str(), best->time_ms);
  if (atomic)
    std::printf(", atomic %.4f ms", atomic->time_ms);
  if (failed)
    std::printf(", %d FAILED VALIDATION", failed);
  std::printf("\n");
  std::fflush(stdout);
}

/// Runs one kernel on one mesh under every reordering asked for (maps
/// renumbered, plans built once per reordering) and every layout, appending
/// rows and plan metrics. `inc` is incremented through, `reads` only read
/// through; run_layout(layout tag, renumbering, plans, layout name, inc in the
/// new numbering, reads in it...) returns one layout's rows.
template <class RunLayout, class... Reads>
void run_reorderings(const Options &o, const std::string &label, std::vector<Row> &rows,
                     std::vector<PlanRow> &plan_rows, RunLayout &&run_layout, const Map<Mem> &inc,
                     const Reads &...reads) {
  for (const auto &name : o.reorders) {
    const Renumbering ren = renumber(o, name, inc.from(), inc, read_only(reads)...);
    auto with_maps = [&](const Map<Mem> &inc2, const auto &...reads2) {
      Plans plans = make_plans(o, ren, inc2, reads2...);
      for (auto &p : plans.hier)
        plan_rows.push_back({label, name, p.blocks(), ren.seconds()});
      for (const auto &l : o.layouts) {
        auto r = l == "aos" ? run_layout(AoS{}, ren, plans, "AoS", inc2, reads2...)
                            : run_layout(SoA{}, ren, plans, "SoA", inc2, reads2...);
        for (auto &row : r) {
          row.reorder = name;
          row.elements = inc.from().size();
        }
        rows.insert(rows.end(), r.begin(), r.end());
        if (!o.check)
          progress(label, l == "aos" ? "AoS" : "SoA", name, r);
      }
    };
    with_maps(ren.apply(inc), ren.apply(reads)...);
  }
}

// Hierarchical variants to run: every staging x combine x writeback asked
// for; combining options apply to staged increments only, so stagings 'none'
// and 'reads' run once each, whatever combining was asked for; blocks per
// team multiply the variants that pipeline ('reads', and '/sa/ga'); team
// sizes multiply them all.
inline std::vector<exec::Hierarchical::Loop> hierarchical_variants_one_team_size(const Options &o) {
  std::vector<exec::Hierarchical::Loop> out;
  for (auto staging : o.stagings) {
    if (staging == exec::Staging::reads) {
      for (int n : o.blocks_per_team)
        out.push_back(exec::Hierarchical::Loop{}.with_staging(staging).with_blocks_per_team(n));
      continue;
    }
    if (!exec::stages_increments(staging)) {
      out.push_back(exec::Hierarchical::Loop{}.with_staging(staging));
      continue;
    }
    for (auto combine : o.combines)
      for (auto writeback : o.writebacks) {
        const auto h =
            exec::Hierarchical::Loop{}.with_staging(staging).with_combine(combine).with_writeback(
                writeback);
        if (!exec::pipelinable(h)) {
          out.push_back(h);
          continue;
        }
        for (int n : o.blocks_per_team)
          out.push_back(exec::Hierarchical::Loop(h).with_blocks_per_team(n));
      }
  }
  return out;
}

// Register budgets and preload (staging all) multiply the variants they apply to at `block_size`
// (exec::register_budget_problem) on CUDA; host backends have one kernel.
inline std::vector<exec::Hierarchical::Loop> hierarchical_variants(const Options &o, bool host,
                                                                   int block_size) {
  std::vector<exec::Hierarchical::Loop> out;
  for (const auto &h : hierarchical_variants_one_team_size(o))
    for (int t : o.team_sizes)
      for (int r : host ? std::vector<int>{0} : o.hier_registers)
        for (int p : h.staging == exec::Staging::all ? o.hier_preload : std::vector<int>{1}) {
          const auto v =
              exec::Hierarchical::Loop(h).with_team_size(t).with_max_registers(r).with_preload(p ==
                                                                                               1);
          if (exec::register_budget_problem(v, block_size).empty())
            out.push_back(v);
        }
  return out;
}

// Whether a team executor's variant gives the same bits run to run here.
inline bool variant_reproducible(const exec::SegmentedLoop &l) {
  return exec::Segmented::reproducible(exec::concurrency_of<Space>(), l);
}
inline bool variant_reproducible(const exec::WarpLoop &l) {
  return exec::WarpCombine::reproducible(exec::concurrency_of<Space>(), l);
}
inline bool variant_reproducible(const exec::HierarchicalLoopOptions &l) {
  return exec::Hierarchical::reproducible(exec::concurrency_of<Space>(), l);
}

// --paired: auto's pick against the fastest other row, timed in alternating
// pairs (which of the two goes first alternates too), so that a host whose
// speed drifts during the run slows both alike; the median of the per-pair
// ratios goes into auto's note.
inline void paired_auto(const Options &o, std::vector<Row> &rows,
                        std::map<std::size_t, std::function<void()>> &again) {
  std::size_t tuned = rows.size(), best = rows.size();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (std::isnan(rows[i].time_ms) || !again.count(i))
      continue;
    if (rows[i].executor == exec::name_of_v<exec::AutoAll>)
      tuned = i;
    else if (best == rows.size() || rows[i].time_ms < rows[best].time_ms)
      best = i;
  }
  if (tuned == rows.size() || best == rows.size())
    return;
  auto time_one = [&](std::size_t i) {
    Kokkos::fence();
    Kokkos::Timer t;
    again[i]();
    Kokkos::fence();
    return t.seconds() * 1e3;
  };
  std::vector<double> ratio, t_auto, t_best;
  for (int p = 0; p < o.paired; ++p) {
    double a, b;
    if (p % 2 == 0) {
      a = time_one(tuned);
      b = time_one(best);
    } else {
      b = time_one(best);
      a = time_one(tuned);
    }
    t_auto.push_back(a);
    t_best.push_back(b);
    ratio.push_back(a / b);
  }
  const Row &b = rows[best];
  const std::string with =
      b.executor + (b.block_size > 0 ? " block " + std::to_string(b.block_size) : "");
  char note[320];
  std::snprintf(note, sizeof note, "; paired with %s over %d pairs: %+.1f%% (%.4f ms against %.4f)",
                with.c_str(), o.paired, 100 * (apps::median(ratio) - 1), apps::median(t_auto),
                apps::median(t_best));
  rows[tuned].note += note;
}

// Runs every requested executor (and hierarchical variant) of one kernel and
// layout. loop(plan, loop_options) runs the kernel once.
template <class OutDat, class RefDat, class Loop>
std::vector<Row> run_all(const Options &o, const std::string &kernel, const std::string &layout,
                         double bytes, Plans &plans, const OutDat &out, const RefDat &ref,
                         const OutDat &initial, Loop &&loop) {
  std::vector<Row> rows;
  std::map<std::size_t, std::function<void()>> again; // row -> one more run (--paired)
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  auto one = [&](const std::string &name, auto options, auto &plan) {
    rows.push_back(
        measure(o, kernel, name, layout, bytes, out, ref, initial, [&] { loop(plan, options); }));
    again[rows.size() - 1] = [&loop, options, &plan] { loop(plan, options); };
    return &rows.back();
  };
  // A team executor's variant, labelled by its name; one that does not fit
  // this device (scratch or team size) is reported, not timed (nullptr).
  auto variant = [&](const auto &options, auto &plan, const std::string &note) -> Row * {
    const std::string label = exec::variant_name(options);
    const int block = plan.options().block_size;
    try {
      Row *r = one(label, options, plan);
      r->reproducible = variant_reproducible(options);
      r->block_size = block;
      r->scratch = plan.scratch_bytes(kernel);
      r->note = note;
      return r;
    } catch (const Error &e) {
      rows.push_back({kernel, label, layout, block, NAN, NAN, NAN, 0, e.what(), -1});
      return nullptr;
    }
  };
  // The names are exec::Every's (umesh/exec_names.hpp).
  for (const auto &name : o.executors)
    exec::with_name(exec::Every{}, name, [&](auto tag) {
      using E = decltype(tag);
      // (Executors without options: their trait on this backend.)
      const auto plain = [&](auto &plan) {
        Row *r = one(name, exec::NoLoopOptions{}, plan);
        if constexpr (!std::is_same<E, exec::AutoAll>::value)
          r->reproducible = E::reproducible(exec::concurrency_of<Space>());
        return r;
      };
      if constexpr (std::is_same<E, exec::Serial>::value) {
        if (host) // one GPU thread would take minutes at these sizes
          plain(plans.serial);
      } else if constexpr (std::is_same<E, exec::Atomic>::value)
        plain(plans.atomic);
      else if constexpr (std::is_same<E, exec::Gather>::value)
        plain(plans.gather);
      else if constexpr (std::is_same<E, exec::GlobalColour>::value)
        plain(plans.colour)->note = std::to_string(plans.colour.num_colours()) + " colours";
      else if constexpr (std::is_same<E, exec::ScatterView>::value)
        plain(plans.scatter);
      else if constexpr (std::is_same<E, exec::AutoAll>::value) {
        // The first (validation) run tunes: its result is checked like any
        // other; the timed runs use the winner. Tuning time is reported apart.
        auto &plan = plans.autotune.at(layout);
        Row *r = plain(plan);
        r->reproducible = plan.options().reproducible;
        char note[256];
        std::snprintf(note, sizeof note, "tuned in %.2f s: %s", plan.tuning_seconds(kernel),
                      plan.choice(kernel).c_str());
        r->note = note;
      } else if constexpr (std::is_same<E, exec::Segmented>::value) {
        // Per-point entries, then scratch atomics (the same on host backends).
        for (auto &plan : plans.segmented)
          for (bool sa : host ? std::vector<bool>{false} : std::vector<bool>{false, true})
            variant(exec::SegmentedLoop{}.with_scratch_atomics(sa), plan, "1 launch");
      } else if constexpr (std::is_same<E, exec::WarpCombine>::value) {
        // Register budgets are launch bounds: host backends have one kernel.
        const std::vector<int> budgets = host ? std::vector<int>{0} : o.warp_registers;
        for (auto &plan : plans.warp)
          for (int bits : o.warp_maps)
            for (int registers : budgets) {
              const auto w =
                  exec::WarpLoop{}.with_max_registers(registers).with_compact_maps(bits == 16);
              if (variant(w, plan, "1 launch") && registers == budgets.front() &&
                  bits == o.warp_maps.back() && !o.check)
                std::printf("  warp plan: %s (%.2f s)\n", plan.summary().c_str(),
                            plan.build_seconds());
            }
      } else {
        static_assert(std::is_same<E, exec::Hierarchical>::value, "an executor left out here");
        for (auto &plan : plans.hier)
          for (const auto &h : hierarchical_variants(o, host, plan.options().block_size)) {
            // Team sizes apply on GPUs, below a block's threads.
            const int block_threads = (plan.options().block_size + 31) / 32 * 32;
            if (h.team_size > 0 && (host || h.team_size >= block_threads))
              continue;
            variant(MainHierarchical::Loop(h), plan,
                    h.writeback == exec::Writeback::atomic
                        ? "1 launch"
                        : std::to_string(plan.num_block_colours()) + " block colours");
          }
      }
    });
  if (o.paired > 0)
    paired_auto(o, rows, again);
  return rows;
}

} // namespace umesh::perf

#endif
