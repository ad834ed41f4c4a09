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
#include <mpi.h>

#include <string>
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
    neighbours_.push_back({rank, send, recv});
  }

  /// Neighbour ranks, for reports.
  int neighbours() const { return int(neighbours_.size()); }
  /// Halo points received per import, over all neighbours.
  std::size_t halo_points() const {
    std::size_t n = 0;
    for (const auto &nb : neighbours_)
      n += nb.recv.size();
    return n;
  }

  /// Halo copies of `d` take their owners' values.
  template <class T, int D, class L, class M> void import(const Dat<T, D, L, M> &d) const {
    exchange(d, /*to_owners=*/false);
  }
  /// Owners add the values in their points' halo copies elsewhere.
  template <class T, int D, class L, class M> void export_add(const Dat<T, D, L, M> &d) const {
    exchange(d, /*to_owners=*/true);
  }

  /// import() (to_owners false) or export_add() (true). Public only
  /// because nvcc's device lambdas cannot live in private member functions.
  template <class T, int D, class L, class M>
  void exchange(const Dat<T, D, L, M> &d, bool to_owners) const {
    using Exec = typename Dat<T, D, L, M>::view_type::execution_space;
    using Buffer = Kokkos::View<T **, Kokkos::LayoutRight, M>;
    const auto v = d.view();
    const int tag = to_owners ? 702 : 701;
    const std::size_t nb = neighbours_.size();
    std::vector<typename Buffer::HostMirror> in(nb), out(nb);
    std::vector<MPI_Request> requests;
    requests.reserve(2 * nb);
    auto device_ids = [](const std::vector<int> &ids) {
      Kokkos::View<int *, M> dev("umesh::dist::ids", ids.size());
      Kokkos::deep_copy(dev, Kokkos::View<const int *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                 ids.data(), ids.size()));
      return dev;
    };
    for (std::size_t i = 0; i < nb; ++i) {
      const Neighbour &n = neighbours_[i];
      // Import: owners send their points, the halo receives. Export: the
      // reverse.
      const std::vector<int> &outgoing = to_owners ? n.recv : n.send;
      const std::vector<int> &incoming = to_owners ? n.send : n.recv;
      in[i] = typename Buffer::HostMirror("umesh::dist::in", incoming.size(), D);
      requests.emplace_back();
      MPI_Irecv(in[i].data(), int(incoming.size() * D * sizeof(T)), MPI_BYTE, n.rank, tag, comm_,
                &requests.back());
      Buffer packed("umesh::dist::out", outgoing.size(), D);
      const auto ids = device_ids(outgoing);
      Kokkos::parallel_for(
          "umesh::dist::pack", Kokkos::RangePolicy<Exec>(0, int(outgoing.size())),
          KOKKOS_LAMBDA(int j) {
            for (int k = 0; k < D; ++k)
              packed(j, k) = v(ids(j), k);
          });
      out[i] = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), packed);
      requests.emplace_back();
      MPI_Isend(out[i].data(), int(outgoing.size() * D * sizeof(T)), MPI_BYTE, n.rank, tag, comm_,
                &requests.back());
    }
    if (!requests.empty() &&
        MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      detail::fail("dist: halo exchange of dat '", d.name(), "' failed in MPI_Waitall");
    // Unpacked one neighbour at a time: an owned point shared with several
    // ranks is added to once per rank, never concurrently.
    for (std::size_t i = 0; i < nb; ++i) {
      const std::vector<int> &incoming = to_owners ? neighbours_[i].send : neighbours_[i].recv;
      auto buf = Kokkos::create_mirror_view_and_copy(M(), in[i]);
      const auto ids = device_ids(incoming);
      if (to_owners)
        Kokkos::parallel_for(
            "umesh::dist::unpack_add", Kokkos::RangePolicy<Exec>(0, int(incoming.size())),
            KOKKOS_LAMBDA(int j) {
              for (int k = 0; k < D; ++k)
                v(ids(j), k) += buf(j, k);
            });
      else
        Kokkos::parallel_for(
            "umesh::dist::unpack", Kokkos::RangePolicy<Exec>(0, int(incoming.size())),
            KOKKOS_LAMBDA(int j) {
              for (int k = 0; k < D; ++k)
                v(ids(j), k) = buf(j, k);
            });
    }
    Kokkos::fence();
  }

private:
  struct Neighbour {
    int rank;
    std::vector<int> send, recv;
  };

  MPI_Comm comm_;
  std::vector<Neighbour> neighbours_;
};

} // namespace umesh::dist

#endif
