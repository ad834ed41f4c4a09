#ifndef UMESH_APPS_COMMON_KOKKOS_SCOPE_HPP
#define UMESH_APPS_COMMON_KOKKOS_SCOPE_HPP

// Kokkos' lifetime in a umesh program (Kokkos::ScopeGuard's), with a GPU
// runtime that cannot start reported as such. Kokkos throws CUDA's own
// words from inside its initialisation ("cudaGetDeviceCount(...) error(
// cudaErrorMemoryAllocation): out of memory", or "insufficient driver"),
// which read as an internal error of umesh (exit status 4). On a machine
// with a GPU the usual cause is a virtual-memory limit (ulimit -v): the CUDA
// runtime reserves far more address space than the program will use.

#include "common/run_main.hpp"

#include <Kokkos_Core.hpp>

#include <exception>
#include <string>

#include <sys/resource.h>

namespace umesh::apps {

/// "the GPU runtime could not start (<why>)" and what to do about it: the
/// address-space limit when one is set (the usual cause), else the driver.
inline std::string gpu_runtime_failure(const std::string &why) {
  std::string out = "the GPU runtime could not start (" + kokkos_message(why) + ")";
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    return out + "; this process may use " + std::to_string(limit.rlim_cur >> 20) +
           " MiB of address space (ulimit -v), and the GPU runtime reserves more than that to "
           "start: lift the limit (ulimit -v unlimited), or run a host build";
  return out + ": is the GPU driver loaded and a GPU visible to this process (nvidia-smi, "
               "CUDA_VISIBLE_DEVICES)?";
}

/// Kokkos::initialize on construction, Kokkos::finalize on destruction. A
/// GPU build whose runtime cannot start throws ResourceError (exit status
/// 3) saying so; Kokkos' own arguments were checked before (cli.hpp).
class KokkosScope {
public:
  KokkosScope(int &argc, char **argv) {
    try {
      Kokkos::initialize(argc, argv);
    } catch (const std::exception &e) {
#if defined(KOKKOS_ENABLE_CUDA)
      throw ResourceError(gpu_runtime_failure(e.what()));
#else
      throw;
#endif
    }
  }
  KokkosScope(const KokkosScope &) = delete;
  KokkosScope &operator=(const KokkosScope &) = delete;
  ~KokkosScope() {
    if (Kokkos::is_initialized())
      Kokkos::finalize();
  }
};

} // namespace umesh::apps

#endif
