// Must not compile: par_loop no longer takes the executor's tag (the plan
// carries it). tests/CMakeLists.txt checks that the compiler says what to write.
#include <umesh/umesh.hpp>

struct Kernel {
  template <class X> KOKKOS_INLINE_FUNCTION void operator()(X) const {}
};

void old_form(umesh::Plan<umesh::exec::Atomic> &plan, const umesh::Dat<double, 1> &x) {
  umesh::par_loop(umesh::exec::Atomic{}, plan, "old", Kernel{}, umesh::read(x));
}
