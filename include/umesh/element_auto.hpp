#ifndef UMESH_ELEMENT_AUTO_HPP
#define UMESH_ELEMENT_AUTO_HPP

// Element loops under exec::ElementAutoOf<Strategies...> (its tag and
// options: element_exec.hpp): the team shape (elements per team, lanes per
// element) and the race strategy tuned per loop on its first call by
// exec::Auto's tuner, and kept in its tuning file. docs/element-kernels.md.
//
//   auto plan = umesh::make_element_plan(space, umesh::exec::ElementAuto{}.with_work(27)
//                                                   .with_tuning_file("tuning.txt"),
//                                        cells, cell_nodes);
//   umesh::element_loop(plan, "mass", umesh::ElementTeams{}.with_scratch<double>(54), Mass{},
//                       umesh::table(b), umesh::read(qdata), umesh::read_row<27>(u, cell_nodes),
//                       umesh::inc_row<27>(r, cell_nodes));
//   plan.choice("mass"); // "colour/e4/l32", say

#include <umesh/detail/auto_tuning.hpp>
#include <umesh/detail/element_auto_candidates.hpp>
#include <umesh/detail/element_auto_run.hpp>
#include <umesh/element_loop.hpp>

#include <Kokkos_Core.hpp>

#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace umesh {

/// The plan of element loops under exec::ElementAutoOf<S...>: the plans of
/// its strategies (built when a candidate first needs them) and the tuner.
template <class Space, class... S>
class ElementPlan<exec::ElementAutoOf<S...>, Space> : public detail::PlanBase<Space> {
  static_assert(sizeof...(S) > 0, "exec::ElementAutoOf: no strategies");
  static_assert(detail::distinct_element_strategies<S...>(),
                "exec::ElementAutoOf: a strategy is listed twice");

public:
  using exec_type = exec::ElementAutoOf<S...>;

  template <class... Maps>
  ElementPlan(const Space &space, exec_type options, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, set, maps...), options_(std::move(options)),
        candidates_(detail::element_auto_candidates(options_, {detail::element_strategy<S>()...},
                                                    detail::runs_on_host<Space>())),
        slots_(detail::ElementAutoSlot<S, Space>(space, set, maps...)...),
        tuner_(options_.tuning, {}, detail::as_auto_candidates(candidates_),
               detail::device_description<Space>() + "|" + Space::name(),
               [&] { return detail::element_fingerprint(this->set_.size(), maps...); }) {}

  const exec_type &options() const { return options_; }
  /// The candidates the tuner times (names "<strategy>/e<per team>/l<lanes>").
  const std::vector<detail::AutoCandidate> &candidates() const { return tuner_.candidates(); }

  /// Name of the candidate `loop` runs under (an Error before its first call).
  const std::string &choice(const std::string &loop) const {
    return candidates()[tuner_.decision(loop).winner].name;
  }
  /// The team shape `loop` runs in (its elements per team and lanes).
  ElementTeams chosen_teams(const std::string &loop) const {
    const detail::ElementCandidate &c = chosen(loop);
    return ElementTeams{}.with_elements_per_team(c.per_team).with_lanes(c.lanes);
  }
  /// The strategy `loop` runs under: atomic, colour, colour-per or gather.
  std::string chosen_strategy(const std::string &loop) const {
    const std::string &name = chosen(loop).name;
    return name.substr(0, name.find('/'));
  }
  /// Seconds `loop` spent tuning (0 when the decision came from the file).
  double tuning_seconds(const std::string &loop) const { return tuner_.decision(loop).seconds; }
  bool from_tuning_file(const std::string &loop) const { return tuner_.decision(loop).from_file; }
  /// Per loop: every candidate's median (or why it was not timed), the
  /// finalists', the winner, the tuning time (exec::Auto's report).
  std::string summary() const { return tuner_.summary(); }

  /// element_loop's body under this plan: `teams` gives the element scratch
  /// (its elements per team and lanes are the candidates').
  template <class Kernel, class... Args>
  void run(const std::string &name, const ElementTeams &teams, const Kernel &kernel,
           const Args &...args) {
    ElementTeams scratch_only;
    scratch_only.element_scratch = teams.element_scratch;
    detail::check_element_teams(name, scratch_only);
    detail::validate_element_args({name, this->set_}, args...);
    (check_fold_map(name, args), ...); // every strategy may need it: an Error, not "not run"
    std::unique_ptr<detail::LoopSnapshot> snapshot; // only when the loop tunes
    auto save = [&] {
      if (!snapshot)
        snapshot = detail::element_snapshot(args...);
      snapshot->restore();
    };
    const detail::AutoCandidate &c = tuner_.choose(
        name, signature<Kernel, Args...>(),
        [&](std::size_t i) { // a first run may build a plan: not timed
          save();
          run_candidate(candidates_[candidates()[i].slot], name, teams, kernel, args...);
        },
        [&](std::size_t i) {
          save();
          Kokkos::fence();
          Kokkos::Timer t;
          run_candidate(candidates_[candidates()[i].slot], name, teams, kernel, args...);
          Kokkos::fence();
          return t.seconds() * 1e3;
        },
        [&] {
          if (snapshot)
            snapshot->restore();
        });
    run_candidate(candidates_[c.slot], name, teams, kernel, args...);
  }

private:
  const detail::ElementCandidate &chosen(const std::string &loop) const {
    return candidates_[candidates()[tuner_.decision(loop).winner].slot];
  }

  template <class Arg> void check_fold_map(const std::string &, const Arg &) const {}
  template <Access A, class DatT, class MapT, int N>
  void check_fold_map(const std::string &loop, const RowArg<A, DatT, MapT, N> &a) const {
    if constexpr (is_combining(A))
      this->map_index(a.map, loop);
  }

  // The kernel's and arguments' types and the strategy list, hashed: a
  // decision holds for them only (and never for a par_loop of the same name).
  template <class Kernel, class... Args> static std::string signature() {
    return detail::element_signature({typeid(Kernel).name(), typeid(Args).name()...},
                                     {detail::element_strategy<S>()...});
  }

  template <class Kernel, class... Args>
  void run_candidate(const detail::ElementCandidate &c, const std::string &name,
                     const ElementTeams &teams, const Kernel &kernel, const Args &...args) {
    ElementTeams t = teams;
    t.elements_per_team = c.per_team;
    t.lanes = c.lanes;
    run_slot(std::index_sequence_for<S...>{}, c, name, t, kernel, args...);
  }
  template <std::size_t... I, class Kernel, class... Args>
  void run_slot(std::index_sequence<I...>, const detail::ElementCandidate &c,
                const std::string &name, const ElementTeams &t, const Kernel &kernel,
                const Args &...args) {
    ((c.strategy == int(I) ? element_loop(std::get<I>(slots_).plan(c), name, t, kernel, args...)
                           : void()),
     ...);
  }

  exec_type options_;
  std::vector<detail::ElementCandidate> candidates_; // all, in the tuner's slots
  std::tuple<detail::ElementAutoSlot<S, Space>...> slots_;
  detail::AutoTuner tuner_;
};

/// The tuner's plan takes its options.
template <class Space, class... S, class... Maps>
ElementPlan<exec::ElementAutoOf<S...>, Space>
make_element_plan(const Space &space, exec::ElementAutoOf<S...> options, const Set &set,
                  const Maps &...maps) {
  return ElementPlan<exec::ElementAutoOf<S...>, Space>(space, std::move(options), set, maps...);
}

/// Runs the loop under the candidate tuning chose for it (tuning first, on
/// its first call). The options' element scratch is the kernel's; elements
/// per team and lanes are the candidates'.
template <class Space, class... S, class Kernel, class... Args>
void element_loop(ElementPlan<exec::ElementAutoOf<S...>, Space> &plan, const std::string &name,
                  const ElementTeams &teams, const Kernel &kernel, const Args &...args) {
  plan.run(name, teams, kernel, args...);
}

} // namespace umesh

#endif
