// Sweep loops (umesh/sweep.hpp) on every backend and layout: every executor
// and shape against the serial reference of tests/sweep_step.hpp on hexes,
// tets and a ring whose cycle is lagged, from a flux poisoned everywhere but
// where lagged faces read.
#include "sweep_step.hpp"
#include "sweep_test_support.hpp"
#include "test_main.hpp"

#include <umesh/sweep.hpp>
#include <umesh/sweep_auto.hpp>

#include <cmath>
#include <limits>
#include <random>

using namespace umesh;

namespace {

constexpr int G = 5; // groups: odd, so that group chunks of 2 leave one over

template <class Space, class Layout> struct Case {
  using Mem = typename Space::memory_space;
  SweepSchedule schedule;
  Dat<double, G, AoS, Mem> sigma, q;
  Dat<double, 1, AoS, Mem> vol;
  std::vector<double> h_sigma, h_q, h_vol, before;

  Case(const SweepMesh &mesh, const std::vector<double> &dirs, unsigned seed)
      : schedule(make_sweep_schedule(mesh, dirs)), sigma(mesh.cells, "sigma"), q(mesh.cells, "q"),
        vol(mesh.cells, "vol") {
    const int n = mesh.cells.size(), nd = schedule.directions();
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.5, 2.0);
    for (int i = 0; i < n * G; ++i)
      h_sigma.push_back(u(rng)), h_q.push_back(u(rng));
    for (int i = 0; i < n; ++i)
      h_vol.push_back(u(rng) * 0.1);
    copy_from_host(sigma, h_sigma);
    copy_from_host(q, h_q);
    copy_from_host(vol, h_vol);
    // NaN everywhere but the values lagged faces read: a value read before
    // it is written makes the result NaN.
    before.assign(std::size_t(n) * nd * G, std::numeric_limits<double>::quiet_NaN());
    const auto &t = schedule.tables();
    for (int d = 0; d < nd; ++d)
      for (auto [c, s] : schedule.lags(d))
        for (int g = 0; g < G; ++g)
          before[(std::size_t(t.neighbours[std::size_t(c) * t.faces + s]) * nd + d) * G + g] =
              u(rng);
  }

  AngularFlux<double, Layout, Mem> flux() const {
    AngularFlux<double, Layout, Mem> psi(schedule.cells(), schedule.directions(), G, "psi");
    auto h = Kokkos::create_mirror_view(psi.view());
    const int nd = schedule.directions();
    for (int c = 0; c < schedule.cells().size(); ++c)
      for (int d = 0; d < nd; ++d)
        for (int g = 0; g < G; ++g)
          h(c, d, g) = before[(std::size_t(c) * nd + d) * G + g];
    Kokkos::deep_copy(psi.view(), h);
    return psi;
  }

  template <class Plan> void expect_reference(Plan &plan, const std::string &what) {
    const auto psi = flux();
    sweep_loop(plan, "step", test::Step{}, psi, read(sigma), read(q), read(vol));
    expect_equal(psi, what);
  }

  template <class Flux> void expect_equal(const Flux &psi, const std::string &what) const {
    const std::vector<double> want = test::step_reference(schedule, G, h_sigma, h_q, h_vol, before);
    ASSERT_FALSE(want.empty()) << "the reference found a cycle";
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), psi.view());
    const int nd = schedule.directions();
    int wrong = 0;
    for (int c = 0; c < schedule.cells().size(); ++c)
      for (int d = 0; d < nd; ++d)
        for (int g = 0; g < G; ++g) {
          const double w = want[(std::size_t(c) * nd + d) * G + g], got = h(c, d, g);
          if (!(std::abs(got - w) <= 1e-12 * std::abs(w)) && wrong++ < 5)
            ADD_FAILURE() << what << ": cell " << c << " direction " << d << " group " << g << ": "
                          << got << ", the reference " << w;
        }
    EXPECT_EQ(wrong, 0) << what;
  }
};

template <class TypeParam> class SweepLoop : public ::testing::Test {};
TYPED_TEST_SUITE(SweepLoop, test::SpaceLayouts);

template <class Space, class Layout>
void every_executor(const SweepMesh &mesh, const std::vector<double> &dirs, const char *name) {
  Case<Space, Layout> k(mesh, dirs, 11);
  namespace ex = exec;
  auto serial = make_sweep_plan(Space(), ex::SweepSerial{}, k.schedule);
  k.expect_reference(serial, std::string(name) + " serial");
  auto levels = make_sweep_plan(ex::SweepLevels{}, serial);
  k.expect_reference(levels, std::string(name) + " levels");
  for (const auto &t :
       {ex::SweepTeams{}, ex::SweepTeams{}.with_groups_per_team(2).with_directions_per_team(2),
        ex::SweepTeams{}.with_directions_per_launch(3).with_cells_per_team(4).with_lanes(2),
        ex::SweepTeams{}.with_directions_per_team(5).with_lanes(8).with_cells_per_team(32)}) {
    auto plan = make_sweep_plan(t, serial);
    k.expect_reference(
        plan, std::string(name) + " teams b" + std::to_string(t.directions_per_launch) + " d" +
                  std::to_string(t.directions_per_team) + " g" + std::to_string(t.groups_per_team));
  }
  for (const auto &f : {ex::SweepDataFlow{}, ex::SweepDataFlow{}.with_cells_per_team(1),
                        ex::SweepDataFlow{}.with_cells_per_team(4).with_lanes(2),
                        ex::SweepDataFlow{}.with_cells_per_team(64).with_lanes(4)}) {
    auto plan = make_sweep_plan(f, serial);
    k.expect_reference(plan, std::string(name) + " flow c" + std::to_string(f.cells_per_team));
    // Again: counters and tickets start afresh each call.
    k.expect_reference(plan,
                       std::string(name) + " flow again c" + std::to_string(f.cells_per_team));
  }
  auto tuned = make_sweep_plan(ex::SweepAuto{}.with_trials(1).with_final_rounds(1), serial);
  k.expect_reference(tuned, std::string(name) + " auto");
  k.expect_reference(tuned, std::string(name) + " auto, tuned");
  EXPECT_FALSE(tuned.choice("step").empty());
}

} // namespace

TYPED_TEST(SweepLoop, EveryExecutorMatchesTheReferenceOnHexes) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  every_executor<S, L>(test::sweep_hexes(4, 3, 3, true), test::random_directions(7, 3), "hexes");
}

TYPED_TEST(SweepLoop, EveryExecutorMatchesTheReferenceOnTets) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  every_executor<S, L>(test::sweep_tets(3, 2, 3, true), test::random_directions(9, 5), "tets");
}

TYPED_TEST(SweepLoop, EveryExecutorMatchesTheReferenceWithLaggedFaces) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  const SweepMesh ring = test::sweep_twisted_ring(10);
  const std::vector<double> dirs{0, 0, 1, 1, 0, 0, 0, 0.6, 0.8};
  ASSERT_EQ(make_sweep_schedule(ring, dirs).lagged_faces(0), 1);
  every_executor<S, L>(ring, dirs, "ring");
}

TYPED_TEST(SweepLoop, ReadsThroughAMap) {
  using S = typename TypeParam::space;
  using L = typename TypeParam::layout;
  using Mem = typename S::memory_space;
  const SweepMesh mesh = test::sweep_tets(2, 2, 2);
  Case<S, L> k(mesh, test::random_directions(4, 9), 3);
  // The volume reached through a map that reverses the cells' numbering.
  const int n = mesh.cells.size();
  const Set copies("copies", n);
  std::vector<int> rev(static_cast<std::size_t>(n));
  std::vector<double> reversed(static_cast<std::size_t>(n));
  for (int c = 0; c < n; ++c)
    rev[c] = n - 1 - c, reversed[n - 1 - c] = k.h_vol[c];
  const Map<Mem> to_copy("to_copy", mesh.cells, copies, 1, rev);
  Dat<double, 1, AoS, Mem> vol2(copies, "vol2");
  copy_from_host(vol2, reversed);
  auto plan = make_sweep_plan(S(), exec::SweepLevels{}, k.schedule);
  const auto psi = k.flux();
  sweep_loop(plan, "step", test::Step{}, psi, read(k.sigma), read(k.q), read(vol2, to_copy, 0));
  k.expect_equal(psi, "through a map");
}
