#ifndef UMESH_DIST_EXCHANGE_HPP
#define UMESH_DIST_EXCHANGE_HPP

// Halo exchange of one distributed set with its neighbour ranks: import
// (owners' values into the halo copies) and export-add (halo increments
// added into the owners' points). Values are packed on the dat's device, for
// all neighbours in one kernel, and either staged through host buffers and
// sent with MPI, so MPI need not be CUDA-aware, or (use_nccl) sent device to
// device with NCCL on the loops' stream.

#include <umesh/dat.hpp>
#include <umesh/dist/detail/stream_marks.hpp>
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
    neighbours_.push_back({rank});
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
  double seconds() const {
    return phases_.pack + phases_.wait + phases_.unpack + phases_.final_wait;
  }
  /// Where those seconds went: packing on the device and copying to the
  /// host; waiting for MPI (which counts a neighbour still busy with its own
  /// loop) or, through NCCL and timed on the device, the transfers; copying
  /// back and unpacking. skew: timed on the device only, the wait before
  /// each exchange for the neighbour ranks' loops to end (not part of
  /// seconds()). Through NCCL and timed on the device, the phases are timed
  /// by CUDA events on the stream, with one host wait at the end of the
  /// exchange (final_wait: from the unpacking's end to the host's return),
  /// as the untimed exchange has none between its phases.
  struct Phases {
    double pack = 0, wait = 0, unpack = 0, skew = 0, final_wait = 0;
  };
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
      phases_.skew += meet_neighbours();
    Kokkos::Timer timer;
    p.slot = take_slot();
    Buffers &b = *slots_[p.slot];
    p.marked = p.device && time_on_device_;
    const bool marked = p.marked;
    if (marked) {
      p.marked_at = std::chrono::steady_clock::now();
      mark(b, 0);
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
                  neighbours_[n].rank, tag, comm_, &p.requests.back());
      }
    }
    // Owned points sent to several neighbours are read more than once; each
    // halo point is sent to its one owner.
    const auto ids = indices<M>(/*send=*/!to_owners);
    const Typed packed(reinterpret_cast<T *>(buffer<M>(b.out, out * row).data()), out, D);
    // A thread a value, not a row: consecutive threads write consecutive
    // bytes, and D times the threads hide the gathers' latency.
    Kokkos::parallel_for(
        "umesh::dist::pack", Kokkos::RangePolicy<Exec>(0, out * D), KOKKOS_LAMBDA(int t) {
          const int j = t / D, k = t % D;
          packed(j, k) = v(ids(j), k);
        });
    bytes_sent_ += std::size_t(out) * row;
    if (!p.device) {
      Kokkos::deep_copy(host_bytes(b.host_out, out * row), bytes_of(packed, out * row));
      for (std::size_t n = 0; n < neighbours_.size(); ++n) {
        p.requests.emplace_back();
        MPI_Isend(b.host_out.data() + out_at[n] * row, int((out_at[n + 1] - out_at[n]) * row),
                  MPI_BYTE, neighbours_[n].rank, tag, comm_, &p.requests.back());
      }
    }
    if (p.device) {
      if (marked) // the packing apart from NCCL's transfers; finish() reads the marks
        mark(b, 1);
      send_through_nccl<M>(p.slot, to_owners, row);
      if (marked) {
        mark(b, 2);
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
      mark(*slots_[p.slot], 3);
    Kokkos::Timer timer;
    const bool to_owners = p.to_owners;
    const Combine how = p.how;
    const auto v = d.view();
    if (!p.device &&
        MPI_Waitall(int(p.requests.size()), p.requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      detail::fail("dist: halo exchange of dat '", d.name(), "' failed in MPI_Waitall");
    const double arrived_at = timer.seconds();
    Buffers &b = *slots_[p.slot];
    const std::vector<std::size_t> &in_at = to_owners ? send_at_ : recv_at_;
    const std::size_t row = D * sizeof(T);
    const int in = int(in_at.back());
    const Typed buf(reinterpret_cast<T *>(buffer<M>(b.in, in * row).data()), in, D);
    if (!p.device)
      Kokkos::deep_copy(bytes_of(buf, in * row), host_bytes(b.host_in, in * row));
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
      mark(b, 4);
    if (!p.device || time_on_device_ || marked)
      Kokkos::fence();
    // The slot is free before the marks are read (which may throw).
    busy_[p.slot] = 0;
    p.slot = -1;
    if (marked)
      add_marked_phases(b, p.marked_at);
    else {
      phases_.wait += arrived_at;
      phases_.unpack += timer.seconds() - arrived_at;
    }
  }

private:
  using DeviceMemory = Kokkos::DefaultExecutionSpace::memory_space;
  using Bytes = Kokkos::View<char *, DeviceMemory>;
  // One exchange's buffers, every neighbour's rows in neighbour order,
  // grown as needed.
  struct Buffers {
    Bytes out, in;                       // packed and arrived values on the device
    std::vector<char> host_in, host_out; // MPI's buffers (host path)
#if defined(UMESH_HAS_NCCL)
    std::shared_ptr<umesh::detail::StreamMarks> marks; // timed exchanges through NCCL
#endif
  };
  struct Neighbour {
    int rank;
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

  // Mark `i` of a timed exchange through NCCL on the loops' stream (marks:
  // 0 before the packing, 1 after it, 2 after the transfers, 3 and 4 around
  // the unpacking).
  static void mark([[maybe_unused]] Buffers &b, [[maybe_unused]] int i) {
#if defined(UMESH_HAS_NCCL)
    if (!b.marks)
      b.marks = std::make_shared<umesh::detail::StreamMarks>();
    b.marks->record(i);
#endif
  }
  // The phases of a timed exchange through NCCL from its marks (after the
  // fence that follows mark 4); what ran between the halves (2 to 3) is not
  // the exchange's.
  void add_marked_phases([[maybe_unused]] const Buffers &b,
                         [[maybe_unused]] std::chrono::steady_clock::time_point began) const {
#if defined(UMESH_HAS_NCCL)
    const umesh::detail::StreamMarks &m = *b.marks;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    phases_.pack += m.seconds(0, 1);
    phases_.wait += m.seconds(1, 2);
    phases_.unpack += m.seconds(3, 4);
    phases_.final_wait += std::max(0.0, wall - m.seconds(0, 4));
#endif
  }

  // A free set of buffers for a new exchange (one more if all are in use).
  // The new set must not move the others: MPI may be writing into a set's
  // host_in (MPI_Irecv) or reading its host_out while its exchange is under
  // way. Hence one allocation per set: a std::vector<Buffers> that grows
  // moves its elements, or copies them where their move may throw (Kokkos
  // 4's View declares a move constructor without noexcept), and a copy frees
  // the host buffers that MPI still fills.
  int take_slot() const {
    int s = 0;
    while (s < int(busy_.size()) && busy_[s])
      ++s;
    if (s == int(busy_.size())) {
      busy_.push_back(0);
      slots_.push_back(std::make_unique<Buffers>());
    }
    busy_[s] = 1;
    return s;
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
      Buffers &b = *slots_[slot];
      const std::vector<std::size_t> &out_at = to_owners ? recv_at_ : send_at_;
      const std::vector<std::size_t> &in_at = to_owners ? send_at_ : recv_at_;
      char *into = buffer<M>(b.in, in_at.back() * row_bytes).data();
      NcclComm::check(ncclGroupStart(), "ncclGroupStart");
      for (std::size_t n = 0; n < neighbours_.size(); ++n) {
        const int rank = neighbours_[n].rank;
        NcclComm::check(ncclRecv(into + in_at[n] * row_bytes, (in_at[n + 1] - in_at[n]) * row_bytes,
                                 ncclChar, rank, nccl_->get(), stream),
                        "ncclRecv");
        NcclComm::check(ncclSend(b.out.data() + out_at[n] * row_bytes,
                                 (out_at[n + 1] - out_at[n]) * row_bytes, ncclChar, rank,
                                 nccl_->get(), stream),
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
    const Bytes out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::dist::connect"),
                    send_all_.size() * row + 1);
    const Bytes in(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::dist::connect"),
                   recv_all_.size() * row + 1);
    const cudaStream_t stream = Kokkos::DefaultExecutionSpace().cuda_stream();
    Kokkos::fence();
    NcclComm::check(ncclGroupStart(), "ncclGroupStart");
    for (std::size_t n = 0; n < neighbours_.size(); ++n) {
      NcclComm::check(ncclRecv(in.data() + recv_at_[n] * row, (recv_at_[n + 1] - recv_at_[n]) * row,
                               ncclChar, neighbours_[n].rank, nccl_->get(), stream),
                      "ncclRecv");
      NcclComm::check(ncclSend(out.data() + send_at_[n] * row,
                               (send_at_[n + 1] - send_at_[n]) * row, ncclChar, neighbours_[n].rank,
                               nccl_->get(), stream),
                      "ncclSend");
    }
    NcclComm::check(ncclGroupEnd(), "ncclGroupEnd");
    Kokkos::fence();
#endif
  }

  MPI_Comm comm_;
  std::shared_ptr<const NcclComm> nccl_;
  std::vector<Neighbour> neighbours_;
  // Every neighbour's lists one after the other; neighbour n's rows are
  // [at[n], at[n + 1]) of them.
  std::vector<int> send_all_, recv_all_;
  std::vector<std::size_t> send_at_{0}, recv_at_{0};
  // Caches that grow inside const exchanges.
  mutable Kokkos::View<int *, DeviceMemory> send_dev_, recv_dev_; // the lists on the device
  // [slot]: one per exchange under way, each where it was made (take_slot).
  mutable std::vector<std::unique_ptr<Buffers>> slots_;
  mutable std::vector<char> busy_; // [slot]: an exchange under way uses it
  mutable Phases phases_;
  mutable std::size_t exchanges_ = 0;
  mutable std::size_t bytes_sent_ = 0;
  bool time_on_device_ = false;
};

} // namespace umesh::dist

#endif
