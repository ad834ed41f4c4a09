#ifndef UMESH_DETAIL_EXECUTOR_HIERARCHICAL_HPP
#define UMESH_DETAIL_EXECUTOR_HIERARCHICAL_HPP

// Hierarchical colouring with team-scratch caching: the plan (built on the
// host, kept on the device) and its launches; the team kernel is in
// hierarchical_kernel.hpp.

#include <umesh/block_plan.hpp>
#include <umesh/detail/bind.hpp>
#include <umesh/detail/hierarchical_binding.hpp>
#include <umesh/detail/hierarchical_builder.hpp>
#include <umesh/detail/hierarchical_checks.hpp>
#include <umesh/detail/hierarchical_kernel.hpp>
#include <umesh/detail/loop_body.hpp>
#include <umesh/detail/team_launch.hpp>
#include <umesh/plan.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace umesh {

template <class Space> class Plan<exec::Hierarchical, Space> : public detail::PlanBase<Space> {
public:
  using memory_space = typename Space::memory_space;
  using IntView = Kokkos::View<int *, memory_space>;

  template <class... Maps>
  Plan(const Space &space, exec::Hierarchical options, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, std::move(set), maps...), options_(options) {
    Kokkos::Timer timer;
    const detail::HostMaps host = detail::host_maps(maps...);
    staged_keys_ = host.keys;
    const int n = this->set_.size();
    detail::HierarchicalHostPlan built =
        detail::build_hierarchical_plan(this->set_.name(), n, host.maps, options);
    // GPUs: each thread's colour as a byte per element (BlockPlanDev::element_colour).
    constexpr bool on_host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    const std::vector<std::uint8_t> colour =
        on_host ? std::vector<std::uint8_t>() : detail::element_colours(built);
    host_ = std::move(built.plan);
    file_note_ = built.file_note;
    blocks_are_ranges_ = built.blocks_are_ranges;
    {
      detail::PhaseClock clock("hierarchical plan", n >= detail::progress_threshold, host_.phases);
      clock.start("device upload");
      auto upload = [](const std::vector<int> &v, const char *label) {
        return detail::upload<memory_space>(v, std::string("umesh::Hierarchical::") + label);
      };
      block_order_ = upload(host_.block_order, "block_order");
      block_start_ = upload(host_.block_start, "block_start");
      if (!built.in_block_order)
        elem_ = upload(host_.elem, "elem");
      if (!colour.empty())
        element_colour_ =
            detail::upload<memory_space>(colour, "umesh::Hierarchical::element_colour");
      thread_colour_offsets_ = upload(host_.thread_colour_offsets, "thread_colour_offsets");
      colour_start_ = upload(host_.colour_start, "colour_start");
      for (const auto &st : host_.staged)
        staged_.push_back({upload(st.point_offsets, "point_offsets"), upload(st.points, "points"),
                           upload(st.owned, "owned"), upload_local(st), st.arity, st.max_points});
      Kokkos::fence();
    }
    detail::drop_staged_lists(host_); // on the device now; the metrics stay
    this->build_seconds_ = timer.seconds();
    if (!built.loaded)
      host_.build_seconds = this->build_seconds_;
  }

  /// Whether elements run in their own order (no element indirection).
  bool elements_in_block_order() const { return elem_.size() == 0; }

  const exec::Hierarchical &options() const { return options_; }
  /// The host plan: block layout and metrics (point lists and local maps
  /// are on the device only).
  const BlockPlan &blocks() const { return host_; }
  int num_block_colours() const { return host_.num_block_colours(); }

  /// Metrics, plus the scratch and staging each loop ran with.
  std::string summary() const { return detail::hierarchical_summary(host_, file_note_, loops_); }
  /// Scratch bytes per block of the last run of `loop` (0 if never run).
  int scratch_bytes(const std::string &loop) const {
    auto it = loops_.find(loop);
    return it == loops_.end() ? 0 : it->second.scratch;
  }
  /// Staging the last run of `loop` used (differs from the one asked for
  /// only after an allowed fallback).
  exec::Staging staging_used(const std::string &loop) const {
    auto it = loops_.find(loop);
    if (it == loops_.end())
      detail::fail("hierarchical plan: loop '", loop, "' has not run");
    return it->second.used;
  }

  /// Runs a loop with the staging and fallback of `loop_options` (the block
  /// size is the plan's), compiling the kernels its type names (K). Arguments
  /// are bound once per staging tried; only a loop that does not fit binds
  /// again, with less staging.
  template <unsigned K, class Kernel, class... Args>
  void run(const exec::HierarchicalLoop<K> &loop_options, const std::string &name,
           const Kernel &kernel, const Args &...args) {
    using exec::Staging;
    detail::check_loop_options(name, loop_options, options_.block_size);
    detail::check_kernels(name, loop_options, K, backend_kernels);
    LoopRecord r{
        loop_options.staging, loop_options.staging,  0, 0, detail::team_scratch_budget<Space>(),
        loop_options.combine, loop_options.writeback};
    Ran ran = run_as(loop_options, r.budget, name, kernel, args...);
    r.need = r.scratch = ran.scratch;
    if (r.need > r.budget) {
      // 'reads' falls back to no staging: staged increments would change how
      // the loop combines, not just where it reads.
      const int need_inc =
          has_staged<K> ? scratch_for<Staging::increments>(name, loop_options, args...) : 0;
      const bool inc_fits = loop_options.staging != Staging::reads && need_inc <= r.budget;
      if (!loop_options.fallback) {
        const int fit =
            std::max(32, int(double(options_.block_size) * r.budget / r.need) / 32 * 32);
        detail::fail("loop '", name, "' under the hierarchical executor needs ", r.need,
                     " bytes of team scratch per block (block size ", options_.block_size,
                     ", staging '", exec::staging_name(r.asked), "'), but the backend grants ",
                     r.budget, " per team. Options that fit: ",
                     inc_fits ? "staging 'inc' (needs " + std::to_string(need_inc) + " bytes), "
                              : std::string(),
                     "staging 'none' (no scratch), a block size of about ", fit,
                     " or less, or the loop option with_fallback() to fall back automatically");
      }
      r.used = inc_fits ? Staging::increments : Staging::none;
      // Without staging, increments go to global memory colour by colour:
      // no scratch to combine in, so the colourings take over.
      exec::HierarchicalLoop<K> used = loop_options;
      used.with_staging(r.used);
      if (r.used == Staging::none)
        used.with_combine(exec::Combine::colours).with_writeback(exec::Writeback::coloured);
      r.combine = used.combine;
      r.writeback = used.writeback;
      ran = run_as(used, r.budget, name, kernel, args...);
      r.scratch = ran.scratch;
    }
    r.launched = ran.launched;
    loops_[name] = r;
  }

  // Binding of indirect arguments for one loop under staging S.
  template <exec::Staging S> using Policy = detail::HierarchicalBinding<Plan, S>;
  template <class, exec::Staging> friend struct detail::HierarchicalBinding;

private:
  using Kernels = exec::HierarchicalKernels;
  // Register budgets are launch bounds of CUDA's kernels; other backends run
  // one kernel whatever max_registers says.
#ifdef KOKKOS_ENABLE_CUDA
  static constexpr bool cuda = std::is_same<Space, Kokkos::Cuda>::value;
#else
  static constexpr bool cuda = false;
#endif

public:
  /// The GPU-only kernels this backend runs when the options ask for them
  /// (exec::kernels_missing's `backend_kernels`): pipelines on GPUs,
  /// register budgets on CUDA; host backends run one kernel per staging.
  static constexpr unsigned backend_kernels =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible
          ? 0u
          : Kernels::pipelined | (cuda ? unsigned(Kernels::registers) : 0u);

private:
  template <unsigned K>
  static constexpr bool has_staged = (K & (Kernels::staged | Kernels::gather)) != 0;
  using Launched = detail::HierarchicalLaunch;
  using LoopRecord = detail::HierarchicalLoop;
  // A binding's scratch bytes per block, and its launch if the scratch fit.
  struct Ran {
    int scratch = 0;
    Launched launched;
  };

  // Scratch bytes per block a loop needs under staging S (binding only).
  template <exec::Staging S, class... Args>
  int scratch_for(const std::string &name, const exec::HierarchicalLoopOptions &loop_options,
                  const Args &...args) {
    Policy<S> policy(*this, name, loop_options, 0, false);
    (void)std::initializer_list<int>{(detail::to_device<Space>(policy, args), 0)...};
    return policy.scratch;
  }

  // Binds under `staging` and launches if the scratch fits `budget`. Only
  // the stagings of kernels K are instantiated (run checked the loop needs
  // no other).
  template <unsigned K, class Kernel, class... Args>
  Ran run_as(const exec::HierarchicalLoop<K> &loop_options, int budget, const std::string &name,
             const Kernel &kernel, const Args &...args) {
    switch (loop_options.staging) {
    case exec::Staging::all:
      if constexpr (has_staged<K>)
        return run_as<K, exec::Staging::all>(loop_options, budget, name, kernel, args...);
      break;
    case exec::Staging::increments:
      if constexpr (has_staged<K>)
        return run_as<K, exec::Staging::increments>(loop_options, budget, name, kernel, args...);
      break;
    case exec::Staging::reads:
      if constexpr ((K & Kernels::reads) != 0)
        return run_as<K, exec::Staging::reads>(loop_options, budget, name, kernel, args...);
      break;
    case exec::Staging::none:
      if constexpr ((K & Kernels::unstaged) != 0)
        return run_as<K, exec::Staging::none>(loop_options, budget, name, kernel, args...);
      break;
    }
    detail::fail("loop '", name, "' under the hierarchical executor: staging '",
                 exec::staging_name(loop_options.staging), "' is not compiled (kernels ",
                 exec::kernel_names(K), ")");
  }
  template <unsigned K, exec::Staging S, class Kernel, class... Args>
  Ran run_as(const exec::HierarchicalLoop<K> &loop_options, int budget, const std::string &name,
             const Kernel &kernel, const Args &...args) {
    constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    // Several blocks per team: pipelined on GPUs where blocks are element
    // ranges and three slots fit the budget, for staging 'reads' and for
    // staged increments combined by scratch atomics in one launch.
    constexpr auto pipe = S == exec::Staging::reads  ? detail::PipeKind::reads
                          : S == exec::Staging::none ? detail::PipeKind::none
                                                     : detail::PipeKind::combines;
    exec::HierarchicalLoopOptions as_run = loop_options;
    as_run.staging = S; // after any fallback
    bool pipelined = pipe != detail::PipeKind::none && !host && (K & Kernels::pipelined) != 0 &&
                     loop_options.blocks_per_team > 1 && blocks_are_ranges_ &&
                     exec::pipelinable(as_run);
    if (pipelined) {
      build_padded_lists();
      Policy<S> probe(*this, name, loop_options, detail::pipe_facts_bytes, true);
      (void)std::initializer_list<int>{(detail::to_device<Space>(probe, args), 0)...};
      pipelined = 3 * ((probe.scratch + 15) / 16 * 16) + probe.team_scratch <= budget;
    }
    Policy<S> policy(*this, name, loop_options, pipelined ? detail::pipe_facts_bytes : 0,
                     pipelined);
    policy.note_uses(args...);
    Ran ran;
    detail::run_loop<Space>(
        policy, kernel,
        [&](const auto &body, auto &total) {
          if (policy.scratch <= budget) {
            ran.launched = launch<K, pipe>(loop_options, name, body, policy.scratch,
                                           policy.team_scratch, total, pipelined);
            ran.launched.preloaded = policy.preloaded;
          }
        },
        args...);
    ran.scratch =
        pipelined ? 3 * ((policy.scratch + 15) / 16 * 16) + policy.team_scratch : policy.scratch;
    return ran;
  }

  template <unsigned K, detail::PipeKind Pipe, class Body>
  Launched launch(const exec::HierarchicalLoopOptions &loop_options, const std::string &name,
                  const Body &body, int scratch, int team_scratch,
                  typename Body::reduce_value &total, bool pipelined) {
    // Atomic writeback: every block in one launch. Staging 'none' (no
    // scratch to combine in) always takes both colourings; 'reads' (global
    // atomics) neither.
    const bool reads_only = loop_options.staging == exec::Staging::reads;
    const bool one_launch = reads_only || (loop_options.writeback == exec::Writeback::atomic &&
                                           loop_options.staging != exec::Staging::none);
    const bool colour_rounds = !reads_only && (loop_options.combine == exec::Combine::colours ||
                                               loop_options.staging == exec::Staging::none);
    // (Gather needs no thread colours: each element writes only its own entries.)
    constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    const detail::BlockPlanDev dev{block_order_.data(),   block_start_.data(),
                                   elem_.data(),          thread_colour_offsets_.data(),
                                   colour_start_.data(),  blocks_are_ranges_,
                                   element_colour_.data()};
    // GPU: one thread per element of the largest block, whole warps, or the
    // loop's team size (run checked it is smaller). Host backends: one
    // thread per team, blocks spread over the threads.
    const int team_size = host                         ? 1
                          : loop_options.team_size > 0 ? loop_options.team_size
                                                       : (options_.block_size + 31) / 32 * 32;
    Launched launched;
    launched.team_size = host ? 0 : loop_options.team_size;
    const std::vector<int> all_blocks{0, host_.num_blocks()};
    const auto &offsets = one_launch ? all_blocks : host_.block_colour_offsets;
    // Several blocks per team (three slots, run_as decided): each slot
    // aligned for 16-byte copies.
    const int aligned = (scratch + 15) / 16 * 16;
    launched.blocks_per_team = pipelined ? loop_options.blocks_per_team : 1;
    for (std::size_t c = 0; c + 1 < offsets.size(); ++c) {
      if (offsets[c + 1] == offsets[c])
        continue;
      const int blocks = offsets[c + 1] - offsets[c];
      const int league =
          pipelined ? (blocks + loop_options.blocks_per_team - 1) / loop_options.blocks_per_team
                    : blocks;
      // `bounds`: a Kokkos::LaunchBounds (the register budget). launch_teams
      // sends the functor as a kernel argument where it can: Kokkos 3 copies
      // functors over 512 bytes to constant memory after waiting for the
      // previous such launch, a host round trip between block colours.
      const auto run = [&](auto f, auto bounds) {
        f.blocks_per_team = pipelined ? loop_options.blocks_per_team : 1;
        f.num_blocks = blocks;
        f.team_bytes = pipelined ? team_scratch : 0;
        detail::launch_teams<Space, decltype(bounds)>(
            this->space_, name, "hierarchical", f, league, team_size, options_.block_size,
            pipelined ? 3 * aligned + team_scratch : scratch, body, total);
      };
      const Kokkos::LaunchBounds<> unbounded;
      const int order_begin = one_launch ? -1 : offsets[c];
      const bool thread_per_element = team_size >= options_.block_size;
      // Gather, pipelined or not, is a kernel of its own (ModeCtx).
      // Each kernel only where K compiles it (run checked the loop needs
      // none other; `pipelined` is false on host backends).
      constexpr bool gather = (K & Kernels::gather) != 0;
      constexpr bool pipelines = !host && (K & Kernels::pipelined) != 0;
      if constexpr (Pipe == detail::PipeKind::combines && gather) {
        if (loop_options.combine == exec::Combine::gather) {
          if constexpr (pipelines) {
            if (pipelined) {
              run(
                  detail::HierarchicalFunctor<Body, Space, Pipe, true>{
                      {body}, dev, order_begin, aligned, thread_per_element, colour_rounds},
                  unbounded);
              continue;
            }
          }
          run(
              detail::HierarchicalFunctor<Body, Space, detail::PipeKind::none, true>{
                  {body}, dev, order_begin, scratch, thread_per_element, colour_rounds},
              unbounded);
          continue;
        }
      }
      if constexpr (Pipe != detail::PipeKind::none && pipelines) {
        if (pipelined) {
          run(
              detail::HierarchicalFunctor<Body, Space, Pipe>{
                  {body}, dev, order_begin, aligned, thread_per_element, colour_rounds},
              unbounded);
          continue;
        }
      }
      // The one-block kernel: staged (not gather), reads or unstaged, as K
      // compiles it for staging S.
      constexpr unsigned one_block_kernel = Pipe == detail::PipeKind::reads  ? Kernels::reads
                                            : Pipe == detail::PipeKind::none ? Kernels::unstaged
                                                                             : Kernels::staged;
      if constexpr ((K & one_block_kernel) != 0) {
        const detail::HierarchicalFunctor<Body, Space> one_block{
            {body}, dev, order_begin, scratch, thread_per_element, colour_rounds};
        // A register budget is a launch bound: 65536 registers an SM over
        // (threads x blocks); <640, 2> caps a thread at 48. CUDA only.
        if constexpr (cuda && (K & Kernels::registers) != 0) {
          if (loop_options.max_registers == 48) {
            launched.max_registers = 48;
            run(one_block, Kokkos::LaunchBounds<640, 2>{});
            continue;
          }
        }
        run(one_block, unbounded);
      }
    }
    return launched;
  }

  exec::Hierarchical options_;
  std::string file_note_;
  BlockPlan host_;
  IntView block_order_, block_start_, elem_, thread_colour_offsets_, colour_start_;
  bool blocks_are_ranges_ = false;
  Kokkos::View<std::uint8_t *, memory_space> element_colour_; // see BlockPlanDev
  struct StagedDev {
    IntView point_offsets, points, owned;
    Kokkos::View<detail::LocalIndex *, memory_space> local;
    int arity, max_points;
  };

  Kokkos::View<detail::LocalIndex *, memory_space> upload_local(const BlockPlan::Staged &st) const {
    const std::vector<detail::LocalIndex> narrow =
        detail::narrow_local_map(host_, st, this->set_.name(), options_.block_size);
    Kokkos::View<detail::LocalIndex *, memory_space> d(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Hierarchical::local"),
        narrow.size());
    Kokkos::deep_copy(
        d, Kokkos::View<const detail::LocalIndex *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
               narrow.data(), narrow.size()));
    return d;
  }
  std::vector<StagedDev> staged_;
  // Per staged map, for pipelined staging (hierarchical_pipeline.hpp);
  // built on first use.
  std::vector<detail::PaddedLists<memory_space>> padded_;
  void build_padded_lists() {
    if (!padded_.empty() || !blocks_are_ranges_)
      return;
    for (const auto &st : staged_)
      padded_.push_back(detail::pad_block_lists(this->space_, host_.num_blocks(), block_start_,
                                                st.point_offsets, st.points, st.local,
                                                st.max_points, st.arity, options_.block_size));
    this->space_.fence();
  }
  // Per staged map, for Combine::gather (inverse_lists.hpp); built on first use.
  std::vector<detail::InverseLists<memory_space>> inverse_;
  const detail::InverseLists<memory_space> &inverse_lists(int m) {
    if (inverse_.empty()) {
      for (const auto &st : staged_)
        inverse_.push_back(detail::build_inverse_lists(
            this->space_, host_.num_blocks(), block_start_, elem_.data(), blocks_are_ranges_,
            st.point_offsets, st.local, st.max_points, st.arity, options_.block_size));
      this->space_.fence();
    }
    return inverse_[m];
  }
  std::vector<const void *> staged_keys_;
  std::map<std::string, LoopRecord> loops_;
};

/// The hierarchical plan takes the executor's plan options (any kernel set:
/// the plan serves loops under them all).
template <class Space, unsigned K, class... Maps>
Plan<exec::Hierarchical, Space> make_plan(const Space &space, exec::HierarchicalOf<K> options,
                                          const Set &set, const Maps &...maps) {
  return Plan<exec::Hierarchical, Space>(space, options, set, maps...);
}

} // namespace umesh

#endif
