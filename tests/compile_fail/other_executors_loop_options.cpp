// Must not compile: a plan of one executor with another executor's loop
// options. tests/CMakeLists.txt checks that the compiler says so in a sentence.
#include <umesh/umesh.hpp>

struct Kernel {
  template <class X> KOKKOS_INLINE_FUNCTION void operator()(X) const {}
};

void mismatch(umesh::Plan<umesh::exec::Atomic> &plan, const umesh::Dat<double, 1> &x) {
  umesh::par_loop(plan, umesh::exec::WarpLoop{}.with_max_registers(64), "mismatch", Kernel{},
                  umesh::read(x));
}
