// Plan files: hierarchical plans and renumberings saved and loaded back
// (the same blocks, the same answers), and stale or damaged files refused
// with the reason.
#include "test_main.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

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

  par_loop(exec::Hierarchical{}, built, "k", kernel, read(q, g.pecell, 0), read(q, g.pecell, 1),
           inc(a, g.pecell, 0), inc(a, g.pecell, 1));
  par_loop(exec::Hierarchical{}, loaded, "k", kernel, read(q, g.pecell, 0), read(q, g.pecell, 1),
           inc(b, g.pecell, 0), inc(b, g.pecell, 1));
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

} // namespace
