#ifndef UMESH_APPS_COMMON_RANKS_HPP
#define UMESH_APPS_COMMON_RANKS_HPP

// MPI's lifetime around an app's run, where the app is built with MPI
// (UMESH_APP_MPI): rank 0 prints and writes files, every rank computes, and
// every rank exits with the worst status of all. Without MPI: one rank.

#include <Kokkos_Core.hpp>
#if defined(UMESH_APP_MPI)
#include <mpi.h>
#include <umesh/dist/devices.hpp>
#endif

#include <cstdio>

namespace umesh::perf {

class Ranks {
public:
  int rank = 0, size = 1;
#if defined(UMESH_APP_MPI)
  Ranks(int &argc, char **&argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank > 0) // one rank reports; the others compute
      std::freopen("/dev/null", "w", stdout);
  }
  ~Ranks() {
    MPI_Finalize();
  }
  /// Says so (rank 0) when ranks share a GPU. Collective; after Kokkos is
  /// initialised.
  void report_shared_devices() const {
    const std::string note = umesh::dist::device_sharing_note(MPI_COMM_WORLD);
    if (rank == 0 && !note.empty())
      std::printf("%s\n", note.c_str());
  }
  /// The worst status over the ranks (so that every rank exits alike).
  int agree(int status) const {
    int worst = status;
    MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return worst;
  }
#else
  Ranks(int &, char **&) {}
  void report_shared_devices() const {}
  int agree(int status) const {
    return status;
  }
#endif
  Ranks(const Ranks &) = delete;
  Ranks &operator=(const Ranks &) = delete;
};

/// The largest of `value` over the ranks (collective; `value` without MPI).
inline double max_over_ranks(double value) {
#if defined(UMESH_APP_MPI)
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized)
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
#endif
  return value;
}

/// This process's peak resident host memory in MiB (Linux's VmHWM), or -1
/// where /proc does not say.
inline double peak_host_memory_mib() {
  std::FILE *f = std::fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  char line[256];
  double kib = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmHWM: %lf kB", &kib) == 1)
      break;
  std::fclose(f);
  return kib < 0 ? -1 : kib / 1024;
}

/// An app's main after parsing its options: MPI, then Kokkos, around
/// run(opt, rank, ranks); opt.distributed is set on more than one rank.
/// Returns the worst exit status over the ranks.
template <class Options, class Run>
int run_on_ranks(int &argc, char **&argv, Options opt, Run run) {
  const Ranks ranks(argc, argv);
  opt.distributed = opt.distributed || ranks.size > 1;
  int status = 0;
  {
    Kokkos::ScopeGuard guard(argc, argv);
    if (ranks.size > 1)
      ranks.report_shared_devices();
    status = run(opt, ranks.rank, ranks.size);
  }
  return ranks.agree(status);
}

} // namespace umesh::perf

#endif
