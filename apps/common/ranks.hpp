#ifndef UMESH_APPS_COMMON_RANKS_HPP
#define UMESH_APPS_COMMON_RANKS_HPP

// MPI's lifetime around an app's run, where the app is built with MPI
// (UMESH_APP_MPI): rank 0 prints and writes files, every rank computes, and
// every rank exits with the worst status of all. Without MPI: one rank.

#include "common/kokkos_scope.hpp"
#include "common/run_main.hpp"

#include <Kokkos_Core.hpp>
#if defined(UMESH_APP_MPI)
#include <mpi.h>
#include <umesh/dist/devices.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

namespace umesh::apps {

class Ranks {
public:
  int rank = 0, size = 1;
#if defined(UMESH_APP_MPI)
  /// MPI starts only for a distributed run: `distributed` (--distributed)
  /// or a process that an MPI launcher started (mpirun, mpiexec, srun). A
  /// run of one process leaves it out: a singleton MPI_Init starts a helper
  /// daemon, which fails under a memory limit (ulimit -v) and would end a
  /// run that needs no MPI.
  Ranks(int &argc, char **&argv, bool distributed) {
    if (!distributed && !started_by_mpi_launcher())
      return;
    initialized_ = true;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    // One rank reports; the others compute (and say so if they cannot be
    // silenced: their lines would then repeat rank 0's).
    if (rank > 0 && !std::freopen("/dev/null", "w", stdout))
      std::fprintf(stderr, "rank %d: could not send its output to /dev/null\n", rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &agreement_);
  }
  ~Ranks() {
    if (!initialized_)
      return;
    MPI_Comm_free(&agreement_);
    MPI_Finalize();
  }
  /// Whether an MPI launcher started this process: the variables Open MPI's
  /// mpirun, MPICH's and Intel MPI's Hydra (PMI) and PMIx launchers (Slurm's
  /// srun, Open MPI 5) set in each process they start.
  static bool started_by_mpi_launcher() {
    for (const char *v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK"})
      if (std::getenv(v))
        return true;
    return false;
  }
  /// Says so (rank 0) when ranks share a GPU. Collective; after Kokkos is
  /// initialised.
  void report_shared_devices() const {
    const std::string note = umesh::dist::device_sharing_note(MPI_COMM_WORLD);
    if (rank == 0 && !note.empty())
      std::printf("%s\n", note.c_str());
  }
  /// The worst status over the ranks (so that every rank exits alike).
  /// A rank that failed (`failed`: its run ended in an exception) waits
  /// `patience` seconds for the others to agree; a rank still waiting for it
  /// in one of the run's own collective calls never comes, and the failed
  /// rank then ends the job with its status (MPI_Abort) instead of leaving
  /// it hanging. The agreement goes through a communicator of its own, so
  /// that it cannot be matched with a collective call of the run.
  int agree(int status, bool failed = false, double patience = 10.0) const {
    int worst = status;
    if (!initialized_)
      return status;
    if (!failed) {
      MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, agreement_);
      return worst;
    }
    MPI_Request request;
    MPI_Iallreduce(&status, &worst, 1, MPI_INT, MPI_MAX, agreement_, &request);
    const double start = MPI_Wtime();
    for (int done = 0;;) {
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      if (done)
        return worst;
      if (MPI_Wtime() - start > patience) {
        std::fprintf(stderr, "rank %d: the other ranks did not stop with it: ending the job\n",
                     rank);
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, status);
      }
      usleep(1000);
    }
  }
#else
  Ranks(int &, char **&, bool) {}
  void report_shared_devices() const {}
  int agree(int status, bool = false, double = 0) const {
    return status;
  }
#endif
  Ranks(const Ranks &) = delete;
  Ranks &operator=(const Ranks &) = delete;

private:
#if defined(UMESH_APP_MPI)
  bool initialized_ = false;
  MPI_Comm agreement_ = MPI_COMM_NULL;
#endif
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

/// Collective: the message of the lowest rank whose `problem` is not empty,
/// on every rank (empty when no rank has one): what only some ranks check
/// (rank 0 reads a file) stops all of them alike.
inline std::string first_problem(const std::string &problem) {
#if defined(UMESH_APP_MPI)
  int initialized = 0, size = 1, rank = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    return problem;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int mine = problem.empty() ? size : rank, first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size)
    return {};
  int length = rank == first ? int(problem.size()) : 0;
  MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD);
  std::string message = rank == first ? problem : std::string(std::size_t(length), ' ');
  MPI_Bcast(message.data(), length, MPI_CHAR, first, MPI_COMM_WORLD);
  return message;
#else
  return problem;
#endif
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

/// CPU seconds this process has used so far, all its threads, user and
/// system (getrusage): beside wall seconds, a phase's work whether or not
/// ranks beyond the host's cores wait for one.
inline double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/// Prints (rank 0) the peak host memory of the rank that used most
/// (collective): "host memory: peak N MiB ... (VmHWM)".
inline void print_peak_host_memory(int ranks) {
  const double peak = max_over_ranks(peak_host_memory_mib());
  if (peak >= 0)
    std::printf("host memory: peak %.0f MiB%s (VmHWM)\n", peak,
                ranks > 1 ? " on the rank that used most" : "");
}

/// The smallest and largest of `value` over the ranks, as "a s" or, when
/// they differ, "a-b s" (collective; seconds to two decimals).
inline std::string seconds_over_ranks(double value) {
  const double hi = max_over_ranks(value), lo = -max_over_ranks(-value);
  char text[64];
  if (std::snprintf(text, sizeof text, "%.2f", lo) > 0 && hi - lo < 0.005)
    return std::string(text) + " s";
  std::snprintf(text, sizeof text, "%.2f-%.2f s", lo, hi);
  return text;
}

/// An app's main after parsing its options: MPI, then Kokkos, around
/// run(opt, rank, ranks); opt.distributed is set on more than one rank.
/// Returns the worst exit status over the ranks.
template <class Options, class Run>
int run_on_ranks(int &argc, char **&argv, Options opt, Run run) {
  const Ranks ranks(argc, argv, opt.distributed);
  opt.distributed = opt.distributed || ranks.size > 1;
  int status = 0;
  {
    KokkosScope kokkos(argc, argv);
    if (ranks.size > 1)
      ranks.report_shared_devices();
    status = run(opt, ranks.rank, ranks.size);
  }
  // Bad input, resources, internal errors: a failure (an exception) of this
  // rank, which other ranks may be waiting for (run_main.hpp's statuses).
  return ranks.agree(status, ranks.size > 1 && status >= exit_bad_input);
}

} // namespace umesh::apps

#endif
