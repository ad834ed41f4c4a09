#ifndef UMESH_SWEEP_HPP
#define UMESH_SWEEP_HPP

// Ordered sweeps: loops over every (cell, direction, group) in which a cell
// runs only after the cells upwind of it in that direction (discrete-
// ordinates transport, upwind Gauss-Seidel). The plan carries its executor
// (sweep_exec.hpp) and a schedule (sweep_schedule.hpp); the kernel receives
// the cell's handle (sweep_cell.hpp), then one accessor per argument, and
// returns the cell's value, which the loop stores in the angular flux.
// docs/sweeps.md.
//
//   auto plan = umesh::make_sweep_plan(space, umesh::exec::SweepTeams{}, mesh, directions);
//   umesh::AngularFlux<double> psi(cells, plan.directions(), groups, "psi");
//   umesh::sweep_loop(plan, "transport", Step{}, psi, umesh::read(sigma), umesh::read(q),
//                     umesh::read(volume));

#include <umesh/access.hpp>
#include <umesh/angular_flux.hpp>
#include <umesh/detail/profiling_region.hpp>
#include <umesh/detail/sweep_args.hpp>
#include <umesh/detail/sweep_launch.hpp>
#include <umesh/sweep_cell.hpp>
#include <umesh/sweep_exec.hpp>
#include <umesh/sweep_schedule.hpp>

#include <Kokkos_Core.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace umesh {

/// The plan of sweep loops under executor `Exec`: the schedule (shared by
/// the plans made from one another), its tables on `Space`'s memory, and the
/// executor's options.
template <class Exec, class Space = Kokkos::DefaultExecutionSpace> class SweepPlan {
public:
  using exec_type = Exec;
  using execution_space = Space;
  using Shared = std::shared_ptr<const SweepSchedule>;
  using Device = std::shared_ptr<const detail::SweepDevice<Space>>;
  using State = std::shared_ptr<detail::SweepState<Space>>;

  SweepPlan(const Space &space, Exec exec, Shared schedule, Device device, State state)
      : space_(space), exec_(std::move(exec)), schedule_(std::move(schedule)),
        device_(std::move(device)), state_(std::move(state)) {
    detail::check_sweep_options(exec_);
  }

  const Exec &options() const { return exec_; }
  const Space &space() const { return space_; }
  const SweepSchedule &schedule() const { return *schedule_; }
  const Set &cells() const { return schedule_->cells(); }
  int directions() const { return schedule_->directions(); }

  // What plans of other executors over this schedule share (make_sweep_plan).
  const Shared &shared_schedule() const { return schedule_; }
  const Device &device() const { return device_; }
  const State &state() const { return state_; }

  /// Runs a sweep body (sweep_loop's, after the lagged values are taken).
  template <class Body> void launch(const std::string &loop, const Body &body) {
    detail::sweep_launch(space_, exec_, *device_, *state_, loop, body);
  }

private:
  Space space_;
  Exec exec_;
  Shared schedule_;
  Device device_;
  State state_;
};

/// The plan of sweeps under `exec` over `schedule`, uploaded to `space`.
template <class Space, class Exec>
SweepPlan<Exec, Space> make_sweep_plan(const Space &space, Exec exec, SweepSchedule schedule) {
  auto shared = std::make_shared<const SweepSchedule>(std::move(schedule));
  auto device = std::make_shared<const detail::SweepDevice<Space>>(*shared);
  return SweepPlan<Exec, Space>(space, std::move(exec), std::move(shared), std::move(device),
                                std::make_shared<detail::SweepState<Space>>());
}

/// The same from a mesh and directions (make_sweep_schedule's inputs).
template <class Space, class Exec>
SweepPlan<Exec, Space> make_sweep_plan(const Space &space, Exec exec, const SweepMesh &mesh,
                                       const std::vector<double> &directions,
                                       const SweepOptions &options = {}) {
  return make_sweep_plan(space, std::move(exec), make_sweep_schedule(mesh, directions, options));
}

/// A plan under another executor over `other`'s schedule, sharing its
/// device tables (nothing is built or uploaded again).
template <class Exec, class Other, class Space>
SweepPlan<Exec, Space> make_sweep_plan(Exec exec, const SweepPlan<Other, Space> &other) {
  return SweepPlan<Exec, Space>(other.space(), std::move(exec), other.shared_schedule(),
                                other.device(), other.state());
}

namespace detail {

template <class Plan, class T, class L, class M>
void check_sweep_flux(const Plan &plan, const std::string &loop, const AngularFlux<T, L, M> &psi) {
  if (psi.cells() != plan.cells())
    fail("sweep loop '", loop, "': angular flux '", psi.name(), "' is on set '", psi.cells().name(),
         "', not on the plan's cells '", plan.cells().name(), "'",
         psi.cells().name() == plan.cells().name() ? " (another set of the same name)" : "");
  if (psi.directions() != plan.directions())
    fail("sweep loop '", loop, "': angular flux '", psi.name(), "' has ", psi.directions(),
         " directions, the plan ", plan.directions());
}

/// The body of a loop: the kernel, its arguments' device forms, the plan's
/// geometry and the flux, with the lagged faces' values taken from it now.
template <class Space, class Plan, class Kernel, class T, class L, class M, class... Args>
auto make_sweep_body(Plan &plan, const Kernel &kernel, const AngularFlux<T, L, M> &psi,
                     const Args &...args) {
  check_space<Space, M>();
  using Body = SweepBody<T, Kernel, decltype(sweep_device<Space>(args))...>;
  using Cell = SweepCell<T, false>;
  static_assert(std::is_invocable<const Kernel &, const Cell &,
                                  sweep_accessor_t<decltype(sweep_device<Space>(args))>...>::value,
                "umesh::sweep_loop: the kernel cannot be called with the cell's handle and one "
                "accessor per argument after the flux. Check that its first parameter takes the "
                "handle (const Cell &, a template parameter), that one parameter follows per "
                "argument, in order, and that its operator() is const.");
  using Result = std::invoke_result_t<const Kernel &, const Cell &,
                                      sweep_accessor_t<decltype(sweep_device<Space>(args))>...>;
  static_assert(std::is_convertible<Result, T>::value,
                "umesh::sweep_loop: the kernel returns the cell's new value (convertible to the "
                "angular flux's value type)");
  const auto &v = psi.view();
  FluxRef<T> ref;
  ref.data = v.data();
  ref.cell = v.stride(0), ref.dir = v.stride(1), ref.group = v.stride(2);
  ref.groups = psi.groups();
  const SweepDevice<Space> &dev = *plan.device();
  const std::size_t lagged = std::size_t(dev.lags) * psi.groups();
  if (lagged > 0) {
    T *lag = plan.state()->template lag_buffer<T>(lagged);
    Kokkos::parallel_for("umesh::sweep_lagged",
                         Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(
                             plan.space(), 0, std::int64_t(lagged)),
                         SweepLagFunctor<T>{dev.geometry(), ref, lag});
    ref.lag = lag;
  }
  return Body{kernel, {sweep_device<Space>(args)...}, dev.geometry(), ref};
}

} // namespace detail

/// Runs `kernel(cell, accessors...)` for every (cell, direction, group) of
/// `psi`, each cell after the cells it waits for in that direction, and
/// stores what it returns in psi(cell, direction, group). Lagged faces read
/// psi's values from before the call. Arguments after psi are read(dat) on
/// the plan's cells or read(dat, map, slot); checked before any launch
/// (invalid ones throw umesh::Error naming the loop).
template <class Exec, class Space, class Kernel, class T, class L, class M, class... Args>
void sweep_loop(SweepPlan<Exec, Space> &plan, const std::string &name, const Kernel &kernel,
                const AngularFlux<T, L, M> &psi, const Args &...args) {
  detail::check_sweep_flux(plan, name, psi);
  detail::validate_sweep_args({name, plan.cells()}, args...);
  const detail::ProfilingRegion region("umesh::sweep_loop::" + name);
  plan.launch(name, detail::make_sweep_body<Space>(plan, kernel, psi, args...));
}

} // namespace umesh

#endif
