// LULESH's hex geometry (common/lulesh_hex.hpp) against exact values: affine images of the
// unit cube, where volume and Jacobian are known, and finite differences.
#include "common/lulesh_hex.hpp"

#include <gtest/gtest.h>

#include <random>

namespace {

using lulesh::hex::Nodes;

// The unit cube's corners in LULESH's order, mapped by x -> A x + t.
void affine_cube(const double (&a)[3][3], Nodes &p) {
  constexpr int corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 3; ++k)
      p[k][i] = 0.3 * k + a[k][0] * corner[i][0] + a[k][1] * corner[i][1] + a[k][2] * corner[i][2];
}

double det3(const double (&a)[3][3]) {
  return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
         a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
         a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

TEST(LuleshHex, VolumeAndJacobianOfAffineCubes) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  for (int trial = 0; trial < 20; ++trial) {
    double a[3][3];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        a[r][c] = (r == c ? 1.0 : 0.0) + u(rng);
    Nodes p, b;
    affine_cube(a, p);
    const double exact = det3(a);
    EXPECT_NEAR(lulesh::hex::volume(p), exact, 1e-13);
    EXPECT_NEAR(lulesh::hex::shape_derivatives(p, b), exact, 1e-13);
    // Node normals of a closed surface sum to zero; each face's area is
    // shared by its four nodes.
    Nodes n;
    lulesh::hex::node_normals(p, n);
    for (int k = 0; k < 3; ++k) {
      double sum = 0;
      for (int i = 0; i < 8; ++i)
        sum += n[k][i];
      EXPECT_NEAR(sum, 0.0, 1e-13);
    }
  }
}

TEST(LuleshHex, VolumeDerivativesMatchFiniteDifferences) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  const double a[3][3] = {{1, 0.1, 0}, {0, 1.2, 0.1}, {0.05, 0, 0.9}};
  Nodes p, dv;
  affine_cube(a, p);
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 8; ++i)
      p[k][i] += u(rng); // a general (non-affine) hex
  lulesh::hex::volume_derivatives(p, dv);
  constexpr double h = 1e-6;
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 8; ++i) {
      Nodes q;
      for (int c = 0; c < 3; ++c)
        for (int j = 0; j < 8; ++j)
          q[c][j] = p[c][j];
      q[k][i] += h;
      const double up = lulesh::hex::volume(q);
      q[k][i] -= 2 * h;
      const double down = lulesh::hex::volume(q);
      EXPECT_NEAR(dv[k][i], (up - down) / (2 * h), 1e-8) << "component " << k << " node " << i;
    }
}

TEST(LuleshHex, CharacteristicLengthOfACubeIsItsEdge) {
  const double a[3][3] = {{2, 0, 0}, {0, 2, 0}, {0, 0, 2}};
  Nodes p;
  affine_cube(a, p);
  // A face's "area" |f|^2 |g|^2 - (f.g)^2 (f, g: differences of its
  // diagonals, length 4 and orthogonal) is 256: 4 * 8 / sqrt(256) = 2.
  EXPECT_NEAR(lulesh::hex::characteristic_length(p, lulesh::hex::volume(p)), 2.0, 1e-13);
}

TEST(LuleshHex, VelocityDivergenceOfAUniformExpansion) {
  const double a[3][3] = {{1, 0.2, 0}, {0, 1, 0.1}, {0.1, 0, 1}};
  Nodes p, b = {}, v;
  affine_cube(a, p);
  // v = c x: divergence 3c.
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 8; ++i)
      v[k][i] = 0.7 * p[k][i];
  const double det = lulesh::hex::shape_derivatives(p, b);
  EXPECT_NEAR(lulesh::hex::velocity_divergence(v, b, det), 2.1, 1e-12);
}

} // namespace
