#ifndef UMESH_DIST_NCCL_HPP
#define UMESH_DIST_NCCL_HPP

// NCCL for halo exchange between GPUs, one GPU per rank. With it, an
// exchange's sends and receives go from device memory to device memory on the
// loops' CUDA stream: no copies through the host and no host waits, where the
// host-staged exchange (exchange.hpp) fences the device, copies each way and
// waits in MPI. Built when UMESH_HAS_NCCL is defined: CUDA builds that find
// nccl.h and libnccl (CMake option UMESH_ENABLE_NCCL).

#include <umesh/dist/devices.hpp>
#include <umesh/error.hpp>

#include <mpi.h>

#include <cstddef>
#include <vector>

#if defined(UMESH_HAS_NCCL)
#include <nccl.h>
#endif

namespace umesh::dist {

/// Whether this build can exchange halos through NCCL.
constexpr bool nccl_available() {
#if defined(UMESH_HAS_NCCL)
  return true;
#else
  return false;
#endif
}

/// An NCCL communicator over the ranks of an MPI communicator, each on the GPU
/// Kokkos gave it (at most one rank per GPU: NCCL refuses more). Collective:
/// every rank of `comm` constructs it, after Kokkos is initialised.
class NcclComm {
public:
  explicit NcclComm(MPI_Comm comm) {
#if defined(UMESH_HAS_NCCL)
    if (device_id() < 0)
      detail::fail("dist: NCCL exchange needs a CUDA default execution space");
    const int most = most_ranks_per_device(comm);
    if (most > 1)
      detail::fail("dist: NCCL exchange needs one rank per GPU, but ", most,
                   " ranks share one; use the host-staged exchange or more GPUs");
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    ncclUniqueId id{};
    if (rank == 0)
      check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, int(sizeof id), MPI_BYTE, 0, comm);
    check(ncclCommInitRank(&comm_, size, id, rank), "ncclCommInitRank");
#else
    (void)comm;
    detail::fail("dist: umesh was built without NCCL (it needs a CUDA build that finds nccl.h and "
                 "libnccl; CMake option UMESH_ENABLE_NCCL)");
#endif
  }
  NcclComm(const NcclComm &) = delete;
  NcclComm &operator=(const NcclComm &) = delete;
  ~NcclComm() {
#if defined(UMESH_HAS_NCCL)
    if (comm_)
      ncclCommDestroy(comm_);
#endif
  }

#if defined(UMESH_HAS_NCCL)
  ncclComm_t get() const {
    return comm_;
  }
  static void check(ncclResult_t r, const char *what) {
    if (r != ncclSuccess)
      detail::fail("dist: ", what, " failed: ", ncclGetErrorString(r));
  }
  /// One group of sends and receives on `stream`, with each of `ranks`:
  /// rank n gets rows [out_at[n], out_at[n + 1]) of `out` and sends rows
  /// [in_at[n], in_at[n + 1]) of `in`, rows of `row` bytes.
  void send_recv(const std::vector<int> &ranks, const char *out,
                 const std::vector<std::size_t> &out_at, char *in,
                 const std::vector<std::size_t> &in_at, std::size_t row,
                 cudaStream_t stream) const {
    check(ncclGroupStart(), "ncclGroupStart");
    for (std::size_t n = 0; n < ranks.size(); ++n) {
      check(ncclRecv(in + in_at[n] * row, (in_at[n + 1] - in_at[n]) * row, ncclChar, ranks[n],
                     comm_, stream),
            "ncclRecv");
      check(ncclSend(out + out_at[n] * row, (out_at[n + 1] - out_at[n]) * row, ncclChar, ranks[n],
                     comm_, stream),
            "ncclSend");
    }
    check(ncclGroupEnd(), "ncclGroupEnd");
  }

private:
  ncclComm_t comm_ = nullptr;
#endif
};

} // namespace umesh::dist

#endif
