#ifndef UMESH_DIST_DEVICES_HPP
#define UMESH_DIST_DEVICES_HPP

// Which ranks share a GPU. Ranks on one GPU are separate processes with
// separate CUDA contexts, which the GPU time-slices: a small mesh's step
// can run many times slower on two ranks sharing the GPU than on one rank
// (docs/performance-notes.md).
// Apps report it so a user sees why before timing anything.

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::dist {

/// The device this rank's default execution space runs on, or -1 on host
/// backends (no device to share).
inline int device_id() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>::value)
    return Kokkos::Cuda().cuda_device();
#endif
  return -1;
}

/// The most ranks of `comm` that run on one device of one node (1 on host
/// backends). Collective over `comm`; call after Kokkos is initialised.
inline int most_ranks_per_device(MPI_Comm comm) {
  const int mine = device_id();
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  std::vector<int> devices(std::size_t(size), -1);
  MPI_Allgather(&mine, 1, MPI_INT, devices.data(), 1, MPI_INT, node);
  MPI_Comm_free(&node);
  const int here = mine < 0 ? 1 : int(std::count(devices.begin(), devices.end(), mine));
  int most = here;
  MPI_Allreduce(&here, &most, 1, MPI_INT, MPI_MAX, comm);
  return most;
}

/// A line for reports when ranks of `comm` share a GPU, else empty.
/// Collective over `comm`.
inline std::string device_sharing_note(MPI_Comm comm) {
  const int most = most_ranks_per_device(comm);
  if (most < 2)
    return {};
  return "note: " + std::to_string(most) +
         " ranks share one GPU; the GPU time-slices between them, so small loops run many times "
         "slower than on one rank per GPU (use at most one rank per GPU, or CUDA MPS)";
}

} // namespace umesh::dist

#endif
