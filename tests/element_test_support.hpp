#ifndef UMESH_ELEMENT_TEST_SUPPORT_HPP
#define UMESH_ELEMENT_TEST_SUPPORT_HPP

// What the element-loop tests share: meshes with rows of any arity, the
// strategies under test, the team shapes, host copies of dats.

#include "test_support.hpp"

#include <algorithm>
#include <initializer_list>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace umesh::test {

/// `n` rows of `arity` distinct points of [0, points) (random), or with one
/// point repeated in every `repeat_every`-th row (0: never).
inline std::vector<int> distinct_rows(int n, int points, int arity, unsigned seed,
                                      int repeat_every = 0) {
  std::mt19937 rng(seed);
  std::vector<int> pool(static_cast<std::size_t>(points)), rows;
  std::iota(pool.begin(), pool.end(), 0);
  for (int e = 0; e < n; ++e) {
    for (int s = 0; s < arity; ++s) { // a partial shuffle: the first `arity` distinct
      std::uniform_int_distribution<int> pick(s, points - 1);
      std::swap(pool[s], pool[pick(rng)]);
      rows.push_back(pool[s]);
    }
    if (repeat_every > 0 && e % repeat_every == 0 && arity > 1)
      rows[rows.size() - 1] = rows[rows.size() - arity];
  }
  return rows;
}

/// A strategy under test: its plan and a name for messages.
struct StrategyCase {
  enum Kind { serial, atomic, colour_one, colour_each, gather } kind;
  const char *name;
};
inline std::vector<StrategyCase> strategies() {
  return {{StrategyCase::serial, "serial"},
          {StrategyCase::atomic, "atomic"},
          {StrategyCase::colour_one, "colour (one launch)"},
          {StrategyCase::colour_each, "colour (per colour)"},
          {StrategyCase::gather, "gather"}};
}

/// f(plan) with the plan of strategy `c` over `set`, folding through `maps`.
template <class Space, class F, class... Maps>
void with_plan(const StrategyCase &c, const Set &set, F &&f, const Maps &...maps) {
  switch (c.kind) {
  case StrategyCase::serial: {
    auto plan = make_element_plan(Space(), exec::ElementSerial{}, set, maps...);
    f(plan);
    break;
  }
  case StrategyCase::atomic: {
    auto plan = make_element_plan(Space(), exec::ElementAtomic{}, set, maps...);
    f(plan);
    break;
  }
  case StrategyCase::gather: {
    auto plan = make_element_plan(Space(), exec::ElementGather{}, set, maps...);
    f(plan);
    break;
  }
  default: {
    exec::ElementColour tag;
    tag.with_per_colour_launches(c.kind == StrategyCase::colour_each);
    auto plan = make_element_plan(Space(), tag, set, maps...);
    f(plan);
  }
  }
}

/// The team shapes every strategy is checked under: elements per team x lanes.
inline std::vector<ElementTeams> team_shapes() {
  std::vector<ElementTeams> out;
  for (int e : {1, 3, 8})
    for (int l : {1, 4, 32})
      out.push_back(ElementTeams{}.with_elements_per_team(e).with_lanes(l));
  return out;
}

inline std::string describe(const StrategyCase &c, const ElementTeams &t) {
  return std::string(c.name) + ", " + std::to_string(t.elements_per_team) + " elements x " +
         std::to_string(t.lanes) + " lanes";
}

/// A dat's values on the host, [point][component].
template <class DatT> std::vector<double> host_values(const DatT &d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.view());
  std::vector<double> out;
  for (int i = 0; i < d.size(); ++i)
    for (int k = 0; k < DatT::dim; ++k)
      out.push_back(double(h(i, k)));
  return out;
}

/// Whether `message` holds every one of `words`: the facts an error must
/// name (the loop, the argument, the objects, the values), whatever the
/// wording around them.
inline ::testing::AssertionResult has_words(const std::string &message,
                                            std::initializer_list<const char *> words) {
  for (const char *w : words)
    if (message.find(w) == std::string::npos)
      return ::testing::AssertionFailure() << "'" << message << "' does not name " << w;
  return ::testing::AssertionSuccess();
}

/// Largest |a - b| / max(1, |b|); infinity where a is NaN (unwritten).
inline double rel_err(const std::vector<double> &a, const std::vector<double> &b) {
  EXPECT_EQ(a.size(), b.size());
  double err = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i]))
      return std::numeric_limits<double>::infinity();
    err = std::max(err, std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i])));
  }
  return err;
}

} // namespace umesh::test

#endif
