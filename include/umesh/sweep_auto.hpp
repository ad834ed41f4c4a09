#ifndef UMESH_SWEEP_AUTO_HPP
#define UMESH_SWEEP_AUTO_HPP

// Sweep loops under exec::SweepAutoOf<Forms...> (its tag and options:
// sweep_exec.hpp): the form (levels, teams, data flow) and its shape (batch
// widths, groups per team, cells per team, lanes) tuned per loop on its
// first call by exec::Auto's tuner, and kept in its tuning file. Every
// candidate computes the same values (lagged faces read what the flux held
// before the call, taken once), so the trials need no copy of the flux.
//
//   auto plan = umesh::make_sweep_plan(space, umesh::exec::SweepAuto{}, schedule);
//   umesh::sweep_loop(plan, "transport", Step{}, psi, umesh::read(sigma), ...);
//   plan.choice("transport"); // "teams/b0/d1/g16/c16/l32", say

#include <umesh/detail/auto_tuning.hpp>
#include <umesh/detail/sweep_auto_candidates.hpp>
#include <umesh/sweep.hpp>

#include <Kokkos_Core.hpp>

#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace umesh {

namespace detail {
template <class F> constexpr SweepForm sweep_form() {
  static_assert(std::is_same<F, exec::SweepLevels>::value ||
                    std::is_same<F, exec::SweepTeams>::value ||
                    std::is_same<F, exec::SweepDataFlow>::value,
                "exec::SweepAutoOf: a form is one of exec::SweepLevels, SweepTeams, SweepDataFlow");
  return std::is_same<F, exec::SweepLevels>::value  ? SweepForm::levels
         : std::is_same<F, exec::SweepTeams>::value ? SweepForm::teams
                                                    : SweepForm::flow;
}
template <class... F> constexpr bool distinct_sweep_forms() {
  constexpr SweepForm forms[] = {sweep_form<F>()...};
  for (std::size_t i = 0; i < sizeof...(F); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (forms[i] == forms[j])
        return false;
  return true;
}
} // namespace detail

/// The plan of sweep loops under exec::SweepAutoOf<F...>: the schedule's
/// tables (shared with plans made from it) and the tuner.
template <class Space, class... F> class SweepPlan<exec::SweepAutoOf<F...>, Space> {
  static_assert(sizeof...(F) > 0, "exec::SweepAutoOf: no forms");
  static_assert(detail::distinct_sweep_forms<F...>(), "exec::SweepAutoOf: a form is listed twice");

public:
  using exec_type = exec::SweepAutoOf<F...>;
  using execution_space = Space;
  using Shared = std::shared_ptr<const SweepSchedule>;
  using Device = std::shared_ptr<const detail::SweepDevice<Space>>;
  using State = std::shared_ptr<detail::SweepState<Space>>;

  SweepPlan(const Space &space, exec_type options, Shared schedule, Device device, State state)
      : space_(space), options_(std::move(options)), schedule_(std::move(schedule)),
        device_(std::move(device)), state_(std::move(state)),
        candidates_(detail::sweep_auto_candidates(options_, {detail::sweep_form<F>()...},
                                                  detail::runs_on_host<Space>())),
        tuner_(options_.tuning, {}, detail::as_auto_candidates(candidates_),
               detail::device_description<Space>() + "|" + Space::name(), [&] {
                 std::ostringstream fp;
                 fp << std::hex << schedule_->fingerprint();
                 return fp.str();
               }) {}

  const exec_type &options() const { return options_; }
  const Space &space() const { return space_; }
  const SweepSchedule &schedule() const { return *schedule_; }
  const Set &cells() const { return schedule_->cells(); }
  int directions() const { return schedule_->directions(); }
  const Shared &shared_schedule() const { return schedule_; }
  const Device &device() const { return device_; }
  const State &state() const { return state_; }

  /// The candidates the tuner times.
  const std::vector<detail::AutoCandidate> &candidates() const { return tuner_.candidates(); }
  /// Name of the candidate `loop` runs under (an Error before its first call).
  const std::string &choice(const std::string &loop) const {
    return candidates()[tuner_.decision(loop).winner].name;
  }
  double tuning_seconds(const std::string &loop) const { return tuner_.decision(loop).seconds; }
  bool from_tuning_file(const std::string &loop) const { return tuner_.decision(loop).from_file; }
  /// Per loop: every candidate's median (or why it was not timed), the
  /// finalists', the winner, the tuning time (exec::Auto's report).
  std::string summary() const { return tuner_.summary(); }

  /// Runs a sweep body under the candidate tuning chose for `loop`.
  template <class Body> void launch(const std::string &loop, const Body &body) {
    const char *layout = body.psi.group == 1 ? "groups-adjacent" : "cells-adjacent";
    const detail::AutoCandidate &c = tuner_.choose(
        loop,
        detail::sweep_signature(typeid(Body).name(), body.psi.groups, layout,
                                {detail::sweep_form<F>()...}),
        [&](std::size_t i) { run(candidates_[candidates()[i].slot], loop, body); },
        [&](std::size_t i) {
          Kokkos::fence();
          Kokkos::Timer t;
          run(candidates_[candidates()[i].slot], loop, body);
          Kokkos::fence();
          return t.seconds() * 1e3;
        },
        [] {});
    run(candidates_[c.slot], loop, body);
  }

private:
  template <class Body>
  void run(const detail::SweepCandidate &c, const std::string &loop, const Body &body) {
    (run_form<F>(c, loop, body), ...);
  }
  template <class Form, class Body>
  void run_form(const detail::SweepCandidate &c, const std::string &loop, const Body &body) {
    if (c.form != detail::sweep_form<Form>())
      return;
    if constexpr (std::is_same<Form, exec::SweepLevels>::value)
      detail::sweep_launch(space_, exec::SweepLevels{}, *device_, *state_, loop, body);
    else if constexpr (std::is_same<Form, exec::SweepTeams>::value)
      detail::sweep_launch(space_, c.teams, *device_, *state_, loop, body);
    else
      detail::sweep_launch(space_, c.flow, *device_, *state_, loop, body);
  }

  Space space_;
  exec_type options_;
  Shared schedule_;
  Device device_;
  State state_;
  std::vector<detail::SweepCandidate> candidates_;
  detail::AutoTuner tuner_;
};

} // namespace umesh

#endif
