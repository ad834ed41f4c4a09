// Probe for issue 15: what one halo exchange between two GPUs costs, apart
// from umesh. On two GPUs, miniAero's exchanges (device fenced) took 20 ms a
// step at 128^3 and 34 ms at 256^3: the time hardly follows the halo's size
// (perf/results/miniaero-2gpu-scaling/). This times the two transports
// umesh's dist::Exchange uses, on buffers of the sizes a halo has, with no
// packing and no loops around them:
//   nccl   ncclSend + ncclRecv to and from the other rank in one group on a
//          stream, then a stream sync (what --transport nccl does, fenced)
//   host   device to host copy, MPI_Sendrecv, host to device copy (what the
//          host-staged exchange does)
// and, as the floor under both, a round of a stream sync alone.
// Two ranks, one GPU each (rank r takes GPU r % count). Median of `reps`
// rounds per size after `reps / 5` untimed ones; what the last round of each
// size delivered is checked (each rank receives the other's pattern).
// Build and run (perf/device/nccl-probe.sh does both):
//   mpicxx -O2 -std=c++17 -DOMPI_SKIP_MPICXX -I/usr/local/cuda/include \
//     nccl_sendrecv_probe.cpp -L/usr/local/cuda/lib64 -lnccl -lcudart -o nccl_probe
//   mpirun -np 2 ./nccl_probe [reps] [legacy]
// With `legacy` the NCCL calls go on the legacy default stream (stream 0, where Kokkos 3.4's
// default CUDA instance launches, and so umesh's exchanges) instead of a stream of their own, and
// the host path is left out.
// Set NCCL_DEBUG=INFO to see which transport NCCL picked (P2P, SHM, NET).
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

void require(bool ok, const std::string &what) {
  if (!ok) {
    std::fprintf(stderr, "nccl_probe: %s\n", what.c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}
void cuda(cudaError_t e, const char *what) {
  require(e == cudaSuccess, std::string(what) + ": " + cudaGetErrorString(e));
}
void nccl(ncclResult_t r, const char *what) {
  require(r == ncclSuccess, std::string(what) + ": " + ncclGetErrorString(r));
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class Round> double median_us(int reps, Round round) {
  std::vector<double> t;
  for (int i = 0; i < reps + reps / 5; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = now();
    round();
    if (i >= reps / 5)
      t.push_back(1e6 * (now() - t0));
  }
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  double mine = t[t.size() / 2], slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, gpus = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  require(size == 2, "run it on 2 ranks");
  const int reps = argc > 1 ? std::atoi(argv[1]) : 50;
  require(reps >= 5, "reps must be at least 5");
  cuda(cudaGetDeviceCount(&gpus), "cudaGetDeviceCount");
  require(gpus > 0, "no GPU");
  cuda(cudaSetDevice(rank % gpus), "cudaSetDevice");
  const int peer = 1 - rank;

  ncclUniqueId id{};
  if (rank == 0)
    nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  ncclComm_t comm{};
  nccl(ncclCommInitRank(&comm, size, id, rank), "ncclCommInitRank");
  const bool legacy = argc > 2 && std::string(argv[2]) == "legacy";
  cudaStream_t stream{};
  if (!legacy)
    cuda(cudaStreamCreate(&stream), "cudaStreamCreate");
  int version = 0;
  ncclGetVersion(&version);
  if (rank == 0)
    std::printf("nccl_probe: 2 ranks on %d GPU(s), NCCL %d, median of %d rounds (slowest rank), "
                "%s\n"
                "%12s %12s %10s %12s %10s\n",
                gpus, version, reps, legacy ? "legacy default stream" : "a stream of its own",
                "bytes", "nccl us", "GB/s", "host us", "GB/s");

  const double floor_us = median_us(reps, [&] { cuda(cudaStreamSynchronize(stream), "sync"); });
  const std::size_t most = std::size_t(64) << 20;
  char *out = nullptr, *in = nullptr;
  cuda(cudaMalloc(&out, most), "cudaMalloc");
  cuda(cudaMalloc(&in, most), "cudaMalloc");
  std::vector<char> host_out(most), host_in(most), check(most);
  cuda(cudaMemset(out, 1 + rank, most), "cudaMemset");

  // Powers of four, and any sizes given after the rounds (and `legacy`),
  // such as an exchange's bytes, to set beside it.
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 4096; bytes <= most; bytes *= 4)
    sizes.push_back(bytes);
  for (int a = legacy ? 3 : 2; a < argc; ++a) {
    char *end = nullptr;
    const unsigned long long b = std::strtoull(argv[a], &end, 10);
    require(*argv[a] && !*end && b > 0 && b <= most, "sizes are bytes from 1 to 64 MiB");
    sizes.push_back(std::size_t(b));
  }
  std::sort(sizes.begin(), sizes.end());
  for (const std::size_t bytes : sizes) {
    const double nccl_us = median_us(reps, [&] {
      nccl(ncclGroupStart(), "ncclGroupStart");
      nccl(ncclRecv(in, bytes, ncclChar, peer, comm, stream), "ncclRecv");
      nccl(ncclSend(out, bytes, ncclChar, peer, comm, stream), "ncclSend");
      nccl(ncclGroupEnd(), "ncclGroupEnd");
      cuda(cudaStreamSynchronize(stream), "sync");
    });
    cuda(cudaMemcpy(check.data(), in, bytes, cudaMemcpyDeviceToHost), "check copy");
    require(
        std::all_of(check.begin(), check.begin() + bytes, [&](char c) { return c == 1 + peer; }),
        "NCCL delivered wrong bytes");
    cuda(cudaMemset(in, 0, bytes), "cudaMemset");
    const double host_us = legacy ? 0.0 : median_us(reps, [&] {
      cuda(cudaMemcpy(host_out.data(), out, bytes, cudaMemcpyDeviceToHost), "to host");
      MPI_Sendrecv(host_out.data(), int(bytes), MPI_BYTE, peer, 7, host_in.data(), int(bytes),
                   MPI_BYTE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      cuda(cudaMemcpy(in, host_in.data(), bytes, cudaMemcpyHostToDevice), "to device");
    });
    cuda(cudaMemcpy(check.data(), in, bytes, cudaMemcpyDeviceToHost), "check copy");
    require(legacy || std::all_of(check.begin(), check.begin() + bytes,
                                  [&](char c) { return c == 1 + peer; }),
            "the host path delivered wrong bytes");
    if (rank == 0)
      std::printf("%12zu %12.1f %10.2f %12.1f %10.2f\n", bytes, nccl_us, bytes / nccl_us / 1e3,
                  host_us, host_us > 0 ? bytes / host_us / 1e3 : 0.0);
  }
  if (rank == 0)
    std::printf("stream sync alone: %.1f us\n", floor_us);
  cuda(cudaFree(out), "cudaFree");
  cuda(cudaFree(in), "cudaFree");
  ncclCommDestroy(comm);
  MPI_Finalize();
  return 0;
}
