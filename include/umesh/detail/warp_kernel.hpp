#ifndef UMESH_DETAIL_WARP_KERNEL_HPP
#define UMESH_DETAIL_WARP_KERNEL_HPP

// Device side of exec::WarpCombine (executor_warp.hpp has the plan): one
// thread per element; after the kernel, each element leaves the values of
// its combining references that follow another reference of the same point
// in the warp's scratch (phase 0), the warp synchronises, and each leader
// folds its chain into its own values and combines them into global memory
// (phase 1). Warps never wait for each other: no block barrier.

#include <umesh/detail/async_copy.hpp> // prefetch_l1
#include <umesh/detail/device_args.hpp>
#include <umesh/detail/global_atomic.hpp>
#include <umesh/detail/loop_body.hpp>
#include <umesh/detail/scratch.hpp>
#include <umesh/detail/team_scratch.hpp>
#include <umesh/detail/warp_links.hpp>
#include <umesh/detail/warp_maps.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace umesh::detail {

/// Phase 0 stores followers' values and links, phase 1 walks the chains
/// (WarpCombineDev::finish picks its half from the type).
template <int Phase> struct WarpCtx : TeamCtx {};

template <Access A, class T, int Dim> struct WarpBuffer : CombineBuffer<A, T, Dim> {
  int point;
  unsigned link; // the entry's link byte (warp_links.hpp)
};

// Argument `index` of a chunk of `group_size` combining references to one
// dat through one map. `values` and `nexts` are byte offsets into the warp's
// scratch: [Dim][32 * group_size] values of T, [32 * group_size] next bytes.
// The link is prefetched into L1 when the kernel is called, so that its
// latency hides behind the kernel's own loads, and read after the kernel:
// as fast as loading it before the kernel on res_calc, faster on the face
// flux (docs/performance-notes.md).
// An indirect read through a WarpMap (plain or compact).
template <class T, int Dim, class Layout, bool Compact> struct WarpReadDev : NoHooks {
  DatPtr<T, Dim, Layout> dat;
  WarpMap<Compact> map;
  int slot;
  template <class Ctx> KOKKOS_INLINE_FUNCTION auto bind(const Ctx &ctx, Empty &, Empty &) const {
    return ReadAccessor<T, Layout, Dim>{dat.at(map.entry(ctx.e, slot)), dat.stride()};
  }
};

template <Access A, class T, int Dim, class Layout, bool Compact> struct WarpCombineDev {
  using storage_type = WarpBuffer<A, T, Dim>;
  using reduce_type = Empty;
  DatPtr<T, Dim, Layout> dat;
  WarpMap<Compact> map;
  int slot;
  const std::uint8_t *links; // the chunk's WarpLinks::bytes
  int group_size, index;
  int values, nexts;

  // 32-bit: the plan refuses link arrays of 2^32 bytes or more.
  KOKKOS_INLINE_FUNCTION const std::uint8_t *link_of(int e) const {
    return links + (unsigned(e >> 5) * group_size + index) * 32 + (e & 31);
  }
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION auto bind(const Ctx &ctx, storage_type &buf, Empty &) const {
    prefetch_l1(link_of(ctx.e));
    return CombineAccessor<T, AoS, A, false, Dim>{buf.v, {}};
  }
  KOKKOS_INLINE_FUNCTION static void init(Empty &) {}
  template <class D, class S> KOKKOS_INLINE_FUNCTION static void join(D &, S &) {}

  template <int P>
  KOKKOS_INLINE_FUNCTION void finish(const WarpCtx<P> &ctx, storage_type &buf) const {
    const int entries = 32 * group_size;
    T *vals = scratch_at<T>(ctx.scratch, values);
    std::uint8_t *next = scratch_at<std::uint8_t>(ctx.scratch, nexts);
    if constexpr (P == 0) {
      buf.point = map.entry(ctx.e, slot); // read arguments often loaded it already
      buf.link = *link_of(ctx.e);
      if (buf.link & warp_link_follower) { // only followers are read by others
        const int entry = 32 * index + (ctx.e & 31);
        for (int k = 0; k < Dim; ++k)
          vals[k * entries + entry] = buf.v[k];
        next[entry] = std::uint8_t(buf.link & warp_link_next);
      }
    } else {
      if (buf.link & warp_link_follower)
        return;
      for (unsigned n = buf.link; n != 0; n = next[n])
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
    char *scratch =
        static_cast<char *>(team.team_scratch(team_scratch_level<Space>())
                                .get_shmem(host ? warp_bytes : warp_bytes * (block_size / 32)));
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
