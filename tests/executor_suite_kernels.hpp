#ifndef UMESH_TEST_EXECUTOR_SUITE_KERNELS_HPP
#define UMESH_TEST_EXECUTOR_SUITE_KERNELS_HPP

// The executor suite's kernels (executor_suite.hpp), one per shape of the
// mesh codes umesh serves: each test runs one under the executor under test
// and the serial reference.
#include <Kokkos_Core.hpp>

namespace umesh::test {

// A res_calc-like edge kernel: reads node coordinates and cell states through
// two maps, increments both cells, reads a direct edge weight and reduces.
struct EdgeKernel {
  template <class W, class X, class Q, class A, class R, class G1, class G2, class G3>
  KOKKOS_INLINE_FUNCTION void operator()(W w, X x1, X x2, Q q1, Q q2, A a1, A a2, R r1, R r2,
                                         G1 sum, G2 mn, G3 mx) const {
    const double dx = x1(0) - x2(0), dy = x1(1) - x2(1);
    for (int k = 0; k < 4; ++k) {
      const double f = w(0) * (q1(k) * dy - q2(k) * dx) + 0.5 * (a1(0) + a2(0)) * (q1(k) - q2(k));
      r1(k) += f;
      r2(k) -= f;
      sum(k % 2) += f * f;
    }
    const double lo = a1(0) - a2(0), hi = q1(3) * q2(2);
    mn(0) = lo < mn(0) ? lo : mn(0);
    mx(0) = hi > mx(0) ? hi : mx(0);
  }
};

// Random map of arity 4 into a small set (heavy contention); increments two
// dats, one of them twice through the same slot; direct rw, write and inc.
struct ScatterKernel {
  template <class D, class W, class I, class P, class A, class B>
  KOKKOS_INLINE_FUNCTION void operator()(D d, W w, I di, P p0, P p3, A a0, A a1, A a2, A a3, B b2,
                                         B b2again) const {
    const double s = d(0) + 2 * d(1) + p0(0) - p3(1);
    for (int k = 0; k < 3; ++k) {
      a0(k) += s * (k + 1);
      a1(k) += s - k;
      a2(k) -= 0.5 * s;
      a3(k) += d(1) * p3(k);
    }
    b2(0) += s;
    b2again(0) += 2 * d(0);
    d(0) = d(0) * 0.5 + s;
    d(1) -= 1.0;
    w(0) = s * s;
    di(0) += 3 * s;
  }
};

// miniAero's shape: faces increment a 5-component flux of both cells.
struct FaceKernel {
  template <class N, class U, class F>
  KOKKOS_INLINE_FUNCTION void operator()(N n, U ul, U ur, F fl, F fr) const {
    const double un = ul(1) * n(0) + ul(2) * n(1) + ul(3) * n(2);
    for (int k = 0; k < 5; ++k) {
      const double f = 0.5 * (ul(k) + ur(k)) * un - 0.1 * (ur(k) - ul(k));
      fl(k) -= f;
      fr(k) += f;
    }
  }
};

// The limiter's shape: every face folds the min and the max of its two cells'
// values into both cells; a flux-like increment of a third dat rides along.
struct StencilMinMaxKernel {
  template <class U, class Lo, class Hi, class F>
  KOKKOS_INLINE_FUNCTION void operator()(U ul, U ur, Lo lo_l, Lo lo_r, Hi hi_l, Hi hi_r, F fl,
                                         F fr) const {
    for (int k = 0; k < 5; ++k) {
      const double a = ul(k), b = ur(k);
      const double lo = a < b ? a : b, hi = a < b ? b : a;
      lo_l(k).update(lo);
      lo_r(k).update(lo);
      hi_l(k).update(hi);
      hi_r(k).update(hi);
      fl(k) += hi - lo;
      fr(k) -= 0.5 * (hi - lo);
    }
  }
};

// Heavy contention: 3001 elements fold into 97 points through a random map
// of arity 4, one slot twice.
struct Arity4MinMaxKernel {
  template <class D, class Lo, class Hi>
  KOKKOS_INLINE_FUNCTION void operator()(D d, Lo lo0, Lo lo0again, Hi hi1, Hi hi2, Hi hi3) const {
    for (int k = 0; k < 3; ++k) {
      const double v = d(k) * (k + 1);
      lo0(k).update(v);
      lo0again(k).update(-v);
      hi1(k).update(v);
      hi2(k).update(v * v - 0.5);
      hi3(k).update(-v);
    }
  }
};

struct CountKernel {
  template <class A, class G> KOKKOS_INLINE_FUNCTION void operator()(A a, G g) const {
    a(0) += 1;
    g(0) += 1;
  }
};

// Volna's shape: single precision, an int flag, and boundary edges whose
// two slots are their one cell, the flag keeping the kernel off the second.
struct FloatEdgeKernel {
  template <class F, class I, class V, class O>
  KOKKOS_INLINE_FUNCTION void operator()(F flux, I boundary, V v0, V v1, O left, O right) const {
    for (int k = 0; k < 3; ++k) {
      left(k) -= flux(k) / v0(0);
      if (!boundary(0))
        right(k) += flux(k) / v1(0);
    }
  }
};

} // namespace umesh::test

#endif
