// exec::WarpCombine's plan and its errors: the links (chains per point in
// entry order, narrow and wide), the compact maps' 16-bit offsets, bad
// options, stray maps and oversized scratch, each as the plan holds it.
// test_warp runs its loops against the serial reference.
#include "test_main.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace umesh;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

template <class V> auto to_host(const V &v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<typename V::non_const_value_type>(h.data(), h.data() + h.size());
}

// The links of one warp as (follower, next) per entry, read back: bit 7 set
// when the entry follows another of its point, bits 0-6 the next entry of
// the point (0: none).
std::vector<std::pair<bool, int>> decode(const std::vector<std::uint8_t> &bytes, int group_size,
                                         int warp) {
  const int entries = 32 * group_size;
  std::vector<std::pair<bool, int>> out;
  for (int i = 0; i < entries; ++i) {
    const int b = bytes[std::size_t(warp) * entries + i];
    out.push_back({(b & 0x80) != 0, (b & 0x7F) == 0 ? -1 : b & 0x7F});
  }
  return out;
}

TEST(WarpLinks, ChainsJoinEveryReferenceOfAPointInEntryOrder) {
  // 40 elements of arity 2 on 5 points: warp 0 full, warp 1 eight lanes.
  std::vector<int> idx;
  for (int e = 0; e < 40; ++e)
    idx.insert(idx.end(), {e % 5, (e * 3 + 1) % 5});
  const Set elems("elems", 40), points("points", 5);
  const Map<Mem> map("map", elems, points, 2, idx);
  auto plan = make_plan(Space(), exec::WarpCombine{}, elems, map);
  for (const std::vector<int> &slots :
       {std::vector<int>{0, 1}, std::vector<int>{1}, std::vector<int>{1, 0, 1}}) {
    const auto &t = plan.links(0, slots);
    const auto bytes = to_host(t.bytes);
    const int m = int(slots.size());
    EXPECT_EQ(bytes.size(), std::size_t(2 * 32 * m));
    EXPECT_EQ(t.references, 40 * m);
    std::int64_t leaders = 0;
    int longest = 0;
    for (int w = 0; w < 2; ++w) {
      const int lanes = w == 0 ? 32 : 8;
      const auto links = decode(bytes, m, w);
      std::map<int, std::vector<int>> by_point; // entries in order
      for (int j = 0; j < m; ++j)
        for (int l = 0; l < lanes; ++l)
          by_point[idx[2 * (32 * w + l) + slots[j]]].push_back(32 * j + l);
      for (const auto &[p, entries] : by_point) { // entries ascend
        ++leaders;
        longest = std::max(longest, int(entries.size()));
        for (std::size_t i = 0; i < entries.size(); ++i) {
          EXPECT_EQ(links[entries[i]].first, i > 0) << "point " << p;
          EXPECT_EQ(links[entries[i]].second, i + 1 < entries.size() ? entries[i + 1] : -1);
        }
      }
    }
    EXPECT_EQ(t.leaders, leaders);
    EXPECT_EQ(t.longest_chain, longest);
  }
  // Four references per element (128 entries) fit a byte; more are
  // combined in chunks, so a chunk of five is an error.
  EXPECT_EQ(plan.links(0, {0, 1, 0, 1}).bytes.extent(0), std::size_t(2 * 128));
  EXPECT_THROW(plan.links(0, {0, 1, 0, 1, 1}), Error);
  EXPECT_THROW(plan.links(0, {}), Error);
}

// Every entry of a compact map (`entry(e, slot)`, its warp's base plus its
// offset) and the bases, evaluated where the map lives.
template <class Compact> struct ReadCompact {
  Compact map;
  Kokkos::View<int *, Mem> entries, base;
  int arity;
  KOKKOS_INLINE_FUNCTION void operator()(int e) const {
    for (int s = 0; s < arity; ++s)
      entries(e * arity + s) = map.entry(e, s);
    if (e % 32 == 0)
      base(e / 32) = map.base[e / 32];
  }
};

// Compact maps: every entry is its warp's base plus its offset; a tail
// warp; a warp spanning more than 16 bits fails the whole map, naming the
// first such warp.
TEST(WarpMaps, CompactFormsGiveBackEveryEntry) {
  std::vector<int> idx;
  for (int e = 0; e < 75; ++e) // warps 0-1 full, warp 2 of 11 lanes
    idx.insert(idx.end(), {1000 * (e / 32) + (e * 7) % 40, 65535 + e / 32, 3 * e});
  const Set elems("elems", 75), points("points", 71001);
  const Map<Mem> map("map", elems, points, 3, idx);
  auto plan = make_plan(Space(), exec::WarpCombine{}, elems, map);
  const CompactMapView c = plan.compact_map(map, "compact"); // (umesh/compact_map.hpp)
  ReadCompact<std::decay_t<decltype(c)>> read{c, Kokkos::View<int *, Mem>("entries", idx.size()),
                                              Kokkos::View<int *, Mem>("base", 3), 3};
  Kokkos::deep_copy(read.entries, -1); // poisoned: each must be written
  Kokkos::parallel_for("read_compact", Kokkos::RangePolicy<Space>(0, 75), read);
  const auto entries = to_host(read.entries), base = to_host(read.base);
  for (int e = 0; e < 75; ++e)
    for (int s = 0; s < 3; ++s)
      EXPECT_EQ(entries[3 * e + s], idx[3 * e + s]) << e << ' ' << s;
  EXPECT_EQ(base[1], 96); // the smallest point of warp 1: element 32's slot 2
  // Three bases of 4 bytes, 225 offsets of 2, against the map's 900 bytes.
  EXPECT_NE(plan.summary().find("map 'map' compact: 462 bytes against 900"), std::string::npos)
      << plan.summary();
  idx[3 * 70] = 70000; // warp 2 now spans 70000 - 192
  idx[3 * 40] = 71000; // warp 1: 71000 - 96, the first wide warp
  const Map<Mem> wide("wide", elems, points, 3, idx);
  auto wide_plan = make_plan(Space(), exec::WarpCombine{}, elems, wide);
  for (int attempt = 0; attempt < 2; ++attempt) { // refused, and not kept
    const std::string msg = test::error_message([&] { wide_plan.compact_map(wide, "far"); });
    EXPECT_NE(msg.find("loop 'far' under the warp executor with compact maps: map 'wide' reaches "
                       "points 70904 apart in warp 1 (elements 32 to 63)"),
              std::string::npos)
        << msg;
  }
  EXPECT_EQ(wide_plan.summary().find("compact"), std::string::npos) << wide_plan.summary();
}

struct AddOne {
  template <class A> KOKKOS_INLINE_FUNCTION void operator()(A a) const { a(0) += 1; }
};

TEST(Warp, BadOptionsAndOversizedScratchAreErrors) {
  using Space = Kokkos::DefaultExecutionSpace;
  using Mem = Space::memory_space;
  const QuadMesh m = make_quad_mesh(8, 8);
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  for (int b : {0, 16, 100, 2048})
    EXPECT_NE(test::error_message([&] {
                make_plan(Space(), exec::WarpCombine{}.with_block_size(b), m.edges, pecell);
              }).find("block size " + std::to_string(b) + " is not a multiple of 32 in [32, 1024]"),
              std::string::npos);
  Map<Mem> other("other", m.edges, m.cells, 2, m.edge_cells);
  Dat<double, 1, AoS, Mem> d(m.cells, "d");
  auto plan = make_plan(Space(), exec::WarpCombine{}, m.edges, pecell);
  for (int r : {-1, 32, 48, 255})
    EXPECT_NE(test::error_message([&] {
                par_loop(plan, exec::WarpLoop{}.with_max_registers(r), "budget", AddOne{},
                         inc(d, pecell, 0));
              })
                  .find("max_registers " + std::to_string(r) +
                        " is not 0 (the compiler's choice), "
                        "40 or 64"),
              std::string::npos)
        << r;
  auto large = make_plan(Space(), exec::WarpCombine{}.with_block_size(544), m.edges, pecell);
  EXPECT_NE(test::error_message([&] {
              par_loop(large, exec::WarpLoop{}.with_max_registers(40), "budget", AddOne{},
                       inc(d, pecell, 0));
            }).find("max_registers 40 needs blocks of at most 512 threads (this plan's are 544)"),
            std::string::npos);
  EXPECT_NE(test::error_message([&] {
              par_loop(plan, "stray", AddOne{}, inc(d, other, 0));
            }).find("pass that map to make_plan"),
            std::string::npos);
  // A map given as read-only is not one to combine through.
  auto ro = make_plan(Space(), exec::WarpCombine{}, m.edges, read_only(pecell));
  EXPECT_NE(test::error_message([&] {
              par_loop(ro, "ro", AddOne{}, inc(d, pecell, 0));
            }).find("pass that map to make_plan"),
            std::string::npos);
  // Compact maps hold 16-bit offsets: a warp reaching points 70000 apart
  // is an error naming the loop, the map and the warp.
  const Set elems("elems", 100), far("far", 70001);
  std::vector<int> idx(200, 5);
  idx[2 * 37 + 1] = 70000; // warp 1
  Map<Mem> spread("spread", elems, far, 2, idx);
  Dat<double, 1, AoS, Mem> f(far, "f");
  auto sp = make_plan(Space(), exec::WarpCombine{}, elems, spread);
  const std::string spread_msg = test::error_message([&] {
    par_loop(sp, exec::WarpLoop{}.with_compact_maps(), "spread", AddOne{}, inc(f, spread, 0));
  });
  EXPECT_NE(spread_msg.find("loop 'spread' under the warp executor with compact maps: map 'spread' "
                            "reaches points 69995 apart in warp 1 (elements 32 to 63)"),
            std::string::npos)
      << spread_msg;
  // Without compact maps the same loop runs.
  EXPECT_EQ(test::error_message([&] { par_loop(sp, "spread", AddOne{}, inc(f, spread, 0)); }),
            "no error");
  // 64 doubles per point at block 1024: 32 warps of 32 x (512 + 2) bytes on
  // GPUs, one warp's worth on host backends.
  Dat<double, 64, AoS, Mem> big(m.cells, "big");
  auto wide = make_plan(Space(), exec::WarpCombine{}.with_block_size(1024), m.edges, pecell);
  const int budget = detail::team_scratch_budget<Space>();
  const std::string msg =
      test::error_message([&] { par_loop(wide, "wide", AddOne{}, inc(big, pecell, 0)); });
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  if ((host ? 1 : 32) * 32 * (512 + 2) > budget)
    EXPECT_NE(msg.find("bytes of team scratch per block"), std::string::npos) << msg;
  else
    EXPECT_EQ(msg, "no error");
}

} // namespace
