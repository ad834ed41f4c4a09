#ifndef UMESH_DETAIL_HIERARCHICAL_BINDING_HPP
#define UMESH_DETAIL_HIERARCHICAL_BINDING_HPP

// How the hierarchical executor binds a loop's indirect arguments under one
// staging mode: which (dat, map) groups are staged in team scratch and where,
// and the device argument each becomes. PlanT is the hierarchical plan,
// whose staged maps and padded lists it reads (a friend of the plan).

#include <umesh/detail/bind.hpp>
#include <umesh/detail/hierarchical_kernel.hpp>
#include <umesh/exec.hpp>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace umesh::detail {

template <class PlanT, exec::Staging S> struct HierarchicalBinding {
  PlanT &plan;
  const std::string &loop;
  const exec::HierarchicalLoopOptions &options; // the loop's combine and writeback
  int scratch = 0;                              // bytes so far (per slot when pipelined)
  // Pipelined: each staged map's padded lists get a place in every slot,
  // after the slot's element range; gather buffers live once per team.
  bool pipelined = false;
  int team_scratch = 0; // pipelined: bytes kept for the whole team
  std::vector<std::tuple<const void *, int, Access>> groups; // (dat, map, access)
  std::vector<int> offsets;
  std::vector<std::pair<int, int>> written; // gather: (group offset, slot) stored so far
  static constexpr bool stages_reads = S == exec::Staging::all || S == exec::Staging::reads;
  struct ListPlaces {
    int points = -1, local = -1, inv_offsets = -1, inv_entries = -1;
  };
  std::vector<ListPlaces> places; // per staged map, in a slot
  // Every argument's (dat, map, access), noted before binding so that a
  // combine can tell whether it is its dat's one use in the loop
  // (StagedCombineDev::preload). Empty: no combine preloads.
  struct DatUse {
    const void *dat, *map;
    Access access;
  };
  std::vector<DatUse> uses;
  int preloaded = 0; // combine groups whose buffers start at the dat's values
  template <class... Args> void note_uses(const Args &...args) { (note_use(args), ...); }
  template <Access A, class T, int D, class L, class M>
  void note_use(const DirectArg<A, Dat<T, D, L, M>> &a) {
    uses.push_back({a.dat.view().data(), nullptr, A});
  }
  template <Access A, class T, int D, class L, class M, class MM>
  void note_use(const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) {
    uses.push_back({a.dat.view().data(), a.map.view().data(), A});
  }
  template <class Arg> void note_use(const Arg &) {}
  bool sole_group(const void *dat, const void *map, Access access) const {
    bool seen = false;
    for (const DatUse &u : uses) {
      if (u.dat != dat)
        continue;
      if (u.map != map || u.access != access)
        return false;
      seen = true;
    }
    return seen;
  }

  HierarchicalBinding(PlanT &p, const std::string &name, const exec::HierarchicalLoopOptions &o,
                      int start, bool pipe)
      : plan(p), loop(name), options(o), scratch(start), pipelined(pipe) {}

  // The map's lists a pipelined argument needs (points always; local
  // indices, inverse lists on request), each placed in the slot by the
  // first argument that asks for it, which copies it there.
  PipeMapDev pipe_map(int m, bool local, bool inverse) {
    if (!pipelined || m < 0)
      return {};
    if (places.empty())
      places.resize(plan.staged_.size());
    ListPlaces &at = places[m];
    const auto &pad = plan.padded_[m];
    PipeMapDev d;
    d.points = pad.points.data();
    d.local = pad.local.data();
    d.point_stride = pad.point_stride;
    d.local_stride = pad.local_stride;
    const auto place = [&](int &where, int bytes, bool &owner) {
      if (where < 0) {
        where = scratch;
        scratch += bytes;
        owner = true;
      }
      return where;
    };
    bool second = false; // the inverse entries go with the offsets' owner
    d.points_offset = place(at.points, pad.point_stride * int(sizeof(int)), d.points_owner);
    if (local)
      d.local_offset = place(at.local, pad.local_stride * int(sizeof(LocalIndex)), d.local_owner);
    if (inverse) {
      const auto &inv = plan.inverse_lists(m);
      d.inv_offsets = inv.offsets.data();
      d.inv_entries = inv.entries.data();
      d.inv_offsets_stride = inv.offsets_stride;
      d.inv_entries_stride = inv.entries_stride;
      d.inv_offsets_offset =
          place(at.inv_offsets, inv.offsets_stride * int(sizeof(LocalIndex)), d.inv_owner);
      d.inv_entries_offset =
          place(at.inv_entries, inv.entries_stride * int(sizeof(LocalIndex)), second);
    }
    d.copies_lists = d.points_owner || d.local_owner || d.inv_owner;
    return d;
  }

  int staged_index(const void *map) const {
    for (std::size_t m = 0; m < plan.staged_keys_.size(); ++m)
      if (plan.staged_keys_[m] == map)
        return int(m);
    return -1;
  }
  // Scratch offset of a (dat, map, access) group; `owner` when it is new.
  // In the team's scratch (`team`, pipelined gather) or the block's.
  int group(const void *dat, int m, Access access, std::size_t bytes, bool &owner,
            bool team = false) {
    for (std::size_t g = 0; g < groups.size(); ++g)
      if (groups[g] == std::make_tuple(dat, m, access)) {
        owner = false;
        return offsets[g];
      }
    owner = true;
    int &counter = team ? team_scratch : scratch;
    groups.emplace_back(dat, m, access);
    offsets.push_back(counter);
    const int off = counter;
    counter += int((bytes + 15) / 16 * 16);
    return off;
  }
  StagedMapDev map_dev(int m) const {
    const auto &s = plan.staged_[m];
    return {s.point_offsets.data(), s.points.data(), s.owned.data(),
            s.local.data(),         s.arity,         s.max_points};
  }

  template <class T, int D, class L, class M, class MM>
  auto read(const IndirectArg<Access::read, Dat<T, D, L, M>, Map<MM>> &a) {
    const int m = staged_index(a.map.view().data());
    HierReadDev<const T, D, L> dev{
        {}, read_ptr(a.dat), {}, a.map.view().data(), a.map.arity(), a.slot, -1, false, {}};
    if (m >= 0) { // staged; a map the plan does not know is read from global memory
      dev.map = map_dev(m);
      dev.pipe = pipe_map(m, true, false);
      dev.offset = group(a.dat.view().data(), m, Access::read,
                         std::size_t(plan.staged_[m].max_points) * D * sizeof(T), dev.owner);
      dev.pipe.stages_data = dev.pipe.on() && dev.owner;
    }
    return dev;
  }

  template <Access A, class T, int D, class L, class M, class MM>
  auto combine(const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) {
    plan.map_index(a.map, loop); // one the plan colours over, or a clear error
    if constexpr (S == exec::Staging::none) {
      return ColouredCombineDev<A, T, D, L>{
          {}, dat_ptr(a.dat), a.map.view().data(), a.map.arity(), a.slot};
    } else if constexpr (S == exec::Staging::reads) {
      return ReadsAtomicDev<A, T, D, L>{{},
                                        dat_ptr(a.dat),
                                        a.map.view().data(),
                                        a.map.arity(),
                                        a.slot,
                                        pipe_map(staged_index(a.map.view().data()), true, false)};
    } else {
      const int m = staged_index(a.map.view().data());
      const bool gather = options.combine == exec::Combine::gather;
      const StagedMapDev map = map_dev(m);
      const int block_size = plan.options_.block_size;
      bool owner;
      int off;
      if (gather && pipelined) {
        off = group(a.dat.view().data(), m, A, std::size_t(map.arity) * block_size * D * sizeof(T),
                    owner, true);
      } else {
        // The group's buffer follows its block facts (GroupMeta).
        const std::size_t entries =
            gather ? std::size_t(map.arity) * block_size : std::size_t(map.max_points);
        off = group(a.dat.view().data(), m, A, group_meta_bytes + entries * D * sizeof(T), owner) +
              group_meta_bytes;
      }
      PipeMapDev pipe = pipe_map(m, !gather, gather);
      if (pipe.on() && owner) { // the write-back's counts, copied with the lists
        pipe.point_offsets = map.point_offsets;
        pipe.counts_offset = scratch;
        pipe.copies_lists = true;
        scratch += 16;
      }
      pipe.writes_back = pipe.on() && owner;
      StagedCombineDev<A, T, D, L> dev{{},
                                       dat_ptr(a.dat),
                                       map,
                                       a.slot,
                                       off,
                                       owner,
                                       options.combine == exec::Combine::atomics,
                                       options.writeback == exec::Writeback::atomic,
                                       pipe,
                                       false,
                                       block_size,
                                       {}};
      dev.preload = S == exec::Staging::all && options.preload && !gather && !pipe.on() &&
                    sole_group(a.dat.view().data(), a.map.view().data(), A);
      preloaded += dev.preload && owner;
      if (gather) {
        if (!pipelined)
          dev.inverse = inverse_dev(plan.inverse_lists(m));
        // Two arguments writing one slot of a group: the later combines.
        const auto key = std::make_pair(off, a.slot);
        dev.accumulate = std::find(written.begin(), written.end(), key) != written.end();
        if (!dev.accumulate)
          written.push_back(key);
      }
      return dev;
    }
  }
};

} // namespace umesh::detail

#endif
