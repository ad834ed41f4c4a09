#ifndef UMESH_ELEMENT_TEAM_HPP
#define UMESH_ELEMENT_TEAM_HPP

// The handle an element kernel receives first: its element, the element's
// lanes, its scratch and its barrier. The same kernel runs on every backend
// and under every strategy; on GPUs an element's lanes are threads of one
// warp, on host backends they run one after the other.
//
//   template <class Team, class Tab, class U, class Uq>
//   KOKKOS_INLINE_FUNCTION void operator()(const Team &t, Tab phi, U u, Uq uq) const {
//     double *s = t.template scratch<double>(nq);   // the element's own
//     t.lanes(nq, [&](int q) {                      // quadrature points on lanes
//       double v = 0;
//       for (int i = 0; i < u.size(); ++i) v += phi(q, i) * u(i, 0);
//       s[q] = v;
//     });                                           // lanes in step again here
//     ...
//   }

#include <Kokkos_Core.hpp>

namespace umesh {

template <class Member> class ElementTeam {
public:
  KOKKOS_INLINE_FUNCTION ElementTeam(const Member &member, int element, int layer, int lanes,
                                     char *scratch, int scratch_bytes)
      : member_(member), element_(element), layer_(layer), lanes_(lanes), scratch_(scratch),
        scratch_bytes_(scratch_bytes) {}

  /// The element (for an extruded set: the column's base element).
  KOKKOS_INLINE_FUNCTION int element() const { return element_; }
  /// The layer of an extruded loop's column element, 0 otherwise.
  KOKKOS_INLINE_FUNCTION int layer() const { return layer_; }
  /// Lanes the element runs on: the loop's lanes on GPUs, 1 on host backends.
  KOKKOS_INLINE_FUNCTION int lane_count() const { return lanes_; }

  /// Calls f(i) for every i in [0, n), spread over the element's lanes; the
  /// lanes are in step again when it returns (an element barrier).
  template <class F> KOKKOS_INLINE_FUNCTION void lanes(int n, const F &f) const {
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(member_, n), f);
    barrier();
  }
  /// The sum over i in [0, n) of what f(i, acc) adds to acc, every lane
  /// receiving it.
  template <class T, class F> KOKKOS_INLINE_FUNCTION T lane_sum(int n, const F &f) const {
    T total = T(0);
    Kokkos::parallel_reduce(Kokkos::ThreadVectorRange(member_, n), f, total);
    return total;
  }
  /// Calls f() on one lane of the element (call barrier() before other lanes
  /// read what it wrote).
  template <class F> KOKKOS_INLINE_FUNCTION void single(const F &f) const {
    Kokkos::single(Kokkos::PerThread(member_), f);
  }
  /// The element's lanes wait for each other here; what one wrote to scratch
  /// before, the others see after. Elements never wait for each other.
  KOKKOS_INLINE_FUNCTION void barrier() const {
#if defined(__CUDA_ARCH__)
    // An element's lanes are threadIdx.x of one threadIdx.y (Kokkos' CUDA
    // team layout), vector_length of them: a power of two up to 32, so they
    // sit in one warp. Elements of a team may leave the element loop at
    // different times: only the element's own lanes are waited for.
    const unsigned width = blockDim.x;
    const unsigned mask =
        width == 32 ? 0xffffffffu : ((1u << width) - 1u) << ((threadIdx.y % (32 / width)) * width);
    __syncwarp(mask);
#endif
  }

  /// `n` values of T in the element's own scratch, valid while the element
  /// runs. Each call takes the next ElementTeams::scratch_bytes<T>(n) bytes of
  /// what the loop's ElementTeams::element_scratch gives; asking for more
  /// aborts with a message (a kernel's bug, as an out-of-range index).
  template <class T> KOKKOS_INLINE_FUNCTION T *scratch(int n) const {
    const int bytes = (n * int(sizeof(T)) + 15) / 16 * 16;
    if (n < 0 || used_ + bytes > scratch_bytes_)
      Kokkos::abort("umesh: an element kernel asked t.scratch() for more than the loop's "
                    "ElementTeams::element_scratch bytes (declare it with with_scratch<T>(n))");
    T *p = reinterpret_cast<T *>(scratch_ + used_);
    used_ += bytes;
    return p;
  }

  /// The Kokkos team member whose thread runs this element (its vector lanes
  /// are the element's lanes): for nested patterns the handle lacks.
  KOKKOS_INLINE_FUNCTION const Member &member() const {
    return member_;
  }

private:
  const Member &member_;
  int element_, layer_, lanes_;
  char *scratch_;
  int scratch_bytes_;
  mutable int used_ = 0;
};

} // namespace umesh

#endif
