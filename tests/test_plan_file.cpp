// Plan files: hierarchical plans and renumberings saved and loaded back
// (the same blocks, the same answers), and stale or damaged files refused
// with the reason.
#include "test_main.hpp"

#include <umesh/plan_file.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>

namespace {

using namespace umesh;
using test::temp_path;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

struct TwoCellKernel {
  template <class Q, class R> KOKKOS_INLINE_FUNCTION void operator()(Q q1, Q q2, R r1, R r2) const {
    for (int k = 0; k < 4; ++k) {
      r1(k) += q1(k) - 2 * q2(k);
      r2(k) -= q2(k) * q1(k);
    }
  }
};

struct Mesh2 {
  QuadMesh m = make_quad_mesh(41, 29, {true, 9});
  Map<Mem> pedge{"pedge", m.edges, m.nodes, 2, m.edge_nodes};
  Map<Mem> pecell{"pecell", m.edges, m.cells, 2, m.edge_cells};
};

TEST(PlanFile, HierarchicalPlanRoundTrip) {
  const Mesh2 g;
  const std::string file = temp_path("hier.plan");
  const auto options = exec::Hierarchical{}.with_block_size(64).with_plan_file(file);
  auto built = make_plan(Space(), options, g.m.edges, g.pecell, read_only(g.pedge));
  EXPECT_NE(built.summary().find("saved to"), std::string::npos);
  auto loaded = make_plan(Space(), options, g.m.edges, g.pecell, read_only(g.pedge));
  EXPECT_NE(loaded.summary().find("loaded from"), std::string::npos);
  EXPECT_EQ(loaded.blocks().elem, built.blocks().elem);
  EXPECT_EQ(loaded.blocks().block_start, built.blocks().block_start);
  EXPECT_EQ(loaded.blocks().block_colour, built.blocks().block_colour);
  EXPECT_EQ(loaded.blocks().reuse, built.blocks().reuse);
  // Both give the serial answers.
  Dat<double, 4, SoA, Mem> q(g.m.cells, "q"), a(g.m.cells, "a"), b(g.m.cells, "b");
  test::randomise(q, 1);
  test::randomise(a, 2);
  copy_values(b, a);
  const TwoCellKernel kernel;

  par_loop(built, "k", kernel, read(q, g.pecell, 0), read(q, g.pecell, 1), inc(a, g.pecell, 0),
           inc(a, g.pecell, 1));
  par_loop(loaded, "k", kernel, read(q, g.pecell, 0), read(q, g.pecell, 1), inc(b, g.pecell, 0),
           inc(b, g.pecell, 1));
  EXPECT_EQ(test::max_rel_err(a, b), 0.0);
  std::remove(file.c_str());
}

TEST(PlanFile, RenumberingRoundTrip) {
  const Mesh2 g;
  const std::string file = temp_path("renumbering.plan");
  const auto options =
      ReorderOptions{}.with_method(Reorder::builtin).with_block_size(64).with_plan_file(file);
  const auto built = reorder(options, g.m.edges, g.pecell, read_only(g.pedge));
  EXPECT_EQ(built.file_note(), "saved to " + file);
  const auto loaded = reorder(options, g.m.edges, g.pecell, read_only(g.pedge));
  EXPECT_EQ(loaded.file_note(), "loaded from " + file);
  for (const Set &s : {g.m.edges, g.m.cells, g.m.nodes})
    EXPECT_EQ(loaded.permutation(s).new_of_old(), built.permutation(s).new_of_old());
  EXPECT_EQ(*loaded.blocks(), *built.blocks());
  std::remove(file.c_str());
}

std::vector<char> read_bytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
void write_bytes(const std::string &path, const std::vector<char> &bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

TEST(PlanFile, StaleOrDamagedFilesAreErrors) {
  const Mesh2 g;
  const std::string file = temp_path("damaged.plan");
  const auto options = exec::Hierarchical{}.with_block_size(64).with_plan_file(file);
  make_plan(Space(), options, g.m.edges, g.pecell);
  const auto good = read_bytes(file);
  auto load = [&](const exec::Hierarchical &o, const Map<Mem> &map) {
    return test::error_message([&] { make_plan(Space(), o, map.from(), map); });
  };
  auto has = [](const std::string &what, const std::string &part) {
    return what.find(part) != std::string::npos;
  };
  EXPECT_EQ(load(options, g.pecell), "no error");
  // Other maps of the same sizes.
  const QuadMesh other = make_quad_mesh(41, 29, {true, 10});
  Map<Mem> pecell2("pecell", g.m.edges, g.m.cells, 2, other.edge_cells);
  EXPECT_TRUE(has(load(options, pecell2), "different maps")) << load(options, pecell2);
  // Other options.
  auto options96 = options;
  options96.with_block_size(96);
  EXPECT_TRUE(has(load(options96, g.pecell), "built with options"));
  // A flipped byte in the payload, a truncated file, not a plan file, a
  // future format version.
  auto bytes = good;
  bytes[bytes.size() / 2] ^= 0x40;
  write_bytes(file, bytes);
  EXPECT_TRUE(has(load(options, g.pecell), "corrupted")) << load(options, g.pecell);
  bytes = good;
  bytes.resize(bytes.size() - 100);
  write_bytes(file, bytes);
  EXPECT_TRUE(has(load(options, g.pecell), "truncated")) << load(options, g.pecell);
  write_bytes(file, {'$', 'M', 'e', 's', 'h', 'F', 'o', 'r', 'm', 'a', 't'});
  EXPECT_TRUE(has(load(options, g.pecell), "not a umesh plan file"));
  bytes = good;
  bytes[8] = 99;
  write_bytes(file, bytes);
  EXPECT_TRUE(has(load(options, g.pecell), "format version 99"));
  // A renumbering file is not a plan.
  std::remove(file.c_str());
  reorder(ReorderOptions{}.with_method(Reorder::rcm).with_plan_file(file), g.m.edges, g.pecell);
  EXPECT_TRUE(has(load(options, g.pecell), "holds a renumbering"));
  std::remove(file.c_str());
}

// A plan file is untrusted input: one edited and given a right checksum
// again is refused for what was edited, never used to index out of range or
// to compute another answer.
TEST(PlanFile, EditedPlansAreRefusedPastTheirChecksum) {
  const Mesh2 g;
  const std::string file = temp_path("edited.plan");
  const auto options = exec::Hierarchical{}.with_block_size(64).with_plan_file(file);
  const auto built = make_plan(Space(), options, g.m.edges, g.pecell, read_only(g.pedge));
  const BlockPlan good = read_plan_file(file, options, g.m.edges, g.pecell, read_only(g.pedge));
  EXPECT_EQ(good.elem, built.blocks().elem);
  ASSERT_GT(good.num_blocks(), 2);
  ASSERT_GT(good.num_block_colours(), 1);
  // The plan with `edit` applied, saved with its checksum, loaded: the
  // error, from make_plan and from read_plan_file alike.
  auto load_edited = [&](auto edit) {
    BlockPlan p = good;
    edit(p);
    write_plan_file(file, p, options, g.m.edges, g.pecell, read_only(g.pedge));
    const std::string e = test::error_message(
        [&] { make_plan(Space(), options, g.m.edges, g.pecell, read_only(g.pedge)); });
    EXPECT_EQ(test::error_message(
                  [&] { read_plan_file(file, options, g.m.edges, g.pecell, read_only(g.pedge)); }),
              e);
    return e;
  };
  auto refused = [&](const std::string &why, auto edit) {
    const std::string e = load_edited(edit);
    EXPECT_NE(e.find("holds an invalid plan: "), std::string::npos) << e;
    EXPECT_NE(e.find(why), std::string::npos) << e;
  };
  EXPECT_EQ(load_edited([](BlockPlan &) {}), "no error");
  refused("element", [](BlockPlan &p) { p.elem[1] = p.elem[0]; });
  refused("element -1 is outside", [](BlockPlan &p) { p.elem[0] = -1; });
  refused("block size 128, the options say 64", [](BlockPlan &p) { p.block_size = 128; });
  refused("block starts", [](BlockPlan &p) { p.block_start.back() -= 1; });
  refused("block 0 spans", [](BlockPlan &p) { p.block_start[1] = p.block_start[2]; });
  refused("at most 1 thread colours", [](BlockPlan &p) { p.max_thread_colours = 1; });
  refused("staged map 1 point 1073741824 is outside",
          [](BlockPlan &p) { p.staged[1].points[0] = 1 << 30; });
  refused("staged map 0 position 0 slot 0 names local point 9999",
          [](BlockPlan &p) { p.staged[0].local[0] = 9999; });
  // In range, but another point of the block: increments would land on the
  // wrong cell.
  refused("staged map 0 position 0 slot",
          [](BlockPlan &p) { std::swap(p.staged[0].local[0], p.staged[0].local[1]); });
  refused("staged map 0 says at most", [](BlockPlan &p) { p.staged[0].max_points += 1; });
  // Owned points are written back without atomics: they must be the block's alone.
  refused("staged map 0 block", [&](BlockPlan &p) {
    for (int b = 0; b < p.num_blocks(); ++b)
      p.staged[0].owned[b] = p.staged[0].point_offsets[b + 1] - p.staged[0].point_offsets[b];
  });
  // One block colour for every block: blocks that share cells would race.
  refused("of block colour 0 write one point", [](BlockPlan &p) {
    std::iota(p.block_order.begin(), p.block_order.end(), 0);
    std::fill(p.block_colour.begin(), p.block_colour.end(), 0);
    p.block_colour_offsets = {0, p.num_blocks()};
  });
  // One thread colour for every thread of block 0: threads would race.
  refused("two threads of colour 0 in block 0 write one point", [](BlockPlan &p) {
    const int first = p.thread_colour_offsets[0], colours = p.thread_colour_offsets[1] - first - 1;
    for (int c = 1; c <= colours; ++c)
      p.colour_start[first + c] = p.block_start[1];
    for (int i = p.block_start[0]; i < p.block_start[1]; ++i)
      p.thread_colour[i] = 0;
  });
  std::remove(file.c_str());
}

// Renumbering files too: block ids and numberings edited and given a right
// checksum are refused naming the file (an id of 2^31-1 sized the plan's
// per-part counts by it).
TEST(PlanFile, EditedRenumberingsAreRefusedPastTheirChecksum) {
  const Mesh2 g;
  const std::string file = temp_path("edited.renumbering");
  const auto options =
      ReorderOptions{}.with_method(Reorder::builtin).with_block_size(64).with_plan_file(file);
  const Renumbering built = reorder(options, g.m.edges, g.pecell);
  const Numberings good = read_renumbering_file(file, options, g.m.edges, g.pecell);
  EXPECT_EQ(good.elements, built.permutation(g.m.edges).new_of_old());
  EXPECT_EQ(good.blocks, *built.blocks());
  ASSERT_GT(good.blocks.back(), 2);
  auto load_edited = [&](auto edit) {
    Numberings r = good;
    edit(r);
    write_renumbering_file(file, r, options, g.m.edges, g.pecell);
    const std::string e = test::error_message([&] { reorder(options, g.m.edges, g.pecell); });
    EXPECT_EQ(
        test::error_message([&] { read_renumbering_file(file, options, g.m.edges, g.pecell); }), e);
    return e;
  };
  auto refused = [&](const std::string &why, auto edit) {
    const std::string e = load_edited(edit);
    EXPECT_NE(e.find("plan file '" + file + "'"), std::string::npos) << e;
    EXPECT_NE(e.find(why), std::string::npos) << e;
  };
  EXPECT_EQ(load_edited([](Numberings &) {}), "no error");
  refused("is in block 2147483647 after block",
          [](Numberings &r) { r.blocks.back() = 2147483647; });
  refused("element 0 of the renumbering is in block -1 (blocks are numbered from 0",
          [](Numberings &r) { r.blocks[0] = -1; });
  refused("is in block 0 after block", [](Numberings &r) { r.blocks.back() = 0; });
  refused("the renumbering of the elements gives 1 the number",
          [](Numberings &r) { r.elements[1] = r.elements[0]; });
  refused("the renumbering of the points gives 0 the number -5",
          [](Numberings &r) { r.targets[0][0] = -5; });
  std::remove(file.c_str());
}

// Plan files are read whole, so only regular files are: a plan path naming
// /dev/zero was read until memory ran out.
TEST(PlanFile, OnlyRegularFilesAreRead) {
  const Mesh2 g;
  const std::string plan = test::error_message([&] {
    make_plan(Space(), exec::Hierarchical{}.with_block_size(64).with_plan_file("/dev/zero"),
              g.m.edges, g.pecell);
  });
  EXPECT_NE(plan.find("plan file '/dev/zero' is not a regular file"), std::string::npos) << plan;
  const std::string renumbering = test::error_message([&] {
    reorder(ReorderOptions{}.with_method(Reorder::rcm).with_plan_file("/dev/zero"), g.m.edges,
            g.pecell);
  });
  EXPECT_NE(renumbering.find("plan file '/dev/zero' is not a regular file"), std::string::npos)
      << renumbering;
}

// Runs sharing a plan folder save one plan at once: each through a
// temporary of its own. A shared "<plan>.tmp" mixed their bytes or renamed
// one run's file away under the other, and a named pipe at that name made
// the run wait for ever.
TEST(PlanFile, SavedThroughATemporaryOfItsOwn) {
  namespace fs = std::filesystem;
  const fs::path dir = temp_path("saved_plans.d");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string file = (dir / "p.plan").string();
  ASSERT_EQ(::mkfifo((file + ".tmp").c_str(), 0644), 0);
  // A renumbering of 200000 elements (800 KB of numbers), the maps on the
  // host: the threads only hash and write.
  constexpr int n = 200000;
  const Set elements("elements", n), points("points", 2);
  const Map<Kokkos::HostSpace> map("map", elements, points, 1, std::vector<int>(n, 1));
  const auto options = ReorderOptions{}.with_method(Reorder::rcm);
  Numberings numbers;
  numbers.elements.resize(n);
  std::iota(numbers.elements.rbegin(), numbers.elements.rend(), 0);
  numbers.targets = {{1, 0}};
  std::vector<std::thread> pool;
  std::vector<std::string> errors(6);
  for (std::size_t t = 0; t < errors.size(); ++t)
    pool.emplace_back([&, t] {
      try {
        for (int k = 0; k < 10; ++k)
          write_renumbering_file(file, numbers, options, elements, map);
      } catch (const std::exception &e) {
        errors[t] = e.what();
      }
    });
  for (auto &th : pool)
    th.join();
  for (const auto &e : errors)
    EXPECT_EQ(e, "");
  const Numberings r = read_renumbering_file(file, options, elements, map);
  EXPECT_EQ(r.elements, numbers.elements);
  EXPECT_EQ(r.targets, numbers.targets);
  int left = 0; // the plan and the pipe, no temporary
  for (const auto &entry : fs::directory_iterator(dir))
    left += entry.path().filename() != "p.plan" && entry.path().filename() != "p.plan.tmp";
  EXPECT_EQ(left, 0);
  fs::remove_all(dir);
}

} // namespace
