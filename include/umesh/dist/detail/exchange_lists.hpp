#ifndef UMESH_DIST_DETAIL_EXCHANGE_LISTS_HPP
#define UMESH_DIST_DETAIL_EXCHANGE_LISTS_HPP

// Who gets which points in a halo exchange (dist::Exchange): each neighbour
// rank's send and receive lists, one after the other, and their copies on
// the device.

#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <limits>
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
  }

  /// Neighbour ranks, for reports.
  int neighbours() const { return int(neighbours_.size()); }
  /// Halo points received per import, over all neighbours.
  std::size_t halo_points() const { return recv_all_.size(); }
  /// Owned points sent per import, over all neighbours (a point sent to
  /// several counted for each).
  std::size_t sent_points() const { return send_all_.size(); }

protected:
  using DeviceMemory = Kokkos::DefaultExecutionSpace::memory_space;

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
      fail("dist: halo exchange of dat '", name, "': ", points, " points of ", D, " values each (",
           widest,
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
  std::vector<int> neighbours_; // ranks
  // Every neighbour's lists one after the other; neighbour n's rows are
  // [at[n], at[n + 1]) of them.
  std::vector<int> send_all_, recv_all_;
  std::vector<std::size_t> send_at_{0}, recv_at_{0};
  // Caches filled inside const exchanges.
  mutable Kokkos::View<int *, DeviceMemory> send_dev_, recv_dev_;       // indices()
  mutable Kokkos::View<int *, DeviceMemory> send_at_dev_, recv_at_dev_; // blocks()
};

} // namespace umesh::detail

#endif
