#ifndef UMESH_DETAIL_HIERARCHICAL_BINDING_HPP
#define UMESH_DETAIL_HIERARCHICAL_BINDING_HPP

// How the hierarchical executor binds a loop's indirect arguments under one
// staging mode: which (dat, map) groups are staged in team scratch and where,
// and the device argument each becomes. PlanT is the hierarchical plan,
// whose staged maps and padded lists it reads (a friend of the plan).

#include <umesh/detail/bind.hpp>
#include <umesh/detail/hierarchical_kernel.hpp>
#include <umesh/exec.hpp>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace umesh::detail {

template <class PlanT, exec::Staging S> struct HierarchicalBinding {
  PlanT &plan;
  const std::string &loop;
  const exec::Hierarchical &options;                         // the loop's combine and writeback
  int scratch = 0;                                           // bytes so far
  std::vector<std::tuple<const void *, int, Access>> groups; // (dat, map, access)
  std::vector<int> offsets;
  static constexpr bool stages_reads = S == exec::Staging::all || S == exec::Staging::reads;
  // Pipelined: each staged map's padded lists get a place in every slot,
  // after the slot's element range.
  bool pipelined = false;
  std::vector<std::pair<int, int>> list_offsets; // per staged map (points, local); -1: none

  PipeMapDev pipe_map(int m) {
    if (!pipelined || m < 0)
      return {};
    if (list_offsets.empty())
      list_offsets.assign(plan.staged_.size(), {-1, -1});
    const auto &pad = plan.padded_[m];
    PipeMapDev d{pad.points.data(),
                 pad.local.data(),
                 pad.point_stride,
                 pad.local_stride,
                 -1,
                 -1,
                 false,
                 nullptr,
                 -1};
    if (list_offsets[m].first < 0) {
      list_offsets[m] = {scratch, scratch + pad.point_stride * int(sizeof(int))};
      scratch += pad.point_stride * int(sizeof(int)) + pad.local_stride * int(sizeof(LocalIndex));
      d.owner = true;
    }
    d.points_offset = list_offsets[m].first;
    d.local_offset = list_offsets[m].second;
    return d;
  }

  int staged_index(const void *map) const {
    for (std::size_t m = 0; m < plan.staged_keys_.size(); ++m)
      if (plan.staged_keys_[m] == map)
        return int(m);
    return -1;
  }
  // Scratch offset of a (dat, map, access) group; `owner` when it is new.
  int group(const void *dat, int m, Access access, std::size_t bytes, bool &owner) {
    for (std::size_t g = 0; g < groups.size(); ++g)
      if (groups[g] == std::make_tuple(dat, m, access)) {
        owner = false;
        return offsets[g];
      }
    owner = true;
    groups.emplace_back(dat, m, access);
    offsets.push_back(scratch);
    const int off = scratch;
    scratch += int((bytes + 15) / 16 * 16);
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
    HierReadDev<const T, D, L> dev{{},
                                   {a.dat.view().data(), a.dat.size()},
                                   {},
                                   a.map.view().data(),
                                   a.map.arity(),
                                   a.slot,
                                   -1,
                                   false,
                                   {}};
    if (m >= 0) { // staged; a map the plan does not know is read from global memory
      dev.map = map_dev(m);
      dev.pipe = pipe_map(m);
      dev.offset = group(a.dat.view().data(), m, Access::read,
                         std::size_t(plan.staged_[m].max_points) * D * sizeof(T), dev.owner);
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
                                        pipe_map(staged_index(a.map.view().data()))};
    } else {
      const int m = staged_index(a.map.view().data());
      bool owner;
      // The group's buffer follows its block facts (GroupMeta).
      const int off =
          group(a.dat.view().data(), m, A,
                group_meta_bytes + std::size_t(plan.staged_[m].max_points) * D * sizeof(T), owner) +
          group_meta_bytes;
      const StagedMapDev map = map_dev(m);
      PipeMapDev pipe = pipe_map(m);
      if (pipe.on() && owner) { // the write-back's counts, copied with the lists
        pipe.point_offsets = map.point_offsets;
        pipe.counts_offset = scratch;
        scratch += 16;
      }
      return StagedCombineDev<A, T, D, L>{{},
                                          dat_ptr(a.dat),
                                          map,
                                          a.slot,
                                          off,
                                          owner,
                                          options.combine == exec::Combine::atomics,
                                          options.writeback == exec::Writeback::atomic,
                                          pipe};
    }
  }
};

} // namespace umesh::detail

#endif
