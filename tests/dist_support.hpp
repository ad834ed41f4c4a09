#ifndef UMESH_TESTS_DIST_SUPPORT_HPP
#define UMESH_TESTS_DIST_SUPPORT_HPP

// What the distributed tests share: kernels, random data, the comparison
// with the serial reference, the executor configurations and main() under
// MPI.
#include <umesh/dist.hpp>
#include <umesh/umesh.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace dist_support {

using namespace umesh;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

struct EdgeKernel {
  template <class X, class Q, class R, class S, class M>
  KOKKOS_INLINE_FUNCTION void operator()(X x1, X x2, Q q1, Q q2, R r1, R r2, S sum, M mn) const {
    const double dx = x2(0) - x1(0), dy = x2(1) - x1(1);
    for (int k = 0; k < 3; ++k) {
      const double f = 0.5 * (q1(k) + q2(k)) * dx + (k + 1) * dy * q1((k + 1) % 3);
      r1(k) += f;
      r2(k) -= 0.5 * f;
    }
    sum(0) += dx * dy;
    const double lo = q1(0) - q2(0);
    mn(0) = lo < mn(0) ? lo : mn(0);
  }
};
struct CellUpdate { // q += 0.1 res, direct on cells
  template <class R, class Q> KOKKOS_INLINE_FUNCTION void operator()(R res, Q q) const {
    for (int k = 0; k < 3; ++k)
      q(k) += 0.1 * res(k);
  }
};

// Each cell's neighbour min/max through the edges (miniAero's limiter stencil).
struct MinMax {
  template <class Q, class Lo, class Hi>
  KOKKOS_INLINE_FUNCTION void operator()(Q q1, Q q2, Lo lo1, Lo lo2, Hi hi1, Hi hi2) const {
    for (int k = 0; k < 3; ++k) {
      lo1(k).update(q2(k));
      lo2(k).update(q1(k));
      hi1(k).update(q2(k));
      hi2(k).update(q1(k));
    }
  }
};

struct CellSum {
  template <class Q, class G> KOKKOS_INLINE_FUNCTION void operator()(Q q, G g) const {
    g(0) += q(0);
  }
};

std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(n);
  for (auto &x : v)
    x = u(rng);
  return v;
}

/// `n` items dealt to `ranks` ranks in contiguous runs of a shuffled order
/// (ragged parts, halos on every rank): order[i] is the i-th item of the
/// shuffle, owner[item] its rank.
struct ShuffledOwners {
  std::vector<int> order, owner;
};
inline ShuffledOwners shuffled_owners(int n, int ranks, unsigned seed) {
  ShuffledOwners s{std::vector<int>(std::size_t(n)), std::vector<int>(std::size_t(n))};
  for (int i = 0; i < n; ++i)
    s.order[std::size_t(i)] = i;
  std::shuffle(s.order.begin(), s.order.end(), std::mt19937(seed));
  for (std::size_t i = 0; i < s.order.size(); ++i)
    s.owner[std::size_t(s.order[i])] = int(std::int64_t(i) * ranks / n);
  return s;
}

double max_rel_diff(const std::vector<double> &a, const std::vector<double> &b) {
  EXPECT_EQ(a.size(), b.size());
  double err = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i]))
      return INFINITY;
    err = std::max(err, std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i])));
  }
  return err;
}

template <class E, class L> struct Config {
  using exec = E;
  using layout = L;
};
using Configs = ::testing::Types<
    Config<exec::Serial, AoS>, Config<exec::Atomic, AoS>, Config<exec::Atomic, SoA>,
    Config<exec::Gather, SoA>, Config<exec::GlobalColour, AoS>, Config<exec::ScatterView, SoA>,
    Config<exec::Hierarchical, AoS>, Config<exec::Hierarchical, SoA>, Config<exec::Auto, SoA>,
    Config<exec::WarpCombine, SoA>, Config<exec::Segmented, AoS>>;

/// Runs `build` (a collective construction) on every rank and checks that
/// every rank throws umesh::Error and that some rank's message holds `what`
/// (the rank that found the problem names it; the others say which rank did).
template <class Build> void expect_refused_everywhere(const Build &build, const std::string &what) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::string message;
  try {
    build();
  } catch (const Error &e) {
    message = e.what();
  }
  EXPECT_FALSE(message.empty()) << "rank " << rank << ": no error for '" << what << "'";
  int named = message.find(what) != std::string::npos;
  MPI_Allreduce(MPI_IN_PLACE, &named, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  EXPECT_TRUE(named) << "no rank said '" << what << "'; rank " << rank << ": " << message;
}

/// The executor tag a test's plans are built with: small blocks, so that
/// every rank's part has several; one tuning trial.
template <class E> E test_exec() {
  if constexpr (std::is_same<E, exec::Hierarchical>::value)
    return exec::Hierarchical{}.with_block_size(32);
  else if constexpr (std::is_same<E, exec::Auto>::value)
    return exec::Auto{}.with_block_sizes({32}).with_trials(1);
  else
    return E{};
}

} // namespace dist_support

/// main() of a distributed test program: every rank runs the tests, rank 0
/// reports, and any rank's failure fails the program.
inline int run_distributed_tests(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ::testing::InitGoogleTest(&argc, argv);
  if (rank != 0) // one rank reports; every rank's failures still set its exit status
    delete ::testing::UnitTest::GetInstance()->listeners().Release(
        ::testing::UnitTest::GetInstance()->listeners().default_result_printer());
  int failed = 0;
  {
    Kokkos::ScopeGuard guard(argc, argv);
    failed = RUN_ALL_TESTS();
  }
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && any && !failed)
    std::printf("a test failed on another rank\n");
  MPI_Finalize();
  return any;
}

#endif
