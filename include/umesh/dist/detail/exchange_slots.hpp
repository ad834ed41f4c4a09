#ifndef UMESH_DIST_DETAIL_EXCHANGE_SLOTS_HPP
#define UMESH_DIST_DETAIL_EXCHANGE_SLOTS_HPP

// The buffers of the halo exchanges under way (dist::Exchange): one set an
// exchange, kept and grown for the next exchange that takes the slot.

#include <umesh/dist/detail/exchange_timing.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

namespace umesh::detail {

using DeviceBytes = Kokkos::View<char *, Kokkos::DefaultExecutionSpace::memory_space>;

/// One exchange's buffers, every neighbour's rows in neighbour order.
struct ExchangeBuffers {
  DeviceBytes out, in;                 // packed and arrived values on the device
  std::vector<char> host_in, host_out; // MPI's buffers (host path)
  ExchangeMarks marks;                 // timed exchanges through NCCL
};

/// The sets of buffers, one per exchange under way.
class ExchangeSlots {
public:
  /// A free set for a new exchange (one more if all are in use). The new
  /// set must not move the others: MPI may be writing into a set's host_in
  /// (MPI_Irecv) or reading its host_out while its exchange is under way.
  /// Hence one allocation per set: a std::vector<ExchangeBuffers> that grows
  /// moves its elements, or copies them where their move may throw (Kokkos
  /// 4's View declares a move constructor without noexcept), and a copy
  /// frees the host buffers that MPI still fills.
  int take() {
    int s = 0;
    while (s < int(busy_.size()) && busy_[s])
      ++s;
    if (s == int(busy_.size())) {
      busy_.push_back(0);
      sets_.push_back(std::make_unique<ExchangeBuffers>());
    }
    busy_[s] = 1;
    return s;
  }
  void release(int s) { busy_[s] = 0; }
  ExchangeBuffers &operator[](int s) { return *sets_[s]; }

private:
  std::vector<std::unique_ptr<ExchangeBuffers>> sets_;
  std::vector<char> busy_; // [slot]: an exchange under way uses it
};

/// A staging buffer of at least `bytes` in memory space M (`cached`, grown,
/// for the default device; a new one elsewhere).
template <class M> Kokkos::View<char *, M> staging(DeviceBytes &cached, std::size_t bytes) {
  if constexpr (std::is_same<M, DeviceBytes::memory_space>::value) {
    if (cached.extent(0) < bytes)
      cached = DeviceBytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::dist::staging"),
                           bytes);
    return cached;
  } else {
    return Kokkos::View<char *, M>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::dist::staging"), bytes);
  }
}
/// The first `bytes` of a host vector, or of a typed View, as bytes.
inline Kokkos::View<char *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>
host_bytes(std::vector<char> &v, std::size_t bytes) {
  return Kokkos::View<char *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), bytes);
}
template <class V> auto bytes_of(const V &typed, std::size_t bytes) {
  return Kokkos::View<char *, typename V::memory_space, Kokkos::MemoryUnmanaged>(
      reinterpret_cast<char *>(typed.data()), bytes);
}

} // namespace umesh::detail

#endif
