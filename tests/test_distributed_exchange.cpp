// Halo exchanges of several dats as one (dist::ExchangeGroup: one packing
// kernel, one message per neighbour, one unpacking kernel): dats of several
// value types, widths and layouts give, bit for bit, what each dat's own
// exchange gives, and what the owners hold (imports) and the owners' values
// folded with the halo copies in neighbour order, ascending rank (exports:
// sums, minima and maxima); with more dats than one batch holds, and with
// imports and exports in one group. At 1, 2 and 3 ranks (ragged halos, points
// shared by several ranks).
#include "dist_support.hpp"

#include <cstdint>
#include <map>
#include <tuple>

namespace {

using namespace dist_support;
using Fold = dist::Exchange::Combine;

// A value every rank can compute: dat d's component k of global point g as
// rank r holds it. Not integers for floating types, so sums in another
// order would differ.
template <class T> T value(int d, int r, int g, int k) {
  if constexpr (std::is_floating_point<T>::value)
    return T(10.0 * std::sin(1.0 + 0.37 * d + 0.011 * g + 0.13 * k + 1.7 * r));
  else
    return T((7 * d + 3 * g + k + 11 * r) % 97 - 40);
}

struct Ranks {
  int rank = 0, size = 1;
  std::map<int, int> owner;             // global point -> owning rank
  std::vector<std::vector<char>> holds; // [rank][global point]: as halo
};

Ranks who_holds_what(const dist::SetPart &cells, int global) {
  Ranks r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r.size);
  const int n = cells.local.size(), owned = cells.owned;
  std::vector<int> mine(std::size_t(global), -1), all(std::size_t(global) * r.size);
  for (int i = 0; i < n; ++i)
    mine[std::size_t(cells.global_ids[i])] = i < owned ? 1 : 2;
  MPI_Allgather(mine.data(), global, MPI_INT, all.data(), global, MPI_INT, MPI_COMM_WORLD);
  r.holds.assign(std::size_t(r.size), std::vector<char>(std::size_t(global), 0));
  for (int q = 0; q < r.size; ++q)
    for (int g = 0; g < global; ++g) {
      const int h = all[std::size_t(q) * global + g];
      if (h == 1)
        r.owner[g] = q;
      r.holds[q][g] = h == 2;
    }
  return r;
}

// Every local point of `dat` as rank `r` holds it (owned and halo).
template <class DatT> void set_all(const DatT &dat, int d, int r, const dist::SetPart &cells) {
  using T = typename DatT::local_type::value_type;
  auto h = Kokkos::create_mirror_view(dat.local().view());
  for (int i = 0; i < cells.local.size(); ++i)
    for (int k = 0; k < int(h.extent(1)); ++k)
      h(i, k) = value<T>(d, r, cells.global_ids[i], k);
  Kokkos::deep_copy(dat.local().view(), h);
}

// Points of `dat` that differ from `want(i, k)`, bit for bit.
template <class DatT, class Want> int count_wrong(const DatT &dat, int points, Want &&want) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dat.local().view());
  int wrong = 0;
  for (int i = 0; i < points; ++i)
    for (int k = 0; k < int(h.extent(1)); ++k)
      wrong += !(h(i, k) == want(i, k));
  return wrong;
}
template <class A, class B> int count_different(const A &a, const B &b, int points) {
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.local().view());
  return count_wrong(a, points, [&](int i, int k) { return hb(i, k); });
}

// What an owned point holds after an export folded by `how`: its own value,
// then each rank's halo copy, ascending rank.
template <class T> T folded(int d, const Ranks &r, int g, int k, Fold how) {
  T v = value<T>(d, r.rank, g, k);
  for (int q = 0; q < r.size; ++q)
    if (r.holds[q][g]) {
      const T x = value<T>(d, q, g, k);
      if (how == Fold::add)
        v += x;
      else
        v = (how == Fold::min) == (x < v) ? x : v;
    }
  return v;
}

TEST(DistExchangeFused, MixedDatsAsOneExchangeMatchTheirOwnExchanges) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(13, 11, {true, 4});
  const auto s = shuffled_owners(m.edges.size(), size, 11);
  dist::Partition<Mem> part(MPI_COMM_WORLD, m.edges, s.owner,
                            {{"pecell", m.cells, 2, m.edge_cells}});
  const auto &cells = part.part(m.cells);
  const dist::Exchange &ex = *cells->halo;
  const int n = cells->local.size(), owned = cells->owned;
  const Ranks r = who_holds_what(*cells, m.cells.size());
  // Value sizes 8, 4, 2 and 1 bytes in both layouts: blocks by decreasing
  // size, a row padded to 8 bytes.
  auto dats = [&](const std::string &tag) {
    return std::make_tuple(dist::Dat<double, 3, SoA, Mem>(cells, "a" + tag),
                           dist::Dat<float, 2, AoS, Mem>(cells, "b" + tag),
                           dist::Dat<int, 1, SoA, Mem>(cells, "c" + tag),
                           dist::Dat<std::int16_t, 3, AoS, Mem>(cells, "d" + tag),
                           dist::Dat<double, 5, AoS, Mem>(cells, "e" + tag),
                           dist::Dat<std::int64_t, 2, SoA, Mem>(cells, "f" + tag),
                           dist::Dat<float, 3, SoA, Mem>(cells, "g" + tag),
                           dist::Dat<std::int8_t, 1, AoS, Mem>(cells, "h" + tag));
  };
  auto grouped = dats(""), alone = dats("_alone");
  auto each = [](auto &t, auto &&f) {
    std::apply(
        [&](auto &...x) {
          int d = 0;
          (f(x, d++), ...);
        },
        t);
  };
  auto each2 = [](auto &t, auto &u, auto &&f) {
    std::apply(
        [&](auto &...x) {
          std::apply(
              [&](auto &...y) {
                int d = 0;
                (f(x, y, d++), ...);
              },
              u);
        },
        t);
  };

  // Imports: the halo copies take their owners' values.
  each2(grouped, alone, [&](auto &a, auto &b, int d) {
    set_all(a, d, r.rank, *cells), set_all(b, d, r.rank, *cells);
  });
  const std::size_t before = ex.exchanges();
  {
    dist::ExchangeGroup g(ex);
    each(grouped, [&](auto &a, int) { g.start(a.local(), false, Fold::add); });
    g.finish();
  }
  EXPECT_EQ(ex.exchanges(), before + (size > 1 ? 1 : 0));
  each2(grouped, alone, [&](auto &a, auto &b, int d) {
    ex.import(b.local());
    using T = typename std::decay_t<decltype(a)>::local_type::value_type;
    EXPECT_EQ(count_wrong(a, n,
                          [&](int i, int k) {
                            const int gid = cells->global_ids[i];
                            return value<T>(d, i < owned ? r.rank : r.owner.at(gid), gid, k);
                          }),
              0)
        << "import of " << a.name();
    EXPECT_EQ(count_different(a, b, n), 0) << "import of " << a.name() << " against its own";
  });

  // Exports, each dat folded its own way (sums, minima, maxima in one group).
  const Fold how[] = {Fold::add, Fold::add, Fold::min, Fold::max,
                      Fold::add, Fold::max, Fold::min, Fold::max};
  each2(grouped, alone, [&](auto &a, auto &b, int d) {
    set_all(a, d, r.rank, *cells), set_all(b, d, r.rank, *cells);
  });
  {
    dist::ExchangeGroup g(ex);
    each(grouped, [&](auto &a, int d) { g.start(a.local(), true, how[d]); });
  } // finished by the destructor
  each2(grouped, alone, [&](auto &a, auto &b, int d) {
    ex.export_combine(b.local(), how[d]);
    using T = typename std::decay_t<decltype(a)>::local_type::value_type;
    EXPECT_EQ(
        count_wrong(a, owned,
                    [&](int i, int k) { return folded<T>(d, r, cells->global_ids[i], k, how[d]); }),
        0)
        << "export of " << a.name();
    EXPECT_EQ(count_different(a, b, owned), 0) << "export of " << a.name() << " against its own";
  });

  // An import and an export in one group, posted before they finish.
  auto &a = std::get<0>(grouped);
  auto &e = std::get<4>(grouped);
  set_all(a, 0, r.rank, *cells), set_all(e, 4, r.rank, *cells);
  {
    dist::ExchangeGroup g(ex);
    g.start(a.local(), false, Fold::add);
    g.start(e.local(), true, Fold::add);
    g.post();
    g.finish();
  }
  EXPECT_EQ(count_wrong(a, n,
                        [&](int i, int k) {
                          const int gid = cells->global_ids[i];
                          return value<double>(0, i < owned ? r.rank : r.owner.at(gid), gid, k);
                        }),
            0);
  EXPECT_EQ(count_wrong(e, owned,
                        [&](int i, int k) {
                          return folded<double>(4, r, cells->global_ids[i], k, Fold::add);
                        }),
            0);
}

// More dats than one batch holds: still one exchange, every dat imported.
TEST(DistExchangeFused, MoreDatsThanOneBatch) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(9, 7, {true, 2});
  const auto s = shuffled_owners(m.edges.size(), size, 3);
  dist::Partition<Mem> part(MPI_COMM_WORLD, m.edges, s.owner,
                            {{"pecell", m.cells, 2, m.edge_cells}});
  const auto &cells = part.part(m.cells);
  const dist::Exchange &ex = *cells->halo;
  const Ranks r = who_holds_what(*cells, m.cells.size());
  const int count = umesh::detail::max_packed_dats + 3;
  std::vector<dist::Dat<double, 2, AoS, Mem>> q;
  for (int d = 0; d < count; ++d) {
    q.emplace_back(cells, "q" + std::to_string(d));
    set_all(q.back(), d, r.rank, *cells);
  }
  const std::size_t before = ex.exchanges();
  {
    dist::ExchangeGroup g(ex);
    for (const auto &d : q)
      g.start(d.local(), false, Fold::add);
  }
  EXPECT_EQ(ex.exchanges(), before + (size > 1 ? 1 : 0));
  for (int d = 0; d < count; ++d)
    EXPECT_EQ(count_wrong(q[d], cells->local.size(),
                          [&](int i, int k) {
                            const int gid = cells->global_ids[i];
                            return value<double>(d, i < cells->owned ? r.rank : r.owner.at(gid),
                                                 gid, k);
                          }),
              0)
        << q[d].name();
}

// A dat started twice in one exchange goes once: the same values as a dat
// started once (imports and exports); folded two ways, an error.
TEST(DistExchangeFused, ADatStartedTwiceGoesOnce) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const QuadMesh m = make_quad_mesh(9, 7, {true, 2});
  const auto s = shuffled_owners(m.edges.size(), size, 5);
  dist::Partition<Mem> part(MPI_COMM_WORLD, m.edges, s.owner,
                            {{"pecell", m.cells, 2, m.edge_cells}});
  const auto &cells = part.part(m.cells);
  const dist::Exchange &ex = *cells->halo;
  const Ranks r = who_holds_what(*cells, m.cells.size());
  for (const bool to_owners : {false, true}) {
    dist::Dat<double, 3, SoA, Mem> twice(cells, "twice"), once(cells, "once");
    set_all(twice, 1, r.rank, *cells);
    set_all(once, 1, r.rank, *cells);
    {
      dist::ExchangeGroup g(ex);
      g.start(twice.local(), to_owners, Fold::add);
      g.start(twice.local(), to_owners, Fold::add);
    }
    {
      dist::ExchangeGroup g(ex);
      g.start(once.local(), to_owners, Fold::add);
    }
    EXPECT_EQ(count_different(twice, once, cells->local.size()), 0)
        << (to_owners ? "export" : "import");
  }
  if (size > 1) { // (with no neighbour nothing is exchanged, nor checked)
    dist::Dat<double, 3, SoA, Mem> q(cells, "q");
    dist::ExchangeGroup g(ex);
    g.start(q.local(), true, Fold::add);
    EXPECT_THROW(g.start(q.local(), true, Fold::max), umesh::Error);
  }
}

} // namespace

int main(int argc, char **argv) {
  return run_distributed_tests(argc, argv);
}
