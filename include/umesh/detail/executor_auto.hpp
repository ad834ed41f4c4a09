#ifndef UMESH_DETAIL_EXECUTOR_AUTO_HPP
#define UMESH_DETAIL_EXECUTOR_AUTO_HPP

// exec::AutoOf<Candidates...>: on a loop's first call, every variant of the
// candidate executors runs on the loop's real data (outputs restored between
// trials), the leaders run again in alternation, the fastest wins, the loop
// runs once under it, and under it from then on. Only the candidates'
// kernels are instantiated; their plans are built the first time a
// candidate needs them.

#include <umesh/detail/auto_candidates.hpp>
#include <umesh/detail/auto_tuning.hpp>
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
#include <umesh/exec_auto.hpp>
#include <umesh/plan.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace umesh {
namespace detail {

/// One candidate executor's plans (one per block size, built on first use)
/// and the loop options of its variants.
template <class Exec, class Space> class AutoSlot {
public:
  template <class... Maps> AutoSlot(const Space &space, const Set &set, const Maps &...maps) {
    make_ = [=](int block) {
      if constexpr (std::is_same<Exec, exec::Hierarchical>::value ||
                    std::is_same<Exec, exec::Segmented>::value ||
                    std::is_same<Exec, exec::WarpCombine>::value)
        return std::make_unique<Plan<Exec, Space>>(space, Exec{}.with_block_size(block), set,
                                                   maps...);
      else
        return std::make_unique<Plan<Exec, Space>>(space, set, maps...);
    };
  }

  template <class Kernel, class... Args>
  void run(const AutoCandidate &c, const std::string &name, const Kernel &kernel,
           const Args &...args) {
    auto &plan = plans_[c.block_size];
    if (!plan)
      plan = make_(c.block_size);
    plan->run(loop_options(c), name, kernel, args...);
  }

private:
  static Exec loop_options(const AutoCandidate &c) {
    if constexpr (std::is_same<Exec, exec::Hierarchical>::value)
      return c.loop_options;
    else if constexpr (std::is_same<Exec, exec::Segmented>::value)
      return exec::Segmented{}.with_scratch_atomics(c.scratch_atomics);
    else if constexpr (std::is_same<Exec, exec::WarpCombine>::value)
      return exec::WarpCombine{}
          .with_max_registers(c.max_registers)
          .with_compact_maps(c.compact_maps);
    else
      return Exec{};
  }

  std::function<std::unique_ptr<Plan<Exec, Space>>(int)> make_;
  std::map<int, std::unique_ptr<Plan<Exec, Space>>> plans_;
};

/// The candidate executors of tag exec::AutoOf<C...> on Space: C..., or
/// the backend's defaults (exec::AutoDefaults) when none are given.
template <class Tag, class Space> struct AutoCandidateList { using type = Tag; };
template <class Space> struct AutoCandidateList<exec::AutoOf<>, Space> {
  using type = exec::AutoDefaults<Space>;
};

template <class... C> constexpr bool distinct_candidates() {
  constexpr AutoCandidate::Kind kinds[] = {auto_kind<C>()...};
  for (std::size_t i = 0; i < sizeof...(C); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (kinds[i] == kinds[j])
        return false;
  return true;
}

template <class Tag, class List, class Space> class AutoPlan;

/// The plan of exec::Auto's tag `Tag` over candidate executors C...
template <class Tag, class Space, class... C>
class AutoPlan<Tag, exec::AutoOf<C...>, Space> : public PlanBase<Space> {
  static_assert(sizeof...(C) > 0, "exec::AutoOf: no candidates");
  static_assert(distinct_candidates<C...>(), "exec::AutoOf: a candidate executor is listed twice");

public:
  template <class... Maps>
  AutoPlan(const Space &space, Tag options, Set set, const Maps &...maps)
      : PlanBase<Space>(space, set, maps...), options_(std::move(options)),
        slots_(AutoSlot<C, Space>(space, set, maps...)...) {
    check_auto_options(options_);
    constexpr bool host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
    int slot = 0;
    (add_auto_candidates(auto_kind<C>(), slot++, options_, host, candidates_), ...);
    keep_only(candidates_, options_.only);
    if (options_.tuning_file.empty())
      if (const char *env = std::getenv("UMESH_TUNING_FILE"))
        options_.tuning_file = env;
    if (!options_.tuning_file.empty()) { // hashing every index costs a pass: only for files
      const HostMaps host_maps = detail::host_maps(maps...);
      std::ostringstream fp;
      fp << std::hex << fingerprint(this->set_.size(), host_maps.maps);
      fingerprint_ = fp.str();
      table_ = read_tuning_file(options_.tuning_file);
    }
  }

  const Tag &options() const { return options_; }
  const std::vector<AutoCandidate> &candidates() const { return candidates_; }

  /// Name of the candidate `loop` runs under (an Error before its first call).
  const std::string &choice(const std::string &loop) const {
    return candidates_[decision(loop).winner].name;
  }
  /// Seconds `loop` spent tuning (0 when the decision came from the file).
  double tuning_seconds(const std::string &loop) const { return decision(loop).seconds; }
  bool from_tuning_file(const std::string &loop) const { return decision(loop).from_file; }

  /// Per loop: every candidate's median (or why it was not timed), the
  /// finalists' medians, the winner and its margin over the runner-up, the
  /// tuning time.
  std::string summary() const {
    std::ostringstream os;
    bool first = true;
    for (const auto &[loop, d] : decisions_) {
      os << (first ? "" : "\n") << "loop '" << loop << "': " << candidates_[d.winner].name;
      first = false;
      if (d.from_file)
        os << " (from tuning file " << options_.tuning_file << ")";
      else
        write_auto_decision(os, candidates_, d);
    }
    return os.str();
  }

  template <class Kernel, class... Args>
  void run(const Tag &, const std::string &name, const Kernel &kernel, const Args &...args) {
    const std::string sig = signature<Kernel, Args...>();
    auto it = decisions_.find(name);
    if (it == decisions_.end())
      it = decisions_.emplace(name, decide(name, sig, kernel, args...)).first;
    else if (it->second.signature != sig)
      fail("loop '", name,
           "' under exec::Auto ran before with another kernel or other "
           "argument types (a layout, a dat's components); a decision holds for one of "
           "them: give this loop its own name");
    run_candidate(candidates_[it->second.winner], name, kernel, args...);
  }

private:
  const AutoDecision &decision(const std::string &loop) const {
    auto it = decisions_.find(loop);
    if (it == decisions_.end())
      fail("exec::Auto plan: loop '", loop, "' has not run");
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
    return device_description<Space>() + "|" + Space::name() + "|" + clean + "|" + fingerprint_ +
           "|" + sig;
  }

  template <class Kernel, class... Args>
  void run_candidate(const AutoCandidate &c, const std::string &name, const Kernel &kernel,
                     const Args &...args) {
    run_slot(std::index_sequence_for<C...>{}, c, name, kernel, args...);
  }
  template <std::size_t... I, class Kernel, class... Args>
  void run_slot(std::index_sequence<I...>, const AutoCandidate &c, const std::string &name,
                const Kernel &kernel, const Args &...args) {
    ((c.slot == int(I) ? std::get<I>(slots_).run(c, name, kernel, args...) : void()), ...);
  }

  template <class Kernel, class... Args>
  AutoDecision decide(const std::string &name, const std::string &sig, const Kernel &kernel,
                      const Args &...args) {
    AutoDecision d;
    d.signature = sig;
    const std::string key = options_.tuning_file.empty() ? "" : tuning_key(name, sig);
    if (!key.empty()) {
      auto found = table_.find(key);
      if (found == table_.end()) { // another plan may have tuned it since this one was made
        table_ = read_tuning_file(options_.tuning_file);
        found = table_.find(key);
      }
      if (found != table_.end()) {
        for (std::size_t c = 0; c < candidates_.size(); ++c)
          if (candidates_[c].name == found->second)
            d.winner = int(c);
        if (d.winner < 0)
          fail("tuning file '", options_.tuning_file, "' chose '", found->second, "' for loop '",
               name,
               "', which is not a candidate of this plan: delete the line or the file "
               "to tune again");
        d.from_file = true;
        return d;
      }
    }
    const LoopSnapshot snapshot(args...);
    Kokkos::Timer total;
    // A candidate's first run may build its plan (blocks, warp links): a
    // one-time cost that pruning must not count against it.
    const std::function<void(std::size_t)> warm = [&](std::size_t c) {
      snapshot.restore();
      run_candidate(candidates_[c], name, kernel, args...);
    };
    const std::function<double(std::size_t)> timed = [&](std::size_t c) {
      snapshot.restore();
      Kokkos::fence();
      Kokkos::Timer t;
      run_candidate(candidates_[c], name, kernel, args...);
      Kokkos::fence();
      return t.seconds() * 1e3;
    };
    tune_candidates(candidates_, options_, name, d, warm, timed);
    snapshot.restore();
    d.seconds = total.seconds();
    if (!key.empty()) {
      // Merged into the file as it is now: plans sharing a file (one per
      // layout, say) must not drop each other's decisions.
      table_ = record_tuning_decision(options_.tuning_file, key, candidates_[d.winner].name);
    }
    return d;
  }

  Tag options_;
  std::tuple<AutoSlot<C, Space>...> slots_;
  std::vector<AutoCandidate> candidates_;
  std::map<std::string, AutoDecision> decisions_;
  TuningTable table_;
  std::string fingerprint_;
};

} // namespace detail

/// exec::AutoOf's plan: the tuner over its candidate executors (the
/// backend's defaults for exec::Auto).
template <class Space, class... C>
class Plan<exec::AutoOf<C...>, Space>
    : public detail::AutoPlan<exec::AutoOf<C...>,
                              typename detail::AutoCandidateList<exec::AutoOf<C...>, Space>::type,
                              Space> {
public:
  using detail::AutoPlan<exec::AutoOf<C...>,
                         typename detail::AutoCandidateList<exec::AutoOf<C...>, Space>::type,
                         Space>::AutoPlan;
};

/// The auto plan takes the tuner's options.
template <class Space, class... C, class... Maps>
Plan<exec::AutoOf<C...>, Space> make_plan(const Space &space, exec::AutoOf<C...> options,
                                          const Set &set, const Maps &...maps) {
  return Plan<exec::AutoOf<C...>, Space>(space, std::move(options), set, maps...);
}

} // namespace umesh

#endif
