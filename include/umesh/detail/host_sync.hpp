#ifndef UMESH_DETAIL_HOST_SYNC_HPP
#define UMESH_DETAIL_HOST_SYNC_HPP

// Where umesh makes the host wait for the device (a reduction into a host
// Global, DeviceGlobalStore::fetch), it says so to Kokkos Tools: a profiling
// region "umesh::host_sync" around the wait, so that a tool can count the
// waits on every Kokkos version (Kokkos 3 reports no fences to tools). A
// LoopGraph's step may not wait (graph_recording.hpp).

#include <umesh/detail/graph_recording.hpp>
#include <umesh/detail/profiling_region.hpp>
#include <umesh/timing.hpp>

#include <Kokkos_Core.hpp>

#include <string>

namespace umesh::detail {

using umesh::host_sync_region;

/// Runs f (which waits for the device) inside the host_sync region; the
/// region is closed however f ends. Inside a LoopGraph's step: an Error.
template <class F> void as_host_sync(F &&f) {
  refuse_host_wait("a wait for the device (a reduction into a umesh::Global, or a "
                   "DeviceGlobalStore's fetch())");
  const ProfilingRegion region(host_sync_region());
  f();
}

} // namespace umesh::detail

#endif
