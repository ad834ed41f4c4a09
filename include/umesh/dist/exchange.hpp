#ifndef UMESH_DIST_EXCHANGE_HPP
#define UMESH_DIST_EXCHANGE_HPP

// Halo exchange of one distributed set with its neighbour ranks: import
// (owners' values into the halo copies) and export-add (halo increments
// added into the owners' points). Values are packed on the dat's device,
// staged through host buffers and sent with MPI, so MPI need not be
// CUDA-aware.

#include <umesh/dat.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <mpi.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::dist {

class Exchange {
public:
  explicit Exchange(MPI_Comm comm) : comm_(comm) {}

  /// `send`: local ids of owned points that `rank` holds as halo; `recv`:
  /// local ids of this rank's halo points that `rank` owns. Both in the
  /// order the two ranks agree on (ascending global id).
  void add_neighbour(int rank, const std::vector<int> &send, const std::vector<int> &recv) {
    if (send.empty() && recv.empty())
      return;
    neighbours_.push_back({rank, send, recv, {}, {}, {}, {}, {}});
  }

  /// Wall seconds spent in import() and export_add() so far (packing,
  /// copies, MPI), for reports of the communication share.
  double seconds() const { return phases_.pack + phases_.wait + phases_.unpack; }
  /// Where those seconds went: packing on the device and copying to the
  /// host; waiting for MPI (which counts a neighbour still busy with its own
  /// loop); copying back and unpacking.
  struct Phases {
    double pack = 0, wait = 0, unpack = 0;
  };
  Phases phases() const { return phases_; }
  /// Neighbour ranks, for reports.
  int neighbours() const { return int(neighbours_.size()); }
  /// Halo points received per import, over all neighbours.
  std::size_t halo_points() const {
    std::size_t n = 0;
    for (const auto &nb : neighbours_)
      n += nb.recv.size();
    return n;
  }

  /// What the values sent to owners do there.
  enum class Combine { add, min, max };

  /// Halo copies of `d` take their owners' values.
  template <class T, int D, class L, class M> void import(const Dat<T, D, L, M> &d) const {
    exchange(d, /*to_owners=*/false, Combine::add);
  }
  /// Owners add the values in their points' halo copies elsewhere.
  template <class T, int D, class L, class M> void export_add(const Dat<T, D, L, M> &d) const {
    exchange(d, /*to_owners=*/true, Combine::add);
  }
  /// Owners fold the values in their points' halo copies elsewhere in with
  /// min or max.
  template <class T, int D, class L, class M>
  void export_combine(const Dat<T, D, L, M> &d, Combine how) const {
    exchange(d, /*to_owners=*/true, how);
  }

  /// import() (to_owners false) or an export (true, combined by `how`).
  /// Public only because nvcc's device lambdas cannot live in private
  /// member functions.
  template <class T, int D, class L, class M>
  void exchange(const Dat<T, D, L, M> &d, bool to_owners, Combine how) const {
    if (neighbours_.empty())
      return;
    using Exec = typename Dat<T, D, L, M>::view_type::execution_space;
    using Typed = Kokkos::View<T **, Kokkos::LayoutRight, M, Kokkos::MemoryUnmanaged>;
    // The loops before this one finish first: their time is not exchange time.
    Kokkos::fence();
    Kokkos::Timer timer;
    const auto v = d.view();
    const int tag = to_owners ? 702 : 701;
    const std::size_t nb = neighbours_.size();
    std::vector<MPI_Request> requests;
    requests.reserve(2 * nb);
    for (std::size_t i = 0; i < nb; ++i) {
      Neighbour &n = neighbours_[i];
      // Import: owners send their points, the halo receives. Export: the
      // reverse.
      const int outgoing = int(to_owners ? n.recv.size() : n.send.size());
      const int incoming = int(to_owners ? n.send.size() : n.recv.size());
      const std::size_t out_bytes = std::size_t(outgoing) * D * sizeof(T);
      const std::size_t in_bytes = std::size_t(incoming) * D * sizeof(T);
      n.host_in.resize(std::max(n.host_in.size(), in_bytes));
      n.host_out.resize(std::max(n.host_out.size(), out_bytes));
      requests.emplace_back();
      MPI_Irecv(n.host_in.data(), int(in_bytes), MPI_BYTE, n.rank, tag, comm_, &requests.back());
      const auto ids = indices<M>(n, /*send=*/!to_owners);
      const Typed packed(reinterpret_cast<T *>(buffer<M>(n, out_bytes).data()), outgoing, D);
      Kokkos::parallel_for(
          "umesh::dist::pack", Kokkos::RangePolicy<Exec>(0, outgoing), KOKKOS_LAMBDA(int j) {
            for (int k = 0; k < D; ++k)
              packed(j, k) = v(ids(j), k);
          });
      Kokkos::deep_copy(host_bytes(n.host_out, out_bytes), bytes_of(packed, out_bytes));
      requests.emplace_back();
      MPI_Isend(n.host_out.data(), int(out_bytes), MPI_BYTE, n.rank, tag, comm_, &requests.back());
    }
    const double packed_at = timer.seconds();
    if (MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      detail::fail("dist: halo exchange of dat '", d.name(), "' failed in MPI_Waitall");
    const double arrived_at = timer.seconds();
    // Unpacked one neighbour at a time: an owned point shared with several
    // ranks is combined once per rank, never concurrently.
    for (std::size_t i = 0; i < nb; ++i) {
      Neighbour &n = neighbours_[i];
      const int incoming = int(to_owners ? n.send.size() : n.recv.size());
      const std::size_t in_bytes = std::size_t(incoming) * D * sizeof(T);
      const Typed buf(reinterpret_cast<T *>(buffer<M>(n, in_bytes).data()), incoming, D);
      Kokkos::deep_copy(bytes_of(buf, in_bytes), host_bytes(n.host_in, in_bytes));
      const auto ids = indices<M>(n, /*send=*/to_owners);
      if (to_owners && how == Combine::add)
        Kokkos::parallel_for(
            "umesh::dist::unpack_add", Kokkos::RangePolicy<Exec>(0, incoming),
            KOKKOS_LAMBDA(int j) {
              for (int k = 0; k < D; ++k)
                v(ids(j), k) += buf(j, k);
            });
      else if (to_owners)
        Kokkos::parallel_for(
            "umesh::dist::unpack_minmax", Kokkos::RangePolicy<Exec>(0, incoming),
            KOKKOS_LAMBDA(int j) {
              for (int k = 0; k < D; ++k) {
                const T x = buf(j, k), y = v(ids(j), k);
                v(ids(j), k) = (how == Combine::min) == (x < y) ? x : y;
              }
            });
      else
        Kokkos::parallel_for(
            "umesh::dist::unpack", Kokkos::RangePolicy<Exec>(0, incoming), KOKKOS_LAMBDA(int j) {
              for (int k = 0; k < D; ++k)
                v(ids(j), k) = buf(j, k);
            });
    }
    Kokkos::fence();
    const double done_at = timer.seconds();
    phases_.pack += packed_at;
    phases_.wait += arrived_at - packed_at;
    phases_.unpack += done_at - arrived_at;
  }

private:
  using DeviceMemory = Kokkos::DefaultExecutionSpace::memory_space;
  using Bytes = Kokkos::View<char *, DeviceMemory>;
  struct Neighbour {
    int rank;
    std::vector<int> send, recv;
    Kokkos::View<int *, DeviceMemory> send_dev, recv_dev; // the lists on the device
    Bytes staging;                                        // pack/unpack buffer, grown
    std::vector<char> host_in, host_out;                  // MPI's buffers, grown
  };

  // A neighbour's index list in memory space M (cached for the default
  // device; built per call elsewhere).
  template <class M> static Kokkos::View<const int *, M> indices(Neighbour &n, bool send) {
    const std::vector<int> &ids = send ? n.send : n.recv;
    auto &cached = send ? n.send_dev : n.recv_dev;
    auto upload = [&](auto view) {
      Kokkos::deep_copy(view, Kokkos::View<const int *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                  ids.data(), ids.size()));
      return view;
    };
    if constexpr (std::is_same<M, DeviceMemory>::value) {
      if (cached.extent(0) != ids.size())
        cached = upload(Kokkos::View<int *, DeviceMemory>("umesh::dist::ids", ids.size()));
      return cached;
    } else {
      return upload(Kokkos::View<int *, M>("umesh::dist::ids", ids.size()));
    }
  }
  // A staging buffer of at least `bytes` in memory space M (cached for the
  // default device).
  template <class M> static Kokkos::View<char *, M> buffer(Neighbour &n, std::size_t bytes) {
    if constexpr (std::is_same<M, DeviceMemory>::value) {
      if (n.staging.extent(0) < bytes)
        n.staging =
            Bytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::dist::staging"), bytes);
      return n.staging;
    } else {
      return Kokkos::View<char *, M>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::dist::staging"), bytes);
    }
  }
  static Kokkos::View<char *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>
  host_bytes(std::vector<char> &v, std::size_t bytes) {
    return Kokkos::View<char *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), bytes);
  }
  template <class V> static auto bytes_of(const V &typed, std::size_t bytes) {
    return Kokkos::View<char *, typename V::memory_space, Kokkos::MemoryUnmanaged>(
        reinterpret_cast<char *>(typed.data()), bytes);
  }

  MPI_Comm comm_;
  mutable std::vector<Neighbour> neighbours_; // caches grow inside const exchanges
  mutable Phases phases_;
};

} // namespace umesh::dist

#endif
