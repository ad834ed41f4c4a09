#ifndef UMESH_DEVICE_GLOBAL_HPP
#define UMESH_DEVICE_GLOBAL_HPP

// Global values that stay on the device. A loop that reduces into a
// umesh::Global makes the host wait for the loop's result; one that reduces
// into a DeviceGlobal does not: the result is folded into device memory by
// the loop itself. The host reads every global of a DeviceGlobals store
// with one wait (fetch()), e.g. once per time step for the step's checks and
// time-step limits.
//
//   umesh::DeviceGlobals<double> step("step");
//   auto dt = step.min("dt", 1e20);
//   umesh::par_loop(..., umesh::reduce_min(dt));
//   step.fetch();           // one wait for all of the store's globals
//   double limit = dt.value();

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

namespace detail {

// What a store and its globals share: the device values, their host copy
// from the last fetch, and each global's place and reduction.
template <class T, class Space> struct DeviceGlobalState {
  using memory_space = typename Space::memory_space;
  Space space;
  std::string name;
  // initial: every global's start; partial: the same with sums at zero (a
  // rank's share of a sum over several ranks).
  Kokkos::View<T *, memory_space> values, initial, partial;
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
  // host does not wait for it.
  Kokkos::View<char *, memory_space> sink;
  // Loops reduced into the values since the last fetch: the host copy is
  // out of date.
  bool reduced_since_fetch = false;
  bool fetched = false;

  int size() const { return int(initial_host.size()); }
  const Slot &slot_at(int offset) const {
    for (const auto &s : slots)
      if (s.offset == offset)
        return s;
    fail("device global store '", name, "' has no global at ", offset);
  }
};

} // namespace detail

/// A store of device globals (one device buffer and its host copy): make
/// its globals with sum(), min() and max() while setting up; reset() puts
/// them back to their initial values without the host waiting, fetch()
/// brings them all to the host with one wait. Both are ordered with the
/// loops that run on the store's execution space instance.
template <class T, class Space = Kokkos::DefaultExecutionSpace> class DeviceGlobals {
  static_assert(std::is_arithmetic<T>::value, "umesh::DeviceGlobals holds arithmetic types");
  using State = detail::DeviceGlobalState<T, Space>;

public:
  using value_type = T;
  using execution_space = Space;
  using memory_space = typename Space::memory_space;

  explicit DeviceGlobals(std::string name, const Space &space = Space())
      : s_(std::make_shared<State>()) {
    s_->space = space;
    s_->name = std::move(name);
    s_->values = Kokkos::View<T *, memory_space>("umesh::DeviceGlobals::" + s_->name, 0);
  }

  /// A global of `Dim` components that loops reduce into with reduce_sum.
  template <int Dim = 1> DeviceGlobal<T, Dim, Space> sum(std::string name, T initial = T(0)) {
    return add<Dim>(std::move(name), Reduction::sum, initial);
  }
  /// A global that loops reduce into with reduce_min.
  template <int Dim = 1> DeviceGlobal<T, Dim, Space> min(std::string name, T initial) {
    return add<Dim>(std::move(name), Reduction::min, initial);
  }
  /// A global that loops reduce into with reduce_max.
  template <int Dim = 1> DeviceGlobal<T, Dim, Space> max(std::string name, T initial) {
    return add<Dim>(std::move(name), Reduction::max, initial);
  }

  /// Every global back to its initial value, on the device (in order with
  /// the loops; the host does not wait). `partial`: a sum starts from zero
  /// instead (one of several ranks' shares, umesh::dist::reset).
  void reset(bool partial = false) {
    Kokkos::deep_copy(s_->space, s_->values, partial ? s_->partial : s_->initial);
    s_->reduced_since_fetch = true;
  }

  /// Waits for the device (once) and copies every global's value to the host.
  void fetch() {
    detail::as_host_sync([&] { Kokkos::deep_copy(s_->host, s_->values); });
    s_->reduced_since_fetch = false;
    s_->fetched = true;
  }

  const std::string &name() const { return s_->name; }
  /// Host values of every global from the last fetch, in order of creation
  /// (what umesh::dist::fetch combines over the ranks).
  T *host_values() const { return s_->host.data(); }
  /// The reduction of each host value (host_values()[i]).
  std::vector<Reduction> reductions() const {
    std::vector<Reduction> out(s_->size());
    for (const auto &slot : s_->slots)
      for (int k = 0; k < slot.dim; ++k)
        out[slot.offset + k] = slot.reduction;
    return out;
  }

private:
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
    // rebuilt from the host's initial values and keep the values so far.
    const int n = s_->size();
    Kokkos::resize(s_->values, n);
    Kokkos::deep_copy(Kokkos::subview(s_->values, std::make_pair(offset, n)), initial);
    std::vector<T> partial = s_->initial_host;
    for (const auto &slot : s_->slots)
      if (slot.reduction == Reduction::sum)
        std::fill(partial.begin() + slot.offset, partial.begin() + slot.offset + slot.dim, T(0));
    s_->initial = upload(s_->initial_host, "initial");
    s_->partial = upload(partial, "partial");
    s_->host =
        Kokkos::View<T *, Kokkos::HostSpace>("umesh::DeviceGlobals::" + s_->name + "::host", n);
    return DeviceGlobal<T, Dim, Space>(s_, offset);
  }
  Kokkos::View<T *, memory_space> upload(const std::vector<T> &src, const char *what) const {
    Kokkos::View<T *, memory_space> dst(
        Kokkos::view_alloc(Kokkos::WithoutInitializing,
                           "umesh::DeviceGlobals::" + s_->name + "::" + what),
        src.size());
    Kokkos::deep_copy(dst, Kokkos::View<const T *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                               src.data(), src.size()));
    return dst;
  }

  std::shared_ptr<State> s_;
};

/// One global of a DeviceGlobals store: `Dim` values on the device, read on
/// the host after the store's fetch().
template <class T, int Dim = 1, class Space = Kokkos::DefaultExecutionSpace> class DeviceGlobal {
  using State = detail::DeviceGlobalState<T, Space>;

public:
  using value_type = T;
  using execution_space = Space;
  using memory_space = typename Space::memory_space;
  static constexpr int dim = Dim;

  /// Component k as of the store's last fetch(); fails when a loop reduced
  /// into the store since (the value would be out of date) or it never
  /// fetched.
  T operator[](int k) const {
    if (k < 0 || k >= Dim)
      detail::fail("device global '", name(), "' has ", Dim, " components, not ", k + 1);
    if (!s_->fetched || s_->reduced_since_fetch)
      detail::fail("device global '", name(), "' of store '", s_->name, "' is read before ",
                   s_->fetched ? "a fetch() after the loops that reduced into it"
                               : "the store's first fetch()");
    return s_->host(offset_ + k);
  }
  T value() const { return (*this)[0]; }

  const std::string &name() const { return s_->slot_at(offset_).name; }
  Reduction reduction() const { return s_->slot_at(offset_).reduction; }
  /// The store this global belongs to.
  const std::string &store() const { return s_->name; }

  // For loops: where the values live on the device, a sink of at least
  // `bytes` for results nobody reads, and the mark that the host copy is out
  // of date.
  T *device_data() const { return s_->values.data() + offset_; }
  void *sink(std::size_t bytes) const {
    if (s_->sink.extent(0) < bytes) // (nobody reads it: no initialising launch)
      s_->sink = Kokkos::View<char *, memory_space>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::DeviceGlobals::sink"), bytes);
    return s_->sink.data();
  }
  void mark_reduced() const { s_->reduced_since_fetch = true; }
  const void *key() const { return device_data(); }

private:
  friend class DeviceGlobals<T, Space>;
  DeviceGlobal(std::shared_ptr<State> s, int offset) : s_(std::move(s)), offset_(offset) {}
  std::shared_ptr<State> s_;
  int offset_;
};

/// A loop argument that reduces into a device global.
template <Reduction R, class T, int Dim, class Space> struct DeviceGlobalArg {
  static constexpr Reduction reduction = R;
  DeviceGlobal<T, Dim, Space> global;
};

/// Global sum, minimum and maximum into device globals (as for Global): the
/// kernel's accessor is the same, the result stays on the device.
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
