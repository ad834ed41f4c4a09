#ifndef UMESH_DIST_EXCHANGE_HPP
#define UMESH_DIST_EXCHANGE_HPP

// Halo exchange of one distributed set with its neighbour ranks: import
// (owners' values into the halo copies) and export-add (halo increments
// added into the owners' points). Values are packed on the dat's device and
// either staged through host buffers and sent with MPI, so MPI need not be
// CUDA-aware, or (use_nccl) sent device to device with NCCL on the loops'
// stream.

#include <umesh/dat.hpp>
#include <umesh/dist/nccl.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <mpi.h>

#include <algorithm>
#include <memory>
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
    neighbours_.push_back({rank, send, recv, {}, {}, std::vector<Buffers>(busy_.size())});
  }

  /// Sends and receives of dats in the default device's memory go through
  /// `nccl` (device to device, on the loops' stream, no host copies or
  /// waits); dats elsewhere still go through the host. Every rank of the
  /// communicator makes the same choice.
  /// Collective over the neighbours: NCCL connects a pair of ranks on their
  /// first sends and receives (lazily, as many channels as a message's size
  /// takes), which takes milliseconds; one exchange of 16 values of 8 bytes
  /// a point here makes the connections at setup, not in the first
  /// exchanges.
  void use_nccl(std::shared_ptr<const NcclComm> nccl) {
    nccl_ = std::move(nccl);
    connect_nccl();
  }
  bool uses_nccl() const { return bool(nccl_); }

  /// On: each half of every exchange fences the device before and after,
  /// so seconds() counts the device's packing, NCCL's transfers and the
  /// unpacking, not only the host's part; before its timer starts, an
  /// exchange also waits for its neighbour ranks to reach it, timed
  /// apart as Phases::skew (a rank whose loops ran longer is load imbalance,
  /// not exchange cost). For reports of the communication share of GPU
  /// runs; it costs the overlap of exchanges with loops.
  void time_on_device(bool on) { time_on_device_ = on; }
  bool times_on_device() const { return time_on_device_; }

  /// Wall seconds spent in import() and export_add() so far (packing,
  /// copies, MPI), for reports of the communication share. With NCCL, the
  /// host's time to launch the exchange's work (it waits for nothing)
  /// unless time_on_device() is on.
  double seconds() const { return phases_.pack + phases_.wait + phases_.unpack; }
  /// Where those seconds went: packing on the device and copying to the
  /// host; waiting for MPI (which counts a neighbour still busy with its own
  /// loop) or, through NCCL and timed on the device, the transfers; copying
  /// back and unpacking. skew: timed on the device only, the wait before
  /// each exchange for the neighbour ranks' loops to end (not part of
  /// seconds()).
  struct Phases {
    double pack = 0, wait = 0, unpack = 0, skew = 0;
  };
  Phases phases() const { return phases_; }
  /// Exchanges started so far (one per import or export of one dat with a
  /// neighbour), so reports can give the cost of one.
  std::size_t exchanges() const { return exchanges_; }
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

  /// An exchange under way: started by start(), completed by finish().
  /// Between the two, MPI moves the values while the caller's device work
  /// (a loop over elements that reach no halo point) runs.
  struct Pending {
    int slot = -1; ///< buffers in use; -1 when nothing is under way
    bool to_owners = false;
    bool device = false; ///< through NCCL
    Combine how = Combine::add;
    std::vector<MPI_Request> requests;
  };

  /// import() (to_owners false) or an export (true, combined by `how`), in
  /// one call.
  template <class T, int D, class L, class M>
  void exchange(const Dat<T, D, L, M> &d, bool to_owners, Combine how) const {
    Pending p = start(d, to_owners, how);
    finish(d, p);
  }

  /// First half of an exchange: packs what leaves this rank, copies it to
  /// the host and posts the sends and receives. Several exchanges (of
  /// different dats) may be under way at once; every rank starts and
  /// finishes them in the same order. Public only because nvcc's device
  /// lambdas cannot live in private member functions.
  template <class T, int D, class L, class M>
  Pending start(const Dat<T, D, L, M> &d, bool to_owners, Combine how) const {
    Pending p;
    p.to_owners = to_owners;
    p.how = how;
    if (neighbours_.empty())
      return p;
    ++exchanges_;
    using Exec = typename Dat<T, D, L, M>::view_type::execution_space;
    using Typed = Kokkos::View<T **, Kokkos::LayoutRight, M, Kokkos::MemoryUnmanaged>;
    p.device = device_path<M>();
    // Host path: the loops before this one finish first (their time is not
    // exchange time). NCCL's sends follow them on the stream.
    if (!p.device || time_on_device_)
      Kokkos::fence();
    if (time_on_device_)
      phases_.skew += meet_neighbours();
    Kokkos::Timer timer;
    p.slot = take_slot();
    const auto v = d.view();
    const int tag = to_owners ? 702 : 701;
    p.requests.reserve(2 * neighbours_.size());
    for (Neighbour &n : neighbours_) {
      Buffers &b = n.slots[p.slot];
      // Import: owners send their points, the halo receives. Export: the
      // reverse.
      const int out = int(outgoing(n, to_owners));
      const std::size_t out_bytes = std::size_t(out) * D * sizeof(T);
      const std::size_t in_bytes = incoming(n, to_owners) * D * sizeof(T);
      if (!p.device) {
        b.host_in.resize(std::max(b.host_in.size(), in_bytes));
        b.host_out.resize(std::max(b.host_out.size(), out_bytes));
        p.requests.emplace_back();
        MPI_Irecv(b.host_in.data(), int(in_bytes), MPI_BYTE, n.rank, tag, comm_,
                  &p.requests.back());
      }
      const auto ids = indices<M>(n, /*send=*/!to_owners);
      const Typed packed(reinterpret_cast<T *>(buffer<M>(b.out, out_bytes).data()), out, D);
      Kokkos::parallel_for(
          "umesh::dist::pack", Kokkos::RangePolicy<Exec>(0, out), KOKKOS_LAMBDA(int j) {
            for (int k = 0; k < D; ++k)
              packed(j, k) = v(ids(j), k);
          });
      if (!p.device) {
        Kokkos::deep_copy(host_bytes(b.host_out, out_bytes), bytes_of(packed, out_bytes));
        p.requests.emplace_back();
        MPI_Isend(b.host_out.data(), int(out_bytes), MPI_BYTE, n.rank, tag, comm_,
                  &p.requests.back());
      }
    }
    if (p.device) {
      if (time_on_device_) { // the packing apart from NCCL's transfers
        Kokkos::fence();
        phases_.pack += timer.seconds();
        timer.reset();
      }
      send_through_nccl<M>(p.slot, to_owners, D * sizeof(T));
      if (time_on_device_) {
        Kokkos::fence();
        phases_.wait += timer.seconds();
        return p;
      }
    } else if (time_on_device_) {
      Kokkos::fence();
    }
    phases_.pack += timer.seconds();
    return p;
  }

  /// Second half: waits for what arrives, copies it to the device and
  /// stores it (import) or combines it into the owned points (export).
  /// Device work launched since start() runs first.
  template <class T, int D, class L, class M>
  void finish(const Dat<T, D, L, M> &d, Pending &p) const {
    if (p.slot < 0)
      return;
    using Exec = typename Dat<T, D, L, M>::view_type::execution_space;
    using Typed = Kokkos::View<T **, Kokkos::LayoutRight, M, Kokkos::MemoryUnmanaged>;
    // Timed on the device: the loop an overlapped par_loop ran between the
    // halves finishes first (its time is not exchange time).
    if (time_on_device_)
      Kokkos::fence();
    Kokkos::Timer timer;
    const bool to_owners = p.to_owners;
    const Combine how = p.how;
    const auto v = d.view();
    if (!p.device &&
        MPI_Waitall(int(p.requests.size()), p.requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      detail::fail("dist: halo exchange of dat '", d.name(), "' failed in MPI_Waitall");
    const double arrived_at = timer.seconds();
    // Unpacked one neighbour at a time: an owned point shared with several
    // ranks is combined once per rank, never concurrently.
    for (Neighbour &n : neighbours_) {
      Buffers &b = n.slots[p.slot];
      const int in = int(incoming(n, to_owners));
      const std::size_t in_bytes = std::size_t(in) * D * sizeof(T);
      const Typed buf(reinterpret_cast<T *>(buffer<M>(b.in, in_bytes).data()), in, D);
      if (!p.device)
        Kokkos::deep_copy(bytes_of(buf, in_bytes), host_bytes(b.host_in, in_bytes));
      const auto ids = indices<M>(n, /*send=*/to_owners);
      if (to_owners && how == Combine::add)
        Kokkos::parallel_for(
            "umesh::dist::unpack_add", Kokkos::RangePolicy<Exec>(0, in), KOKKOS_LAMBDA(int j) {
              for (int k = 0; k < D; ++k)
                v(ids(j), k) += buf(j, k);
            });
      else if (to_owners)
        Kokkos::parallel_for(
            "umesh::dist::unpack_minmax", Kokkos::RangePolicy<Exec>(0, in), KOKKOS_LAMBDA(int j) {
              for (int k = 0; k < D; ++k) {
                const T x = buf(j, k), y = v(ids(j), k);
                v(ids(j), k) = (how == Combine::min) == (x < y) ? x : y;
              }
            });
      else
        Kokkos::parallel_for(
            "umesh::dist::unpack", Kokkos::RangePolicy<Exec>(0, in), KOKKOS_LAMBDA(int j) {
              for (int k = 0; k < D; ++k)
                v(ids(j), k) = buf(j, k);
            });
    }
    // Host path: the buffers are free once the unpacking is done. NCCL's
    // next use of them follows on the stream.
    if (!p.device || time_on_device_)
      Kokkos::fence();
    busy_[p.slot] = 0;
    p.slot = -1;
    phases_.wait += arrived_at;
    phases_.unpack += timer.seconds() - arrived_at;
  }

private:
  using DeviceMemory = Kokkos::DefaultExecutionSpace::memory_space;
  using Bytes = Kokkos::View<char *, DeviceMemory>;
  // One exchange's buffers with one neighbour, grown as needed.
  struct Buffers {
    Bytes out, in;                       // packed and arrived values on the device
    std::vector<char> host_in, host_out; // MPI's buffers (host path)
  };
  struct Neighbour {
    int rank;
    std::vector<int> send, recv;
    Kokkos::View<int *, DeviceMemory> send_dev, recv_dev; // the lists on the device
    std::vector<Buffers> slots;                           // one per exchange under way
  };

  // Waits until every neighbour rank has reached this exchange too (an
  // empty message each way); the seconds it took. Neighbours are mutual, and
  // both sides of a pair start the same exchanges in the same order.
  double meet_neighbours() const {
    Kokkos::Timer timer;
    std::vector<MPI_Request> requests(2 * neighbours_.size());
    char none = 0, sink = 0;
    for (std::size_t i = 0; i < neighbours_.size(); ++i) {
      MPI_Irecv(&sink, 0, MPI_BYTE, neighbours_[i].rank, 703, comm_, &requests[2 * i]);
      MPI_Isend(&none, 0, MPI_BYTE, neighbours_[i].rank, 703, comm_, &requests[2 * i + 1]);
    }
    if (MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      detail::fail("dist: waiting for the neighbour ranks before a timed halo exchange failed");
    return timer.seconds();
  }

  // A free set of buffers for a new exchange (one more if all are in use).
  int take_slot() const {
    int s = 0;
    while (s < int(busy_.size()) && busy_[s])
      ++s;
    if (s == int(busy_.size())) {
      busy_.push_back(0);
      for (Neighbour &n : neighbours_)
        n.slots.emplace_back();
    }
    busy_[s] = 1;
    return s;
  }

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
  template <class M> static Kokkos::View<char *, M> buffer(Bytes &cached, std::size_t bytes) {
    if constexpr (std::is_same<M, DeviceMemory>::value) {
      if (cached.extent(0) < bytes)
        cached =
            Bytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::dist::staging"), bytes);
      return cached;
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

  // Points sent and received per exchange: an import sends owned points
  // and receives halo copies; an export the reverse.
  static std::size_t outgoing(const Neighbour &n, bool to_owners) {
    return to_owners ? n.recv.size() : n.send.size();
  }
  static std::size_t incoming(const Neighbour &n, bool to_owners) {
    return to_owners ? n.send.size() : n.recv.size();
  }

  // Whether dats in memory space M go through NCCL.
  template <class M> bool device_path() const {
#if defined(UMESH_HAS_NCCL)
    return nccl_ && std::is_same<M, DeviceMemory>::value;
#else
    return false;
#endif
  }

  // The sends and receives of slot `slot` (values of `row_bytes` each) as one
  // NCCL group on the default execution space's stream, after the packing.
  template <class M> void send_through_nccl(int slot, bool to_owners, std::size_t row_bytes) const {
#if defined(UMESH_HAS_NCCL)
    if constexpr (std::is_same<M, DeviceMemory>::value) {
      const cudaStream_t stream = Kokkos::DefaultExecutionSpace().cuda_stream();
      NcclComm::check(ncclGroupStart(), "ncclGroupStart");
      for (Neighbour &n : neighbours_) {
        Buffers &b = n.slots[slot];
        const std::size_t out = outgoing(n, to_owners) * row_bytes;
        const std::size_t in = incoming(n, to_owners) * row_bytes;
        void *into = buffer<M>(b.in, in).data();
        NcclComm::check(ncclRecv(into, in, ncclChar, n.rank, nccl_->get(), stream), "ncclRecv");
        NcclComm::check(ncclSend(b.out.data(), out, ncclChar, n.rank, nccl_->get(), stream),
                        "ncclSend");
      }
      NcclComm::check(ncclGroupEnd(), "ncclGroupEnd");
    }
#else
    (void)slot, (void)to_owners, (void)row_bytes;
#endif
  }

  // An exchange of 128 bytes a point with every neighbour through NCCL,
  // waited for.
  void connect_nccl() const {
#if defined(UMESH_HAS_NCCL)
    if (neighbours_.empty())
      return;
    const std::size_t row = 128;
    std::size_t most = 1, all = 1; // one source for every send, a place each to receive
    for (const Neighbour &n : neighbours_) {
      most = std::max(most, n.send.size() * row);
      all += n.recv.size() * row;
    }
    const Bytes out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::dist::connect"), most);
    const Bytes in(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::dist::connect"), all);
    const cudaStream_t stream = Kokkos::DefaultExecutionSpace().cuda_stream();
    Kokkos::fence();
    NcclComm::check(ncclGroupStart(), "ncclGroupStart");
    std::size_t at = 0;
    for (const Neighbour &n : neighbours_) {
      NcclComm::check(
          ncclRecv(in.data() + at, n.recv.size() * row, ncclChar, n.rank, nccl_->get(), stream),
          "ncclRecv");
      at += n.recv.size() * row;
      NcclComm::check(
          ncclSend(out.data(), n.send.size() * row, ncclChar, n.rank, nccl_->get(), stream),
          "ncclSend");
    }
    NcclComm::check(ncclGroupEnd(), "ncclGroupEnd");
    Kokkos::fence();
#endif
  }

  MPI_Comm comm_;
  std::shared_ptr<const NcclComm> nccl_;
  mutable std::vector<Neighbour> neighbours_; // caches grow inside const exchanges
  mutable std::vector<char> busy_;            // [slot]: an exchange under way uses it
  mutable Phases phases_;
  mutable std::size_t exchanges_ = 0;
  bool time_on_device_ = false;
};

} // namespace umesh::dist

#endif
