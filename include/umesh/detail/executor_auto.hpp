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

// A candidate's plan options at block size `block` (those with a block size:
// exec::Auto tries each of its block sizes), or its defaults.
template <class Tag, class = void> struct has_block_size : std::false_type {};
template <class Tag>
struct has_block_size<Tag, std::void_t<decltype(std::declval<Tag &>().with_block_size(1))>>
    : std::true_type {};
template <class Tag> Tag plan_options_at(int block) {
  if constexpr (has_block_size<Tag>::value)
    return Tag{}.with_block_size(block);
  else
    return Tag{};
}

// A candidate's loop options (auto_candidates.cpp gives each variant its own).
template <class Tag> typename Tag::Loop loop_options_of(const AutoCandidate &, Tag) {
  return {};
}
template <unsigned K>
exec::HierarchicalLoop<K> loop_options_of(const AutoCandidate &c, exec::HierarchicalOf<K>) {
  return exec::HierarchicalLoop<K>(c.loop_options);
}
inline exec::SegmentedLoop loop_options_of(const AutoCandidate &c, exec::Segmented) {
  return exec::SegmentedLoop{}.with_scratch_atomics(c.scratch_atomics);
}
inline exec::WarpLoop loop_options_of(const AutoCandidate &c, exec::WarpCombine) {
  return exec::WarpLoop{}.with_max_registers(c.max_registers).with_compact_maps(c.compact_maps);
}

/// One candidate executor's plans (one per block size, built on first use)
/// and the loop options of its variants.
template <class Exec, class Space> class AutoSlot {
  // One plan serves every hierarchical kernel set (exec::plan_tag).
  using PlanTag = exec::plan_tag_t<Exec>;
  using PlanT = Plan<PlanTag, Space>;

public:
  template <class... Maps> AutoSlot(const Space &space, const Set &set, const Maps &...maps) {
    make_ = [=](int block) {
      return std::make_unique<PlanT>(
          make_plan(space, plan_options_at<PlanTag>(block), set, maps...));
    };
  }

  template <class Kernel, class... Args>
  void run(const AutoCandidate &c, const std::string &name, const Kernel &kernel,
           const Args &...args) {
    auto &plan = plans_[c.block_size];
    if (!plan)
      plan = make_(c.block_size);
    plan->run(loop_options_of(c, Exec{}), name, kernel, args...);
  }

private:
  std::function<std::unique_ptr<PlanT>(int)> make_;
  std::map<int, std::unique_ptr<PlanT>> plans_;
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
        slots_(AutoSlot<C, Space>(space, set, maps...)...),
        tuner_(options_, {auto_kind<C>()...}, candidates(options_),
               device_description<Space>() + "|" + Space::name(), [&] {
                 std::ostringstream fp;
                 fp << std::hex << fingerprint(this->set_.size(), host_maps(maps...).maps);
                 return fp.str();
               }) {}

  const Tag &options() const { return options_; }
  const std::vector<AutoCandidate> &candidates() const { return tuner_.candidates(); }

  /// Name of the candidate `loop` runs under (an Error before its first call).
  const std::string &choice(const std::string &loop) const {
    return candidates()[tuner_.decision(loop).winner].name;
  }
  /// Seconds `loop` spent tuning (0 when the decision came from the file).
  double tuning_seconds(const std::string &loop) const { return tuner_.decision(loop).seconds; }
  bool from_tuning_file(const std::string &loop) const { return tuner_.decision(loop).from_file; }

  /// Per loop: every candidate's median (or why it was not timed), the
  /// finalists' medians, the winner and its margin over the runner-up, the
  /// tuning time.
  std::string summary() const { return tuner_.summary(); }

  template <class Kernel, class... Args>
  void run(const exec::NoLoopOptions &, const std::string &name, const Kernel &kernel,
           const Args &...args) {
    // Outputs are saved only when the loop tunes (its first call).
    std::unique_ptr<LoopSnapshot> snapshot;
    auto save = [&] {
      if (!snapshot)
        snapshot = std::make_unique<LoopSnapshot>(args...);
      snapshot->restore();
    };
    const AutoCandidate &c = tuner_.choose(
        name, signature<Kernel, Args...>(),
        [&](std::size_t i) { // a first run may build a plan: not timed
          save();
          run_candidate(candidates()[i], name, kernel, args...);
        },
        [&](std::size_t i) {
          save();
          Kokkos::fence();
          Kokkos::Timer t;
          run_candidate(candidates()[i], name, kernel, args...);
          Kokkos::fence();
          return t.seconds() * 1e3;
        },
        [&] {
          if (snapshot)
            snapshot->restore();
        });
    run_candidate(c, name, kernel, args...);
  }

private:
  static std::vector<AutoCandidate> candidates(const exec::AutoOptions &o) {
    check_auto_options(o);
    constexpr exec::Concurrency c = exec::concurrency_of<Space>();
    std::vector<AutoCandidate> out;
    int slot = 0;
    (add_auto_candidates(auto_kind<C>(), slot++, o, c, hierarchical_kernels<C>(), out), ...);
    check_reproducible_left(o, out, {auto_kind<C>()...}, c);
    return out;
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

  Tag options_;
  std::tuple<AutoSlot<C, Space>...> slots_;
  AutoTuner tuner_;
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
