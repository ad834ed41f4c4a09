#ifndef UMESH_DIST_EXCHANGE_HPP
#define UMESH_DIST_EXCHANGE_HPP

// Halo exchange of one distributed set with its neighbour ranks: import
// (owners' values into the halo copies) and export-add (halo increments
// added into the owners' points). Values are packed on the dats' device, for
// all dats and neighbours of an exchange in one kernel into persistent
// buffers (a neighbour's bytes together), and either staged through host
// buffers and sent with MPI, so MPI need not be CUDA-aware, or (use_nccl)
// sent device to device with NCCL on the loops' stream; one kernel unpacks.

#include <umesh/dat.hpp>
#include <umesh/dist/detail/exchange_batch.hpp>
#include <umesh/dist/detail/exchange_lists.hpp>
#include <umesh/dist/detail/exchange_slots.hpp>
#include <umesh/dist/detail/exchange_timing.hpp>
#include <umesh/dist/nccl.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <mpi.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace umesh::dist {

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
  /// Exchanges started so far (an import or export of one dat, or of an
  /// ExchangeGroup's dats together), so reports can give the cost of one.
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

  /// The dats of one exchange and its state (ExchangeGroup holds one):
  /// dats are added, then posted (packed, sent), then completed.
  struct Run {
    std::vector<std::unique_ptr<umesh::detail::ExchangeBatch>> batches;
    bool posted = false;
    bool marked = false;   ///< timed through CUDA events (NCCL, time_on_device)
    bool nccl_due = false; ///< packed for NCCL, sends not issued yet (post's defer_nccl)
  };
  /// An exchange under way: started by start(), completed by finish().
  /// Between the two, MPI moves the values while the caller's device work
  /// (a loop over elements that reach no halo point) runs.
  struct Pending {
    std::shared_ptr<Run> run;
  };

  /// import() (to_owners false) or an export (true, combined by `how`), in
  /// one call.
  template <class T, int D, class L, class M>
  void exchange(const Dat<T, D, L, M> &d, bool to_owners, Combine how) const {
    Run run;
    add(run, d, to_owners, how);
    complete(run);
  }

  /// First half of an exchange of one dat: packs what leaves this rank and
  /// sends it. Several exchanges (of different dats) may be under way at
  /// once; every rank starts and finishes them in the same order.
  template <class T, int D, class L, class M>
  Pending start(const Dat<T, D, L, M> &d, bool to_owners, Combine how) const {
    Pending p{std::make_shared<Run>()};
    add(*p.run, d, to_owners, how);
    post(*p.run);
    return p;
  }
  /// Second half: waits for what arrives and stores it (import) or
  /// combines it into the owned points (export). Device work launched
  /// since start() runs first.
  template <class T, int D, class L, class M>
  void finish(const Dat<T, D, L, M> &, Pending &p) const {
    if (p.run)
      complete(*p.run);
    p.run.reset();
  }

  /// Adds `d` to `run`: with the dats of its memory space going the same
  /// way, packed by one kernel and unpacked by one (up to
  /// detail::max_packed_dats of them; more make another batch).
  template <class T, int D, class L, class M>
  void add(Run &run, const Dat<T, D, L, M> &d, bool to_owners, Combine how) const {
    if (neighbours_.empty())
      return;
    if (run.posted)
      detail::fail("dist: dat '", d.name(), "' joins a halo exchange already under way");
    using umesh::detail::Fold;
    const Fold fold = !to_owners            ? Fold::store
                      : how == Combine::add ? Fold::add
                      : how == Combine::min ? Fold::min
                                            : Fold::max;
    // A dat started twice in one exchange goes once (its unpacking would
    // fold into the same values from two threads at once).
    for (const auto &b : run.batches)
      if (const Fold *f = b->fold_of(d.view().data()); f && b->to_owners() == to_owners) {
        if (*f != fold)
          detail::fail("dist: dat '", d.name(), "' joins one halo exchange twice, folded two ways");
        return;
      }
    umesh::detail::ExchangeBatch *batch = nullptr;
    for (auto &b : run.batches)
      if (b->takes(typeid(M), to_owners))
        batch = b.get();
    if (!batch) {
      run.batches.push_back(std::make_unique<umesh::detail::SpaceBatch<M>>(to_owners));
      batch = run.batches.back().get();
      batch->device = device_path<M>();
    }
    batch->add(d, fold);
  }
  /// Packs every batch of `run` (one kernel each) and sends: through NCCL
  /// one group, a send and a receive per neighbour and batch; through the
  /// host the messages under way. Counted as one exchange. `defer_nccl`:
  /// NCCL's group waits for complete() (unless the exchange is timed), so
  /// that device work launched in between is not queued behind a receive
  /// that waits for a neighbour.
  void post(Run &run, bool defer_nccl = false) const;
  /// Waits for what arrives and unpacks it (one kernel a batch).
  void complete(Run &run) const;

private:
  using Bytes = umesh::detail::DeviceBytes;

  // Issues the NCCL group of a posted run whose sends were deferred.
  void send_nccl(Run &run) const;

  // Whether dats in memory space M go through NCCL.
  template <class M> bool device_path() const {
#if defined(UMESH_HAS_NCCL)
    return nccl_ && std::is_same<M, DeviceMemory>::value;
#else
    return false;
#endif
  }
  // Each direction's rows: out (packed here), in (arrived).
  const std::vector<std::size_t> &out_at(bool to_owners) const {
    return to_owners ? recv_at_ : send_at_;
  }
  const std::vector<std::size_t> &in_at(bool to_owners) const {
    return to_owners ? send_at_ : recv_at_;
  }
  const umesh::detail::ExchangeLists &lists() const {
    return *this;
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

  friend inline double nccl_transfer_seconds(const Exchange &,
                                             const std::map<std::size_t, std::size_t> &, int);

  MPI_Comm comm_;
  std::shared_ptr<const NcclComm> nccl_;
  mutable std::map<std::size_t, std::size_t> rows_; // rows()
  mutable umesh::detail::ExchangeSlots slots_;      // one per exchange under way
  mutable Phases phases_;
  mutable std::size_t exchanges_ = 0;
  mutable std::size_t bytes_sent_ = 0;
  bool time_on_device_ = false;
};

inline void Exchange::post(Run &run, bool defer_nccl) const {
  if (run.posted || run.batches.empty())
    return;
  bool host = false;
  [[maybe_unused]] bool device = false;
  for (const auto &b : run.batches) {
    b->arrange(lists());
    host = host || !b->device;
    device = device || b->device;
  }
  // Host path: the loops before this one finish first (their time is not
  // exchange time). NCCL's sends follow them on the stream.
  if (host || time_on_device_)
    Kokkos::fence();
  if (time_on_device_)
    phases_.skew += umesh::detail::meet_ranks(comm_, neighbours_);
  Kokkos::Timer timer;
  for (auto &b : run.batches)
    b->slot = slots_.take();
  run.posted = true;
  run.marked = time_on_device_ && !host;
  umesh::detail::ExchangeMarks &marks = slots_[run.batches.front()->slot].marks;
  if (run.marked)
    marks.begin();
  std::size_t row = 0;
  for (auto &b : run.batches) {
    umesh::detail::ExchangeBuffers &buf = slots_[b->slot];
    const std::vector<std::size_t> &out = out_at(b->to_owners()), &in = in_at(b->to_owners());
    const std::size_t r = b->row();
    const int tag = b->to_owners() ? 702 : 701; // ranks post their exchanges in one order
    row += r;
    if (!b->device) {
      buf.host_in.resize(std::max(buf.host_in.size(), in.back() * r));
      buf.host_out.resize(std::max(buf.host_out.size(), out.back() * r));
      b->requests.reserve(2 * neighbours_.size());
      for (std::size_t n = 0; n < neighbours_.size(); ++n) {
        b->requests.emplace_back();
        MPI_Irecv(buf.host_in.data() + in[n] * r, int((in[n + 1] - in[n]) * r), MPI_BYTE,
                  neighbours_[n], tag, comm_, &b->requests.back());
      }
    }
    b->pack(lists(), buf, out.back());
    bytes_sent_ += out.back() * r;
    if (!b->device) {
      b->to_host(buf.host_out, out.back() * r);
      for (std::size_t n = 0; n < neighbours_.size(); ++n) {
        b->requests.emplace_back();
        MPI_Isend(buf.host_out.data() + out[n] * r, int((out[n + 1] - out[n]) * r), MPI_BYTE,
                  neighbours_[n], tag, comm_, &b->requests.back());
      }
    }
  }
  ++exchanges_;
  ++rows_[row];
  if (run.marked) // the packing apart from NCCL's transfers
    marks.record(1);
  run.nccl_due = device;
  if (!defer_nccl || run.marked)
    send_nccl(run);
  if (run.marked)
    return;
  if (time_on_device_)
    Kokkos::fence();
  phases_.pack += timer.seconds();
}

inline void Exchange::send_nccl(Run &run) const {
  if (!run.nccl_due)
    return;
  run.nccl_due = false;
#if defined(UMESH_HAS_NCCL)
  // One group: a send and a receive per neighbour and batch.
  const cudaStream_t stream = Kokkos::DefaultExecutionSpace().cuda_stream();
  NcclComm::check(ncclGroupStart(), "ncclGroupStart");
  try {
    for (const auto &b : run.batches)
      if (b->device)
        nccl_->send_recv(neighbours_, b->out(), out_at(b->to_owners()), b->in(),
                         in_at(b->to_owners()), b->row(), stream);
  } catch (...) {
    ncclGroupEnd();
    throw;
  }
  NcclComm::check(ncclGroupEnd(), "ncclGroupEnd");
#endif
  if (run.marked)
    slots_[run.batches.front()->slot].marks.record(2);
}

inline void Exchange::complete(Run &run) const {
  post(run);
  if (!run.posted)
    return;
  send_nccl(run); // (deferred by post)
  run.posted = false;
  const auto batches = std::move(run.batches);
  run.batches.clear();
  bool host = false;
  for (const auto &b : batches)
    host = host || !b->device;
  // Timed on the device: the loop an overlapped par_loop ran between the
  // halves finishes first (its time is not exchange time); through NCCL
  // the marks leave it out instead.
  if (time_on_device_ && !run.marked)
    Kokkos::fence();
  umesh::detail::ExchangeMarks &marks = slots_[batches.front()->slot].marks;
  if (run.marked)
    marks.record(3);
  Kokkos::Timer timer;
  for (auto &b : batches)
    if (!b->device && MPI_Waitall(int(b->requests.size()), b->requests.data(),
                                  MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      detail::fail("dist: halo exchange of ", b->names(), " failed in MPI_Waitall");
  const double arrived_at = timer.seconds();
  for (auto &b : batches) {
    umesh::detail::ExchangeBuffers &buf = slots_[b->slot];
    const std::size_t in_rows = in_at(b->to_owners()).back();
    if (!b->device)
      b->from_host(buf.host_in, in_rows * b->row());
    b->unpack(lists(), buf, in_rows);
  }
  if (run.marked)
    marks.record(4);
  // Host path: the buffers are free once the unpacking is done. NCCL's
  // next use of them follows on the stream.
  if (host || time_on_device_)
    Kokkos::fence();
  // The slots are free before the marks are read (which may throw).
  for (auto &b : batches)
    slots_.release(b->slot);
  if (run.marked) {
    marks.add_to(phases_);
  } else {
    phases_.wait += arrived_at;
    phases_.unpack += timer.seconds() - arrived_at;
  }
}

} // namespace umesh::dist

#endif
