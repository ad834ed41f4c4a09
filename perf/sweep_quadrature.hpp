#ifndef UMESH_PERF_SWEEP_QUADRATURE_HPP
#define UMESH_PERF_SWEEP_QUADRATURE_HPP

// Angular quadratures of the sweep benchmark: level-symmetric S_N (N(N+2)
// directions: 80 at S_8), whose point weights solve the even moment
// conditions, and Tycho2's product set (2 N^2 directions: Gauss-Legendre
// polar cosines times N*2 equally spaced azimuths), to run on the peer's
// directions. Each is checked: weights sum to 4 pi, first moments vanish,
// second moments are 4 pi / 3 on the diagonal.

#include <umesh/error.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace umesh::perf {

struct Quadrature {
  std::string name;
  std::vector<double> dirs;    ///< [direction][3], unit
  std::vector<double> weights; ///< [direction], summing to 4 pi
  int size() const { return int(weights.size()); }
};

/// Solves the n x n system a x = b (partial pivoting); a is row-major.
inline std::vector<double> solve_dense(std::vector<double> a, std::vector<double> b) {
  const int n = int(b.size());
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (std::abs(a[i * n + k]) > std::abs(a[p * n + k]))
        p = i;
    for (int j = 0; j < n; ++j)
      std::swap(a[k * n + j], a[p * n + j]);
    std::swap(b[k], b[p]);
    for (int i = k + 1; i < n; ++i) {
      const double f = a[i * n + k] / a[k * n + k];
      for (int j = k; j < n; ++j)
        a[i * n + j] -= f * a[k * n + j];
      b[i] -= f * b[k];
    }
  }
  std::vector<double> x(std::size_t(n), 0.0);
  for (int i = n - 1; i >= 0; --i) {
    double s = b[i];
    for (int j = i + 1; j < n; ++j)
      s -= a[i * n + j] * x[j];
    x[i] = s / a[i * n + i];
  }
  return x;
}

/// Level-symmetric S_N, N in {2, 4, 6, 8}: direction cosines mu_i with
/// mu_i^2 = mu_1^2 + (i - 1) 2 (1 - 3 mu_1^2) / (N - 2), points (mu_i, mu_j,
/// mu_k) with i + j + k = N/2 + 2 in each octant; points that are
/// permutations of one another share a weight, and the weights of these
/// classes make the octant's moments of mu_x^0, mu_x^4, mu_x^6, ... exact
/// (1, 1/5, 1/7, ...: as many as there are classes; mu_x^2's, 1/3, holds
/// for any weights of one sum, every point being a unit vector).
inline Quadrature level_symmetric(int n) {
  static const double mu1[] = {0.5773503, 0.3500212, 0.2666355, 0.2182179}; // S2..S8
  if (n < 2 || n > 8 || n % 2 != 0)
    fail("level-symmetric quadrature: S", n, " (this generator makes S2, S4, S6 and S8)");
  const int m = n / 2;
  std::vector<double> mu(static_cast<std::size_t>(m));
  const double first = mu1[m - 1];
  for (int i = 0; i < m; ++i)
    mu[i] = n == 2 ? first : std::sqrt(first * first + i * 2 * (1 - 3 * first * first) / (n - 2));
  // The octant's points and the class (sorted index triple) of each.
  std::vector<std::array<int, 3>> points, classes;
  std::vector<int> class_of;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j)
      for (int k = 0; k < m; ++k)
        if (i + j + k + 3 == m + 2) {
          std::array<int, 3> key{i, j, k};
          std::sort(key.begin(), key.end());
          const auto at = std::find(classes.begin(), classes.end(), key);
          class_of.push_back(int(at - classes.begin()));
          if (at == classes.end())
            classes.push_back(key);
          points.push_back({i, j, k});
        }
  const int nc = int(classes.size());
  std::vector<double> a(static_cast<std::size_t>(nc * nc), 0.0), b(static_cast<std::size_t>(nc));
  for (int p = 0; p < nc; ++p) { // moments of mu_x^0, mu_x^4, mu_x^6, ...
    const int power = p == 0 ? 0 : 2 * p + 2;
    b[p] = 1.0 / (power + 1);
    for (std::size_t q = 0; q < points.size(); ++q)
      a[p * nc + class_of[q]] += std::pow(mu[points[q][0]], power);
  }
  const std::vector<double> w = solve_dense(a, b);
  Quadrature out;
  out.name = "S" + std::to_string(n) + " level-symmetric";
  for (int octant = 0; octant < 8; ++octant)
    for (std::size_t q = 0; q < points.size(); ++q) {
      const double sx = octant & 1 ? -1 : 1, sy = octant & 2 ? -1 : 1, sz = octant & 4 ? -1 : 1;
      double v[3] = {sx * mu[points[q][0]], sy * mu[points[q][1]], sz * mu[points[q][2]]};
      const double len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      out.dirs.insert(out.dirs.end(), {v[0] / len, v[1] / len, v[2] / len});
      out.weights.push_back(w[class_of[q]] * M_PI / 2); // an octant's weights sum to pi / 2
    }
  return out;
}

/// Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_n).
inline void gauss_legendre(int n, std::vector<double> &x, std::vector<double> &w) {
  x.assign(std::size_t(n), 0.0);
  w.assign(std::size_t(n), 0.0);
  for (int i = 0; i < n; ++i) {
    double z = std::cos(M_PI * (i + 0.75) / (n + 0.5)), dp = 1;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1, p1 = z;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1, p1 = p2;
      }
      dp = n * (z * p1 - p0) / (z * z - 1);
      const double dz = p1 / dp;
      z -= dz;
      if (std::abs(dz) < 1e-16)
        break;
    }
    x[n - 1 - i] = z; // ascending
    w[n - 1 - i] = 2 / ((1 - z * z) * dp * dp);
  }
}

/// Tycho2's product set for order n: polar cosines mu_i (Gauss-Legendre of
/// n points), azimuths phi_k = 2 pi (k + 1/2) / (2 n), k < 2 n; direction
/// i * 2n + k is (sqrt(1 - mu^2) cos phi, sqrt(1 - mu^2) sin phi, mu) with
/// weight w_i * 2 pi / (2 n), in Tycho2's order.
inline Quadrature product_set(int n) {
  if (n < 2 || n > 30 || n % 2 != 0)
    fail("product quadrature: order ", n, " (even, 2 to 30)");
  std::vector<double> mu, wmu;
  gauss_legendre(n, mu, wmu);
  Quadrature out;
  out.name = "Tycho2 product set of order " + std::to_string(n);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 2 * n; ++k) {
      const double phi = 2 * M_PI / (2 * n) * (k + 0.5), s = std::sqrt(1 - mu[i] * mu[i]);
      out.dirs.insert(out.dirs.end(), {s * std::cos(phi), s * std::sin(phi), mu[i]});
      out.weights.push_back(wmu[i] * 2 * M_PI / (2 * n));
    }
  return out;
}

/// Fails (exit status 1 in the program: a check) unless the weights sum to
/// 4 pi, the first moments vanish and the second are 4 pi / 3 delta_ij,
/// each to 1e-6 (the tables' digits), and every direction is a unit vector.
inline std::string check_quadrature(const Quadrature &q) {
  double sum = 0, first[3] = {0, 0, 0}, second[3][3] = {};
  for (int d = 0; d < q.size(); ++d) {
    const double *v = &q.dirs[std::size_t(d) * 3];
    if (std::abs(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] - 1) > 1e-12)
      return q.name + ": direction " + std::to_string(d) + " is not a unit vector";
    if (!(q.weights[d] > 0))
      return q.name + ": weight " + std::to_string(d) + " is not positive";
    sum += q.weights[d];
    for (int i = 0; i < 3; ++i) {
      first[i] += q.weights[d] * v[i];
      for (int j = 0; j < 3; ++j)
        second[i][j] += q.weights[d] * v[i] * v[j];
    }
  }
  if (std::abs(sum - 4 * M_PI) > 1e-6)
    return q.name + ": weights sum to " + std::to_string(sum) + ", not 4 pi";
  for (int i = 0; i < 3; ++i) {
    if (std::abs(first[i]) > 1e-6)
      return q.name + ": first moment " + std::to_string(i) + " is " + std::to_string(first[i]);
    for (int j = 0; j < 3; ++j)
      if (std::abs(second[i][j] - (i == j ? 4 * M_PI / 3 : 0)) > 1e-6)
        return q.name + ": second moment (" + std::to_string(i) + ", " + std::to_string(j) +
               ") is " + std::to_string(second[i][j]);
  }
  return "";
}

} // namespace umesh::perf

#endif
