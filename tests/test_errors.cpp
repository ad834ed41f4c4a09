// Bad input: each case throws umesh::Error naming the object and the value.
#include "test_main.hpp"

#include <string>
#include <vector>

namespace {
using namespace umesh;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

// Runs f, expects umesh::Error whose message contains every fragment.
template <class F> void expect_error(F &&f, std::initializer_list<const char *> fragments) {
  try {
    f();
    ADD_FAILURE() << "no umesh::Error thrown";
  } catch (const Error &e) {
    const std::string msg = e.what();
    for (const char *frag : fragments)
      EXPECT_NE(msg.find(frag), std::string::npos) << "message: " << msg << "\nmissing: " << frag;
  }
}

struct Inc1 {
  template <class A> KOKKOS_INLINE_FUNCTION void operator()(A a) const { a(0) += 1; }
};
struct ReadInc {
  template <class A, class B> KOKKOS_INLINE_FUNCTION void operator()(A a, B b) const {
    b(0) += a(0);
  }
};

// A loop's profiling region is closed however the loop ends: a loop that
// threw once left its region open, and the tools nested every later one
// under it. Seen through the Kokkos Tools region callbacks.
int region_depth = 0;
std::vector<std::string> regions_opened;
void on_push(const char *name) {
  ++region_depth;
  regions_opened.emplace_back(name);
}
void on_pop() {
  --region_depth;
}
TEST(Errors, LoopRegionClosedByAnException) {
  namespace T = Kokkos::Tools::Experimental;
  Set e("edges", 3), n("nodes", 4);
  Map<Mem> pedge("pedge", e, n, 2, std::vector<int>{0, 1, 1, 2, 2, 3});
  Map<Mem> other("other", e, n, 2, std::vector<int>{0, 1, 1, 2, 2, 3});
  Dat<double, 1, AoS, Mem> x(n, "x");
  auto plan = make_plan(Space(), exec::GlobalColour{}, e, other);
  T::set_push_region_callback(&on_push);
  T::set_pop_region_callback(&on_pop);
  region_depth = 0;
  regions_opened.clear();
  // The plan lacks the map: an Error from inside the loop's region.
  expect_error([&] { par_loop(plan, "stray", Inc1{}, inc(x, pedge, 0)); },
               {"loop 'stray'", "pass that map to make_plan"});
  EXPECT_EQ(region_depth, 0);
  ASSERT_FALSE(regions_opened.empty()); // the region was opened, then closed
  EXPECT_EQ(regions_opened.front(), "umesh::par_loop::stray");
  T::set_push_region_callback(nullptr);
  T::set_pop_region_callback(nullptr);
}

TEST(Errors, MapEntryOutsideToSet) {
  Set e("edges", 3), n("nodes", 4);
  expect_error(
      [&] {
        Map<Mem>("pedge", e, n, 2, std::vector<int>{0, 1, 1, 2, 3, 4});
      },
      {"pedge", "element 2", "slot 1", "points at 4", "nodes", "size 4"});
  expect_error(
      [&] {
        Map<Mem>("pedge", e, n, 2, std::vector<int>{0, -1, 1, 2, 3, 0});
      },
      {"pedge", "-1"});
}

TEST(Errors, MapArityAndSizeMismatch) {
  Set e("edges", 3), n("nodes", 4);
  expect_error(
      [&] {
        Map<Mem>("pedge", e, n, 2, std::vector<int>{0, 1, 2});
      },
      {"pedge", "needs 6", "got 3"});
  expect_error([&] { Map<Mem>("pedge", e, n, 0, std::vector<int>{}); }, {"pedge", "arity 0"});
  Map<Mem>::view_type v("v", 3, 3);
  expect_error([&] { Map<Mem>("pedge", e, n, 2, v); }, {"pedge", "arity 2", "3 columns"});
  Map<Mem>::view_type w("w", 5, 2);
  expect_error([&] { Map<Mem>("pedge", e, n, 2, w); }, {"pedge", "5 rows", "edges", "size 3"});
}

TEST(Errors, SetAndDatSizes) {
  expect_error([] { Set("cells", -1); }, {"cells", "-1"});
  Set c("cells", 4);
  Dat<double, 2, AoS, Mem>::view_type v("v", 5);
  expect_error([&] { Dat<double, 2, AoS, Mem>(c, "q", v); }, {"q", "5 rows", "cells", "size 4"});
}

TEST(Errors, CopyFromHostSizeAndValues) {
  Set c("cells", 3);
  Dat<double, 2, SoA, Mem> q(c, "q");
  expect_error(
      [&] {
        copy_from_host(q, std::vector<double>{1, 2, 3});
      },
      {"'q'", "needs 6", "3 points x 2", "got 3"});
  copy_from_host(q, std::vector<double>{1, 2, 3, 4, 5, 6});
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q.view());
  EXPECT_EQ(h(1, 0), 3.0); // [point][component] whatever the layout
  EXPECT_EQ(h(2, 1), 6.0);
}

TEST(Errors, DatOnWrongSetForItsMap) {
  Set e("edges", 3), n("nodes", 4), c("cells", 4);
  Map<Mem> pedge("pedge", e, n, 2, std::vector<int>{0, 1, 1, 2, 2, 3});
  Dat<double, 1, AoS, Mem> q(c, "q"), x(n, "x");
  expect_error(
      [&] {
        par_loop(Space(), exec::Atomic{}, e, "loop", ReadInc{}, read(q, pedge, 0),
                 inc(x, pedge, 1));
      },
      {"loop 'loop'", "argument 1", "dat 'q'", "cells", "pedge", "nodes"});
  // An increment through a map whose to-set is not the dat's set.
  expect_error(
      [&] {
        par_loop(Space(), exec::Atomic{}, e, "loop", ReadInc{}, read(x, pedge, 0),
                 inc(q, pedge, 1));
      },
      {"argument 2", "inc", "dat 'q'", "cells", "pedge", "nodes"});
}

TEST(Errors, DirectDatOnOtherSetAndMapFromOtherSet) {
  Set e("edges", 3), n("nodes", 4), f("faces", 3);
  Map<Mem> pedge("pedge", e, n, 2, std::vector<int>{0, 1, 1, 2, 2, 3});
  Dat<double, 1, AoS, Mem> x(n, "x"), w(f, "w");
  expect_error([&] { par_loop(Space(), exec::Serial{}, e, "loop", Inc1{}, inc(w)); },
               {"dat 'w'", "faces", "edges"});
  expect_error([&] { par_loop(Space(), exec::Serial{}, f, "loop", Inc1{}, inc(x, pedge, 0)); },
               {"map 'pedge'", "edges", "faces"});
}

TEST(Errors, SlotOutOfRange) {
  Set e("edges", 3), n("nodes", 4);
  Map<Mem> pedge("pedge", e, n, 2, std::vector<int>{0, 1, 1, 2, 2, 3});
  Dat<double, 1, AoS, Mem> x(n, "x");
  expect_error([&] { par_loop(Space(), exec::Atomic{}, e, "loop", Inc1{}, inc(x, pedge, 2)); },
               {"slot 2", "pedge", "arity is 2"});
}

TEST(Errors, PlanWithoutTheIncrementedMap) {
  Set e("edges", 3), n("nodes", 4);
  Map<Mem> pedge("pedge", e, n, 2, std::vector<int>{0, 1, 1, 2, 2, 3});
  Map<Mem> other("other", e, n, 2, std::vector<int>{0, 1, 1, 2, 2, 3});
  Dat<double, 1, AoS, Mem> x(n, "x");
  auto colour = make_plan(Space(), exec::GlobalColour{}, e, other);
  expect_error([&] { par_loop(colour, "loop", Inc1{}, inc(x, pedge, 0)); },
               {"loop 'loop'", "pedge", "'other'", "make_plan"});
  auto gather = make_plan(Space(), exec::Gather{}, e);
  expect_error([&] { par_loop(gather, "loop", Inc1{}, inc(x, pedge, 0)); }, {"pedge", "no maps"});
  Set f("faces", 2);
  Map<Mem> fmap("fmap", f, n, 1, std::vector<int>{0, 1});
  expect_error([&] { make_plan(Space(), exec::Gather{}, e, fmap); }, {"fmap", "faces", "edges"});
}

TEST(Errors, PlanForAnotherSet) {
  Set e("edges", 3), f("faces", 3), n("nodes", 4);
  Dat<double, 1, AoS, Mem> w(f, "w");
  auto plan = make_plan(Space(), exec::Atomic{}, e);
  expect_error([&] { par_loop(plan, "loop", Inc1{}, inc(w)); }, {"'w'", "faces", "edges"});
}

struct IncAndMin {
  template <class A, class B> KOKKOS_INLINE_FUNCTION void operator()(A a, B b) const {
    a(0) += 1;
    b(0).update(2);
  }
};

TEST(Errors, OneDatCombinedUnderTwoAccessesInOneLoop) {
  Set e("edges", 3), n("nodes", 4);
  Map<Mem> pedge("pedge", e, n, 2, std::vector<int>{0, 1, 1, 2, 2, 3});
  Dat<double, 1, AoS, Mem> d(n, "dnode");
  auto plan = make_plan(Space(), exec::Atomic{}, e, pedge);
  expect_error([&] { par_loop(plan, "mixed", IncAndMin{}, inc(d, pedge, 0), min(d, pedge, 1)); },
               {"loop 'mixed'", "argument 2", "dnode", "min", "inc", "argument 1"});
}

// A dat of the original numbering in a loop of the renumbered one (and the
// reverse): the two sets share a name, so the message says which is which
// and what to do, not "set 'cells' ... set 'cells'".
TEST(Errors, DatsOfTheOtherNumberingSayWhatToDo) {
  const QuadMesh m = make_quad_mesh(6, 5, {true, 2});
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  Dat<double, 1, AoS, Mem> q(m.cells, "q"), w(m.edges, "w");
  const Renumbering r = reorder(ReorderOptions{}.with_method(Reorder::rcm), m.edges, pecell);
  const auto pc = r.apply(pecell);
  auto plan = make_plan(Space(), exec::Atomic{}, pc.from(), pc);
  EXPECT_TRUE(pc.from().renumbers(m.edges));
  EXPECT_FALSE(m.edges.renumbers(pc.from()));
  expect_error([&] { par_loop(plan, "flux", ReadInc{}, read(q, pc, 0), inc(w)); },
               {"loop 'flux' argument 1 (read through map 'pecell'): dat 'q' belongs to set "
                "'cells' before renumbering, but map 'pecell' maps to set 'cells' as renumbered: "
                "pass r.apply(q), its copy in the new numbering, or make it on r.set(cells)"});
  const auto q2 = r.apply(q);
  expect_error([&] { par_loop(plan, "flux", ReadInc{}, read(q2, pc, 0), inc(w)); },
               {"loop 'flux' argument 2 (inc): dat 'w' belongs to set 'edges' before "
                "renumbering, but the loop runs over set 'edges' as renumbered: pass r.apply(w)"});
  // The map left in the original numbering.
  const auto w2 = r.apply(w);
  expect_error(
      [&] { par_loop(plan, "flux", ReadInc{}, read(q2, pecell, 0), inc(w2)); },
      {"argument 1 (read through map 'pecell'): map 'pecell' (its from-set) belongs to set "
       "'edges' before renumbering",
       "pass r.apply(pecell)"});
  // The reverse: renumbered data in a loop of the original numbering.
  expect_error(
      [&] {
        par_loop(Space(), exec::Atomic{}, m.edges, "old", ReadInc{}, read(q, pecell, 0), inc(w2));
      },
      {"argument 2 (inc): dat 'w' belongs to set 'edges' as renumbered, but the loop runs over "
       "set 'edges' before renumbering",
       "r.to_original"});
  // Two unrelated sets of one name.
  const Set other("edges", m.edges.size());
  Dat<double, 1, AoS, Mem> v(other, "v");
  expect_error(
      [&] {
        par_loop(Space(), exec::Atomic{}, m.edges, "old", ReadInc{}, read(q, pecell, 0), inc(v));
      },
      {"dat 'v' is on a set named 'edges', but the loop runs over another set of that name"});
}

} // namespace
