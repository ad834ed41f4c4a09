#ifndef UMESH_DETAIL_PROFILING_REGION_HPP
#define UMESH_DETAIL_PROFILING_REGION_HPP

// A Kokkos Tools profiling region held for a scope: popped however the
// scope ends, an exception included (a loop that throws left its region
// open, and every later region nested under it in the tools' reports).

#include <Kokkos_Core.hpp>

#include <string>

namespace umesh::detail {

class ProfilingRegion {
public:
  explicit ProfilingRegion(const std::string &name) { Kokkos::Profiling::pushRegion(name); }
  ~ProfilingRegion() { Kokkos::Profiling::popRegion(); }
  ProfilingRegion(const ProfilingRegion &) = delete;
  ProfilingRegion &operator=(const ProfilingRegion &) = delete;
};

} // namespace umesh::detail

#endif
