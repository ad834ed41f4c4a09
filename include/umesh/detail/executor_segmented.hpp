#ifndef UMESH_DETAIL_EXECUTOR_SEGMENTED_HPP
#define UMESH_DETAIL_EXECUTOR_SEGMENTED_HPP

// exec::Segmented: a team per block of consecutive elements folds its
// increments into team scratch over the runs of points (segments) it
// reaches, then adds each staged point to global memory once. The plan
// (segment_table.hpp) is a few integers per block; a thread finds its
// point's place in scratch from the point id it already holds.

#include <umesh/detail/segment_table.hpp>
#include <umesh/detail/segmented_kernel.hpp>
#include <umesh/detail/team_launch.hpp>
#include <umesh/plan.hpp>
#include <umesh/timing.hpp>

#include <Kokkos_Core.hpp>

#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace umesh {

template <class Space> class Plan<exec::Segmented, Space> : public detail::PlanBase<Space> {
public:
  using memory_space = typename Space::memory_space;
  using exec_type = exec::Segmented;

  /// Device arrays of one map's segment table (its sizes stay in the host
  /// table, host_table()).
  struct DeviceTable {
    Kokkos::View<int *, memory_space> first, offset;
  };

  template <class... Maps>
  Plan(const Space &space, exec::Segmented options, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, std::move(set), maps...), options_(options) {
    if (options.block_size < 1 || options.block_size > 1024)
      detail::fail("segmented plan for set '", this->set_.name(), "': block size ",
                   options.block_size, " is not in [1, 1024]");
    if (options.max_segments < 1 || options.max_segments > 64)
      detail::fail("segmented plan for set '", this->set_.name(), "': max_segments ",
                   options.max_segments, " is not in [1, 64]");
    Kokkos::Timer timer;
    const detail::HostMaps host = detail::host_maps(maps...);
    const int n = this->set_.size();
    detail::PhaseClock clock("segmented plan", n >= detail::progress_threshold, phases_);
    for (std::size_t m = 0; m < host.maps.size(); ++m) {
      if (!host.maps[m].written)
        continue;
      clock.start("segments of map '" + this->names_[tables_.size()] + "'");
      detail::SegmentTable t = detail::build_segment_table(n, host.maps[m].conn, options.block_size,
                                                           options.max_segments);
      const std::string label = "umesh::Segmented::" + this->names_[tables_.size()];
      tables_.push_back({detail::upload<memory_space>(t.first, label + "::first"),
                         detail::upload<memory_space>(t.offset, label + "::offset")});
      t.first.clear();
      t.offset.clear();
      host_.push_back(std::move(t));
    }
    clock.stop();
    Kokkos::fence();
    this->build_seconds_ = timer.seconds();
  }

  const exec::Segmented &options() const { return options_; }
  int num_blocks() const {
    return (this->set_.size() + options_.block_size - 1) / options_.block_size;
  }
  const DeviceTable &table(int m) const { return tables_[m]; }
  /// Sizes and metrics of map m's table (its arrays are on the device).
  const SegmentTable &host_table(int m) const { return host_[m]; }

  /// Per map: runs kept per block (mean), the most runs a block's points
  /// form, the largest staged point count and the share of references that
  /// fold in scratch.
  std::string summary() const {
    std::ostringstream os;
    os << num_blocks() << " blocks of " << options_.block_size << ", up to "
       << options_.max_segments << " segments";
    for (std::size_t m = 0; m < host_.size(); ++m) {
      const auto &t = host_[m];
      os.precision(3);
      os << "; map '" << this->names_[m]
         << "': " << (t.num_blocks ? double(t.segments) / t.num_blocks : 0.0)
         << " segments/block (runs max " << t.max_runs << "), up to " << t.max_points
         << " points, up to " << t.max_refs << " references per point, "
         << (t.references ? 100.0 * double(t.staged_references) / double(t.references) : 100.0)
         << "% of references staged";
    }
    scratch_.describe(os);
    return os.str();
  }
  /// Scratch bytes per block of the last run of `loop` (0 if never run).
  int scratch_bytes(const std::string &loop) const { return scratch_.of(loop); }
  const PhaseTimes &phases() const { return phases_; }

  /// Runs a loop; block size and segments are the plan's (the tag's are
  /// plan options, as with exec::Hierarchical), scratch_atomics the loop's.
  template <class Kernel, class... Args>
  void run(const exec::SegmentedLoop &loop_options, const std::string &name, const Kernel &kernel,
           const Args &...args) {
    // Host backends run one thread per team: they fold in place either way.
    constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    if (host || !loop_options.scratch_atomics)
      run_as<true>(name, kernel, args...);
    else
      run_as<false>(name, kernel, args...);
  }

private:
  template <bool Entries, class Kernel, class... Args>
  void run_as(const std::string &name, const Kernel &kernel, const Args &...args) {
    detail::SegmentedBinding<Plan, Entries> policy{*this, name, 0, {}, false};
    (void)std::initializer_list<int>{(detail::to_device<Space>(policy, args), 0)...};
    policy.lay_out();
    detail::run_loop<Space>(
        policy, kernel,
        [&](const auto &body, auto &total) { launch(name, body, policy.scratch, total); }, args...);
    scratch_.bytes[name] = policy.scratch;
  }

  template <class Body>
  void launch(const std::string &name, const Body &body, int scratch,
              typename Body::reduce_value &total) {
    const int n = this->set_.size();
    if (n == 0)
      return;
    detail::check_team_scratch<Space>(name, "segmented", scratch,
                                      "block size " + std::to_string(options_.block_size),
                                      "use a smaller block size or fewer segments");
    constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    // GPU: one thread per element, whole warps; host: one thread per team.
    const int team_size = host ? 1 : (options_.block_size + 31) / 32 * 32;
    const detail::SegmentedFunctor<Body, Space> f{{body}, n, options_.block_size, scratch};
    detail::launch_teams(this->space_, name, "segmented", f, num_blocks(), team_size,
                         options_.block_size, scratch, body, total);
  }

  exec::Segmented options_;
  std::vector<DeviceTable> tables_;
  std::vector<detail::SegmentTable> host_; // sizes and metrics (arrays on the device)
  PhaseTimes phases_;
  detail::LoopScratch scratch_;
};

/// The segmented plan takes the executor's options.
template <class Space, class... Maps>
Plan<exec::Segmented, Space> make_plan(const Space &space, exec::Segmented options, const Set &set,
                                       const Maps &...maps) {
  return Plan<exec::Segmented, Space>(space, options, set, maps...);
}

} // namespace umesh

#endif
