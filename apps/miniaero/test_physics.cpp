// Unit tests of the miniAero port: Roe flux, Green-Gauss gradient, boundary
// conditions, input parsing, and the results comparison.
#include "kernels.hpp"
#include "problem.hpp"
#include "results.hpp"

#include "common/cli.hpp"
#include "common/grid_blocks.hpp"
#include "common/output.hpp"

#include <umesh/detail/plan_file.hpp>
#include <umesh/umesh.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include <sys/stat.h>

namespace {

using namespace miniaero;

// Plain-array accessors, so kernels can be called directly on the host.
struct In {
  const double *p;
  KOKKOS_INLINE_FUNCTION double operator()(int k) const { return p[k]; }
};
struct Out {
  double *p;
  KOKKOS_INLINE_FUNCTION double &operator()(int k) const { return p[k]; }
};

// Exact Euler flux of a primitive state through area vector n.
void euler_flux(const double V[5], const double n[3], double F[5]) {
  const double p = pressure(V), un = dot3(V + 1, n);
  const double H = kCp * V[4] + 0.5 * dot3(V + 1, V + 1);
  F[0] = V[0] * un;
  for (int d = 0; d < 3; ++d)
    F[1 + d] = V[0] * V[1 + d] * un + p * n[d];
  F[4] = V[0] * H * un;
}

// A face frame as miniAero builds it from an area vector.
void frame(const double n[3], double t[3], double b[3]) {
  // FaceGeometry's rule: t in the plane of the largest component of n.
  int i1 = 0;
  for (int d = 1; d < 3; ++d)
    if (std::fabs(n[d]) > std::fabs(n[i1]))
      i1 = d;
  const int i2 = (i1 + 1) % 3, i3 = (i1 + 2) % 3;
  const double den = std::sqrt(n[i1] * n[i1] + n[i3] * n[i3]);
  t[i2] = 0;
  t[i1] = n[i3] / den;
  t[i3] = -n[i1] / den;
  b[0] = n[1] * t[2] - n[2] * t[1];
  b[1] = n[2] * t[0] - n[0] * t[2];
  b[2] = n[0] * t[1] - n[1] * t[0];
}

void random_state(std::mt19937_64 &rng, double V[5]) {
  std::uniform_real_distribution<double> u(-1, 1);
  V[0] = 1.0 + 0.5 * u(rng);
  for (int d = 0; d < 3; ++d)
    V[1 + d] = 100 * u(rng);
  V[4] = 300 + 50 * u(rng);
}

TEST(RoeFlux, EqualStatesGiveTheExactEulerFlux) {
  std::mt19937_64 rng(1);
  for (int trial = 0; trial < 20; ++trial) {
    double V[5], n[3], t[3], b[3], F[5], E[5];
    random_state(rng, V);
    std::uniform_real_distribution<double> u(-1, 1);
    for (double &x : n)
      x = u(rng);
    frame(n, t, b);
    roe_flux(V, V, n, t, b, F);
    euler_flux(V, n, E);
    for (int k = 0; k < 5; ++k)
      EXPECT_NEAR(F[k], E[k], 1e-10 * (1 + std::fabs(E[k]))) << "component " << k;
  }
}

TEST(RoeFlux, ConservativeUnderSwappingSides) {
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 20; ++trial) {
    double VL[5], VR[5], n[3], t[3], b[3], F[5], G[5];
    random_state(rng, VL);
    random_state(rng, VR);
    std::uniform_real_distribution<double> u(-1, 1);
    for (double &x : n)
      x = u(rng);
    frame(n, t, b);
    const double mn[3] = {-n[0], -n[1], -n[2]}, mt[3] = {-t[0], -t[1], -t[2]},
                 mb[3] = {-b[0], -b[1], -b[2]};
    roe_flux(VL, VR, n, t, b, F);
    roe_flux(VR, VL, mn, mt, mb, G);
    for (int k = 0; k < 5; ++k)
      EXPECT_NEAR(F[k], -G[k], 1e-10 * (1 + std::fabs(F[k]))) << "component " << k;
  }
}

TEST(RoeFlux, KnownStateAtRest) {
  // Air at rest, 300 K, density 1.2, through a face of area 0.5 along x:
  // the flux is the pressure force only, p = rho R T = 103338 Pa.
  const double V[5] = {1.2, 0, 0, 0, 300.0};
  const double n[3] = {0.5, 0, 0}, t[3] = {0, 0, -1}, b[3] = {0, 0.5, 0};
  double F[5];
  roe_flux(V, V, n, t, b, F);
  EXPECT_NEAR(F[0], 0.0, 1e-12);
  EXPECT_NEAR(F[1], 0.5 * 1.2 * 287.05 * 300.0, 1e-9);
  EXPECT_NEAR(F[2], 0.0, 1e-12);
  EXPECT_NEAR(F[3], 0.0, 1e-12);
  EXPECT_NEAR(F[4], 0.0, 1e-12);
}

TEST(BoundaryConditions, SlipWallCarriesOnlyPressure) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 10; ++trial) {
    double V[5], U[5], n[3], t[3], b[3], flux[5] = {0, 0, 0, 0, 0};
    random_state(rng, V);
    std::uniform_real_distribution<double> u(-1, 1);
    for (double &x : n)
      x = u(rng);
    frame(n, t, b);
    U[0] = V[0];
    for (int d = 0; d < 3; ++d)
      U[1 + d] = V[0] * V[1 + d];
    U[4] = V[0] * (V[4] * kRgas / (kGamma - 1) + 0.5 * dot3(V + 1, V + 1));
    TangentBc{}(In{n}, In{t}, In{b}, In{U}, Out{flux});
    EXPECT_NEAR(flux[0], 0.0, 1e-9 * std::fabs(pressure(V)));
    EXPECT_NEAR(flux[4], 0.0, 1e-6 * std::fabs(pressure(V)));
    // Momentum flux along the normal only.
    const double cross[3] = {flux[2] * n[2] - flux[3] * n[1], flux[3] * n[0] - flux[1] * n[2],
                             flux[1] * n[1] - flux[2] * n[0]};
    for (double c : cross)
      EXPECT_NEAR(c, 0.0, 1e-8 * std::fabs(pressure(V)));
  }
}

TEST(BoundaryConditions, ExtrapolateAndInflowAtTheirOwnStateAreTheEulerFlux) {
  double V[5];
  to_primitive(kInflow, V);
  const double n[3] = {-0.25, 0.0, 0.0};
  double t[3], b[3], E[5];
  frame(n, t, b);
  euler_flux(V, n, E);
  for (int which = 0; which < 2; ++which) {
    double flux[5] = {0, 0, 0, 0, 0};
    if (which == 0)
      ExtrapolateBc{}(In{n}, In{t}, In{b}, In{kInflow}, Out{flux});
    else
      InflowBc{{kInflow[0], kInflow[1], kInflow[2], kInflow[3], kInflow[4]}}(
          In{n}, In{t}, In{b}, In{kInflow}, Out{flux});
    for (int k = 0; k < 5; ++k) // the cell loses what leaves it
      EXPECT_NEAR(flux[k], -E[k], 1e-9 * (1 + std::fabs(E[k]))) << "bc " << which << " k " << k;
  }
}

TEST(BoundaryConditions, NoSlipWallDragsAMovingCell) {
  // A cell moving at +u over a wall below it (outward normal -y): the wall
  // pulls it back (negative x-momentum flux), no mass crosses.
  const double V[5] = {1.2, 30.0, 0.0, 0.0, 300.0};
  const double U[5] = {V[0], V[0] * V[1], 0, 0,
                       V[0] * (V[4] * kRgas / (kGamma - 1) + 0.5 * V[1] * V[1])};
  const double xf[3] = {0.5, 0.0, 0.5}, xc[3] = {0.5, 0.01, 0.5}, n[3] = {0, -1, 0};
  double t[3], b[3], flux[5] = {0, 0, 0, 0, 0};
  frame(n, t, b);
  NoSlipBc{}(In{xf}, In{n}, In{t}, In{b}, In{U}, In{xc}, Out{flux});
  EXPECT_NEAR(flux[0], 0.0, 1e-9);
  const double mu = viscosity(V[4]);
  // Viscous shear: mu * du/dy * area with du/dy = u / distance.
  EXPECT_NEAR(flux[1], -mu * V[1] / 0.01, 1e-9);
}

TEST(GreenGauss, ExactForALinearFieldInInteriorCells) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  using Mem = Kokkos::HostSpace;
  Input in;
  in.problem = 0;
  in.lx = 1.0;
  in.ly = 0.5;
  in.lz = 0.25;
  in.nx = 8;
  in.ny = 6;
  in.nz = 4;
  const Mesh m = make_mesh(in, 7);
  umesh::Set cells("cells", m.num_cells), faces("faces", m.faces.size());
  umesh::Map<Mem> fc("face_cells", faces, cells, 2, m.face_cells);
  umesh::Dat<double, 5, umesh::SoA, Mem> u(cells, "U");
  umesh::Dat<double, 1, umesh::SoA, Mem> vol(cells, "vol");
  umesh::Dat<double, 3, umesh::SoA, Mem> nrm(faces, "n");
  umesh::Dat<double, 15, umesh::SoA, Mem> grad(cells, "grad");
  umesh::copy_from_host(vol, m.cell_volume);
  umesh::copy_from_host(nrm, m.faces.normal);
  // Primitives linear in x: V_k = a_k + g_k . x, turned into conservatives.
  const double a[5] = {1.0, 10.0, -5.0, 2.0, 300.0};
  const double g[5][3] = {{0.1, 0.2, -0.3}, {1, 2, 3}, {-2, 0.5, 1}, {0.3, -1, 2}, {5, -7, 11}};
  std::vector<double> U(std::size_t(m.num_cells) * 5);
  for (int c = 0; c < m.num_cells; ++c) {
    double V[5];
    for (int k = 0; k < 5; ++k)
      V[k] = a[k] + dot3(g[k], &m.cell_centroid[3 * c]);
    double *s = &U[5 * std::size_t(c)];
    s[0] = V[0];
    for (int d = 0; d < 3; ++d)
      s[1 + d] = V[0] * V[1 + d];
    s[4] = V[0] * (V[4] * kRgas / (kGamma - 1) + 0.5 * dot3(V + 1, V + 1));
  }
  umesh::copy_from_host(u, U);
  umesh::par_loop(Space(), umesh::exec::Atomic{}, faces, "gradient", GradientFace{},
                  umesh::read(u, fc, 0), umesh::read(u, fc, 1), umesh::read(vol, fc, 0),
                  umesh::read(vol, fc, 1), umesh::read(nrm), umesh::inc(grad, fc, 0),
                  umesh::inc(grad, fc, 1));
  int interior = 0;
  for (int i = 1; i + 1 < in.nx; ++i)
    for (int j = 1; j + 1 < in.ny; ++j)
      for (int k = 1; k + 1 < in.nz; ++k) {
        const int c = (i * in.ny + j) * in.nz + k;
        ++interior;
        for (int q = 0; q < 5; ++q)
          for (int d = 0; d < 3; ++d)
            EXPECT_NEAR(grad.view()(c, 3 * q + d), g[q][d], 1e-9 * (1 + std::fabs(a[q])))
                << "cell " << c << " component " << q << " direction " << d;
      }
  EXPECT_EQ(interior, 6 * 4 * 2);
}

TEST(Mesh, VolumesAndClosedCells) {
  Input in;
  in.problem = 2;
  in.lx = 2;
  in.ly = 2;
  in.lz = 1;
  in.ramp_angle = 30;
  in.nx = 8;
  in.ny = 4;
  in.nz = 2;
  const Mesh m = make_mesh(in, 3);
  // Volumes add up to the domain (a box with a 30 degree wedge cut away).
  double total = 0;
  for (double v : m.cell_volume)
    total += v;
  const double wedge = 0.5 * 1.0 * std::tan(30 * 3.14159265 / 180) * 1.0;
  EXPECT_NEAR(total, 2 * 2 * 1 - wedge, 1e-12);
  // Every cell is closed: its outward area vectors sum to zero.
  std::vector<double> sum(3 * std::size_t(m.num_cells), 0.0);
  for (int f = 0; f < m.faces.size(); ++f)
    for (int d = 0; d < 3; ++d) {
      sum[3 * m.face_cells[2 * f] + d] += m.faces.normal[3 * f + d];
      sum[3 * m.face_cells[2 * f + 1] + d] -= m.faces.normal[3 * f + d];
    }
  for (const auto &b : m.boundaries)
    for (std::size_t f = 0; f < b.cell.size(); ++f)
      for (int d = 0; d < 3; ++d)
        sum[3 * b.cell[f] + d] += b.geometry.normal[3 * f + d];
  for (double s : sum)
    EXPECT_NEAR(s, 0.0, 1e-14);
  EXPECT_EQ(m.faces.size(), 7 * 4 * 2 + 8 * 3 * 2 + 8 * 4 * 1);
}

TEST(Mesh, SameOnAnyNumberOfThreads) {
  Input in;
  in.problem = 2; // the ramp: nodes bent past lx / 2, every boundary condition
  in.lx = 2;
  in.ly = 2;
  in.lz = 1;
  in.ramp_angle = 30;
  in.nx = 7; // not a multiple of the thread counts below
  in.ny = 3;
  in.nz = 2;
  for (const std::uint64_t seed : {std::uint64_t(0), std::uint64_t(5)}) {
    const Mesh one = make_mesh(in, seed, 1);
    for (const int threads : {2, 3, 7, 16}) {
      const Mesh m = make_mesh(in, seed, threads);
      EXPECT_EQ(m.num_cells, one.num_cells);
      EXPECT_EQ(m.cell_centroid, one.cell_centroid) << threads << " threads";
      EXPECT_EQ(m.cell_volume, one.cell_volume) << threads << " threads";
      EXPECT_EQ(m.face_cells, one.face_cells) << threads << " threads";
      EXPECT_EQ(m.face_slots, one.face_slots) << threads << " threads";
      EXPECT_EQ(m.faces.normal, one.faces.normal) << threads << " threads";
      EXPECT_EQ(m.faces.binormal, one.faces.binormal) << threads << " threads";
      ASSERT_EQ(m.boundaries.size(), one.boundaries.size());
      for (std::size_t b = 0; b < m.boundaries.size(); ++b) {
        EXPECT_EQ(m.boundaries[b].cell, one.boundaries[b].cell);
        EXPECT_EQ(m.boundaries[b].geometry.centroid, one.boundaries[b].geometry.centroid);
      }
    }
  }
}

// A rank's own block (make_mesh_part) is the whole mesh's piece: over the
// blocks of any grid, every cell, interior face and boundary face exactly
// once, each with the whole mesh's number, cells, slots and geometry.
TEST(Mesh, BlocksArePiecesOfTheWholeMesh) {
  Input in;
  in.problem = 2; // the ramp: every boundary condition, bent nodes
  in.lx = 2;
  in.ly = 2;
  in.lz = 1;
  in.ramp_angle = 30;
  in.nx = 7;
  in.ny = 5;
  in.nz = 4;
  for (const std::uint64_t seed : {std::uint64_t(0), std::uint64_t(9)})
    for (const int ranks : {1, 2, 3, 4, 6, 12}) {
      const Mesh whole = make_mesh(in, seed, 1);
      const auto grid = umesh::perf::grid_blocks(in.nx, in.ny, in.nz, ranks);
      ASSERT_GT(grid.blocks[0], 0) << ranks;
      ASSERT_EQ(grid.blocks[0] * grid.blocks[1] * grid.blocks[2], ranks);
      std::vector<int> cell_seen(whole.num_cells, 0), face_seen(whole.faces.size(), 0);
      std::vector<std::vector<int>> side_seen;
      for (const auto &b : whole.boundaries)
        side_seen.emplace_back(b.cell.size(), 0);
      for (int r = 0; r < ranks; ++r) {
        std::array<int, 3> lo{}, hi{};
        grid.range(r, lo, hi);
        const Mesh m = make_mesh_part(in, seed, 1 + r % 3, lo, hi);
        ASSERT_TRUE(m.part);
        const MeshPart &p = *m.part;
        EXPECT_EQ(p.cells, whole.num_cells);
        EXPECT_EQ(p.faces, whole.faces.size());
        ASSERT_EQ(p.cell_ids.size(), std::size_t(m.num_cells));
        for (int c = 0; c < m.num_cells; ++c) {
          const int g = p.cell_ids[c];
          ++cell_seen[g];
          EXPECT_EQ(m.cell_volume[c], whole.cell_volume[g]);
          for (int d = 0; d < 3; ++d)
            EXPECT_EQ(m.cell_centroid[3 * c + d], whole.cell_centroid[3 * std::size_t(g) + d]);
          int i = 0, j = 0, k = 0; // the cell is in the block
          i = g / (in.ny * in.nz), j = g / in.nz % in.ny, k = g % in.nz;
          EXPECT_TRUE(i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] &&
                      k < hi[2]);
          EXPECT_EQ(grid.owner(i, j, k), r);
        }
        ASSERT_EQ(p.face_ids.size(), std::size_t(m.faces.size()));
        for (int f = 0; f < m.faces.size(); ++f) {
          const int g = p.face_ids[f];
          ++face_seen[g];
          for (int a = 0; a < 2; ++a) {
            EXPECT_EQ(m.face_cells[2 * f + a], whole.face_cells[2 * std::size_t(g) + a]);
            EXPECT_EQ(m.face_slots[2 * f + a], whole.face_slots[2 * std::size_t(g) + a]);
          }
          for (int d = 0; d < 3; ++d) {
            EXPECT_EQ(m.faces.centroid[3 * f + d], whole.faces.centroid[3 * std::size_t(g) + d]);
            EXPECT_EQ(m.faces.normal[3 * f + d], whole.faces.normal[3 * std::size_t(g) + d]);
            EXPECT_EQ(m.faces.tangent[3 * f + d], whole.faces.tangent[3 * std::size_t(g) + d]);
          }
        }
        ASSERT_EQ(m.boundaries.size(), whole.boundaries.size());
        ASSERT_EQ(p.boundary_ids.size(), whole.boundaries.size());
        for (std::size_t b = 0; b < m.boundaries.size(); ++b) {
          EXPECT_EQ(m.boundaries[b].bc, whole.boundaries[b].bc);
          EXPECT_EQ(p.boundary_sizes[b], int(whole.boundaries[b].cell.size()));
          ASSERT_EQ(p.boundary_ids[b].size(), m.boundaries[b].cell.size());
          for (std::size_t f = 0; f < p.boundary_ids[b].size(); ++f) {
            const int g = p.boundary_ids[b][f];
            ++side_seen[b][g];
            EXPECT_EQ(m.boundaries[b].cell[f], whole.boundaries[b].cell[g]);
            for (int d = 0; d < 3; ++d)
              EXPECT_EQ(m.boundaries[b].geometry.normal[3 * f + d],
                        whole.boundaries[b].geometry.normal[3 * std::size_t(g) + d]);
          }
        }
      }
      auto once = [](const std::vector<int> &seen) {
        return std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; });
      };
      EXPECT_TRUE(once(cell_seen)) << ranks << " ranks, seed " << seed;
      EXPECT_TRUE(once(face_seen)) << ranks << " ranks, seed " << seed;
      for (const auto &seen : side_seen)
        EXPECT_TRUE(once(seen)) << ranks << " ranks, seed " << seed;
    }
}

// The grid that cuts the fewest faces, within each direction's cells.
TEST(Mesh, GridBlocksCutTheFewestFaces) {
  EXPECT_EQ(umesh::perf::grid_blocks(64, 64, 64, 4).blocks, (std::array<int, 3>{2, 2, 1}));
  EXPECT_EQ(umesh::perf::grid_blocks(64, 64, 64, 2).blocks, (std::array<int, 3>{2, 1, 1}));
  EXPECT_EQ(umesh::perf::grid_blocks(64, 64, 64, 8).blocks, (std::array<int, 3>{2, 2, 2}));
  EXPECT_EQ(umesh::perf::grid_blocks(256, 16, 16, 4).blocks, (std::array<int, 3>{4, 1, 1}));
  EXPECT_EQ(umesh::perf::grid_blocks(2, 1, 1, 4).blocks[0], 0); // more ranks than cells
  const auto g = umesh::perf::grid_blocks(7, 5, 3, 6);
  for (int r = 0; r < 6; ++r) {
    std::array<int, 3> lo{}, hi{};
    g.range(r, lo, hi);
    EXPECT_EQ(g.owner(lo[0], lo[1], lo[2]), r);
    EXPECT_EQ(g.owner(hi[0] - 1, hi[1] - 1, hi[2] - 1), r);
  }
}

std::string write_temp(const std::string &text) {
  const std::string path = ::testing::TempDir() + "miniaero_test.inp";
  std::ofstream(path) << text;
  return path;
}

void expect_input_error(const std::string &text, const std::string &fragment) {
  try {
    read_input(write_temp(text));
    ADD_FAILURE() << "no error for input:\n" << text;
  } catch (const umesh::Error &e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Input, MeshSizeLimits) {
  EXPECT_EQ(mesh_size_problem(1, 1, 1), "");
  EXPECT_EQ(mesh_size_problem(128, 128, 128), "");
  EXPECT_NE(mesh_size_problem(0, 4, 4).find("0 x 4 x 4 cells"), std::string::npos);
  EXPECT_NE(mesh_size_problem(4, 4, -1), "");
  EXPECT_NE(mesh_size_problem(1000, 1000, 401), ""); // 4.01e8 cells
}

TEST(Input, ReadsMiniAerosFormatAndRejectsMalformedFiles) {
  const Input in =
      read_input(write_temp("2\n2.0 2.0 1.0 30.0\n64 32 2\n400\n1e-5\n1\n100\n1\n0\n"));
  EXPECT_EQ(in.problem, 2);
  EXPECT_EQ(in.nx, 64);
  EXPECT_EQ(in.steps, 400);
  EXPECT_DOUBLE_EQ(in.dt, 1e-5);
  EXPECT_TRUE(in.second_order);
  EXPECT_FALSE(in.viscous);
  expect_input_error("0\n1 1 1 0\n4 4\n", "line 3");
  expect_input_error("3\n1 1 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n", "problem type 3");
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n-1e-6\n0\n1\n0\n0\n", "time step");
  expect_input_error("0\n1 1 1 0\n4 0 4\n1\n1e-6\n0\n1\n0\n0\n", "line 3: 4 x 0 x 4 cells");
  expect_input_error("0\n1 1 x 0\n", "line 2");
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n", "line 9");
  try {
    read_input("/nonexistent/miniaero.inp");
    ADD_FAILURE();
  } catch (const umesh::Error &e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
}

// Fields are read whole: what a stream would read "as far as it parses"
// (1e3 steps as 1, 2,5e-6 s as 2 s, a flag 2 as true) is an error naming the
// line and the field.
TEST(Input, ReadsEveryFieldWhole) {
  const std::string good = "0\n1 1 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n";
  EXPECT_EQ(read_input(write_temp(good)).steps, 1);
  // Windows line ends are whitespace.
  EXPECT_EQ(
      read_input(write_temp("0\r\n1 1 1 0\r\n4 4 4\r\n7\r\n1e-6\r\n0\r\n1\r\n0\r\n0\r\n")).steps,
      7);
  expect_input_error("0\n1 1 1 0\n4 4 4\n1e3\n1e-6\n0\n1\n0\n0\n",
                     "line 4: time_steps '1e3' is not an integer");
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n2,5e-6\n0\n1\n0\n0\n",
                     "line 5: time_step '2,5e-6' is not a number");
  expect_input_error("0\n1 1 1 0\n4 4 4 # cells\n1\n1e-6\n0\n1\n0\n0\n",
                     "line 3: 5 fields in '4 4 4 # cells', expected 3 (nx ny nz)");
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n1e-6\n2\n1\n0\n0\n",
                     "line 6: output_results '2' is not 0 or 1");
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n1e-6\n0\n1\ntrue\n0\n",
                     "line 8: second_order 'true' is not 0 or 1");
  expect_input_error("0\n1 nan 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n",
                     "line 2: ly 'nan' is not a finite number");
  expect_input_error("0\n1 1 1 0\n4 4 3000000000\n1\n1e-6\n0\n1\n0\n0\n",
                     "line 3: nz '3000000000' is out of range");
  expect_input_error(std::string(5000, '0'), "line 1: longer than 4096 characters");
  // Decimal only: strtod alone reads a C hex float; "-0" is no more an
  // integer than "+0"; a NUL shows as \0, not as the end of the message.
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n0x1p-19\n0\n1\n0\n0\n",
                     "line 5: time_step '0x1p-19' is not a decimal number");
  expect_input_error("0\n0x1p-2 1 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n",
                     "line 2: lx '0x1p-2' is not a decimal number");
  expect_input_error("-0\n1 1 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n",
                     "line 1: problem_type '-0' is not an integer");
  expect_input_error(std::string("0\n1 1 1 0\n4 4 4\n1") + '\0' + "\n1e-6\n0\n1\n0\n0\n",
                     "line 4: time_steps '1\\0' is not an integer");
  EXPECT_EQ(read_input(write_temp(good + "\n  \r\n")).steps, 1);
  expect_input_error(good + "\n1\n", "line 11: text after the last field");
}

// The generated mesh is checked as a read one is: a ramp that rises to the
// domain's height would invert the cells past it, and cells too small or
// too large for a double would divide by zero or infinity.
TEST(Input, RefusesMeshesWithInvertedOrUnrepresentableCells) {
  EXPECT_EQ(read_input(write_temp("2\n2 2 1 30\n8 4 2\n1\n1e-6\n0\n1\n0\n0\n")).ramp_angle, 30);
  expect_input_error("2\n2 0.5 1 45\n8 4 2\n1\n1e-6\n0\n1\n0\n0\n",
                     "lines 2-3: a ramp of 45 degrees over half of lx 2 rises");
  expect_input_error("2\n2 0.9 1 45\n8 4 2\n1\n1e-6\n0\n1\n0\n0\n", "cells would be inverted");
  expect_input_error("0\n1e-200 1e-200 1e-200 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n",
                     "is not a normal double");
  expect_input_error("0\n1e300 1e300 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n", "is not a normal double");
  Input in;
  in.problem = 2, in.lx = 2, in.ly = 2, in.ramp_angle = -50; // a falling ramp stays valid
  EXPECT_EQ(mesh_geometry_problem(in), "");
}

// Output paths the programs share (apps/common/output.hpp): a name that is
// a folder even before it exists is refused, and so is an output that
// names one of the run's inputs or another output, however it is spelt;
// outputs written in place (devices) replace nothing and may be one.
TEST(Output, FoldersAndClashingFilesAreRefused) {
  using namespace umesh::perf;
  EXPECT_EQ(output_path_problem("out/results.csv"), "");
  EXPECT_EQ(output_path_problem("no-such-folder/."),
            "'no-such-folder/.' ends in '.': a folder, not a file");
  EXPECT_EQ(output_path_problem("no-such-folder/.."),
            "'no-such-folder/..' ends in '..': a folder, not a file");
  EXPECT_EQ(output_path_problem("."), "'.' is a folder, not a file");
  EXPECT_EQ(output_path_problem("out/"), "'out/' ends in '/': a folder, not a file");

  const std::string dir = ::testing::TempDir() + "umesh_output_test";
  std::filesystem::create_directories(dir + "/sub");
  const std::string input = dir + "/m.inp";
  std::ofstream(input) << "0\n";
  EXPECT_TRUE(same_file(input, dir + "/sub/../m.inp"));
  EXPECT_TRUE(same_file(dir + "/new.csv", dir + "/sub/../new.csv")); // neither exists yet
  EXPECT_FALSE(same_file(input, dir + "/new.csv"));
  EXPECT_EQ(clashing_files({{"--csv", dir + "/new.csv"}}, {{"--input", input}}), "");
  EXPECT_NE(clashing_files({{"--results", dir + "/sub/../m.inp"}}, {{"--input", input}})
                .find("names the file --input '" + input + "' reads"),
            std::string::npos);
  EXPECT_NE(clashing_files({{"--results", dir + "/r"}, {"--csv", dir + "/sub/../r"}}, {})
                .find("name one file: one would replace the other"),
            std::string::npos);
  EXPECT_EQ(clashing_files({{"--results", ""}, {"--csv", ""}}, {{"--input", ""}}), "");
  EXPECT_EQ(clashing_files({{"--results", "/dev/null"}, {"--csv", "/dev/null"}}, {}), "");
  std::filesystem::remove_all(dir);
}

// Inputs that are not regular files are refused before they are opened:
// opening a named pipe would wait for a writer (a plan file too).
TEST(Input, PipesAreRefusedWithoutOpening) {
  const std::string dir = ::testing::TempDir() + "umesh_input_test";
  std::filesystem::create_directories(dir);
  const std::string pipe = dir + "/pipe.inp";
  std::filesystem::remove(pipe);
  ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
  std::string path = pipe;
  EXPECT_NE(umesh::perf::input_file()(path).find("is not a regular file"), std::string::npos);
  EXPECT_TRUE(umesh::detail::file_exists(pipe)); // seen, not opened: the reader refuses it
  std::string regular = dir + "/m.inp";
  std::ofstream(regular) << "0\n";
  EXPECT_EQ(umesh::perf::input_file()(regular), "");
  std::filesystem::remove_all(dir);
}

TEST(Results, MiniAerosCriterion) {
  const std::vector<double> xc = {0.5, 0.5, 0.5};
  const std::vector<double> u = {1.0, 2e-7, 0.0, 0.0, 250000.0};
  const auto lines = results_lines(xc, u);
  std::string report;
  EXPECT_EQ(
      compare_results(lines, {{0.5, 0.5, 0.5, 1.0005, 9e-7, 0, 0, 250100}}, 1e-3, 1e-6, report),
      0)
      << report; // within 1e-3, and 2e-7 vs 9e-7 is below the floor
  EXPECT_EQ(compare_results(lines, {{0.5, 0.5, 0.5, 1.002, 0, 0, 0, 250000}}, 1e-3, 1e-6, report),
            1);
  EXPECT_EQ(compare_results(lines, {{0.5, 0.5, 0.5, 1.0, 0, 0, 0}}, 1e-3, 1e-6, report), 1);
  const auto nan = results_lines(xc, {std::nan(""), 0, 0, 0, 250000.0});
  EXPECT_EQ(compare_results(nan, {{0.5, 0.5, 0.5, 1.0, 0, 0, 0, 250000}}, 1e-3, 1e-6, report), 1);
}

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard guard(argc, argv);
  return RUN_ALL_TESTS();
}
