#ifndef UMESH_DIST_EXCHANGE_HPP
#define UMESH_DIST_EXCHANGE_HPP

// Halo exchange of one distributed set with its neighbour ranks: import
// (owners' values into the halo copies) and export-add (halo increments
// added into the owners' points). Values are packed on the dat's device, for
// all neighbours in one kernel, and either staged through host buffers and
// sent with MPI, so MPI need not be CUDA-aware, or (use_nccl) sent device to
// device with NCCL on the loops' stream.

#include <umesh/dat.hpp>
#include <umesh/dist/detail/exchange_slots.hpp>
#include <umesh/dist/detail/exchange_timing.hpp>
#include <umesh/dist/nccl.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <limits>
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
    neighbours_.push_back(rank);
    send_all_.insert(send_all_.end(), send.begin(), send.end());
    recv_all_.insert(recv_all_.end(), recv.begin(), recv.end());
    send_at_.push_back(send_all_.size());
    recv_at_.push_back(recv_all_.size());
    send_dev_ = recv_dev_ = {}; // uploaded again when next needed
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

  /// On: seconds() counts the device's packing, transfers and unpacking,
  /// not only the host's part. Through the host each phase is fenced;
  /// through NCCL the device is fenced before the exchange and after it,
  /// its phases timed between by CUDA events on the stream. Before its
  /// timer starts, an
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
  double seconds() const { return phases_.seconds(); }
  /// Where those seconds went (umesh::detail::ExchangePhases).
  using Phases = umesh::detail::ExchangePhases;
  Phases phases() const { return phases_; }
  /// Exchanges started so far (one per import or export of one dat with a
  /// neighbour), so reports can give the cost of one.
  std::size_t exchanges() const { return exchanges_; }
  /// Bytes this rank sent in those exchanges, over all neighbours.
  std::size_t bytes_sent() const { return bytes_sent_; }
  /// Neighbour ranks, for reports.
  int neighbours() const { return int(neighbours_.size()); }
  /// Halo points received per import, over all neighbours.
  std::size_t halo_points() const { return recv_all_.size(); }
  /// Owned points sent per import, over all neighbours (a point sent to
  /// several counted for each).
  std::size_t sent_points() const { return send_all_.size(); }

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
    bool marked = false; ///< timed through CUDA events (NCCL, time_on_device)
    Combine how = Combine::add;
    std::vector<MPI_Request> requests;
    /// Timed through CUDA events (NCCL, time_on_device): when it began.
    std::chrono::steady_clock::time_point marked_at{};
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
    check_sizes<T, D>(d.name());
    p.device = device_path<M>();
    // Host path: the loops before this one finish first (their time is not
    // exchange time). NCCL's sends follow them on the stream.
    if (!p.device || time_on_device_)
      Kokkos::fence();
    if (time_on_device_)
      phases_.skew += umesh::detail::meet_ranks(comm_, neighbours_);
    Kokkos::Timer timer;
    p.slot = slots_.take();
    umesh::detail::ExchangeBuffers &b = slots_[p.slot];
    p.marked = p.device && time_on_device_;
    const bool marked = p.marked;
    if (marked) {
      p.marked_at = std::chrono::steady_clock::now();
      b.marks.record(0);
    }
    const auto v = d.view();
    const int tag = to_owners ? 702 : 701;
    // Import: owners send their points, the halo receives. Export: the
    // reverse. Every neighbour's rows in one buffer, in neighbour order.
    const std::vector<std::size_t> &out_at = to_owners ? recv_at_ : send_at_;
    const std::vector<std::size_t> &in_at = to_owners ? send_at_ : recv_at_;
    const std::size_t row = D * sizeof(T);
    const int out = int(out_at.back());
    if (!p.device) {
      b.host_in.resize(std::max(b.host_in.size(), in_at.back() * row));
      b.host_out.resize(std::max(b.host_out.size(), out_at.back() * row));
      p.requests.reserve(2 * neighbours_.size());
      for (std::size_t n = 0; n < neighbours_.size(); ++n) {
        p.requests.emplace_back();
        MPI_Irecv(b.host_in.data() + in_at[n] * row, int((in_at[n + 1] - in_at[n]) * row), MPI_BYTE,
                  neighbours_[n], tag, comm_, &p.requests.back());
      }
    }
    // Owned points sent to several neighbours are read more than once; each
    // halo point is sent to its one owner.
    const auto ids = indices<M>(/*send=*/!to_owners);
    const Typed packed(reinterpret_cast<T *>(umesh::detail::staging<M>(b.out, out * row).data()),
                       out, D);
    // A thread a value, not a row: consecutive threads write consecutive
    // bytes, and D times the threads hide the gathers' latency.
    Kokkos::parallel_for(
        "umesh::dist::pack", Kokkos::RangePolicy<Exec>(0, out * D), KOKKOS_LAMBDA(int t) {
          const int j = t / D, k = t % D;
          packed(j, k) = v(ids(j), k);
        });
    bytes_sent_ += std::size_t(out) * row;
    if (!p.device) {
      Kokkos::deep_copy(umesh::detail::host_bytes(b.host_out, out * row),
                        umesh::detail::bytes_of(packed, out * row));
      for (std::size_t n = 0; n < neighbours_.size(); ++n) {
        p.requests.emplace_back();
        MPI_Isend(b.host_out.data() + out_at[n] * row, int((out_at[n + 1] - out_at[n]) * row),
                  MPI_BYTE, neighbours_[n], tag, comm_, &p.requests.back());
      }
    }
    if (p.device) {
      if (marked) // the packing apart from NCCL's transfers; finish() reads the marks
        b.marks.record(1);
      send_through_nccl<M>(p.slot, to_owners, row);
      if (marked) {
        b.marks.record(2);
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
    // halves finishes first (its time is not exchange time); through NCCL
    // the marks leave it out instead.
    const bool marked = p.marked;
    if (time_on_device_ && !marked)
      Kokkos::fence();
    if (marked)
      slots_[p.slot].marks.record(3);
    Kokkos::Timer timer;
    const bool to_owners = p.to_owners;
    const Combine how = p.how;
    const auto v = d.view();
    if (!p.device &&
        MPI_Waitall(int(p.requests.size()), p.requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      detail::fail("dist: halo exchange of dat '", d.name(), "' failed in MPI_Waitall");
    const double arrived_at = timer.seconds();
    umesh::detail::ExchangeBuffers &b = slots_[p.slot];
    const std::vector<std::size_t> &in_at = to_owners ? send_at_ : recv_at_;
    const std::size_t row = D * sizeof(T);
    const int in = int(in_at.back());
    const Typed buf(reinterpret_cast<T *>(umesh::detail::staging<M>(b.in, in * row).data()), in, D);
    if (!p.device)
      Kokkos::deep_copy(umesh::detail::bytes_of(buf, in * row),
                        umesh::detail::host_bytes(b.host_in, in * row));
    const auto ids = indices<M>(/*send=*/to_owners);
    // A thread a value, as in the packing.
    if (!to_owners) // each halo point from its one owner: all neighbours at once
      Kokkos::parallel_for(
          "umesh::dist::unpack", Kokkos::RangePolicy<Exec>(0, in * D), KOKKOS_LAMBDA(int t) {
            const int j = t / D, k = t % D;
            v(ids(j), k) = buf(j, k);
          });
    // Exports one neighbour at a time: an owned point shared with several
    // ranks is combined once per rank, never concurrently, in a fixed order.
    for (std::size_t n = 0; to_owners && n < neighbours_.size(); ++n) {
      const auto values = Kokkos::RangePolicy<Exec>(int(in_at[n]) * D, int(in_at[n + 1]) * D);
      if (how == Combine::add)
        Kokkos::parallel_for(
            "umesh::dist::unpack_add", values, KOKKOS_LAMBDA(int t) {
              const int j = t / D, k = t % D;
              v(ids(j), k) += buf(j, k);
            });
      else
        Kokkos::parallel_for(
            "umesh::dist::unpack_minmax", values, KOKKOS_LAMBDA(int t) {
              const int j = t / D, k = t % D;
              const T x = buf(j, k), y = v(ids(j), k);
              v(ids(j), k) = (how == Combine::min) == (x < y) ? x : y;
            });
    }
    // Host path: the buffers are free once the unpacking is done. NCCL's
    // next use of them follows on the stream.
    if (marked)
      b.marks.record(4);
    if (!p.device || time_on_device_ || marked)
      Kokkos::fence();
    // The slot is free before the marks are read (which may throw).
    slots_.release(p.slot);
    p.slot = -1;
    if (marked)
      b.marks.add_to(phases_, p.marked_at);
    else {
      phases_.wait += arrived_at;
      phases_.unpack += timer.seconds() - arrived_at;
    }
  }

private:
  using DeviceMemory = Kokkos::DefaultExecutionSpace::memory_space;
  using Bytes = umesh::detail::DeviceBytes;

  // One exchange's values are indexed by int on the device, and its bytes
  // to one neighbour counted by int in MPI: larger exchanges are refused
  // before anything starts (on this rank: a neighbour with smaller totals
  // may wait for it).
  template <class T, int D> void check_sizes(const std::string &name) const {
    constexpr std::size_t most = std::size_t(std::numeric_limits<int>::max());
    std::size_t widest = 0;
    for (std::size_t n = 0; n + 1 < send_at_.size(); ++n)
      widest = std::max({widest, send_at_[n + 1] - send_at_[n], recv_at_[n + 1] - recv_at_[n]});
    const std::size_t points = std::max(send_at_.back(), recv_at_.back());
    if (points > most / D || widest > most / (D * sizeof(T)))
      detail::fail("dist: halo exchange of dat '", name, "': ", points, " points of ", D,
                   " values each (", widest,
                   " with one neighbour) are more than one exchange's int indices and MPI "
                   "counts reach");
  }

  // Every neighbour's send (or receive) list, one after the other, in
  // memory space M (cached for the default device; built per call
  // elsewhere).
  template <class M> Kokkos::View<const int *, M> indices(bool send) const {
    const std::vector<int> &ids = send ? send_all_ : recv_all_;
    auto &cached = send ? send_dev_ : recv_dev_;
    auto upload = [&](auto view) {
      Kokkos::deep_copy(view, Kokkos::View<const int *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                  ids.data(), ids.size()));
      return view;
    };
    if constexpr (std::is_same<M, DeviceMemory>::value) {
      if (cached.extent(0) != ids.size() || !cached.data())
        cached = upload(Kokkos::View<int *, DeviceMemory>("umesh::dist::ids", ids.size()));
      return cached;
    } else {
      return upload(Kokkos::View<int *, M>("umesh::dist::ids", ids.size()));
    }
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
      umesh::detail::ExchangeBuffers &b = slots_[slot];
      const std::vector<std::size_t> &out_at = to_owners ? recv_at_ : send_at_;
      const std::vector<std::size_t> &in_at = to_owners ? send_at_ : recv_at_;
      char *into = umesh::detail::staging<M>(b.in, in_at.back() * row_bytes).data();
      nccl_->send_recv(neighbours_, b.out.data(), out_at, into, in_at, row_bytes, stream);
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
    const Bytes out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::dist::connect"),
                    send_all_.size() * row + 1);
    const Bytes in(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::dist::connect"),
                   recv_all_.size() * row + 1);
    Kokkos::fence();
    nccl_->send_recv(neighbours_, out.data(), send_at_, in.data(), recv_at_, row,
                     Kokkos::DefaultExecutionSpace().cuda_stream());
    Kokkos::fence();
#endif
  }

  MPI_Comm comm_;
  std::shared_ptr<const NcclComm> nccl_;
  std::vector<int> neighbours_; // ranks
  // Every neighbour's lists one after the other; neighbour n's rows are
  // [at[n], at[n + 1]) of them.
  std::vector<int> send_all_, recv_all_;
  std::vector<std::size_t> send_at_{0}, recv_at_{0};
  // Caches that grow inside const exchanges.
  mutable Kokkos::View<int *, DeviceMemory> send_dev_, recv_dev_; // the lists on the device
  mutable umesh::detail::ExchangeSlots slots_;                    // one per exchange under way
  mutable Phases phases_;
  mutable std::size_t exchanges_ = 0;
  mutable std::size_t bytes_sent_ = 0;
  bool time_on_device_ = false;
};

} // namespace umesh::dist

#endif
