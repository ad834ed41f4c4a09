// Column loops over extruded sets (umesh/extruded.hpp): an LFRic-style
// local-matrix matvec with (layer, dof) collapsed onto lanes, under every
// strategy, layout and team shape, against a host reference; and the
// extruded map's checks (part of test_element_teams).

#include "element_test_support.hpp"

#include <string>
#include <vector>

namespace umesh::test {
namespace {

// y(l, i) += sum_j A_l(i, j) x(l, j) for every layer l of the column.
struct MatVec {
  template <class Team, class A, class X, class Y>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, A a, X x, Y y) const {
    const int n = x.size();
    t.lanes(x.layers() * n, [&](int li) {
      const int l = li / n, i = li % n;
      double v = 0;
      for (int j = 0; j < n; ++j)
        v += a(l, 0, i * n + j) * x(l, j, 0);
      y(l, i, 0) += v;
    });
  }
};

template <class T> class ElementColumnsTest : public ::testing::Test {};
TYPED_TEST_SUITE(ElementColumnsTest, SpaceLayouts);

// The matvec through `bottom` (N slots per column, offsets `offsets`) into
// a dof set of `dofs` points.
template <class Space, class L, int N>
void check_matvec(const ExtrudedSet &cells, int dofs, const std::vector<int> &bottom,
                  const std::vector<int> &offsets, bool repeats) {
  using Mem = typename Space::memory_space;
  const Set dof_set("dofs", dofs);
  ExtrudedMap<Mem> cell_dofs("cell_dofs", cells, dof_set, N, bottom, offsets);
  const ExtrudedMap<Mem> own = column_map<Mem>(cells);
  Dat<double, N * N, L, Mem> a(cells.set(), "A");
  Dat<double, 1, L, Mem> x(dof_set, "x"), y(dof_set, "y");
  randomise(a, 31);
  randomise(x, 32);
  randomise(y, 33);
  const std::vector<double> ha = host_values(a), hx = host_values(x), y0 = host_values(y);
  std::vector<double> ref = y0;
  const int layers = cells.layers();
  for (int b = 0; b < cells.base().size(); ++b)
    for (int l = 0; l < layers; ++l)
      for (int i = 0; i < N; ++i) {
        double v = 0;
        for (int j = 0; j < N; ++j)
          v += ha[std::size_t(b * layers + l) * N * N + i * N + j] *
               hx[bottom[b * N + j] + l * offsets[j]];
        ref[bottom[b * N + i] + l * offsets[i]] += v;
      }
  for (const StrategyCase &c : strategies())
    with_plan<Space>(
        c, cells.base(),
        [&](auto &plan) {
          if constexpr (std::is_same<std::decay_t<decltype(plan)>,
                                     ElementPlan<exec::ElementColour, Space>>::value) {
            EXPECT_EQ(plan.has_repeated_rows(), repeats);
          }
          if constexpr (std::is_same<std::decay_t<decltype(plan)>,
                                     ElementPlan<exec::ElementGather, Space>>::value) {
            EXPECT_EQ(error_message([&] {
                        element_loop(plan, "matvec", MatVec{}, read_row(a, own),
                                     read_row(x, cell_dofs), inc_row<N>(y, cell_dofs));
                      }),
                      "umesh: loop 'matvec': inc_row of dat 'y' through extruded map "
                      "'cell_dofs': exec::ElementGather does not fold columns yet; use "
                      "ElementColour or ElementAtomic");
            return;
          }
          for (const ElementTeams &teams : team_shapes()) {
            copy_from_host(y, y0);
            element_loop(plan, "matvec", teams, MatVec{}, read_row(a, own), read_row(x, cell_dofs),
                         inc_row<N>(y, cell_dofs));
            EXPECT_LT(rel_err(host_values(y), ref), 1e-12) << describe(c, teams);
          }
        },
        cell_dofs);
  // Tuned: gather cannot fold columns (its candidates are not run), the
  // others are timed; the first call's result is one execution's.
  auto tuned = make_element_plan(Space(),
                                 exec::ElementAutoAll{}
                                     .with_elements_per_team({1, 4})
                                     .with_lanes({4, 32})
                                     .with_trials(1)
                                     .with_final_rounds(1),
                                 cells.base(), cell_dofs);
  copy_from_host(y, y0);
  element_loop(tuned, "matvec", ElementTeams{}, MatVec{}, read_row(a, own), read_row(x, cell_dofs),
               inc_row<N>(y, cell_dofs));
  EXPECT_LT(rel_err(host_values(y), ref), 1e-12) << tuned.choice("matvec");
  EXPECT_NE(tuned.choice("matvec").rfind("gather", 0), 0u) << tuned.choice("matvec");
  EXPECT_NE(tuned.summary().find("gather/e1/l"), std::string::npos) << tuned.summary();
  EXPECT_NE(tuned.summary().find("(not run)"), std::string::npos) << tuned.summary();
}

// Hexahedral columns over quads: 8 dofs a cell (its 4 nodes at the bottom
// and the top), shared by the layers above and below and by neighbouring
// columns: colouring folds the columns atomically.
TYPED_TEST(ElementColumnsTest, ContinuousHexColumns) {
  using Space = typename TypeParam::space;
  using L = typename TypeParam::layout;
  const QuadMesh m = make_quad_mesh(7, 6, {true, 3});
  const int layers = 5;
  const ExtrudedSet cells("cells", m.cells, layers);
  std::vector<int> bottom;
  for (int c = 0; c < m.cells.size(); ++c)
    for (int i = 0; i < 8; ++i)
      bottom.push_back(m.cell_nodes[c * 4 + i % 4] * (layers + 1) + i / 4);
  check_matvec<Space, L, 8>(cells, m.nodes.size() * (layers + 1), bottom, std::vector<int>(8, 1),
                            true);
}

// One dof per node and layer: columns share points with their neighbours
// but not between their own layers, so colouring folds plainly.
TYPED_TEST(ElementColumnsTest, NodeColumnsWithoutVerticalSharing) {
  using Space = typename TypeParam::space;
  using L = typename TypeParam::layout;
  const QuadMesh m = make_quad_mesh(6, 5);
  const int layers = 4;
  const ExtrudedSet cells("cells", m.cells, layers);
  std::vector<int> bottom;
  for (int c = 0; c < m.cells.size(); ++c)
    for (int i = 0; i < 4; ++i)
      bottom.push_back(m.cell_nodes[c * 4 + i] * layers);
  check_matvec<Space, L, 4>(cells, m.nodes.size() * layers, bottom, std::vector<int>(4, 1), false);
}

using Space = Kokkos::DefaultHostExecutionSpace;
using Mem = Space::memory_space;

struct Touch {
  template <class Team, class X> KOKKOS_INLINE_FUNCTION void operator()(const Team &, X) const {}
};

TEST(ExtrudedErrors, LayersAndSizes) {
  const Set base("base", 10);
  EXPECT_EQ(error_message([&] { ExtrudedSet("cells", base, 0); }),
            "umesh: extruded set 'cells' over 'base' has 0 layers (must be >= 1)");
  EXPECT_EQ(error_message([&] { ExtrudedSet("cells", Set("big", 1 << 20), 1 << 12); }),
            "umesh: extruded set 'cells': 1048576 base elements x 4096 layers = 4294967296 "
            "elements, more than 2147483647");
}

TEST(ExtrudedErrors, MapsOutOfRangeOrInconsistent) {
  const Set base("base", 2), dofs("dofs", 8);
  const ExtrudedSet cells("cells", base, 3);
  EXPECT_EQ(error_message([&] {
              ExtrudedMap<Mem>("m", cells, dofs, 2, {0, 4, 1, 5}, {1, 2});
            }),
            "umesh: extruded map 'm': column 0 slot 1 points at 4 with offset 2, so layer 2 at 8, "
            "outside to-set 'dofs' of size 8");
  const Set many("many", 20);
  EXPECT_EQ(error_message([&] {
              ExtrudedMap<Mem>("m", cells, many, 2, {0, 4, 4, 1}, {1, 1});
            }),
            "no error"); // point 4 named twice, with one offset
  EXPECT_EQ(error_message([&] {
              ExtrudedMap<Mem>("m", cells, many, 2, {0, 4, 4, 1}, {1, 2});
            }),
            "umesh: extruded map 'm': point 4 has offset 2 in one row and 1 in column 1 slot 0; a "
            "point's column has one offset");
  EXPECT_EQ(error_message([&] {
              ExtrudedMap<Mem>("m", cells, dofs, 2, {0, 1, 2, 3}, {1});
            }),
            "umesh: extruded map 'm' has arity 2 but 1 offsets");
}

// A column loop through an extruded map of other columns is refused.
TEST(ExtrudedErrors, RowThroughAnotherBaseSet) {
  const Set base("base", 2), other("other", 3), dofs("dofs", 8);
  const ExtrudedSet cells("cells", base, 2), others("others", other, 2);
  ExtrudedMap<Mem> m("m", others, dofs, 1, {0, 2, 4}, {1});
  Dat<double, 1, AoS, Mem> x(dofs, "x");
  auto plan = make_element_plan(Space(), exec::ElementAtomic{}, base);
  EXPECT_TRUE(has_words(
      error_message([&] { element_loop(plan, "l", Touch{}, read_row(x, m)); }),
      {"umesh: loop 'l' argument 0", "map 'm'", "set 'other'", "the loop runs over set 'base'"}));
}

} // namespace
} // namespace umesh::test
