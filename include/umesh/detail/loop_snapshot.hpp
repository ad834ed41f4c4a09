#ifndef UMESH_DETAIL_LOOP_SNAPSHOT_HPP
#define UMESH_DETAIL_LOOP_SNAPSHOT_HPP

// Everything a loop may change -- dats it writes, increments or folds into,
// and its global reductions -- saved once and put back on demand, so that
// trial runs of a loop leave no trace in its outputs.

#include <umesh/access.hpp>
#include <umesh/device_global.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
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
    save_bytes<typename S::memory_space>(DeviceGlobalAccess::values(a.global), D * sizeof(T),
                                         a.global.name());
  }
  template <class DatT> void save_dat(const DatT &d) {
    const void *key = d.view().data();
    for (const void *k : saved_)
      if (k == key)
        return;
    saved_.push_back(key);
    // Dats are contiguous (padding included): their bytes are their values.
    using View = typename DatT::view_type;
    save_bytes<typename View::memory_space>(
        d.view().data(), d.view().span() * sizeof(typename View::value_type), d.name());
  }
  // Copies as bytes: at most one copy kernel per memory space (none on the
  // host), not one per dat type, in what a loop under exec::Auto compiles.
  template <class Mem>
  void save_bytes(const void *data, std::size_t bytes, const std::string &name) {
    unsigned char *at = static_cast<unsigned char *>(const_cast<void *>(data));
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) {
      auto copy = std::make_shared<std::vector<unsigned char>>(at, at + bytes);
      restores_.push_back([at, copy] { std::memcpy(at, copy->data(), copy->size()); });
    } else {
      using Bytes = Kokkos::View<unsigned char *, Mem, Kokkos::MemoryUnmanaged>;
      const Kokkos::View<unsigned char *, Mem> owner(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::Auto::saved_" + name), bytes);
      const Bytes view(at, bytes), copy(owner.data(), bytes);
      Kokkos::deep_copy(copy, view);
      restores_.push_back([view, copy, owner] { Kokkos::deep_copy(view, copy); });
    }
  }

  std::vector<const void *> saved_;
  std::vector<std::function<void()>> restores_;
};

} // namespace umesh::detail

#endif
