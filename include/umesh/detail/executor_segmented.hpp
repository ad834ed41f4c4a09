#ifndef UMESH_DETAIL_EXECUTOR_SEGMENTED_HPP
#define UMESH_DETAIL_EXECUTOR_SEGMENTED_HPP

// exec::Segmented: a team per block of consecutive elements folds its
// increments into team scratch over the runs of points (segments) it
// reaches, then adds each staged point to global memory once. The plan
// (segment_table.hpp) is a few integers per block; a thread finds its
// point's place in scratch from the point id it already holds.

#include <umesh/detail/bind.hpp>
#include <umesh/detail/hierarchical_checks.hpp> // check_team_size
#include <umesh/detail/loop_body.hpp>
#include <umesh/detail/scratch.hpp>
#include <umesh/detail/segment_table.hpp>
#include <umesh/plan.hpp>
#include <umesh/timing.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace umesh {
namespace detail {

// A group's block facts in scratch, before its counts: first[S], offset[S + 1].
KOKKOS_INLINE_FUNCTION constexpr int segment_header_bytes(int segments) {
  return ((2 * segments + 1) * int(sizeof(int)) + 15) / 16 * 16;
}

// An indirect inc/min/max under exec::Segmented, in one of two forms.
// Entries (default): each staged point of the block has `refs` entries in
// scratch (the most references any point gets from one block); a reference
// takes the next with one integer shared-memory atomic and stores its values
// plainly, and after the block each point folds its entries. Scratch atomics
// (Segmented::scratch_atomics): one value per point, folded into with
// atomics (compare-and-swap loops for FP64 on NVIDIA GPUs), `refs` times
// less scratch. Either way each point then goes to global memory once,
// atomically. The first argument of its (dat, map) group (`owner`) loads
// the block's segments, clears the buffer and writes back.
template <Access A, class T, int Dim, class Layout, bool Entries>
struct SegmentedCombineDev : BufferedCombine<A, T, Dim> {
  DatPtr<T, Dim, Layout> dat;
  const int *map;
  int arity, slot;
  const int *first, *offset; // the map's segment table
  int segments;              // per block
  int counts;                // byte offset of the group's counts (its header just before)
  int values;                // byte offset of its values, [Dim][refs][stride]
  int refs;                  // entries per point (1 under scratch atomics)
  int stride;                // points of the largest block
  bool owner;
  bool one_thread; // host backends, one thread per team: fold in place, no atomics

  KOKKOS_INLINE_FUNCTION const int *header(char *scratch) const {
    return scratch_at<const int>(scratch, counts - segment_header_bytes(segments));
  }
  // The point's place in the block's buffer, or -1 outside its runs. Runs
  // are ascending and disjoint: the first that ends past p is the only one
  // that may hold it (unused runs are empty and end at 0).
  KOKKOS_INLINE_FUNCTION int local_index(const int *h, int p) const {
    for (int r = 0; r < segments; ++r) {
      const int d = p - h[r], length = h[segments + r + 1] - h[segments + r];
      if (d < length)
        return d >= 0 ? h[segments + r] + d : -1;
    }
    return -1;
  }
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void finish(const Ctx &ctx, CombineBuffer<A, T, Dim> &buf) const {
    const int p = map[std::size_t(ctx.e) * arity + slot];
    const int local = local_index(header(ctx.scratch), p);
    if (local < 0) {
      T *g = dat.at(p);
      const int gs = dat.stride()();
      for (int k = 0; k < Dim; ++k)
        Combine<A>::atomic_global(g + k * gs, buf.v[k]);
      return;
    }
    T *s = scratch_at<T>(ctx.scratch, values) + local;
    if constexpr (Entries) {
      int *c = scratch_at<int>(ctx.scratch, counts) + local;
      if (one_thread && *c > 0) {
        for (int k = 0; k < Dim; ++k)
          s[k * refs * stride] = Combine<A>::apply(s[k * refs * stride], buf.v[k]);
        return;
      }
      const int q = one_thread ? (*c)++ : scratch_fetch_add(c, 1);
      for (int k = 0; k < Dim; ++k)
        s[(k * refs + q) * stride] = buf.v[k];
    } else {
      for (int k = 0; k < Dim; ++k)
        Combine<A>::atomic(s + k * stride, buf.v[k]);
    }
  }
};

template <class Dev, class Team>
KOKKOS_INLINE_FUNCTION void segmented_stage(const Dev &, const Team &, int, char *) {}
template <class Dev, class Team>
KOKKOS_INLINE_FUNCTION void segmented_writeback(const Dev &, const Team &, char *) {}

template <Access A, class T, int Dim, class Layout, bool Entries, class Team>
KOKKOS_INLINE_FUNCTION void
segmented_stage(const SegmentedCombineDev<A, T, Dim, Layout, Entries> &d, const Team &team, int b,
                char *scratch) {
  if (!d.owner)
    return;
  const int S = d.segments;
  int *h = scratch_at<int>(scratch, d.counts - segment_header_bytes(S));
  const int *first = d.first + std::size_t(b) * S, *offset = d.offset + std::size_t(b) * (S + 1);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 2 * S + 1),
                       [&](int j) { h[j] = j < S ? first[j] : offset[j - S]; });
  if constexpr (Entries) {
    int *c = scratch_at<int>(scratch, d.counts);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, offset[S]), [&](int j) { c[j] = 0; });
  } else {
    T *v = scratch_at<T>(scratch, d.values);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, offset[S]), [&](int j) {
      for (int k = 0; k < Dim; ++k)
        v[k * d.stride + j] = Combine<A>::template identity<T>();
    });
  }
}

template <Access A, class T, int Dim, class Layout, bool Entries, class Team>
KOKKOS_INLINE_FUNCTION void
segmented_writeback(const SegmentedCombineDev<A, T, Dim, Layout, Entries> &d, const Team &team,
                    char *scratch) {
  if (!d.owner)
    return;
  const int S = d.segments;
  const int *h = d.header(scratch);
  const int *c = scratch_at<const int>(scratch, d.counts);
  const T *s = scratch_at<const T>(scratch, d.values);
  const int gs = d.dat.stride()(), ks = d.refs * d.stride;
  // Consecutive threads take consecutive points of a run: coalesced.
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, h[2 * S]), [&](int j) {
    T v[Dim];
    bool any = false; // a point no reference of this group reached is left alone
    if constexpr (Entries) {
      const int n = c[j];
      any = n > 0;
      for (int k = 0; k < Dim; ++k)
        v[k] = s[k * ks + j];
      for (int q = 1; q < n; ++q)
        for (int k = 0; k < Dim; ++k)
          v[k] = Combine<A>::apply(v[k], s[k * ks + q * d.stride + j]);
    } else {
      // (Under inc a sum of exactly zero is not added either.)
      for (int k = 0; k < Dim; ++k) {
        v[k] = s[k * d.stride + j];
        any = any || v[k] != Combine<A>::template identity<T>();
      }
    }
    if (!any)
      return;
    int r = 0;
    while (r + 1 < S && h[S + r + 1] <= j)
      ++r;
    T *g = d.dat.at(h[r] + (j - h[S + r]));
    for (int k = 0; k < Dim; ++k)
      Combine<A>::atomic_global(g + k * gs, v[k]);
  });
}

template <class Body, class Space> struct SegmentedFunctor : ReduceHooks<Body> {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using value_type = typename Body::reduce_value;
  using ReduceHooks<Body>::body;
  int n, block_size, scratch_bytes;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type &team) const {
    value_type unused;
    run(team, unused);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const member_type &team, value_type &red) const {
    run(team, red);
  }
  KOKKOS_INLINE_FUNCTION void run(const member_type &team, value_type &red) const {
    const int b = team.league_rank();
    char *scratch = static_cast<char *>(team.team_scratch(0).get_shmem(scratch_bytes));
    body.for_each([&](const auto &dev) { segmented_stage(dev, team, b, scratch); });
    team.team_barrier();
    const int begin = b * block_size, end = begin + block_size < n ? begin + block_size : n;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, begin, end), [&](int e) {
      typename Body::storage st{};
      const TeamCtx ctx{e, e, b, scratch, e - begin, scratch};
      body.compute(ctx, st, red);
      body.finish(ctx, st);
    });
    team.team_barrier();
    body.for_each([&](const auto &dev) { segmented_writeback(dev, team, scratch); });
  }
};

// Binding of one loop: indirect combines get scratch per (dat, map) group;
// everything else binds as for the atomic executor. Two passes: the first
// (before lay_out) only collects the groups and their slots, which fix
// each group's entries per point; the second binds.
template <class PlanT, bool Entries> struct SegmentedBinding {
  PlanT &plan;
  const std::string &loop;
  int scratch = 0;
  struct Group {
    const void *dat, *map;
    int table, value_bytes;
    std::vector<int> slots;
    int counts = 0, values = 0, refs = 0;
    bool bound = false;
  };
  std::vector<Group> groups;
  bool laid_out = false;
  static constexpr bool one_thread =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename PlanT::memory_space>::accessible;

  template <Access A, class T, int D, class L, class M, class MM>
  auto combine(const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) {
    const int m = plan.map_index(a.map, loop);
    const auto &table = plan.table(m);
    SegmentedCombineDev<A, T, D, L, Entries> dev{{},
                                                 dat_ptr(a.dat),
                                                 a.map.view().data(),
                                                 a.map.arity(),
                                                 a.slot,
                                                 table.first.data(),
                                                 table.offset.data(),
                                                 table.segments,
                                                 0,
                                                 0,
                                                 0,
                                                 table.max_points,
                                                 false,
                                                 one_thread};
    Group *g = nullptr;
    for (auto &x : groups)
      if (x.dat == a.dat.view().data() && x.map == a.map.view().data())
        g = &x;
    if (!laid_out) {
      if (!g) {
        groups.push_back({a.dat.view().data(), a.map.view().data(), m, int(D * sizeof(T)), {}});
        g = &groups.back();
      }
      g->slots.push_back(a.slot);
      return dev;
    }
    dev.counts = g->counts;
    dev.values = g->values;
    dev.refs = g->refs;
    dev.owner = !g->bound;
    g->bound = true;
    return dev;
  }

  // Entries per point: the most references a point gets through the
  // group's slots (a slot named twice counts twice); one where a team is
  // one thread.
  void lay_out() {
    for (auto &g : groups) {
      const auto &t = plan.table(g.table);
      std::vector<int> slots = g.slots;
      std::sort(slots.begin(), slots.end());
      const bool distinct = std::unique(slots.begin(), slots.end()) == slots.end();
      int sum = 0;
      for (int s : g.slots)
        sum += t.max_refs_per_slot[s];
      g.refs = one_thread || !Entries ? 1 : std::max(1, distinct ? std::min(sum, t.max_refs) : sum);
      g.counts = scratch + segment_header_bytes(t.segments);
      g.values = g.counts + (Entries ? (int(sizeof(int)) * t.max_points + 15) / 16 * 16 : 0);
      scratch = g.values + (g.value_bytes * g.refs * t.max_points + 15) / 16 * 16;
    }
    laid_out = true;
  }
};

} // namespace detail

template <class Space> class Plan<exec::Segmented, Space> : public detail::PlanBase<Space> {
public:
  using memory_space = typename Space::memory_space;
  using exec_type = exec::Segmented;

  /// Device form of one map's segment table.
  struct DeviceTable {
    Kokkos::View<int *, memory_space> first, offset;
    int segments, max_points, max_refs;
    std::vector<int> max_refs_per_slot;
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
                         detail::upload<memory_space>(t.offset, label + "::offset"), t.max_segments,
                         t.max_points, t.max_refs, t.max_refs_per_slot});
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
    for (const auto &[loop, bytes] : scratch_)
      os << "; loop '" << loop << "': scratch " << bytes << " B/block";
    return os.str();
  }
  /// Scratch bytes per block of the last run of `loop` (0 if never run).
  int scratch_bytes(const std::string &loop) const {
    auto it = scratch_.find(loop);
    return it == scratch_.end() ? 0 : it->second;
  }
  const PhaseTimes &phases() const { return phases_; }

  /// Runs a loop; block size and segments are the plan's (the tag's are
  /// plan options, as with exec::Hierarchical), scratch_atomics the loop's.
  template <class Kernel, class... Args>
  void run(const exec::Segmented &loop_options, const std::string &name, const Kernel &kernel,
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
    scratch_[name] = policy.scratch;
  }

  template <class Body>
  void launch(const std::string &name, const Body &body, int scratch,
              typename Body::reduce_value &total) {
    const int n = this->set_.size();
    if (n == 0)
      return;
    using TeamPolicy = Kokkos::TeamPolicy<Space, Kokkos::IndexType<int>>;
    const int budget = TeamPolicy::scratch_size_max(0);
    if (scratch > budget)
      detail::fail("loop '", name, "' under the segmented executor needs ", scratch,
                   " bytes of team scratch per block (block size ", options_.block_size,
                   "), but the backend grants ", budget,
                   " per team: use a smaller block size or fewer segments");
    constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    // GPU: one thread per element, whole warps; host: one thread per team.
    const int team_size = host ? 1 : (options_.block_size + 31) / 32 * 32;
    const detail::SegmentedFunctor<Body, Space> f{{body}, n, options_.block_size, scratch};
    const auto make_policy = [&](int threads) {
      return Kokkos::Experimental::require(TeamPolicy(this->space_, num_blocks(), threads)
                                               .set_scratch_size(0, Kokkos::PerTeam(scratch)),
                                           Kokkos::Experimental::WorkItemProperty::HintLightWeight);
    };
    const std::string label = "umesh::segmented::" + name;
    const auto probe = make_policy(1);
    if constexpr (Body::has_reduction) {
      detail::check_team_size(name, probe.team_size_max(f, Kokkos::ParallelReduceTag()), team_size,
                              options_.block_size, Space::name(), "segmented");
      typename Body::reduce_value partial;
      Kokkos::parallel_reduce(label, make_policy(team_size), f, partial);
      body.join(total, partial);
    } else {
      detail::check_team_size(name, probe.team_size_max(f, Kokkos::ParallelForTag()), team_size,
                              options_.block_size, Space::name(), "segmented");
      Kokkos::parallel_for(label, make_policy(team_size), f);
    }
  }

  exec::Segmented options_;
  std::vector<DeviceTable> tables_;
  std::vector<detail::SegmentTable> host_; // metrics only (tables on the device)
  PhaseTimes phases_;
  std::map<std::string, int> scratch_;
};

/// The segmented plan takes the executor's options.
template <class Space, class... Maps>
Plan<exec::Segmented, Space> make_plan(const Space &space, exec::Segmented options, const Set &set,
                                       const Maps &...maps) {
  return Plan<exec::Segmented, Space>(space, options, set, maps...);
}

} // namespace umesh

#endif
