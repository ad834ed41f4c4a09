#ifndef UMESH_DIST_EXCHANGE_HPP
#define UMESH_DIST_EXCHANGE_HPP

// Halo exchange of one distributed set with its neighbour ranks: import
// (owners' values into the halo copies) and export-add (halo increments
// added into the owners' points). Values are packed on the dat's device, for
// all neighbours in one kernel, and either staged through host buffers and
// sent with MPI, so MPI need not be CUDA-aware, or (use_nccl) sent device to
// device with NCCL on the loops' stream.

#include <umesh/dat.hpp>
#include <umesh/dist/detail/exchange_lists.hpp>
#include <umesh/dist/detail/exchange_pack.hpp>
#include <umesh/dist/detail/exchange_slots.hpp>
#include <umesh/dist/detail/exchange_timing.hpp>
#include <umesh/dist/nccl.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::dist {

class ExchangeGroup;

class Exchange : private umesh::detail::ExchangeLists {
public:
  explicit Exchange(MPI_Comm comm) : comm_(comm) {}

  using ExchangeLists::add_neighbour;
  using ExchangeLists::halo_points;
  using ExchangeLists::neighbours;
  using ExchangeLists::sent_points;

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
  /// How many exchanges so far moved each size of row (bytes a point: the
  /// sum of a group's dats'), for a baseline of the same bytes
  /// (dist::nccl_transfer_seconds).
  const std::map<std::size_t, std::size_t> &rows() const { return rows_; }

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
    bool device = false;  ///< through NCCL
    bool marked = false;  ///< timed through CUDA events (NCCL, time_on_device)
    bool grouped = false; ///< one of an ExchangeGroup's: it sends, times and counts it
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
  /// finishes them in the same order. `grouped`: one of an ExchangeGroup's
  /// (which sends through NCCL, times and counts). Public only because nvcc's
  /// device lambdas cannot live in private member functions.
  template <class T, int D, class L, class M>
  Pending start(const Dat<T, D, L, M> &d, bool to_owners, Combine how, bool grouped = false) const {
    Pending p;
    p.to_owners = to_owners;
    p.how = how;
    if (neighbours_.empty())
      return p;
    check_sizes<T, D>(d.name());
    p.device = device_path<M>();
    p.grouped = grouped;
    // A group's exchanges through NCCL are fenced, timed and counted by the
    // group (ExchangeGroup).
    const bool by_group = grouped && p.device;
    if (!grouped) {
      ++exchanges_;
      ++rows_[D * sizeof(T)];
    }
    // Host path: the loops before this one finish first (their time is not
    // exchange time). NCCL's sends follow them on the stream.
    if (!p.device || (time_on_device_ && !by_group))
      Kokkos::fence();
    if (time_on_device_ && !by_group)
      phases_.skew += umesh::detail::meet_ranks(comm_, neighbours_);
    Kokkos::Timer timer;
    p.slot = slots_.take();
    umesh::detail::ExchangeBuffers &b = slots_[p.slot];
    p.marked = p.device && time_on_device_ && !grouped;
    const bool marked = p.marked;
    if (marked)
      b.marks.begin();
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
    const auto packed = umesh::detail::staging<M>(b.out, out * row);
    pack(d, packed, /*send=*/!to_owners, out);
    bytes_sent_ += std::size_t(out) * row;
    if (!p.device) {
      Kokkos::deep_copy(umesh::detail::host_bytes(b.host_out, out * row),
                        Kokkos::subview(packed, std::make_pair(std::size_t(0), out * row)));
      for (std::size_t n = 0; n < neighbours_.size(); ++n) {
        p.requests.emplace_back();
        MPI_Isend(b.host_out.data() + out_at[n] * row, int((out_at[n + 1] - out_at[n]) * row),
                  MPI_BYTE, neighbours_[n], tag, comm_, &p.requests.back());
      }
    }
    if (p.device && !grouped) {
      if (marked) // the packing apart from NCCL's transfers; finish() reads the marks
        b.marks.record(1);
      send_through_nccl<M>(p.slot, to_owners, row);
      if (marked) {
        b.marks.record(2);
        return p;
      }
    } else if (time_on_device_ && !by_group) {
      Kokkos::fence();
    }
    if (!(by_group && time_on_device_))
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
    // Timed on the device: the loop an overlapped par_loop ran between the
    // halves finishes first (its time is not exchange time); through NCCL
    // the marks leave it out instead (a group's marks for its exchanges).
    const bool marked = p.marked, by_group = p.grouped && p.device;
    if (time_on_device_ && !marked && !by_group)
      Kokkos::fence();
    if (marked)
      slots_[p.slot].marks.record(3);
    Kokkos::Timer timer;
    const std::string &name = d.name();
    if (!p.device &&
        MPI_Waitall(int(p.requests.size()), p.requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      detail::fail("dist: halo exchange of dat '", name, "' failed in MPI_Waitall");
    const double arrived_at = timer.seconds();
    umesh::detail::ExchangeBuffers &b = slots_[p.slot];
    const std::vector<std::size_t> &in_at = p.to_owners ? send_at_ : recv_at_;
    const std::size_t row = D * sizeof(T);
    const std::size_t in_bytes = in_at.back() * row;
    const auto arrived = umesh::detail::staging<M>(b.in, in_bytes);
    if (!p.device)
      Kokkos::deep_copy(Kokkos::subview(arrived, std::make_pair(std::size_t(0), in_bytes)),
                        umesh::detail::host_bytes(b.host_in, in_bytes));
    unpack(d, arrived, p.to_owners, p.how);
    // Host path: the buffers are free once the unpacking is done. NCCL's
    // next use of them follows on the stream.
    if (marked)
      b.marks.record(4);
    if (!p.device || ((time_on_device_ || marked) && !by_group))
      Kokkos::fence();
    // The slot is free before the marks are read (which may throw).
    slots_.release(p.slot);
    p.slot = -1;
    if (marked) {
      b.marks.add_to(phases_);
    } else if (!(by_group && time_on_device_)) {
      phases_.wait += arrived_at;
      phases_.unpack += timer.seconds() - arrived_at;
    }
  }

  // Packs this rank's values of `d` that leave it (the send lists, or the
  // halo's for an export) into `packed` (detail/exchange_pack.hpp).
  template <class T, int D, class L, class M, class Bytes>
  void pack(const Dat<T, D, L, M> &d, const Bytes &packed, bool send, int rows) const {
    using Exec = typename Dat<T, D, L, M>::view_type::execution_space;
    const umesh::detail::PackedIndex<M, umesh::detail::by_component<L>()> at{blocks<M>(send), D};
    umesh::detail::pack_values<Exec>(d.view(), indices<M>(send), at, rows,
                                     reinterpret_cast<T *>(packed.data()));
  }
  // Stores (import) or combines (export, `how`) what arrived in `arrived`.
  template <class T, int D, class L, class M, class Bytes>
  void unpack(const Dat<T, D, L, M> &d, const Bytes &arrived, bool to_owners, Combine how) const {
    using Exec = typename Dat<T, D, L, M>::view_type::execution_space;
    using umesh::detail::Fold;
    const std::vector<std::size_t> &in_at = to_owners ? send_at_ : recv_at_;
    const auto ids = indices<M>(/*send=*/to_owners);
    const umesh::detail::PackedIndex<M, umesh::detail::by_component<L>()> at{blocks<M>(to_owners),
                                                                             D};
    const T *const buf = reinterpret_cast<const T *>(arrived.data());
    if (!to_owners) // each halo point from its one owner: all neighbours at once
      umesh::detail::unpack_values<Exec>(d.view(), ids, at, 0, int(in_at.back()) * D, buf,
                                         Fold::store);
    // Exports one neighbour at a time: an owned point shared with several
    // ranks is combined once per rank, never concurrently, in a fixed order.
    const Fold fold = how == Combine::add ? Fold::add : how == Combine::min ? Fold::min : Fold::max;
    for (std::size_t n = 0; to_owners && n < neighbours_.size(); ++n)
      umesh::detail::unpack_values<Exec>(d.view(), ids, at, int(in_at[n]) * D,
                                         int(in_at[n + 1]) * D, buf, fold);
  }

private:
  using Bytes = umesh::detail::DeviceBytes;

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

  friend class ExchangeGroup;
  friend inline double nccl_transfer_seconds(const Exchange &,
                                             const std::map<std::size_t, std::size_t> &, int);
  // A group of exchanges begins (ExchangeGroup): timed through NCCL, after
  // a fence and the wait for the neighbours, at mark 0 of the group's
  // marks. Whether those marks time the group.
  bool open_group(bool device) const {
    if (!device || !time_on_device_)
      return false;
    Kokkos::fence();
    phases_.skew += umesh::detail::meet_ranks(comm_, neighbours_);
    group_marks_.begin();
    return true;
  }
  // The NCCL transfers of a group's exchanges (each a nested NCCL group), as
  // one launch.
  template <class Sends> void group_sends(const Sends &sends) const {
#if defined(UMESH_HAS_NCCL)
    NcclComm::check(ncclGroupStart(), "ncclGroupStart");
    try {
      for (const auto &send : sends)
        send();
    } catch (...) {
      ncclGroupEnd();
      throw;
    }
    NcclComm::check(ncclGroupEnd(), "ncclGroupEnd");
#else
    (void)sends;
#endif
  }
  // A group's exchanges done: one exchange of rows of `row` bytes (their
  // sum); timed by its marks, from mark 4 after the unpacking.
  void close_group(bool marked, std::size_t row) const {
    ++exchanges_;
    ++rows_[row];
    if (!marked)
      return;
    group_marks_.record(4);
    Kokkos::fence();
    group_marks_.add_to(phases_);
  }

  MPI_Comm comm_;
  std::shared_ptr<const NcclComm> nccl_;
  mutable umesh::detail::ExchangeMarks group_marks_; // a timed ExchangeGroup's
  mutable std::map<std::size_t, std::size_t> rows_;  // rows()
  mutable umesh::detail::ExchangeSlots slots_;       // one per exchange under way
  mutable Phases phases_;
  mutable std::size_t exchanges_ = 0;
  mutable std::size_t bytes_sent_ = 0;
  bool time_on_device_ = false;
};

} // namespace umesh::dist

#endif
