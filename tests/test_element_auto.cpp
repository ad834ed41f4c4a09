// Element loops under exec::ElementAutoOf (umesh/element_auto.hpp): the
// tuned loop's results against a serial reference computed here (the first
// call's included: trials must leave no trace), each strategy forced through
// the candidate names, the tuning file read by a second plan without
// tuning, and the errors of bad options and bad loops.

#include "element_test_support.hpp"
#include "test_main.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace umesh::test {
namespace {

constexpr int NQ = 5;

// Interpolation to quadrature points (a direct output), then its transpose
// folded into the row.
struct InterpFold {
  template <class Team, class Phi, class U, class Uq, class R>
  KOKKOS_INLINE_FUNCTION void operator()(const Team &t, Phi phi, U u, Uq uq, R r) const {
    double *s = t.template scratch<double>(NQ);
    const int n = u.size();
    t.lanes(NQ, [&](int q) {
      double v = 0;
      for (int i = 0; i < n; ++i)
        v += phi(q, i) * u(i, 0);
      s[q] = v;
      uq(q) = v;
    });
    t.lanes(n, [&](int i) {
      double v = 0;
      for (int q = 0; q < NQ; ++q)
        v += phi(q, i) * s[q];
      r(i, 0) += v;
    });
  }
};

// A mesh, its data and the host reference of one InterpFold loop.
template <class Space, class L> struct Case {
  using Mem = typename Space::memory_space;
  static constexpr int arity = 7;
  Set cells{"cells", 600}, nodes{"nodes", 500};
  std::vector<int> rows = distinct_rows(600, 500, arity, 71);
  Map<Mem> map{"cell_nodes", cells, nodes, arity, rows};
  Dat<double, 1, L, Mem> u{nodes, "u"}, r{nodes, "r"};
  Dat<double, NQ, L, Mem> uq{cells, "uq"};
  Kokkos::View<double **, Mem> phi{"phi", NQ, arity};
  std::vector<double> r0, ref_r, ref_uq;

  Case() {
    randomise(u, 72);
    randomise(r, 73);
    r0 = host_values(r);
    auto h = Kokkos::create_mirror_view(phi);
    for (int q = 0; q < NQ; ++q)
      for (int i = 0; i < arity; ++i)
        h(q, i) = 0.1 * (q + 1) - 0.05 * i * i;
    Kokkos::deep_copy(phi, h);
    const std::vector<double> hu = host_values(u);
    ref_r = r0;
    ref_uq.assign(std::size_t(cells.size()) * NQ, 0);
    for (int e = 0; e < cells.size(); ++e) {
      double s[NQ];
      for (int q = 0; q < NQ; ++q) {
        s[q] = 0;
        for (int i = 0; i < arity; ++i)
          s[q] += h(q, i) * hu[rows[e * arity + i]];
        ref_uq[std::size_t(e) * NQ + q] = s[q];
      }
      for (int i = 0; i < arity; ++i)
        for (int q = 0; q < NQ; ++q)
          ref_r[rows[e * arity + i]] += h(q, i) * s[q];
    }
  }
  // One loop from r0, uq poisoned; then both outputs against the reference.
  template <class Plan> void run_and_check(Plan &plan, const std::string &what) {
    copy_from_host(r, r0);
    poison(uq);
    element_loop(plan, "interp_fold", ElementTeams{}.with_scratch<double>(NQ), InterpFold{},
                 table(phi), read_row<arity>(u, map), write(uq), inc_row<arity>(r, map));
    EXPECT_LT(rel_err(host_values(r), ref_r), 1e-12) << what;
    EXPECT_LT(rel_err(host_values(uq), ref_uq), 1e-12) << what;
  }
};

// Few shapes and short timing: a test, not a benchmark.
inline exec::ElementAutoAll quick() {
  return exec::ElementAutoAll{}
      .with_elements_per_team({1, 3, 8})
      .with_lanes({1, 4, 32})
      .with_trials(1)
      .with_final_rounds(2);
}

template <class T> class ElementAutoTest : public ::testing::Test {};
TYPED_TEST_SUITE(ElementAutoTest, SpaceLayouts);

// The first call tunes (trials restored) and gives one execution's result;
// later calls run the winner.
TYPED_TEST(ElementAutoTest, MatchesTheSerialReference) {
  using Space = typename TypeParam::space;
  Case<Space, typename TypeParam::layout> c;
  auto plan = make_element_plan(Space(), quick(), c.cells, c.map);
  c.run_and_check(plan, "first call (tuning)");
  EXPECT_FALSE(plan.from_tuning_file("interp_fold"));
  EXPECT_GT(plan.tuning_seconds("interp_fold"), 0);
  c.run_and_check(plan, "second call (" + plan.choice("interp_fold") + ")");
  const ElementTeams t = plan.chosen_teams("interp_fold");
  const std::string s = plan.chosen_strategy("interp_fold");
  EXPECT_EQ(plan.choice("interp_fold"),
            s + "/e" + std::to_string(t.elements_per_team) + "/l" + std::to_string(t.lanes));
  EXPECT_NE(plan.summary().find("interp_fold"), std::string::npos) << plan.summary();
}

// Each strategy through Auto (the candidates of one strategy only).
TYPED_TEST(ElementAutoTest, EveryStrategyThroughTheCandidateNames) {
  using Space = typename TypeParam::space;
  Case<Space, typename TypeParam::layout> c;
  const auto all = make_element_plan(Space(), quick(), c.cells, c.map);
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  // 3 elements per team x (host: 1 lane; else 3) x 4 strategy forms.
  EXPECT_EQ(all.candidates().size(), std::size_t(host ? 12 : 36));
  for (const std::string form : {"atomic/", "colour/", "colour-per/", "gather/"}) {
    std::vector<std::string> names;
    for (const auto &cand : all.candidates())
      if (cand.name.rfind(form, 0) == 0)
        names.push_back(cand.name);
    ASSERT_EQ(names.size(), all.candidates().size() / 4) << form;
    auto plan = make_element_plan(Space(), quick().with_candidates(names), c.cells, c.map);
    c.run_and_check(plan, form);
    EXPECT_EQ(plan.choice("interp_fold").rfind(form, 0), 0u) << plan.choice("interp_fold");
    c.run_and_check(plan, form + plan.choice("interp_fold"));
  }
}

std::vector<std::string> lines_of(const std::string &path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

// A second plan reads the first one's decision from the tuning file and
// does not tune; a decision written by hand is obeyed.
TEST(ElementAutoTuningFile, ASecondPlanReadsTheDecision) {
  using S = Kokkos::DefaultHostExecutionSpace;
  const std::string path = "test_element_auto_tuning.txt";
  std::remove(path.c_str());
  Case<S, AoS> c;
  const auto opts = quick().with_tuning_file(path);
  std::string chosen;
  {
    auto first = make_element_plan(S(), opts, c.cells, c.map);
    c.run_and_check(first, "first plan");
    EXPECT_FALSE(first.from_tuning_file("interp_fold"));
    chosen = first.choice("interp_fold");
  }
  const std::vector<std::string> lines = lines_of(path);
  ASSERT_EQ(lines.size(), 2u);
  const std::string key = lines[1].substr(0, lines[1].find('\t'));
  EXPECT_NE(key.find("|interp_fold|"), std::string::npos) << key;
  EXPECT_NE(key.find("element:"), std::string::npos) << key;
  EXPECT_EQ(lines[1].substr(lines[1].find('\t') + 1), chosen);
  {
    auto second = make_element_plan(S(), opts, c.cells, c.map);
    c.run_and_check(second, "second plan");
    EXPECT_TRUE(second.from_tuning_file("interp_fold"));
    EXPECT_EQ(second.tuning_seconds("interp_fold"), 0);
    EXPECT_EQ(second.choice("interp_fold"), chosen);
  }
  // Whatever the file says (a candidate of the plan) is what runs.
  const std::string other = chosen == "gather/e3/l1" ? "atomic/e8/l1" : "gather/e3/l1";
  std::ofstream(path) << "umesh-tuning 1\n" << key << '\t' << other << '\n';
  {
    auto third = make_element_plan(S(), opts, c.cells, c.map);
    c.run_and_check(third, "decision by hand");
    EXPECT_TRUE(third.from_tuning_file("interp_fold"));
    EXPECT_EQ(third.choice("interp_fold"), other);
    EXPECT_EQ(third.chosen_strategy("interp_fold"),
              "gather" == other.substr(0, 6) ? "gather" : "atomic");
    EXPECT_EQ(third.chosen_teams("interp_fold").elements_per_team, other[0] == 'g' ? 3 : 8);
  }
  // One that is no candidate of the plan is an Error naming the file.
  std::ofstream(path) << "umesh-tuning 1\n" << key << "\tatomic/e5/l1\n";
  auto fourth = make_element_plan(S(), opts, c.cells, c.map);
  try {
    c.run_and_check(fourth, "not a candidate");
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("not a candidate"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

template <class F> std::string error_of(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "(no error)";
}

#define EXPECT_ERROR(expr, words)                                                                  \
  do {                                                                                             \
    const std::string msg_ = error_of([&] { expr; });                                              \
    EXPECT_NE(msg_.find(words), std::string::npos) << msg_ << "\nmissing: " << words;              \
  } while (0)

TEST(ElementAutoErrors, BadOptions) {
  using S = Kokkos::DefaultHostExecutionSpace;
  Case<S, AoS> c;
  auto make = [&](const exec::ElementAutoAll &o) { make_element_plan(S(), o, c.cells, c.map); };
  EXPECT_ERROR(make(quick().with_elements_per_team({4, 0})), "elements per team 0");
  EXPECT_ERROR(make(quick().with_elements_per_team({2000})), "elements per team 2000");
  EXPECT_ERROR(make(quick().with_elements_per_team({})), "no elements per team");
  EXPECT_ERROR(make(quick().with_lanes({8, 3})), "lanes 3 is not a power of two");
  EXPECT_ERROR(make(quick().with_lanes({64})), "lanes 64");
  EXPECT_ERROR(make(quick().with_work(0)), "work 0");
  EXPECT_ERROR(make(quick().with_trials(0)), "trials must be at least 1");
  EXPECT_ERROR(make(quick().with_candidates({"atomic/e2/l1"})),
               "candidate 'atomic/e2/l1' is not one of this plan's");
}

// Loops that cannot run fail before any launch: their outputs keep their
// values.
TEST(ElementAutoErrors, BadLoopsLaunchNothing) {
  using S = Kokkos::DefaultHostExecutionSpace;
  using Mem = S::memory_space;
  Case<S, AoS> c;
  const std::vector<double> before = host_values(c.r);
  // A fold through a map the plan was not given.
  Map<Mem> other("other_nodes", c.cells, c.nodes, Case<S, AoS>::arity, c.rows);
  auto plan = make_element_plan(S(), quick(), c.cells, c.map);
  EXPECT_ERROR(element_loop(plan, "wrong_map", ElementTeams{}.with_scratch<double>(NQ),
                            InterpFold{}, table(c.phi), read_row(c.u, other), write(c.uq),
                            inc_row(c.r, other)),
               "increments through map 'other_nodes'");
  // Element scratch beyond what any team gets: no candidate runs.
  EXPECT_ERROR(element_loop(plan, "too_much_scratch", ElementTeams{}.with_scratch_bytes(8 << 20),
                            InterpFold{}, table(c.phi), read_row(c.u, c.map), write(c.uq),
                            inc_row(c.r, c.map)),
               "no candidate ran");
  // Element scratch out of range, and a row of the wrong set.
  EXPECT_ERROR(element_loop(plan, "negative_scratch", ElementTeams{}.with_scratch_bytes(-16),
                            InterpFold{}, table(c.phi), read_row(c.u, c.map), write(c.uq),
                            inc_row(c.r, c.map)),
               "element_scratch -16");
  Dat<double, 1, AoS, Mem> on_cells(c.cells, "on_cells");
  EXPECT_ERROR(element_loop(plan, "wrong_set", ElementTeams{}.with_scratch<double>(NQ),
                            InterpFold{}, table(c.phi), read_row(c.u, c.map), write(c.uq),
                            inc_row(on_cells, c.map)),
               "on_cells");
  EXPECT_EQ(host_values(c.r), before);
}

} // namespace
} // namespace umesh::test
