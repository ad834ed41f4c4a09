#ifndef UMESH_DEVICE_GLOBAL_HPP
#define UMESH_DEVICE_GLOBAL_HPP

// Global values that stay on the device. A loop that reduces into a
// umesh::Global makes the host wait for the loop's result; one that reduces
// into a DeviceGlobal does not: each launch folds its result into device
// memory itself. The host reads every global of a DeviceGlobalStore with one
// wait (fetch()), e.g. once per time step for the step's checks and limits.
//
//   umesh::DeviceGlobalStore<double> step("step");
//   auto dt = step.min("dt", 1e20);
//   step.reset();                      // on the device, no wait
//   umesh::par_loop(..., umesh::reduce_min(dt));
//   step.fetch();                      // one wait for all of the store's globals
//   double limit = dt.value();
//
// Unlike a umesh::Global, whose every loop starts from the reduction's
// identity (global.hpp), a device global folds every loop into its value
// until the store's next reset(): several loops of a time step make one
// minimum. reset() starts each global from its initial value, by default
// the reduction's identity (0, the largest value for min, the lowest for
// max), as Kokkos' reducers start.
//
// A store and its globals are handles to shared state (copies share it); a
// store is not for several host threads at once. Its reset() and fetch() are
// ordered with loops on the store's execution space instance: run the loops
// that reduce into it there.

#include <umesh/access.hpp>
#include <umesh/detail/host_sync.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace umesh {

template <class T, int Dim, class Space> class DeviceGlobal;
template <class T, class Space> class DeviceGlobalStore;

namespace detail {

// What a store and its globals share: the device values, their host copy
// from the last fetch, and each global's place and reduction.
template <class T, class Space> struct DeviceGlobalState {
  using memory_space = typename Space::memory_space;
  Space space;
  std::string name;
  // initial: every global's start; share: the same with sums at zero (a
  // rank's share of a sum over several ranks but the first).
  Kokkos::View<T *, memory_space> values, initial, share;
  // Never the device values themselves, even where the host can read
  // those: umesh::dist::fetch writes the ranks' combination here.
  Kokkos::View<T *, Kokkos::HostSpace> host;
  std::vector<T> initial_host;
  struct Slot {
    std::string name;
    Reduction reduction;
    int offset, dim;
  };
  std::vector<Slot> slots;
  // Reduction results nobody reads: a loop whose reductions all go into
  // device globals lands Kokkos' own result here, on the device, so that the
  // host does not wait for it. A sink outgrown stays allocated until the
  // next fetch (a launch may still write to it).
  Kokkos::View<char *, memory_space> sink;
  std::vector<Kokkos::View<char *, memory_space>> old_sinks;
  // The host copy is out of date: a loop reduced into the values, or they
  // were reset, since the last fetch (or there was none).
  bool stale = true;
  // Reset as ranks' shares (umesh::dist::reset) since the last reset().
  bool shares = false;

  int size() const { return int(initial_host.size()); }
  const Slot &slot_at(int offset) const {
    for (const auto &s : slots)
      if (s.offset == offset)
        return s;
    fail("device global store '", name, "' has no global at ", offset);
  }
};

// What loops, exec::Auto's snapshots and umesh::dist use of stores and
// globals, kept out of their public interface.
struct DeviceGlobalAccess {
  template <class T, int D, class S> static T *values(const DeviceGlobal<T, D, S> &g) {
    return g.s_->values.data() + g.offset_;
  }
  /// Device memory of at least `bytes` for results nobody reads.
  template <class T, int D, class S>
  static void *sink(const DeviceGlobal<T, D, S> &g, std::size_t bytes) {
    auto &s = *g.s_;
    if (s.sink.extent(0) < bytes) { // (nobody reads it: no initialising launch)
      s.old_sinks.push_back(s.sink);
      s.sink = Kokkos::View<char *, typename S::memory_space>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::DeviceGlobalStore::sink"),
          std::max<std::size_t>(bytes, 2 * s.sink.extent(0)));
    }
    detail::keep_for_graph(s.sink); // a recorded graph writes here after the sink is outgrown
    return s.sink.data();
  }
  template <class T, int D, class S> static void mark_reduced(const DeviceGlobal<T, D, S> &g) {
    g.s_->stale = true;
  }
  /// Every global at its initial value, sums at zero but on the first rank.
  template <class T, class S> static void reset_share(DeviceGlobalStore<T, S> &g, bool first) {
    auto &s = *g.s_;
    Kokkos::deep_copy(s.space, s.values, first ? s.initial : s.share);
    s.stale = true;
    s.shares = true;
  }
  template <class T, class S> static bool reset_as_shares(const DeviceGlobalStore<T, S> &g) {
    return g.s_->shares;
  }
  /// The host copy, in order of creation, and each value's reduction.
  template <class T, class S> static T *host(DeviceGlobalStore<T, S> &g) {
    return g.s_->host.data();
  }
  template <class T, class S>
  static std::vector<Reduction> reductions(const DeviceGlobalStore<T, S> &g) {
    std::vector<Reduction> out(g.s_->size());
    for (const auto &slot : g.s_->slots)
      for (int k = 0; k < slot.dim; ++k)
        out[slot.offset + k] = slot.reduction;
    return out;
  }
};

} // namespace detail

/// A store of device globals (one device buffer and its host copy): make
/// its globals with sum(), min() and max() while setting up; reset() puts
/// them back to their initial values without the host waiting; fetch()
/// brings them all to the host with one wait.
template <class T, class Space = Kokkos::DefaultExecutionSpace> class DeviceGlobalStore {
  static_assert(std::is_arithmetic<T>::value, "umesh::DeviceGlobalStore holds arithmetic types");
  using State = detail::DeviceGlobalState<T, Space>;

public:
  using value_type = T;
  using execution_space = Space;
  using memory_space = typename Space::memory_space;

  explicit DeviceGlobalStore(std::string name, const Space &space = Space())
      : s_(std::make_shared<State>()) {
    s_->space = space;
    s_->name = std::move(name);
    s_->values = Kokkos::View<T *, memory_space>("umesh::DeviceGlobalStore::" + s_->name, 0);
    // Room for the reduction results of most loops, allocated now, not mid-run.
    s_->sink = Kokkos::View<char *, memory_space>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::DeviceGlobalStore::sink"), 256);
  }

  /// A global of `Dim` components that loops reduce into with reduce_sum.
  template <int Dim = 1> DeviceGlobal<T, Dim, Space> sum(std::string name, T initial = T(0)) {
    return add<Dim>(std::move(name), Reduction::sum, initial);
  }
  /// A global that loops reduce into with reduce_min; by default it starts
  /// from the largest value of T.
  template <int Dim = 1>
  DeviceGlobal<T, Dim, Space> min(std::string name,
                                  T initial = detail::reduction_identity<Reduction::min, T>()) {
    return add<Dim>(std::move(name), Reduction::min, initial);
  }
  /// A global that loops reduce into with reduce_max; by default it starts
  /// from the lowest value of T.
  template <int Dim = 1>
  DeviceGlobal<T, Dim, Space> max(std::string name,
                                  T initial = detail::reduction_identity<Reduction::max, T>()) {
    return add<Dim>(std::move(name), Reduction::max, initial);
  }

  /// Every global back to its initial value, on the device, without the host
  /// waiting. (Over MPI ranks, umesh::dist::reset instead.)
  void reset() {
    Kokkos::deep_copy(s_->space, s_->values, s_->initial);
    s_->stale = true;
    s_->shares = false;
  }

  /// Waits for the store's execution space instance (once) and copies every
  /// global's value to the host. (Over MPI ranks, umesh::dist::fetch.)
  void fetch() {
    detail::as_host_sync([&] {
      Kokkos::deep_copy(s_->space, s_->host, s_->values);
      s_->space.fence();
    });
    s_->stale = false;
    s_->old_sinks.clear(); // no launch can still write to them
  }

  const std::string &name() const { return s_->name; }

private:
  friend struct detail::DeviceGlobalAccess;
  template <int Dim> DeviceGlobal<T, Dim, Space> add(std::string name, Reduction r, T initial) {
    static_assert(Dim >= 1, "umesh::DeviceGlobal needs at least one component");
    if (name.empty())
      detail::fail("device global store '", s_->name, "': a global needs a name");
    for (const auto &slot : s_->slots)
      if (slot.name == name)
        detail::fail("device global store '", s_->name, "' has a global called '", name,
                     "' already");
    const int offset = s_->size();
    s_->slots.push_back({std::move(name), r, offset, Dim});
    s_->initial_host.insert(s_->initial_host.end(), Dim, initial);
    // Made while the store is set up, not per step: the device arrays are
    // rebuilt from the host's initial values and keep the values so far;
    // the host copy is out of date until the next fetch.
    const int n = s_->size();
    Kokkos::resize(s_->values, n);
    Kokkos::deep_copy(Kokkos::subview(s_->values, std::make_pair(offset, n)), initial);
    std::vector<T> share = s_->initial_host;
    for (const auto &slot : s_->slots)
      if (slot.reduction == Reduction::sum)
        std::fill(share.begin() + slot.offset, share.begin() + slot.offset + slot.dim, T(0));
    s_->initial = upload(s_->initial_host, "initial");
    s_->share = upload(share, "share");
    s_->host =
        Kokkos::View<T *, Kokkos::HostSpace>("umesh::DeviceGlobalStore::" + s_->name + "::host", n);
    s_->stale = true;
    return DeviceGlobal<T, Dim, Space>(s_, offset);
  }
  Kokkos::View<T *, memory_space> upload(const std::vector<T> &src, const char *what) const {
    Kokkos::View<T *, memory_space> dst(
        Kokkos::view_alloc(Kokkos::WithoutInitializing,
                           "umesh::DeviceGlobalStore::" + s_->name + "::" + what),
        src.size());
    Kokkos::deep_copy(dst, Kokkos::View<const T *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                               src.data(), src.size()));
    return dst;
  }

  std::shared_ptr<State> s_;
};

/// One global of a DeviceGlobalStore: `Dim` values on the device, read on the
/// host after the store's fetch().
template <class T, int Dim = 1, class Space = Kokkos::DefaultExecutionSpace> class DeviceGlobal {
  using State = detail::DeviceGlobalState<T, Space>;

public:
  using value_type = T;
  using execution_space = Space;
  using memory_space = typename Space::memory_space;
  static constexpr int dim = Dim;

  /// Component k as of the store's last fetch(); fails when the store's
  /// values changed since (a loop reduced into any of its globals, or a
  /// reset) or it never fetched: never an out-of-date value.
  T operator[](int k) const {
    if (k < 0 || k >= Dim)
      detail::fail("device global '", name(), "' has ", Dim, " components, not ", k + 1);
    if (s_->stale)
      detail::fail("device global '", name(), "' of store '", s_->name,
                   "' is read before a fetch() of the store after its last loop or reset");
    return s_->host(offset_ + k);
  }
  /// Component 0 (operator[]).
  T value() const { return (*this)[0]; }

  const std::string &name() const { return s_->slot_at(offset_).name; }
  /// The reduction loops fold into it with (reduce_sum, reduce_min, reduce_max).
  Reduction reduction() const { return s_->slot_at(offset_).reduction; }
  /// The name of the store it belongs to.
  const std::string &store() const { return s_->name; }

private:
  friend class DeviceGlobalStore<T, Space>;
  friend struct detail::DeviceGlobalAccess;
  DeviceGlobal(std::shared_ptr<State> s, int offset) : s_(std::move(s)), offset_(offset) {}
  std::shared_ptr<State> s_;
  int offset_;
};

/// A loop argument that reduces into a device global.
template <Reduction R, class T, int Dim, class Space> struct DeviceGlobalArg {
  static constexpr Reduction reduction = R;
  DeviceGlobal<T, Dim, Space> global;
};

/// Global sum, minimum and maximum into device globals: the kernel's
/// accessor is the same as for a Global, the result stays on the device and
/// folds into the global's value since the store's last reset().
template <class T, int D, class S> auto reduce_sum(const DeviceGlobal<T, D, S> &g) {
  return DeviceGlobalArg<Reduction::sum, T, D, S>{g};
}
template <class T, int D, class S> auto reduce_min(const DeviceGlobal<T, D, S> &g) {
  return DeviceGlobalArg<Reduction::min, T, D, S>{g};
}
template <class T, int D, class S> auto reduce_max(const DeviceGlobal<T, D, S> &g) {
  return DeviceGlobalArg<Reduction::max, T, D, S>{g};
}

} // namespace umesh

#endif
