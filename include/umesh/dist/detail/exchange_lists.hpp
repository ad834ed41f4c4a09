#ifndef UMESH_DIST_DETAIL_EXCHANGE_LISTS_HPP
#define UMESH_DIST_DETAIL_EXCHANGE_LISTS_HPP

// Who gets which points in a halo exchange (dist::Exchange): each neighbour
// rank's send and receive lists, one after the other, and their copies on
// the device.

#include <umesh/dist/detail/exchange_pack.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::detail {

class ExchangeLists {
public:
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
    send_dev_ = recv_dev_ = send_at_dev_ = recv_at_dev_ = {}; // uploaded again when next needed
    combine_ = {}, combine_dev_ = {};
  }

  /// Neighbour ranks, for reports.
  int neighbours() const { return int(neighbours_.size()); }
  /// Halo points received per import, over all neighbours.
  std::size_t halo_points() const { return recv_all_.size(); }
  /// Owned points sent per import, over all neighbours (a point sent to
  /// several counted for each).
  std::size_t sent_points() const { return send_all_.size(); }

  using DeviceMemory = Kokkos::DefaultExecutionSpace::memory_space;

  // One exchange's values are indexed by int on the device, and its bytes
  // to one neighbour counted by int in MPI: larger exchanges are refused
  // before anything starts (on this rank: a neighbour with smaller totals
  // may wait for it). `values`, `row`: a point's values and bytes, over the
  // exchange's dats (names() says which, made only for the message).
  template <class Names>
  void check_sizes(const Names &names, std::size_t values, std::size_t row) const {
    constexpr std::size_t most = std::size_t(std::numeric_limits<int>::max());
    std::size_t widest = 0;
    for (std::size_t n = 0; n + 1 < send_at_.size(); ++n)
      widest = std::max({widest, send_at_[n + 1] - send_at_[n], recv_at_[n + 1] - recv_at_[n]});
    const std::size_t points = std::max(send_at_.back(), recv_at_.back());
    if (points > most / values || widest > most / row)
      fail("dist: halo exchange of ", names(), ": ", points, " points of ", values,
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
  // Each neighbour's first row in the send (or receive) lists, then their
  // count, in memory space M (cached as indices()).
  template <class M> Kokkos::View<const int *, M> blocks(bool send) const {
    const std::vector<std::size_t> &at = send ? send_at_ : recv_at_;
    auto &cached = send ? send_at_dev_ : recv_at_dev_;
    if constexpr (std::is_same<M, DeviceMemory>::value)
      if (cached.extent(0) == at.size())
        return cached;
    const std::vector<int> first(at.begin(), at.end()); // check_sizes: they fit
    Kokkos::View<int *, M> view("umesh::dist::blocks", first.size());
    Kokkos::deep_copy(view, Kokkos::View<const int *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                first.data(), first.size()));
    if constexpr (std::is_same<M, DeviceMemory>::value)
      cached = view;
    return view;
  }
  // The owned points an export combines into, each once with the send-list
  // rows that bring it values, in neighbour order (rows ascend with the
  // neighbour), in memory space M (cached as indices()). Points in the
  // order of their first row, so that with one neighbour the unpacking
  // reads the buffer in order, as the packing wrote it.
  template <class M> CombineLists<M> combine() const {
    if (combine_.points.empty() && !send_all_.empty()) {
      std::vector<int> first(std::size_t(*std::max_element(send_all_.begin(), send_all_.end())) + 1,
                             -1);
      for (std::size_t r = 0; r < send_all_.size(); ++r)
        if (first[std::size_t(send_all_[r])] < 0)
          first[std::size_t(send_all_[r])] = int(r);
      std::vector<int> order(send_all_.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return first[std::size_t(send_all_[a])] < first[std::size_t(send_all_[b])];
      });
      Gathers &c = combine_;
      for (std::size_t e = 0; e < order.size(); ++e) {
        const int r = order[e];
        if (e == 0 || send_all_[order[e - 1]] != send_all_[r]) {
          c.points.push_back(send_all_[r]);
          c.at.push_back(int(e));
        }
        c.rows.push_back(r);
        c.neighbour.push_back(
            int(std::upper_bound(send_at_.begin(), send_at_.end(), std::size_t(r)) -
                send_at_.begin()) -
            1);
      }
      c.at.push_back(int(order.size()));
    }
    const Gathers &c = combine_;
    if constexpr (std::is_same<M, DeviceMemory>::value) {
      if (combine_dev_.at.extent(0) != c.at.size())
        combine_dev_ = {upload<M>(c.points), upload<M>(c.at), upload<M>(c.rows),
                        upload<M>(c.neighbour)};
      return combine_dev_;
    } else {
      return {upload<M>(c.points), upload<M>(c.at), upload<M>(c.rows), upload<M>(c.neighbour)};
    }
  }

protected:
  template <class M> static Kokkos::View<const int *, M> upload(const std::vector<int> &v) {
    Kokkos::View<int *, M> view("umesh::dist::combine", v.size());
    Kokkos::deep_copy(view, Kokkos::View<const int *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                v.data(), v.size()));
    return view;
  }
  struct Gathers {
    std::vector<int> points, at, rows, neighbour;
  };

  std::vector<int> neighbours_; // ranks
  // Every neighbour's lists one after the other; neighbour n's rows are
  // [at[n], at[n + 1]) of them.
  std::vector<int> send_all_, recv_all_;
  std::vector<std::size_t> send_at_{0}, recv_at_{0};
  // Caches filled inside const exchanges.
  mutable Kokkos::View<int *, DeviceMemory> send_dev_, recv_dev_;       // indices()
  mutable Kokkos::View<int *, DeviceMemory> send_at_dev_, recv_at_dev_; // blocks()
  mutable Gathers combine_;                                             // combine()
  mutable CombineLists<DeviceMemory> combine_dev_;
};

} // namespace umesh::detail

#endif
