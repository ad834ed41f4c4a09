#include <umesh/partition.hpp>

namespace umesh {

bool has_metis() {
#ifdef UMESH_HAS_METIS
  return true;
#else
  return false;
#endif
}

bool has_scotch() {
#ifdef UMESH_HAS_SCOTCH
  return true;
#else
  return false;
#endif
}

} // namespace umesh
