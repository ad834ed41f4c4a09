#ifndef UMESH_DETAIL_WARP_KERNEL_HPP
#define UMESH_DETAIL_WARP_KERNEL_HPP

// Device side of exec::WarpCombine (executor_warp.hpp has the plan): one
// thread per element; after the kernel, each element leaves the values of
// its combining references that follow another reference of the same point
// in the warp's scratch (phase 0), the warp synchronises, and each leader
// folds its chain into its own values and combines them into global memory
// (phase 1). Warps never wait for each other: no block barrier.

#include <umesh/detail/device_args.hpp>
#include <umesh/detail/global_atomic.hpp>
#include <umesh/detail/loop_body.hpp>
#include <umesh/detail/scratch.hpp>
#include <umesh/detail/warp_links.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace umesh::detail {

/// Phase 0 stores followers' values and links, phase 1 walks the chains.
template <int Phase> struct WarpCtx : TeamCtx { static constexpr int phase = Phase; };

template <Access A, class T, int Dim> struct WarpBuffer : CombineBuffer<A, T, Dim> {
  int point;
  unsigned link; // warp_link_follower | next entry (warp_link_end: none)
};

// Argument `index` of a group of `group_size` combining references to one
// dat through one map. `values` and `nexts` are byte offsets into the warp's
// scratch: [Dim][32 * group_size] values of T, [32 * group_size] next links.
template <Access A, class T, int Dim, class Layout> struct WarpCombineDev {
  using storage_type = WarpBuffer<A, T, Dim>;
  using reduce_type = Empty;
  DatPtr<T, Dim, Layout> dat;
  const int *map;
  int arity, slot;
  const std::uint8_t *links; // the group's WarpLinks::bytes
  bool narrow;
  int group_size, index;
  int values, nexts;

  template <class Ctx>
  KOKKOS_INLINE_FUNCTION auto bind(const Ctx &, storage_type &buf, Empty &) const {
    return CombineAccessor<T, AoS, A, false>{buf.v, {}};
  }
  KOKKOS_INLINE_FUNCTION static void init(Empty &) {}
  template <class D, class S> KOKKOS_INLINE_FUNCTION static void join(D &, S &) {}

  template <int P>
  KOKKOS_INLINE_FUNCTION void finish(const WarpCtx<P> &ctx, storage_type &buf) const {
    const int entries = 32 * group_size, entry = 32 * index + (ctx.e & 31);
    T *vals = scratch_at<T>(ctx.scratch, values);
    std::uint16_t *next = scratch_at<std::uint16_t>(ctx.scratch, nexts);
    if constexpr (P == 0) {
      buf.point = map_entry(map, ctx.e, arity, slot);
      // 32-bit: the plan refuses link arrays of 2^32 bytes or more.
      const unsigned at = (unsigned(ctx.e >> 5) * group_size + index) * 32 + (ctx.e & 31);
      const unsigned l = narrow ? (links[at] & 0x80u) << 8 | (links[at] & 0x7Fu)
                                : reinterpret_cast<const std::uint16_t *>(links)[at];
      buf.link = l & warp_link_end ? l : l | warp_link_end; // next 0: none
      if (buf.link & warp_link_follower) {                  // only followers are read by others
        for (int k = 0; k < Dim; ++k)
          vals[k * entries + entry] = buf.v[k];
        next[entry] = std::uint16_t(buf.link & warp_link_end);
      }
    } else {
      if (buf.link & warp_link_follower)
        return;
      for (unsigned n = buf.link; n != warp_link_end; n = next[n])
        for (int k = 0; k < Dim; ++k)
          buf.v[k] = Combine<A>::apply(buf.v[k], vals[k * entries + n]);
      T *g = dat.at(buf.point);
      const int gs = dat.stride()();
      for (int k = 0; k < Dim; ++k)
        Combine<A>::atomic_global(g + k * gs, buf.v[k]);
    }
  }
};

KOKKOS_INLINE_FUNCTION void warp_sync() {
#if defined(__CUDA_ARCH__)
  __syncwarp();
#endif
}

// One team per block of `block_size` consecutive elements (a multiple of
// 32), `warp_bytes` of scratch per warp. GPU: one thread per element, warps
// of consecutive team ranks. Host: one thread per team runs each warp's 32
// elements through phase 0, then phase 1, as a warp would.
template <class Body, class Space> struct WarpFunctor : ReduceHooks<Body> {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using value_type = typename Body::reduce_value;
  using ReduceHooks<Body>::body;
  static constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  int n, block_size, warp_bytes;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type &team) const {
    value_type unused;
    run(team, unused);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const member_type &team, value_type &red) const {
    run(team, red);
  }
  KOKKOS_INLINE_FUNCTION void run(const member_type &team, value_type &red) const {
    const int begin = team.league_rank() * block_size;
    char *scratch = static_cast<char *>(
        team.team_scratch(0).get_shmem(host ? warp_bytes : warp_bytes * (block_size / 32)));
    if constexpr (host) {
      for (int w = begin; w < begin + block_size && w < n; w += 32) {
        typename Body::storage st[32];
        const int lanes = n - w < 32 ? n - w : 32;
        for (int l = 0; l < lanes; ++l)
          element<0>(w + l, scratch, st[l], red);
        for (int l = 0; l < lanes; ++l)
          element<1>(w + l, scratch, st[l], red);
      }
    } else {
      const int r = team.team_rank(), e = begin + r;
      char *mine = scratch + (r >> 5) * warp_bytes;
      typename Body::storage st{};
      if (e < n)
        element<0>(e, mine, st, red);
      warp_sync();
      if (e < n)
        element<1>(e, mine, st, red);
    }
  }
  template <int P>
  KOKKOS_INLINE_FUNCTION void element(int e, char *warp_scratch, typename Body::storage &st,
                                      value_type &red) const {
    const WarpCtx<P> ctx{{e, e, e / block_size, warp_scratch, e & 31, warp_scratch}};
    if constexpr (P == 0)
      body.compute(ctx, st, red);
    body.finish(ctx, st);
  }
};

} // namespace umesh::detail

#endif
