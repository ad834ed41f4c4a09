#ifndef UMESH_DETAIL_EXECUTOR_WARP_HPP
#define UMESH_DETAIL_EXECUTOR_WARP_HPP

// exec::WarpCombine: each warp of 32 consecutive elements folds the
// references of a point into one global combine (warp_kernel.hpp). The plan
// holds, per group of arguments that combine into one dat through one map,
// a link per (element, argument) (warp_links.hpp), built on the group's
// first run and kept.

#include <umesh/detail/bind.hpp>
#include <umesh/detail/team_launch.hpp>
#include <umesh/detail/warp_kernel.hpp>
#include <umesh/detail/warp_links.hpp>
#include <umesh/detail/warp_maps.hpp>
#include <umesh/plan.hpp>
#include <umesh/timing.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace umesh {

namespace detail {

// Binding of one loop: combining indirect arguments are grouped by (dat,
// map) and each group cut into chunks of up to warp_chunk arguments in
// order; each chunk gets its links and a place in every warp's scratch.
// Everything else binds as for the atomic executor. Two passes: the first
// (before lay_out) only collects the groups and their slots.
template <class PlanT, bool Compact> struct WarpBinding {
  static constexpr bool stages_reads = true; // through warp_map()
  PlanT &plan;
  const std::string &loop;
  int warp_bytes = 0;
  struct Chunk {
    const std::uint8_t *links;
    int size, values, nexts;
  };
  struct Group {
    const void *dat, *map;
    int map_index, value_bytes;
    std::vector<int> slots;
    std::vector<Chunk> chunks;
    int bound = 0;
  };
  std::vector<Group> groups;
  bool laid_out = false;

  template <class MM> WarpMap<Compact> warp_map(const Map<MM> &map) {
    if constexpr (Compact)
      return plan.compact_map(map, loop);
    else
      return {map.view().data(), map.arity()};
  }

  template <class T, int D, class L, class M, class MM>
  auto read(const IndirectArg<Access::read, Dat<T, D, L, M>, Map<MM>> &a) {
    return WarpReadDev<const T, D, L, Compact>{{}, read_ptr(a.dat), warp_map(a.map), a.slot};
  }

  template <Access A, class T, int D, class L, class M, class MM>
  auto combine(const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) {
    WarpCombineDev<A, T, D, L, Compact> dev{
        dat_ptr(a.dat), warp_map(a.map), a.slot, nullptr, 0, 0, 0, 0};
    Group *g = nullptr;
    for (auto &x : groups)
      if (x.dat == a.dat.view().data() && x.map == a.map.view().data())
        g = &x;
    if (!laid_out) {
      if (!g) {
        groups.push_back({a.dat.view().data(),
                          a.map.view().data(),
                          plan.map_index(a.map, loop),
                          int(D * sizeof(T)),
                          {},
                          {}});
        g = &groups.back();
      }
      g->slots.push_back(a.slot);
      return dev;
    }
    const int j = g->bound++;
    const Chunk &c = g->chunks[j / warp_chunk];
    dev.links = c.links;
    dev.group_size = c.size;
    dev.index = j % warp_chunk;
    dev.values = c.values;
    dev.nexts = c.nexts;
    return dev;
  }

  void lay_out() {
    for (auto &g : groups)
      for (std::size_t first = 0; first < g.slots.size(); first += warp_chunk) {
        const std::vector<int> slots(g.slots.begin() + first,
                                     g.slots.begin() +
                                         std::min(g.slots.size(), first + std::size_t(warp_chunk)));
        const int entries = 32 * int(slots.size());
        Chunk c{plan.links(g.map_index, slots).bytes.data(), int(slots.size()), warp_bytes, 0};
        c.nexts = c.values + (g.value_bytes * entries + 15) / 16 * 16;
        warp_bytes = c.nexts + (entries + 15) / 16 * 16;
        g.chunks.push_back(c);
      }
    laid_out = true;
  }
};

} // namespace detail

template <class Space> class Plan<exec::WarpCombine, Space> : public detail::PlanBase<Space> {
public:
  using memory_space = typename Space::memory_space;
  using exec_type = exec::WarpCombine;

  /// One chunk's links on the device, with the host's metrics.
  struct Links {
    Kokkos::View<std::uint8_t *, memory_space> bytes;
    std::int64_t references = 0, leaders = 0;
    int longest_chain = 0;
  };

  template <class... Maps>
  Plan(const Space &space, exec::WarpCombine options, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, std::move(set), maps...), options_(options) {
    constexpr bool on_host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
#ifdef KOKKOS_ENABLE_CUDA
    constexpr bool cuda = std::is_same<Space, Kokkos::Cuda>::value;
#else
    constexpr bool cuda = false;
#endif
    // The kernel synchronises warps of 32 threads with __syncwarp: other GPU
    // backends (64-wide wavefronts, sub-groups) would need their own.
    if (!on_host && !cuda)
      detail::fail("warp plan for set '", this->set_.name(), "': exec::WarpCombine runs on CUDA ",
                   "and host backends, not on ", Space::name());
    if (options.block_size < 32 || options.block_size > 1024 || options.block_size % 32 != 0)
      detail::fail("warp plan for set '", this->set_.name(), "': block size ", options.block_size,
                   " is not a multiple of 32 in [32, 1024]");
    Kokkos::Timer timer;
    const detail::HostMaps host = detail::host_maps(maps...);
    // In the order of map_index(): the maps loops combine through.
    for (std::size_t m = 0; m < host.maps.size(); ++m)
      if (host.maps[m].written) {
        conn_.push_back(host.maps[m].conn);
        conn_.back().indices = nullptr; // set where used: the vector may move
        indices_.push_back(host.indices[m]);
      }
    this->build_seconds_ = timer.seconds();
  }

  const exec::WarpCombine &options() const {
    return options_;
  }
  int num_blocks() const {
    return (this->set_.size() + options_.block_size - 1) / options_.block_size;
  }

  /// The links of map `m` for arguments reading `slots` in that order:
  /// built on first use (timed into build_seconds()), then kept.
  const Links &links(int m, const std::vector<int> &slots) {
    auto key = std::make_pair(m, slots);
    auto it = links_.find(key);
    if (it != links_.end())
      return it->second;
    Kokkos::Timer timer;
    HostConnectivity c = conn_[m];
    c.indices = indices_[m].data();
    const detail::WarpLinks w = detail::build_warp_links(this->set_.size(), c, slots);
    if (w.bytes.size() > 0xFFFFFFFFu)
      detail::fail("warp plan for set '", this->set_.name(), "': ", slots.size(),
                   " references per element through map '", this->names_[m], "' need ",
                   w.bytes.size(), " bytes of links; the warp executor indexes at most 2^32 - 1");
    Links l;
    l.bytes = detail::upload<memory_space>(w.bytes, "umesh::WarpCombine::" + this->names_[m]);
    l.references = w.references;
    l.leaders = w.leaders;
    l.longest_chain = w.longest_chain;
    this->build_seconds_ += timer.seconds();
    return links_.emplace(std::move(key), std::move(l)).first->second;
  }

  /// The compact form of `map` (exec::WarpCombine::compact_maps): built on
  /// first use (timed into build_seconds()), then kept with the map itself,
  /// so that its address names it. A map whose points span more than 16 bits
  /// within a warp fails, naming `loop`.
  template <class MM> CompactMapView compact_map(const Map<MM> &map, const std::string &loop) {
    auto it = compact_.find(map.view().data());
    if (it == compact_.end()) {
      Kokkos::Timer timer;
      // A map the plan combines through has its host copy here already.
      std::vector<int> copied;
      const std::vector<int> *host = nullptr;
      for (std::size_t m = 0; m < this->keys_.size(); ++m)
        if (this->keys_[m] == map.view().data())
          host = &indices_[m];
      if (!host)
        host = &(copied = detail::host_indices(map));
      const detail::CompactMap c =
          detail::build_compact_map(map.from().size(), map.arity(), host->data());
      if (c.wide_warp >= 0)
        detail::fail("loop '", loop, "' under the warp executor with compact maps: map '",
                     map.name(), "' reaches points ", c.wide_span, " apart in warp ", c.wide_warp,
                     " (elements ", 32 * c.wide_warp, " to ", 32 * c.wide_warp + 31,
                     "), past the 65535 a 16-bit offset holds: renumber the mesh (e.g. rcm) ",
                     "or run without compact maps");
      Compact k;
      k.pin = std::make_shared<typename Map<MM>::view_type>(map.view());
      k.name = map.name();
      k.base = detail::upload<memory_space>(c.base, "umesh::WarpCombine::base::" + map.name());
      k.offsets =
          detail::upload<memory_space>(c.offsets, "umesh::WarpCombine::offsets::" + map.name());
      k.bytes = std::int64_t(c.base.size()) * 4 + std::int64_t(c.offsets.size()) * 2;
      k.map_bytes = std::int64_t(host->size()) * 4;
      this->build_seconds_ += timer.seconds();
      it = compact_.emplace(map.view().data(), std::move(k)).first;
    }
    return {it->second.base.data(), it->second.offsets.data(), map.arity()};
  }

  /// Blocks, and per group of arguments built so far: global combines per
  /// reference (1 without combining) and the longest chain a leader walks;
  /// the compact maps built so far.
  std::string summary() const {
    std::ostringstream os;
    os << num_blocks() << " blocks of " << options_.block_size;
    os.precision(3);
    for (const auto &[key, l] : links_) {
      os << "; map '" << this->names_[key.first] << "' slots";
      for (int s : key.second)
        os << ' ' << s;
      os << ": " << (l.references ? double(l.leaders) / double(l.references) : 1.0)
         << " global combines per reference, chains up to " << l.longest_chain;
    }
    for (const auto &[key, c] : compact_)
      os << "; map '" << c.name << "' compact: " << c.bytes << " bytes against " << c.map_bytes;
    scratch_.describe(os);
    return os.str();
  }
  /// Scratch bytes per block of the last run of `loop` (0 if never run).
  int scratch_bytes(const std::string &loop) const {
    return scratch_.of(loop);
  }

  /// Runs one loop; block_size comes from the plan, max_registers from
  /// `loop_options`.
  template <class Kernel, class... Args>
  void run(const exec::WarpLoop &loop_options, const std::string &name, const Kernel &kernel,
           const Args &...args) {
    const int registers = loop_options.max_registers;
    if (!exec::WarpLoop::is_register_budget(registers))
      detail::fail("loop '", name, "' under the warp executor: max_registers ", registers,
                   " is not 0 (the compiler's choice), 40 or 64");
    if (registers == 40 && options_.block_size > 512)
      detail::fail("loop '", name,
                   "' under the warp executor: max_registers 40 needs blocks of at ",
                   "most 512 threads (this plan's are ", options_.block_size,
                   "): use max_registers 64 or 0, or a plan with smaller blocks");
    if (loop_options.compact_maps)
      bind_and_launch<true>(name, registers, kernel, args...);
    else
      bind_and_launch<false>(name, registers, kernel, args...);
  }

private:
  // One kernel per map form (WarpMap): each carries only its own indexing.
  template <bool Compact, class Kernel, class... Args>
  void bind_and_launch(const std::string &name, int registers, const Kernel &kernel,
                       const Args &...args) {
    detail::WarpBinding<Plan, Compact> policy{*this, name, 0, {}, false};
    (void)std::initializer_list<int>{(detail::to_device<Space>(policy, args), 0)...};
    policy.lay_out();
    detail::run_loop<Space>(
        policy, kernel,
        [&](const auto &body, auto &total) {
          launch(name, body, policy.warp_bytes, registers, total);
        },
        args...);
    scratch_.bytes[name] = team_scratch(policy.warp_bytes);
  }

  // Host backends run a team's warps one after another in one warp's scratch.
  int team_scratch(int warp_bytes) const {
    constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    return host ? warp_bytes : warp_bytes * (options_.block_size / 32);
  }

  template <class Body>
  void launch(const std::string &name, const Body &body, int warp_bytes, int registers,
              typename Body::reduce_value &total) {
    const int n = this->set_.size();
    if (n == 0)
      return;
    const int block = options_.block_size, scratch = team_scratch(warp_bytes);
    detail::check_team_scratch<Space>(name, "warp", scratch,
                                      std::to_string(warp_bytes) + " per warp, block size " +
                                          std::to_string(block),
                                      "use a smaller block size");
    constexpr bool host = detail::WarpFunctor<Body, Space>::host;
    const int team_size = host ? 1 : block;
    const detail::WarpFunctor<Body, Space> f{{body}, n, block, warp_bytes};
    // A register budget is a launch bound: an SM's 65536 registers over
    // (threads per block x blocks per SM). One kernel per budget, on CUDA only.
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same<Space, Kokkos::Cuda>::value) {
      if (registers == 64)
        return detail::launch_teams<Space, Kokkos::LaunchBounds<1024, 1>>(
            this->space_, name, "warp", f, num_blocks(), team_size, block, scratch, body, total);
      if (registers == 40)
        return detail::launch_teams<Space, Kokkos::LaunchBounds<512, 3>>(
            this->space_, name, "warp", f, num_blocks(), team_size, block, scratch, body, total);
    }
#endif
    (void)registers;
    detail::launch_teams(this->space_, name, "warp", f, num_blocks(), team_size, block, scratch,
                         body, total);
  }

  exec::WarpCombine options_;
  std::vector<HostConnectivity> conn_;    // per written map, indices set from indices_ when used
  std::vector<std::vector<int>> indices_; // host copies of the written maps
  std::map<std::pair<int, std::vector<int>>, Links> links_;
  struct Compact {
    std::shared_ptr<const void> pin; // the map's View: its address stays this map's
    std::string name;
    Kokkos::View<int *, memory_space> base;
    Kokkos::View<std::uint16_t *, memory_space> offsets;
    std::int64_t bytes = 0, map_bytes = 0;
  };
  std::map<const void *, Compact> compact_;
  detail::LoopScratch scratch_;
};

/// The warp plan takes the executor's options.
template <class Space, class... Maps>
Plan<exec::WarpCombine, Space> make_plan(const Space &space, exec::WarpCombine options,
                                         const Set &set, const Maps &...maps) {
  return Plan<exec::WarpCombine, Space>(space, options, set, maps...);
}

} // namespace umesh

#endif
