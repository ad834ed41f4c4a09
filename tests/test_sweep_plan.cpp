// Sweep schedules (umesh/sweep_schedule.hpp): levels against what the
// geometry says, every dependency in an earlier level, cycles found and
// broken or refused, bad meshes and directions refused, plan files.
#include "sweep_test_support.hpp"
#include "test_main.hpp"

#include <umesh/detail/plan_file.hpp>
#include <umesh/sweep_schedule.hpp>

#include <fstream>
#include <iterator>

using namespace umesh;
using umesh::test::error_message;

namespace {

// Every inflow face between two cells that is not lagged joins a cell to a
// neighbour of an earlier level; each direction's levels cover the cells once.
void expect_valid(const SweepSchedule &s, const SweepMesh &m) {
  const int n = m.cells.size(), f = m.faces_per_cell;
  for (int d = 0; d < s.directions(); ++d) {
    std::vector<int> level(std::size_t(n), -1);
    for (int l = 0; l < s.levels(d); ++l)
      for (int c : s.level_cells(d, l)) {
        ASSERT_EQ(level[c], -1) << "cell " << c << " twice";
        level[c] = l;
      }
    for (int c = 0; c < n; ++c) {
      ASSERT_GE(level[c], 0) << "cell " << c << " missing in direction " << d;
      for (int k = 0; k < f; ++k) {
        const int nb = m.neighbours[std::size_t(c) * f + k];
        const double *nv = &m.normals[(std::size_t(c) * f + k) * 3];
        const double dot =
            s.direction(d, 0) * nv[0] + s.direction(d, 1) * nv[1] + s.direction(d, 2) * nv[2];
        if (std::abs(dot) > 1e-9 * (std::abs(nv[0]) + std::abs(nv[1]) + std::abs(nv[2]))) {
          EXPECT_EQ(s.inflow(d, c, k), dot < 0) << "cell " << c << " slot " << k;
        }
        if (nb >= 0 && s.inflow(d, c, k) && !s.lagged(d, c, k)) {
          EXPECT_LT(level[nb], level[c]) << "direction " << d << " cell " << c << " slot " << k;
        }
      }
    }
  }
}

} // namespace

TEST(SweepPlan, HexLevelsAreTheCellsDiagonals) {
  const int nx = 4, ny = 3, nz = 5;
  const SweepMesh m = test::sweep_hexes(nx, ny, nz);
  const double r = 1 / std::sqrt(3.0), q = 1 / std::sqrt(2.0);
  // (+, +, +) waits for the lower neighbour on each axis: level i + j + k;
  // (+x alone) for the one at i - 1: level i; (-, 0, +) for i + 1 and k - 1.
  const SweepSchedule s = make_sweep_schedule(m, {r, r, r, 1, 0, 0, -q, 0, q});
  ASSERT_EQ(s.directions(), 3);
  EXPECT_EQ(s.levels(0), nx + ny + nz - 2);
  EXPECT_EQ(s.levels(1), nx);
  EXPECT_EQ(s.levels(2), nx + nz - 1);
  EXPECT_EQ(s.lagged_faces(), 0);
  EXPECT_EQ(s.max_levels(), nx + ny + nz - 2);
  for (int l = 0; l < s.levels(0); ++l)
    for (int c : s.level_cells(0, l))
      EXPECT_EQ(c % nx + c / nx % ny + c / (nx * ny), l);
  for (int l = 0; l < s.levels(2); ++l)
    for (int c : s.level_cells(2, l))
      EXPECT_EQ((nx - 1 - c % nx) + c / (nx * ny), l);
  expect_valid(s, m);
  EXPECT_NE(s.summary().find("sweep plan of 60 cells, 3 directions"), std::string::npos)
      << s.summary();
}

TEST(SweepPlan, TetsInRandomDirectionsHaveValidLevels) {
  for (bool shuffle : {false, true}) {
    const SweepMesh m = test::sweep_tets(3, 4, 2, shuffle);
    const SweepSchedule s = make_sweep_schedule(m, test::random_directions(24, 7));
    EXPECT_EQ(s.lagged_faces(), 0) << "a Freudenthal mesh has no cycle";
    for (int d = 0; d < s.directions(); ++d) {
      EXPECT_GT(s.levels(d), 2);
      EXPECT_EQ(s.report(d).cycles, 0);
    }
    expect_valid(s, m);
  }
}

TEST(SweepPlan, ATwistedRingsCycleIsBrokenAndReported) {
  const int n = 12;
  const SweepMesh m = test::sweep_twisted_ring(n);
  const SweepSchedule s = make_sweep_schedule(m, {0, 0, 1, 1, 0, 0});
  EXPECT_EQ(s.report(0).cycles, 1);
  EXPECT_EQ(s.report(0).largest_cycle, n);
  EXPECT_EQ(s.lagged_faces(0), 1);
  EXPECT_EQ(s.levels(0), n) << "the ring, cut once, is a chain";
  ASSERT_EQ(s.lags(0).size(), 1u);
  const auto [cell, slot] = s.lags(0)[0];
  EXPECT_EQ(slot, 1) << "the face to the cell before";
  EXPECT_TRUE(s.lagged(0, cell, slot));
  EXPECT_TRUE(s.inflow(0, cell, slot));
  EXPECT_EQ(s.report(1).cycles, 0);
  EXPECT_EQ(s.lagged_faces(1), 0);
  EXPECT_EQ(s.lagged_faces(), 1);
  expect_valid(s, m);
  EXPECT_NE(s.summary().find("1 cycle(s), 1 lagged face(s) in 1 direction(s)"), std::string::npos)
      << s.summary();
  const std::string e = error_message([&] {
    make_sweep_schedule(m, {0, 0, 1}, SweepOptions{}.with_cycles(SweepCycles::fail));
  });
  EXPECT_NE(e.find("direction 0 (0, 0, 1) has 1 cycle(s) of dependencies; the largest joins 12 "
                   "cells (0, 1, 2, 3, 4, 5, 6, 7, ...)"),
            std::string::npos)
      << e;
}

TEST(SweepPlan, BadMeshesAreRefusedByName) {
  const SweepMesh good = test::sweep_hexes(2, 2, 1);
  const std::vector<double> z{0, 0, 1};
  const auto with = [&](auto change) {
    SweepMesh m = good;
    change(m);
    return error_message([&] { make_sweep_schedule(m, z); });
  };
  // Cell 0's slots: derive_faces' order; find its face to cell 1.
  int s01 = -1, s10 = -1;
  for (int s = 0; s < 6; ++s) {
    if (good.neighbours[s] == 1)
      s01 = s;
    if (good.neighbours[6 + s] == 0)
      s10 = s;
  }
  ASSERT_GE(s01, 0);
  ASSERT_GE(s10, 0);
  const std::string zero = with([&](SweepMesh &m) {
    for (int k = 0; k < 3; ++k)
      m.normals[s01 * 3 + k] = 0;
  });
  EXPECT_NE(zero.find("cell 0 slot " + std::to_string(s01) + ": normal (0, 0, 0) is zero"),
            std::string::npos)
      << zero;
  const std::string bent = with([&](SweepMesh &m) { m.normals[s01 * 3 + 1] += 0.1; });
  EXPECT_NE(bent.find("the face of cells 0 (slot " + std::to_string(s01) + ") and 1 (slot " +
                      std::to_string(s10) + ") has normals"),
            std::string::npos)
      << bent;
  EXPECT_NE(bent.find("which are not opposite"), std::string::npos) << bent;
  const std::string same = with([&](SweepMesh &m) {
    for (int k = 0; k < 3; ++k)
      m.normals[(6 + s10) * 3 + k] = m.normals[s01 * 3 + k];
  });
  EXPECT_NE(same.find("which are not opposite"), std::string::npos) << same;
  const std::string nan = with([&](SweepMesh &m) { m.normals[2] = std::nan(""); });
  EXPECT_NE(nan.find("cell 0 slot 0: normal"), std::string::npos) << nan;
  EXPECT_NE(nan.find("is not finite"), std::string::npos) << nan;
  const std::string one_way = with([&](SweepMesh &m) { m.neighbours[6 + s10] = sweep_boundary; });
  EXPECT_NE(one_way.find("cell 0 slot " + std::to_string(s01) +
                         " names neighbour 1, but cell 1 does not name 0 back"),
            std::string::npos)
      << one_way;
  const std::string outside = with([&](SweepMesh &m) { m.neighbours[3] = 4; });
  EXPECT_NE(outside.find("cell 0 slot 3 names neighbour 4, outside set 'cells' of 4"),
            std::string::npos)
      << outside;
  const std::string self = with([&](SweepMesh &m) { m.neighbours[s01] = 0; });
  EXPECT_NE(self.find("names the cell itself"), std::string::npos) << self;
  const std::string sizes = with([&](SweepMesh &m) { m.normals.pop_back(); });
  EXPECT_NE(sizes.find("71 normal components for 24 cell faces"), std::string::npos) << sizes;
  const std::string slots = with([&](SweepMesh &m) { m.faces_per_cell = 9; });
  EXPECT_NE(slots.find("9 faces per cell; a sweep plan takes 1 to 8"), std::string::npos) << slots;
}

TEST(SweepPlan, SweepMeshesFromCellsRefuseWhatTheyCannotMake) {
  const TetMesh t = make_tet_mesh(1, 1, 1);
  std::string e = error_message(
      [&] { sweep_mesh_from_cells(t.cells, 3, t.cell_nodes, t.nodes, t.node_coords); });
  EXPECT_NE(e.find("sweep_mesh_from_cells: cells of 3 nodes (tets have 4, hexes 8"),
            std::string::npos)
      << e;
  std::vector<double> short_coords(t.node_coords.begin(), t.node_coords.end() - 3);
  e = error_message(
      [&] { sweep_mesh_from_cells(t.cells, 4, t.cell_nodes, t.nodes, short_coords); });
  EXPECT_NE(e.find("21 coordinates for the 8 nodes of 'nodes'"), std::string::npos) << e;
  std::vector<int> bad = t.cell_nodes;
  bad[5] = 99;
  e = error_message([&] { sweep_mesh_from_cells(t.cells, 4, bad, t.nodes, t.node_coords); });
  EXPECT_NE(e.find("has node 99, outside set 'nodes'"), std::string::npos) << e;
}

TEST(SweepPlan, BadDirectionsAreRefusedByName) {
  const SweepMesh m = test::sweep_hexes(2, 1, 1);
  const auto e = [&](std::vector<double> dirs) {
    return error_message([&] { make_sweep_schedule(m, dirs); });
  };
  EXPECT_NE(e({}).find("no directions"), std::string::npos);
  EXPECT_NE(e({1, 0}).find("2 direction components, not three per direction"), std::string::npos);
  const std::string zero = e({1, 0, 0, 0, 0, 0});
  EXPECT_NE(zero.find("direction 1 (0, 0, 0) has length 0: directions are unit vectors"),
            std::string::npos)
      << zero;
  const std::string half = e({0.5, 0, 0});
  EXPECT_NE(half.find("direction 0 (0.5, 0, 0) has length 0.5, not 1"), std::string::npos) << half;
  EXPECT_NE(e({std::nan(""), 0, 0}).find("direction 0 (nan, 0, 0) is not finite"),
            std::string::npos)
      << e({std::nan(""), 0, 0});
  const std::string tol = error_message([&] {
    make_sweep_schedule(m, {1, 0, 0}, SweepOptions{}.with_normal_tolerance(-1));
  });
  EXPECT_NE(tol.find("normal tolerance -1 is outside [0, 1)"), std::string::npos) << tol;
}

TEST(SweepPlan, PlanFilesReadBackAndRefuseWhatDoesNotFit) {
  const SweepMesh m = test::sweep_twisted_ring(9);
  const std::vector<double> dirs{0, 0, 1, 1, 0, 0, 0, 1, 0};
  const std::string path = test::temp_path("sweep.plan");
  const SweepOptions o = SweepOptions{}.with_plan_file(path);
  const SweepSchedule built = make_sweep_schedule(m, dirs, o);
  EXPECT_FALSE(built.from_file());
  const SweepSchedule read = make_sweep_schedule(m, dirs, o);
  EXPECT_TRUE(read.from_file());
  const auto &a = built.tables(), &b = read.tables();
  EXPECT_EQ(a.order, b.order);
  EXPECT_EQ(a.level_offsets, b.level_offsets);
  EXPECT_EQ(a.lag_keys, b.lag_keys);
  EXPECT_EQ(a.flags, b.flags);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(built.report(d).levels, read.report(d).levels);
    EXPECT_EQ(built.report(d).cycles, read.report(d).cycles);
    EXPECT_EQ(built.report(d).largest_cycle, read.report(d).largest_cycle);
  }
  // Other directions, other options: refused, naming the file.
  const std::string other = error_message([&] { make_sweep_schedule(m, {0, 0, 1}, o); });
  EXPECT_NE(other.find("plan file '" + path + "' was built from different maps or sets"),
            std::string::npos)
      << other;
  const std::string opts = error_message(
      [&] { make_sweep_schedule(m, dirs, SweepOptions(o).with_normal_tolerance(1e-6)); });
  EXPECT_NE(opts.find("was built with options 'cycles=lag normal_tolerance=1e-08'"),
            std::string::npos)
      << opts;
  // A damaged byte: the checksum.
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x7f');
  }
  const std::string damaged = error_message([&] { make_sweep_schedule(m, dirs, o); });
  EXPECT_NE(damaged.find("is truncated or corrupted"), std::string::npos) << damaged;
  // An edited plan with a valid checksum: a level order that lets a cell run
  // before the cell it waits for.
  detail::SweepTables t = built.tables();
  std::swap(t.order[0], t.order[t.level_offsets[2]]);
  write_sweep_plan_file(path, SweepSchedule(m.cells, t, built.fingerprint(), 0, false), o);
  const std::string edited = error_message([&] { make_sweep_schedule(m, dirs, o); });
  EXPECT_NE(edited.find("holds an invalid sweep plan: direction 0: cell"), std::string::npos)
      << edited;
  EXPECT_NE(edited.find("which is not in an earlier level"), std::string::npos) << edited;
  // A lag of a face that is no inflow face.
  t = built.tables();
  t.lag_keys[0] = t.lag_keys[0] / 4 * 4 + 0; // slot 0 faces the next cell: outflow
  write_sweep_plan_file(path, SweepSchedule(m.cells, t, built.fingerprint(), 0, false), o);
  const std::string lag = error_message([&] { make_sweep_schedule(m, dirs, o); });
  EXPECT_NE(lag.find("which is not an inflow face between two cells"), std::string::npos) << lag;
  std::remove(path.c_str());
}

TEST(SweepPlan, TetMeshesFillTheCubeConformingly) {
  for (bool shuffle : {false, true}) {
    MeshOptions o;
    o.shuffle = shuffle;
    const TetMesh t = make_tet_mesh(3, 2, 4, o);
    ASSERT_EQ(t.cells.size(), 3 * 2 * 4 * 6);
    double total = 0;
    for (int c = 0; c < t.cells.size(); ++c) {
      const double *p[4];
      for (int k = 0; k < 4; ++k)
        p[k] = &t.node_coords[std::size_t(t.cell_nodes[std::size_t(c) * 4 + k]) * 3];
      double a[3], b[3], d[3];
      for (int k = 0; k < 3; ++k)
        a[k] = p[1][k] - p[0][k], b[k] = p[2][k] - p[0][k], d[k] = p[3][k] - p[0][k];
      const double v = ((a[1] * b[2] - a[2] * b[1]) * d[0] + (a[2] * b[0] - a[0] * b[2]) * d[1] +
                        (a[0] * b[1] - a[1] * b[0]) * d[2]) /
                       6;
      EXPECT_GT(v, 0) << "tet " << c << " is not positively oriented";
      total += v;
    }
    EXPECT_NEAR(total, 1.0, 1e-12);
    // Conforming: every face has two tets but the cube's, two per square.
    const SweepMesh m = sweep_mesh_from_cells(t.cells, 4, t.cell_nodes, t.nodes, t.node_coords);
    int boundary = 0;
    for (int nb : m.neighbours)
      boundary += nb == sweep_boundary;
    EXPECT_EQ(boundary, 2 * 2 * (3 * 2 + 2 * 4 + 3 * 4));
  }
}
