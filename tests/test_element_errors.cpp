// Element loops refuse bad input before any launch, with an Error naming the
// loop, the object and the value (part of test_element_teams).

#include "element_test_support.hpp"

#include <string>
#include <vector>

namespace umesh::test {
namespace {

using Space = Kokkos::DefaultHostExecutionSpace;
using Mem = Space::memory_space;

struct Touch {
  template <class Team, class... A>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &, A...) const {}
};

// Writes every row point of its one argument (a write_row or inc_row).
struct WriteAll {
  template <class Team, class R> KOKKOS_INLINE_FUNCTION void operator()(const Team &t, R r) const {
    t.lanes(r.size(), [&](int i) { r(i, 0) = 1; });
  }
};

struct ErrorsFixture : ::testing::Test {
  TriMesh m = make_tri_mesh(6, 5);
  Map<Mem> cell_nodes{"cell_nodes", m.cells, m.nodes, 3, m.cell_nodes};
  Map<Mem> edge_nodes{"edge_nodes", m.edges, m.nodes, 2, m.edge_nodes};
  Dat<double, 1, AoS, Mem> u{m.nodes, "u"}, c{m.cells, "c"};
};

TEST_F(ErrorsFixture, RowThroughAMapFromAnotherSet) {
  auto plan = make_element_plan(Space(), exec::ElementAtomic{}, m.cells);
  EXPECT_TRUE(
      has_words(error_message([&] { element_loop(plan, "l", Touch{}, read_row(u, edge_nodes)); }),
                {"umesh: loop 'l' argument 0", "map 'edge_nodes'", "set 'edges'",
                 "the loop runs over set 'cells'"}));
}

TEST_F(ErrorsFixture, RowOfADatOnAnotherSet) {
  auto plan = make_element_plan(Space(), exec::ElementSerial{}, m.cells);
  EXPECT_TRUE(has_words(
      error_message([&] { element_loop(plan, "l", Touch{}, read(c), inc_row(c, cell_nodes)); }),
      {"umesh: loop 'l' argument 1", "inc", "dat 'c'", "set 'cells'", "map 'cell_nodes'",
       "maps to set 'nodes'"}));
}

TEST_F(ErrorsFixture, CompileTimeArityOtherThanTheMaps) {
  auto plan = make_element_plan(Space(), exec::ElementAtomic{}, m.cells);
  EXPECT_EQ(error_message([&] { element_loop(plan, "l", Touch{}, read_row<4>(u, cell_nodes)); }),
            "umesh: loop 'l' argument 0: read_row<4> of dat 'u' through map 'cell_nodes', whose "
            "arity is 3");
}

TEST_F(ErrorsFixture, DirectDatOnAnotherSet) {
  auto plan = make_element_plan(Space(), exec::ElementAtomic{}, m.cells);
  EXPECT_TRUE(has_words(error_message([&] { element_loop(plan, "l", Touch{}, read(u)); }),
                        {"umesh: loop 'l' argument 0", "read", "dat 'u'", "set 'nodes'",
                         "the loop runs over set 'cells'"}));
}

TEST_F(ErrorsFixture, ColouringWithoutTheMap) {
  auto plan = make_element_plan(Space(), exec::ElementColour{}, m.cells);
  EXPECT_EQ(error_message([&] { element_loop(plan, "l", Touch{}, inc_row(u, cell_nodes)); }),
            "umesh: loop 'l' increments through map 'cell_nodes', but its plan was built over no "
            "maps: pass that map to make_plan");
}

TEST_F(ErrorsFixture, OneDatFoldedTwoWays) {
  auto plan = make_element_plan(Space(), exec::ElementAtomic{}, m.cells);
  EXPECT_EQ(error_message([&] {
              element_loop(plan, "l", Touch{}, inc_row(u, cell_nodes), min_row(u, cell_nodes));
            }),
            "umesh: loop 'l' argument 1: dat 'u' is combined with min here and with inc in "
            "argument 0; one loop may fold into a dat under one access only");
}

TEST_F(ErrorsFixture, TeamShapesOutOfRange) {
  auto plan = make_element_plan(Space(), exec::ElementAtomic{}, m.cells);
  auto run = [&](ElementTeams t) {
    return error_message([&] { element_loop(plan, "l", t, Touch{}, read(c)); });
  };
  EXPECT_EQ(run(ElementTeams{}.with_elements_per_team(0)),
            "umesh: loop 'l' under element teams: elements_per_team 0 is outside [1, 1024]");
  EXPECT_EQ(run(ElementTeams{}.with_elements_per_team(1025).with_lanes(1)),
            "umesh: loop 'l' under element teams: elements_per_team 1025 is outside [1, 1024]");
  for (int lanes : {0, 3, 64})
    EXPECT_EQ(run(ElementTeams{}.with_lanes(lanes)), "umesh: loop 'l' under element teams: lanes " +
                                                         std::to_string(lanes) +
                                                         " is not a power of two in [1, 32]");
  EXPECT_EQ(run(ElementTeams{}.with_elements_per_team(64).with_lanes(32)),
            "umesh: loop 'l' under element teams: 64 elements per team of 32 lanes make teams of "
            "2048 threads; at most 1024");
  EXPECT_EQ(
      run(ElementTeams{}.with_scratch_bytes(-16)),
      "umesh: loop 'l' under element teams: element_scratch -16 bytes is outside [0, 16 MiB]");
}

// Scratch beyond what the backend grants a team fails before any launch:
// the output keeps its values.
TEST_F(ErrorsFixture, ScratchBeyondTheBackendsBudget) {
  const int budget = Kokkos::TeamPolicy<Space>::scratch_size_max(0);
  auto plan = make_element_plan(Space(), exec::ElementAtomic{}, m.cells);
  poison(u);
  const std::string e1 = error_message([&] {
    element_loop(plan, "l", ElementTeams{}.with_scratch_bytes(budget), WriteAll{},
                 write_row(u, cell_nodes));
  });
  EXPECT_NE(e1.find("umesh: loop 'l' under element teams needs " + std::to_string(budget + 16) +
                    " bytes of team scratch (tables 0, 1 x " + std::to_string(budget) +
                    " of element scratch), but " + Space::name() + " grants " +
                    std::to_string(budget) + " per team"),
            std::string::npos)
      << e1;
  Kokkos::View<double *, Mem> big("big", budget / 8);
  const std::string e2 = error_message(
      [&] { element_loop(plan, "l", Touch{}, table(big), write_row(u, cell_nodes)); });
  EXPECT_NE(e2.find("(tables " + std::to_string(budget) + ", 1 x 0 of element scratch)"),
            std::string::npos)
      << e2;
  EXPECT_EQ(rel_err(host_values(u), std::vector<double>(std::size_t(u.size()), 0.0)),
            std::numeric_limits<double>::infinity()); // still NaN: nothing ran
}

// Asking t.scratch() for more than the loop declared is the kernel's bug:
// it aborts with a message rather than writing past the element's scratch.
struct ScratchOverflow {
  template <class Team> KOKKOS_INLINE_FUNCTION void operator()(const Team &t) const {
    double *s = t.template scratch<double>(3); // 32 bytes, 16 declared
    s[0] = 1;
  }
};
TEST_F(ErrorsFixture, ScratchBeyondTheDeclaredAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto plan = make_element_plan(Space(), exec::ElementSerial{}, m.cells);
  EXPECT_DEATH(element_loop(plan, "l", ElementTeams{}.with_scratch<double>(2), ScratchOverflow{}),
               "asked t.scratch\\(\\) for more than the loop's");
}

} // namespace
} // namespace umesh::test
