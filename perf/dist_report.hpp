#ifndef UMESH_PERF_DIST_REPORT_HPP
#define UMESH_PERF_DIST_REPORT_HPP

// What a multi-rank perf program prints about its ranks: each rank's device
// and copy bandwidth, and per-rank values gathered to rank 0.

#include "common/bandwidth.hpp"

#include <umesh/dist.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::perf {

// "rank 0: <values>; rank 1: ..." with each value printed by its format
// (rank 0 gets the text).
template <std::size_t N>
inline std::string per_rank_text(const double (&mine)[N], const char *const (&fmt)[N]) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<double> all(N * std::size_t(size));
  MPI_Gather(mine, int(N), MPI_DOUBLE, all.data(), int(N), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  std::string text;
  char item[96];
  for (int r = 0; r < size; ++r) {
    text += r ? "; rank " : "rank ";
    text += std::to_string(r) + ":";
    for (std::size_t k = 0; k < N; ++k) {
      std::snprintf(item, sizeof item, fmt[k], all[N * r + k]);
      text += item;
    }
  }
  return text;
}

// The device this rank runs on: the CUDA device number and UUID as
// nvidia-smi -L prints it (or the space's name on host backends), for the log.
inline std::string device_label() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>) {
    const int id = Kokkos::Cuda().cuda_device();
    std::string label = "cuda device " + std::to_string(id);
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, id) != cudaSuccess)
      return label;
    char uuid[64];
    const auto *u = reinterpret_cast<const unsigned char *>(prop.uuid.bytes);
    std::snprintf(uuid, sizeof uuid,
                  "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                  u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                  u[14], u[15]);
    return label + " (" + prop.name + ", " + uuid + ")";
  }
#endif
  return Kokkos::DefaultExecutionSpace::name();
}

// Every rank's device and copy bandwidth, printed by rank 0 in rank order;
// returns the lowest bandwidth (the yardstick for the slowest rank).
inline double report_devices(int rank, int size) {
  const double gbps = apps::copy_bandwidth_gbps();
  const std::string label = device_label();
  char line[256];
  std::snprintf(line, sizeof line, "rank %d: %s, copy bandwidth %.1f GB/s", rank, label.c_str(),
                gbps);
  std::vector<char> all(std::size_t(size) * sizeof line);
  MPI_Gather(line, sizeof line, MPI_CHAR, all.data(), sizeof line, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      std::printf("  %s\n", all.data() + std::size_t(r) * sizeof line);
  const std::string note = dist::device_sharing_note(MPI_COMM_WORLD);
  if (rank == 0 && !note.empty())
    std::printf("  %s\n", note.c_str());
  double lowest = 0;
  MPI_Allreduce(&gbps, &lowest, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  return lowest;
}

} // namespace umesh::perf

#endif
