#ifndef UMESH_APPS_COMMON_BACKEND_LOOPS_HPP
#define UMESH_APPS_COMMON_BACKEND_LOOPS_HPP

// What an app's backends (one process, or MPI ranks through umesh::dist)
// share: how a loop runs, a dat's local view, and a write that bypassed the
// loops. Each app's backend.hpp adds how its sets, maps and dats are made.

#include <umesh/umesh.hpp>
#if defined(UMESH_APP_MPI)
#include <umesh/dist.hpp>
#endif

#include <utility>

namespace umesh::apps {

/// One process: umesh::par_loop, nothing to track.
struct LocalLoops {
  static constexpr bool distributed = false;
  template <class... A> static void par_loop(A &&...a) { umesh::par_loop(std::forward<A>(a)...); }
  template <class DatT> static auto view(const DatT &d) { return d.view(); }
  /// After a write that bypassed the loops (deep_copy): nothing to track.
  template <class DatT> static void written(const DatT &) {}
  /// Device globals back to their initial values; to the host, once.
  template <class Parts, class G> static void reset(const Parts &, G &g) { g.reset(); }
  template <class Parts, class G> static void fetch(const Parts &, G &g) { g.fetch(); }
};

#if defined(UMESH_APP_MPI)
/// MPI ranks: umesh::dist::par_loop (halo exchanges as accesses need).
struct DistLoops {
  static constexpr bool distributed = true;
  template <class... A> static void par_loop(A &&...a) {
    umesh::dist::par_loop(std::forward<A>(a)...);
  }
  template <class DatT> static auto view(const DatT &d) { return d.local().view(); }
  /// After a write that bypassed the loops (deep_copy): halo copies are stale.
  template <class DatT> static void written(const DatT &d) { d.mark_halo_stale(); }
  /// Device globals: each rank's share reset; fetched and combined over the
  /// ranks of the app's communicator (Parts::comm).
  template <class Parts, class G> static void reset(const Parts &p, G &g) {
    umesh::dist::reset(g, p.comm);
  }
  template <class Parts, class G> static void fetch(const Parts &p, G &g) {
    umesh::dist::fetch(g, p.comm);
  }
};
#endif

} // namespace umesh::apps

#endif
