#ifndef UMESH_APPS_COMMON_LAUNCH_COUNTER_HPP
#define UMESH_APPS_COMMON_LAUNCH_COUNTER_HPP

// What a time step costs beyond its loops, counted through Kokkos Tools
// callbacks on every backend: kernel launches (parallel_for, _reduce, _scan)
// and host synchronisations (the host waiting for the device). A wait is
// counted once where umesh reports it (its "umesh::host_sync" regions: a
// reduction into a host Global, DeviceGlobalStore::fetch), where Kokkos
// reports a fence outside such a region (Kokkos 3.5 and later name their
// fences; 3.4 reports none), and, on Kokkos before 3.5, at each deep_copy to
// the host from another space outside such a region. Not counted: the apps'
// timers' fences (inside an "umesh::timer" region: the measurement's, not
// the step's) and the fences Kokkos 4 adds around every callback while
// tools are on ("Kokkos Profile Tool Fence", the counting's own). Waits
// Kokkos reports nothing of (a launch through constant memory, cudaFree)
// are not seen.

#include <umesh/error.hpp>
#include <umesh/timing.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <string>

namespace umesh::apps {

/// The apps' timers' region (fences inside it are not counted).
inline const std::string &timer_region() {
  static const std::string name = "umesh::timer";
  return name;
}

/// Counts launches and host synchronisations between start() and stop().
/// Kokkos Tools keeps one set of callbacks per process: one counter at a
/// time, and not beside a tool loaded through KOKKOS_TOOLS_LIBS.
class LaunchCounter {
public:
  struct Counts {
    std::int64_t launches = 0, host_syncs = 0;
  };

  LaunchCounter() = default;
  LaunchCounter(const LaunchCounter &) = delete;
  LaunchCounter &operator=(const LaunchCounter &) = delete;
  ~LaunchCounter() { stop(); }

  /// Installs the callbacks and counts from zero. Fails where Kokkos Tools
  /// are in use already (a tool loaded through KOKKOS_TOOLS_LIBS, or another
  /// counter): its callbacks would be replaced.
  void start() {
    if (active() == this)
      return;
    if (active() != nullptr || Kokkos::Tools::profileLibraryLoaded())
      throw umesh::Error("counting launches needs Kokkos Tools to itself; a tool library "
                         "(KOKKOS_TOOLS_LIBS) or another counter is in use");
    active() = this;
    counts_ = {};
    quiet_depth_ = 0;
    namespace T = Kokkos::Tools::Experimental;
    T::set_begin_parallel_for_callback(&on_launch);
    T::set_begin_parallel_reduce_callback(&on_launch);
    T::set_begin_parallel_scan_callback(&on_launch);
    T::set_begin_fence_callback(&on_fence);
    T::set_begin_deep_copy_callback(&on_deep_copy);
    T::set_push_region_callback(&on_push);
    T::set_pop_region_callback(&on_pop);
  }
  /// Removes the callbacks; counts() keeps what was counted.
  void stop() {
    if (active() != this)
      return;
    namespace T = Kokkos::Tools::Experimental;
    T::set_begin_parallel_for_callback(nullptr);
    T::set_begin_parallel_reduce_callback(nullptr);
    T::set_begin_parallel_scan_callback(nullptr);
    T::set_begin_fence_callback(nullptr);
    T::set_begin_deep_copy_callback(nullptr);
    T::set_push_region_callback(nullptr);
    T::set_pop_region_callback(nullptr);
    active() = nullptr;
  }
  /// Launches and host synchronisations since start().
  const Counts &counts() const { return counts_; }

private:
  static LaunchCounter *&active() {
    static LaunchCounter *counter = nullptr;
    return counter;
  }
  static void on_launch(const char *, std::uint32_t, std::uint64_t *) {
    ++active()->counts_.launches;
  }
  // Fences: one per wait outside the regions that count theirs already, but
  // the tools' own.
  static void on_fence(const char *name, std::uint32_t, std::uint64_t *) {
    if (active()->quiet_depth_ == 0 && !std::strstr(name, "Profile Tool Fence"))
      ++active()->counts_.host_syncs;
  }
  static void on_deep_copy(Kokkos::Tools::SpaceHandle dst, const char *, const void *,
                           Kokkos::Tools::SpaceHandle src, const char *, const void *,
                           std::uint64_t) {
#if KOKKOS_VERSION < 30500
    // Kokkos 3.4 reports no fences: a copy to the host from another space
    // waits for the device.
    const bool to_host = std::strcmp(dst.name, Kokkos::HostSpace::name()) == 0;
    const bool from_host = std::strcmp(src.name, Kokkos::HostSpace::name()) == 0;
    if (to_host && !from_host && active()->quiet_depth_ == 0)
      ++active()->counts_.host_syncs;
#else
    (void)dst;
    (void)src;
#endif
  }
  static void on_push(const char *name) {
    LaunchCounter &c = *active();
    if (c.quiet_depth_ > 0) {
      ++c.quiet_depth_;
    } else if (name == umesh::host_sync_region() || name == timer_region()) {
      c.quiet_depth_ = 1;
      if (name == umesh::host_sync_region())
        ++c.counts_.host_syncs;
    }
  }
  static void on_pop() {
    LaunchCounter &c = *active();
    if (c.quiet_depth_ > 0)
      --c.quiet_depth_;
  }

  Counts counts_;
  int quiet_depth_ = 0; // inside a region whose waits are counted already, or not at all
};

} // namespace umesh::apps

#endif
