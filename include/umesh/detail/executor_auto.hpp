#ifndef UMESH_DETAIL_EXECUTOR_AUTO_HPP
#define UMESH_DETAIL_EXECUTOR_AUTO_HPP

// exec::Auto: on a loop's first call, every candidate strategy runs on the
// loop's real data (outputs restored between trials), the fastest median
// wins, the loop runs once under it, and under it from then on. Plans of the
// other executors are built the first time a candidate needs them.

#include <umesh/detail/executor_colour.hpp>
#include <umesh/detail/executor_direct.hpp>
#include <umesh/detail/executor_gather.hpp>
#include <umesh/detail/executor_hierarchical.hpp>
#include <umesh/detail/executor_scatter.hpp>
#include <umesh/detail/executor_segmented.hpp>
#include <umesh/detail/executor_warp.hpp>
#include <umesh/detail/loop_snapshot.hpp>
#include <umesh/detail/plan_file.hpp>
#include <umesh/detail/tuning_file.hpp>
#include <umesh/plan.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace umesh {
namespace detail {

/// The device a tuning decision was measured on.
template <class Space> std::string device_description() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<Space, Kokkos::Cuda>::value) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, Kokkos::Cuda().cuda_device()) == cudaSuccess)
      return prop.name;
  }
#endif
  return std::string(Space::name()) + " x" + std::to_string(Space().concurrency());
}

struct AutoCandidate {
  enum Kind { atomic, scatterview, gather, colour, hierarchical, segmented, warp } kind;
  exec::Hierarchical loop_options; // hierarchical: staging, combine, writeback
  int block_size = 0;
  std::string name;
  bool scratch_atomics = false; // segmented
  int max_registers = 0;        // warp
  bool compact_maps = false;    // warp
};

/// What tuning found for one loop.
struct AutoDecision {
  std::string signature; // the loop's kernel and argument types
  int winner = -1;
  bool from_file = false;
  double seconds = 0;             // tuning time
  std::vector<double> median_ms;  // per candidate; NaN: not timed
  std::vector<std::string> notes; // per candidate: why not timed
};

} // namespace detail

template <class Space> class Plan<exec::Auto, Space> : public detail::PlanBase<Space> {
public:
  template <class... Maps>
  Plan(const Space &space, exec::Auto options, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, set, maps...), options_(std::move(options)),
        atomic_(space, set, maps...), scatter_(space, set, maps...) {
    make_gather_ = [=] { return std::make_unique<Plan<exec::Gather, Space>>(space, set, maps...); };
    make_colour_ = [=] {
      return std::make_unique<Plan<exec::GlobalColour, Space>>(space, set, maps...);
    };
    make_hier_ = [=](int block) {
      return std::make_unique<Plan<exec::Hierarchical, Space>>(
          space, exec::Hierarchical{}.with_block_size(block), set, maps...);
    };
    make_segmented_ = [=](int block) {
      return std::make_unique<Plan<exec::Segmented, Space>>(
          space, exec::Segmented{}.with_block_size(block), set, maps...);
    };
    make_warp_ = [=](int block) {
      return std::make_unique<Plan<exec::WarpCombine, Space>>(
          space, exec::WarpCombine{}.with_block_size(block), set, maps...);
    };
    if (options_.trials < 1)
      detail::fail("exec::Auto: trials must be at least 1, not ", options_.trials);
    for (int b : options_.block_sizes)
      if (b < 1)
        detail::fail("exec::Auto: block size ", b, " (must be >= 1)");
    for (int r : options_.warp_registers)
      if (!exec::WarpCombine::is_register_budget(r))
        detail::fail("exec::Auto: warp register budget ", r, " is not 0, 40 or 64");
    for (int bits : options_.warp_maps)
      if (bits != 32 && bits != 16)
        detail::fail("exec::Auto: warp map entries of ", bits, " bits; 32 or 16");
    for (int r : options_.hier_registers)
      if (!exec::Hierarchical::is_register_budget(r))
        detail::fail("exec::Auto: hierarchical register budget ", r, " is not 0 or 48");
    add_candidates();
    if (options_.tuning_file.empty())
      if (const char *env = std::getenv("UMESH_TUNING_FILE"))
        options_.tuning_file = env;
    if (!options_.tuning_file.empty()) { // hashing every index costs a pass: only for files
      const detail::HostMaps host = detail::host_maps(maps...);
      std::ostringstream fp;
      fp << std::hex << detail::fingerprint(this->set_.size(), host.maps);
      fingerprint_ = fp.str();
      table_ = detail::read_tuning_file(options_.tuning_file);
    }
  }

  const exec::Auto &options() const { return options_; }
  const std::vector<detail::AutoCandidate> &candidates() const { return candidates_; }

  /// Name of the candidate `loop` runs under (an Error before its first call).
  const std::string &choice(const std::string &loop) const {
    return candidates_[decision(loop).winner].name;
  }
  /// Seconds `loop` spent tuning (0 when the decision came from the file).
  double tuning_seconds(const std::string &loop) const { return decision(loop).seconds; }
  bool from_tuning_file(const std::string &loop) const { return decision(loop).from_file; }

  /// Per loop: every candidate's median (or why it was not timed), the
  /// winner and its margin over the runner-up, the tuning time.
  std::string summary() const {
    std::ostringstream os;
    bool first = true;
    for (const auto &[loop, d] : decisions_) {
      os << (first ? "" : "\n") << "loop '" << loop << "': " << candidates_[d.winner].name;
      first = false;
      if (d.from_file) {
        os << " (from tuning file " << options_.tuning_file << ")";
        continue;
      }
      double second = std::numeric_limits<double>::infinity();
      for (std::size_t c = 0; c < d.median_ms.size(); ++c)
        if (int(c) != d.winner && std::isfinite(d.median_ms[c]))
          second = std::min(second, d.median_ms[c]);
      os << ", " << d.median_ms[d.winner] << " ms";
      if (std::isfinite(second))
        os << ", " << second / d.median_ms[d.winner] << "x ahead of the next";
      os << "; tuned in " << d.seconds << " s:";
      for (std::size_t c = 0; c < candidates_.size(); ++c) {
        os << " " << candidates_[c].name << " ";
        if (std::isfinite(d.median_ms[c]))
          os << d.median_ms[c] << " ms";
        else
          os << "(" << d.notes[c] << ")";
        os << (c + 1 < candidates_.size() ? ";" : "");
      }
    }
    return os.str();
  }

  template <class Kernel, class... Args>
  void run(const exec::Auto &, const std::string &name, const Kernel &kernel, const Args &...args) {
    const std::string sig = signature<Kernel, Args...>();
    auto it = decisions_.find(name);
    if (it == decisions_.end())
      it = decisions_.emplace(name, decide(name, sig, kernel, args...)).first;
    else if (it->second.signature != sig)
      detail::fail("loop '", name,
                   "' under exec::Auto ran before with another kernel or other "
                   "argument types (a layout, a dat's components); a decision holds for one of "
                   "them: give this loop its own name");
    run_candidate(candidates_[it->second.winner], name, kernel, args...);
  }

private:
  void add_candidates() {
    using C = detail::AutoCandidate;
    constexpr bool host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
    auto add = [&](C c) {
      if (options_.only.empty() ||
          std::find(options_.only.begin(), options_.only.end(), c.name) != options_.only.end())
        candidates_.push_back(std::move(c));
    };
    add({C::atomic, {}, 0, "atomic"});
    add({C::scatterview, {}, 0, "scatterview"});
    add({C::gather, {}, 0, "gather"});
    add({C::colour, {}, 0, "colour"});
    for (int b : options_.block_sizes)
      for (auto staging : {exec::Staging::all, exec::Staging::increments, exec::Staging::none,
                           exec::Staging::reads})
        for (auto combine : exec::all_combines)
          for (auto writeback : {exec::Writeback::coloured, exec::Writeback::atomic}) {
            if (!exec::stages_increments(staging) &&
                (combine != exec::Combine::colours || writeback != exec::Writeback::coloured))
              continue;
            const auto h =
                exec::Hierarchical{}.with_staging(staging).with_combine(combine).with_writeback(
                    writeback);
            for (int n : options_.blocks_per_team) {
              if (n < 1)
                detail::fail("exec::Auto: blocks_per_team must be at least 1, got ", n);
              if (n > 1 && (host || !exec::pipelinable(h)))
                continue; // would run one block per team: the n = 1 candidate
              // Register budgets (GPU backends) where they apply.
              for (int r : host ? std::vector<int>{0} : options_.hier_registers) {
                const auto hn = exec::Hierarchical(h).with_blocks_per_team(n).with_max_registers(r);
                if (!exec::register_budget_problem(hn, b).empty())
                  continue;
                std::string name = exec::variant_name(hn) + "/b" + std::to_string(b);
                add({C::hierarchical, hn, b, std::move(name)});
              }
            }
          }
    // Segmented: per-point entries, and scratch atomics on GPU backends
    // (host backends fold in place either way).
    for (int b : options_.block_sizes)
      for (bool sa : {false, true})
        if (!(sa && host))
          add({C::segmented,
               {},
               b,
               std::string(sa ? "segmented/sa" : "segmented") + "/b" + std::to_string(b),
               sa});
    // Warp pre-aggregation at the block sizes that are whole warps, under
    // each register budget on GPU backends.
    for (int b : options_.block_sizes)
      if (b % 32 == 0 && b <= 1024)
        for (int bits : options_.warp_maps)
          for (int r : host ? std::vector<int>{0} : options_.warp_registers)
            if (r != 40 || b <= 512)
              add({C::warp,
                   {},
                   b,
                   std::string(r ? "warp/r" + std::to_string(r) : "warp") +
                       (bits == 16 ? "/m16" : "") + "/b" + std::to_string(b),
                   false,
                   r,
                   bits == 16});
    if (candidates_.empty())
      detail::fail("exec::Auto: no candidate left by with_candidates");
  }

  const detail::AutoDecision &decision(const std::string &loop) const {
    auto it = decisions_.find(loop);
    if (it == decisions_.end())
      detail::fail("exec::Auto plan: loop '", loop, "' has not run");
    return it->second;
  }

  // The kernel's and arguments' types (layouts, components, accesses), hashed:
  // a decision holds for them only.
  template <class Kernel, class... Args> static std::string signature() {
    std::uint64_t h = 1469598103934665603ull;
    for (const char *name : {typeid(Kernel).name(), typeid(Args).name()...})
      for (const char *c = name; *c; ++c)
        h = (h ^ static_cast<unsigned char>(*c)) * 1099511628211ull;
    std::ostringstream os;
    os << std::hex << h;
    return os.str();
  }

  std::string tuning_key(const std::string &loop, const std::string &sig) const {
    std::string clean = loop;
    std::replace_if(
        clean.begin(), clean.end(), [](char c) { return c == '\t' || c == '\n' || c == '|'; }, ' ');
    return detail::device_description<Space>() + "|" + Space::name() + "|" + clean + "|" +
           fingerprint_ + "|" + sig;
  }

  template <class Kernel, class... Args>
  void run_candidate(const detail::AutoCandidate &c, const std::string &name, const Kernel &kernel,
                     const Args &...args) {
    using C = detail::AutoCandidate;
    switch (c.kind) {
    case C::atomic:
      return atomic_.run(exec::Atomic{}, name, kernel, args...);
    case C::scatterview:
      return scatter_.run(exec::ScatterView{}, name, kernel, args...);
    case C::gather:
      if (!gather_)
        gather_ = make_gather_();
      return gather_->run(exec::Gather{}, name, kernel, args...);
    case C::colour:
      if (!colour_)
        colour_ = make_colour_();
      return colour_->run(exec::GlobalColour{}, name, kernel, args...);
    case C::hierarchical: {
      auto &plan = hier_[c.block_size];
      if (!plan)
        plan = make_hier_(c.block_size);
      return plan->run(c.loop_options, name, kernel, args...);
    }
    case C::segmented: {
      auto &plan = segmented_[c.block_size];
      if (!plan)
        plan = make_segmented_(c.block_size);
      return plan->run(exec::Segmented{}.with_scratch_atomics(c.scratch_atomics), name, kernel,
                       args...);
    }
    case C::warp: {
      auto &plan = warp_[c.block_size];
      if (!plan)
        plan = make_warp_(c.block_size);
      return plan->run(
          exec::WarpCombine{}.with_max_registers(c.max_registers).with_compact_maps(c.compact_maps),
          name, kernel, args...);
    }
    }
  }

  template <class Kernel, class... Args>
  detail::AutoDecision decide(const std::string &name, const std::string &sig, const Kernel &kernel,
                              const Args &...args) {
    detail::AutoDecision d;
    d.signature = sig;
    const std::string key = options_.tuning_file.empty() ? "" : tuning_key(name, sig);
    if (!key.empty()) {
      auto found = table_.find(key);
      if (found == table_.end()) { // another plan may have tuned it since this one was made
        table_ = detail::read_tuning_file(options_.tuning_file);
        found = table_.find(key);
      }
      if (found != table_.end()) {
        for (std::size_t c = 0; c < candidates_.size(); ++c)
          if (candidates_[c].name == found->second)
            d.winner = int(c);
        if (d.winner < 0)
          detail::fail("tuning file '", options_.tuning_file, "' chose '", found->second,
                       "' for loop '", name,
                       "', which is not a candidate of this plan: delete the line or the file "
                       "to tune again");
        d.from_file = true;
        return d;
      }
    }
    const detail::LoopSnapshot snapshot(args...);
    Kokkos::Timer total;
    double best = std::numeric_limits<double>::infinity();
    std::string first_error;
    auto timed = [&](const detail::AutoCandidate &c) {
      snapshot.restore();
      Kokkos::fence();
      Kokkos::Timer t;
      run_candidate(c, name, kernel, args...);
      Kokkos::fence();
      return t.seconds() * 1e3;
    };
    // Warm-up round, then trial rounds over all candidates in turn, so that a
    // machine whose speed drifts during tuning slows every candidate alike.
    const std::size_t n = candidates_.size();
    d.median_ms.assign(n, std::numeric_limits<double>::quiet_NaN());
    d.notes.assign(n, "");
    std::vector<double> warm(n, std::numeric_limits<double>::infinity());
    std::vector<std::vector<double>> ms(n);
    for (std::size_t c = 0; c < n; ++c) {
      if (total.seconds() > options_.time_limit && std::isfinite(best)) {
        d.notes[c] = "time limit";
        continue;
      }
      try {
        // A candidate's first run may build its plan (blocks, warp links):
        // a one-time cost that pruning must not count against it.
        snapshot.restore();
        run_candidate(candidates_[c], name, kernel, args...);
        warm[c] = timed(candidates_[c]);
        best = std::min(best, warm[c]);
      } catch (const Error &e) { // does not fit this device or loop
        d.notes[c] = "not run";
        if (first_error.empty())
          first_error = e.what();
      }
    }
    for (std::size_t c = 0; c < n; ++c)
      if (std::isfinite(warm[c]) && warm[c] > options_.prune * best)
        d.notes[c] = "pruned: warm-up " + std::to_string(warm[c]) + " ms";
    auto timed_further = [&](std::size_t c) {
      return std::isfinite(warm[c]) && d.notes[c].empty();
    };
    for (int r = 0; r < options_.trials; ++r) {
      if (r > 0 && total.seconds() > options_.time_limit)
        break; // every candidate still in has as many trials
      for (std::size_t c = 0; c < n; ++c)
        if (timed_further(c))
          ms[c].push_back(timed(candidates_[c]));
    }
    best = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < n; ++c) {
      if (ms[c].empty())
        continue;
      std::sort(ms[c].begin(), ms[c].end());
      d.median_ms[c] = ms[c][ms[c].size() / 2];
      if (d.median_ms[c] < best) {
        best = d.median_ms[c];
        d.winner = int(c);
      }
    }
    snapshot.restore();
    if (d.winner < 0)
      detail::fail("loop '", name,
                   "' under exec::Auto: no candidate ran; the first said: ", first_error);
    d.seconds = total.seconds();
    if (!key.empty()) {
      // Merged into the file as it is now: plans sharing a file (one per
      // layout, say) must not drop each other's decisions.
      table_ =
          detail::record_tuning_decision(options_.tuning_file, key, candidates_[d.winner].name);
    }
    return d;
  }

  exec::Auto options_;
  Plan<exec::Atomic, Space> atomic_;
  Plan<exec::ScatterView, Space> scatter_;
  std::function<std::unique_ptr<Plan<exec::Gather, Space>>()> make_gather_;
  std::function<std::unique_ptr<Plan<exec::GlobalColour, Space>>()> make_colour_;
  std::function<std::unique_ptr<Plan<exec::Hierarchical, Space>>(int)> make_hier_;
  std::unique_ptr<Plan<exec::Gather, Space>> gather_;
  std::unique_ptr<Plan<exec::GlobalColour, Space>> colour_;
  std::map<int, std::unique_ptr<Plan<exec::Hierarchical, Space>>> hier_;
  std::function<std::unique_ptr<Plan<exec::Segmented, Space>>(int)> make_segmented_;
  std::map<int, std::unique_ptr<Plan<exec::Segmented, Space>>> segmented_;
  std::function<std::unique_ptr<Plan<exec::WarpCombine, Space>>(int)> make_warp_;
  std::map<int, std::unique_ptr<Plan<exec::WarpCombine, Space>>> warp_;
  std::vector<detail::AutoCandidate> candidates_;
  std::map<std::string, detail::AutoDecision> decisions_;
  detail::TuningTable table_;
  std::string fingerprint_;
};

/// The auto plan takes the tuner's options.
template <class Space, class... Maps>
Plan<exec::Auto, Space> make_plan(const Space &space, exec::Auto options, const Set &set,
                                  const Maps &...maps) {
  return Plan<exec::Auto, Space>(space, std::move(options), set, maps...);
}

} // namespace umesh

#endif
