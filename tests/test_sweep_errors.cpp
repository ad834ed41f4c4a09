// Sweep loops' refusals (umesh/sweep.hpp, sweep_auto.hpp): a flux or dat
// that does not fit the plan, executor options no backend runs, the tuner's
// bad options; and the tuner's decisions kept in a tuning file.
#include "sweep_step.hpp"
#include "sweep_test_support.hpp"
#include "test_support.hpp"

#include <umesh/sweep.hpp>
#include <umesh/sweep_auto.hpp>

using namespace umesh;
using umesh::test::error_message;

namespace {

using Space = Kokkos::DefaultHostExecutionSpace;
using Mem = Space::memory_space;

struct Fixture {
  SweepMesh mesh = test::sweep_hexes(2, 2, 2);
  SweepSchedule schedule = make_sweep_schedule(mesh, test::random_directions(3, 1));
  Dat<double, 2, AoS, Mem> sigma{mesh.cells, "sigma"}, q{mesh.cells, "q"};
  Dat<double, 1, AoS, Mem> vol{mesh.cells, "vol"};
  Fixture() {
    Kokkos::deep_copy(sigma.view(), 1.0);
    Kokkos::deep_copy(vol.view(), 1.0);
  }
};

} // namespace

TEST(SweepErrors, AFluxOrDatThatDoesNotFitThePlanIsRefused) {
  Fixture f;
  auto plan = make_sweep_plan(Space(), exec::SweepLevels{}, f.schedule);
  const AngularFlux<double, AoS, Mem> good(f.mesh.cells, 3, 2, "psi");
  const Set other("cells", f.mesh.cells.size());
  const AngularFlux<double, AoS, Mem> elsewhere(other, 3, 2, "psi");
  std::string e = error_message([&] {
    sweep_loop(plan, "step", test::Step{}, elsewhere, read(f.sigma), read(f.q), read(f.vol));
  });
  EXPECT_NE(e.find("sweep loop 'step': angular flux 'psi' is on set 'cells', not on the plan's "
                   "cells 'cells' (another set of the same name)"),
            std::string::npos)
      << e;
  const AngularFlux<double, AoS, Mem> four(f.mesh.cells, 4, 2, "psi4");
  e = error_message(
      [&] { sweep_loop(plan, "step", test::Step{}, four, read(f.sigma), read(f.q), read(f.vol)); });
  EXPECT_NE(e.find("angular flux 'psi4' has 4 directions, the plan 3"), std::string::npos) << e;
  Dat<double, 1, AoS, Mem> off(other, "off");
  e = error_message(
      [&] { sweep_loop(plan, "step", test::Step{}, good, read(f.sigma), read(f.q), read(off)); });
  EXPECT_NE(e.find("loop 'step' argument 4 (read)"), std::string::npos) << e;
  EXPECT_NE(e.find("dat 'off'"), std::string::npos) << e;
  e = error_message([&] { AngularFlux<double, AoS, Mem>(f.mesh.cells, 3, 0, "none"); });
  EXPECT_NE(e.find("angular flux 'none': 3 directions and 0 groups"), std::string::npos) << e;
}

TEST(SweepErrors, OptionsNoBackendRunsAreRefused) {
  Fixture f;
  auto plan = make_sweep_plan(Space(), exec::SweepSerial{}, f.schedule);
  const auto e = [&](auto tag) { return error_message([&] { make_sweep_plan(tag, plan); }); };
  EXPECT_NE(
      e(exec::SweepTeams{}.with_lanes(3))
          .find("sweep plan under exec::SweepTeams: lanes 3 is not a power of two in [1, 32]"),
      std::string::npos);
  EXPECT_NE(e(exec::SweepTeams{}.with_directions_per_team(0))
                .find("directions_per_team 0 must be at least 1"),
            std::string::npos);
  EXPECT_NE(e(exec::SweepTeams{}.with_groups_per_team(-1)).find("groups_per_team -1 is negative"),
            std::string::npos);
  EXPECT_NE(e(exec::SweepTeams{}.with_directions_per_launch(-2))
                .find("directions_per_launch -2 is negative"),
            std::string::npos);
  const std::string big = e(exec::SweepTeams{}.with_cells_per_team(64).with_lanes(32));
  EXPECT_NE(big.find("64 cells per team of 32 lanes make teams of 2048 threads; at most 1024"),
            std::string::npos)
      << big;
  EXPECT_NE(e(exec::SweepDataFlow{}.with_cells_per_team(2000))
                .find("sweep plan under exec::SweepDataFlow: cells_per_team 2000 is outside"),
            std::string::npos);
  EXPECT_NE(e(exec::SweepDataFlow{}.with_lanes(64)).find("lanes 64 is not a power of two"),
            std::string::npos);
  EXPECT_NE(e(exec::SweepAuto{}.with_lanes({})).find("exec::SweepAuto: no lanes to try"),
            std::string::npos);
  EXPECT_NE(e(exec::SweepAuto{}.with_candidates({"teams/x"})).find("teams/x"), std::string::npos)
      << e(exec::SweepAuto{}.with_candidates({"teams/x"}));
}

TEST(SweepErrors, TheTunersDecisionIsKeptInItsFile) {
  Fixture f;
  const std::string path = test::temp_path("sweep_tuning.txt");
  const auto options = exec::SweepAuto{}.with_trials(1).with_final_rounds(0).with_tuning_file(path);
  auto first = make_sweep_plan(Space(), options, f.schedule);
  const AngularFlux<double, SoA, Mem> psi(f.mesh.cells, 3, 2, "psi");
  sweep_loop(first, "step", test::Step{}, psi, read(f.sigma), read(f.q), read(f.vol));
  EXPECT_FALSE(first.from_tuning_file("step"));
  EXPECT_NE(first.summary().find("loop 'step': " + first.choice("step")), std::string::npos)
      << first.summary();
  auto second = make_sweep_plan(options, first);
  sweep_loop(second, "step", test::Step{}, psi, read(f.sigma), read(f.q), read(f.vol));
  EXPECT_TRUE(second.from_tuning_file("step"));
  EXPECT_EQ(second.choice("step"), first.choice("step"));
  // Another layout is another loop to the tuner.
  const AngularFlux<double, AoS, Mem> aos(f.mesh.cells, 3, 2, "aos");
  const std::string e = error_message([&] {
    sweep_loop(second, "step", test::Step{}, aos, read(f.sigma), read(f.q), read(f.vol));
  });
  EXPECT_NE(e.find("give this loop its own name"), std::string::npos) << e;
  std::remove(path.c_str());
}
