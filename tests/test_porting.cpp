// docs/porting.md's example: the plain-Kokkos finite-volume code
// (tests/porting/fv_kokkos.hpp) and its port onto umesh
// (tests/porting/fv_umesh.hpp), run side by side from the same mesh arrays
// and initial state under two executors, both layouts, with and without a
// renumbering: every step's time step and the final state must match.
#include "porting/fv_kokkos.hpp"
#include "porting/fv_umesh.hpp"
#include "test_main.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace {
using Mem = Kokkos::DefaultExecutionSpace::memory_space;

template <class E, class L> struct Case {
  using exec = E;
  using layout = L;
};
template <class C> class Porting : public ::testing::Test {};
using Cases =
    ::testing::Types<Case<umesh::exec::Atomic, umesh::AoS>, Case<umesh::exec::Atomic, umesh::SoA>,
                     Case<umesh::exec::GlobalColour, umesh::AoS>,
                     Case<umesh::exec::GlobalColour, umesh::SoA>>;
TYPED_TEST_SUITE(Porting, Cases);

double max_rel_diff(const std::vector<double> &a, const std::vector<double> &b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i])));
  return worst;
}

TYPED_TEST(Porting, PortMatchesThePlainKokkosOriginal) {
  using L = typename TypeParam::layout;
  const fv::Mesh m = fv::make_mesh(24, 20, 7);
  const std::vector<double> q_init = fv::initial_state(m);
  for (umesh::Reorder method : {umesh::Reorder::none, umesh::Reorder::rcm}) {
    SCOPED_TRACE(umesh::reorder_name(method));
    fv::KokkosSolver original(m, 0.4);
    // The port's state and areas as the original code would hold them:
    // Views, which the port wraps.
    Kokkos::View<double *[4], L, Mem> q0("q0", m.ncells);
    Kokkos::View<double *, Mem> area0("area0", m.ncells);
    {
      auto hq = Kokkos::create_mirror_view(q0);
      auto ha = Kokkos::create_mirror_view(area0);
      for (int c = 0; c < m.ncells; ++c) {
        for (int k = 0; k < 4; ++k)
          hq(c, k) = q_init[4 * c + k];
        ha(c) = m.cell_area[c];
      }
      Kokkos::deep_copy(q0, hq);
      Kokkos::deep_copy(area0, ha);
    }
    fv::UmeshSolver<typename TypeParam::exec, L> port(m, q0, area0, 0.4, method);
    EXPECT_EQ(port.port().q.view().data() == q0.data(), method == umesh::Reorder::none);
    EXPECT_EQ(port.port().walls.size() + 2 * port.port().edges.size(),
              std::size_t(2 * m.nedges - port.port().walls.size()));
    for (int step = 0; step < 12; ++step) {
      const double want = original.step(), got = port.step();
      ASSERT_GT(want, 0.0);
      ASSERT_NEAR(got, want, 1e-12 * want) << "step " << step;
    }
    const std::vector<double> want = original.state(), got = port.state();
    EXPECT_LT(max_rel_diff(got, want), 1e-12);
    EXPECT_GT(max_rel_diff(want, q_init), 1e-3); // the steps moved the state
    if (method == umesh::Reorder::none) {        // the loops wrote the original View
      auto hq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q0);
      EXPECT_EQ(hq(5, 3), got[4 * 5 + 3]);
    }
  }
}

} // namespace
