#ifndef UMESH_DETAIL_LOOP_SNAPSHOT_HPP
#define UMESH_DETAIL_LOOP_SNAPSHOT_HPP

// Everything a loop may change -- dats it writes, increments or folds into,
// and its global reductions -- saved once and put back on demand, so that
// trial runs of a loop leave no trace in its outputs.

#include <umesh/access.hpp>
#include <umesh/device_global.hpp>

#include <Kokkos_Core.hpp>

#include <functional>
#include <vector>

namespace umesh::detail {

class LoopSnapshot {
public:
  template <class... Args> explicit LoopSnapshot(const Args &...args) { (save(args), ...); }

  /// Puts every saved output back as it was (a dat saved once even when
  /// several arguments name it).
  void restore() const {
    for (const auto &r : restores_)
      r();
  }

private:
  template <Access A, class DatT> void save(const DirectArg<A, DatT> &a) {
    if constexpr (A != Access::read)
      save_dat(a.dat);
  }
  template <Access A, class DatT, class MapT> void save(const IndirectArg<A, DatT, MapT> &a) {
    if constexpr (A != Access::read)
      save_dat(a.dat);
  }
  template <Reduction R, class T, int D> void save(const GlobalArg<R, T, D> &a) {
    Global<T, D> *global = a.global;
    const Global<T, D> before = *global;
    restores_.push_back([global, before] { *global = before; });
  }
  template <Reduction R, class T, int D, class S> void save(const DeviceGlobalArg<R, T, D, S> &a) {
    using Values = Kokkos::View<T *, typename S::memory_space, Kokkos::MemoryUnmanaged>;
    const Values values(DeviceGlobalAccess::values(a.global), D);
    Kokkos::View<T *, typename S::memory_space> copy(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Auto::saved_" + a.global.name()),
        D);
    Kokkos::deep_copy(copy, values);
    restores_.push_back([values, copy] { Kokkos::deep_copy(values, copy); });
  }
  template <class DatT> void save_dat(const DatT &d) {
    const void *key = d.view().data();
    for (const void *k : saved_)
      if (k == key)
        return;
    saved_.push_back(key);
    using View = typename DatT::view_type;
    View copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Auto::saved_" + d.name()),
              d.view().extent(0));
    Kokkos::deep_copy(copy, d.view());
    const View view = d.view();
    restores_.push_back([view, copy] { Kokkos::deep_copy(view, copy); });
  }

  std::vector<const void *> saved_;
  std::vector<std::function<void()>> restores_;
};

} // namespace umesh::detail

#endif
