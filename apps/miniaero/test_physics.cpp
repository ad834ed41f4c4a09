// Unit tests of the miniAero port's physics: Roe flux, boundary conditions,
// Green-Gauss gradient (the mesh: test_mesh.cpp; inputs and results:
// test_input.cpp, all in test_miniaero).
#include "kernels.hpp"
#include "problem.hpp"
#include "results.hpp"

#include "common/cli.hpp"
#include "common/grid_blocks.hpp"
#include "common/output.hpp"

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

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard guard(argc, argv);
  return RUN_ALL_TESTS();
}
