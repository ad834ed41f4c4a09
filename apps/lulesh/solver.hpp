#ifndef UMESH_LULESH_SOLVER_HPP
#define UMESH_LULESH_SOLVER_HPP

// LULESH's Lagrange leapfrog on umesh. The two loops that scatter element
// forces to nodes (stress and hourglass; and the initial nodal mass) run
// under the chosen executor `Exec`, so the race is umesh's to solve; loops
// that only gather through maps, and node loops, have no race and run
// under the atomic executor (plain loops); the EOS is element-local Kokkos.

#include "eos.hpp"
#include "kernels.hpp"
#include "problem.hpp"

#include "common/exec_names.hpp"
#include "common/loop_timers.hpp"

#include <umesh/umesh.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace lulesh {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using umesh::perf::LoopTimers;

/// How the scatter loops run (beyond the executor tag).
struct RunOptions {
  umesh::exec::Hierarchical hierarchical = umesh::exec::Hierarchical{}.with_fallback(true);
  umesh::exec::WarpCombine warp;
  umesh::exec::Auto autotune;
};

/// The solver, whatever its executor and layout.
class SolverBase {
public:
  virtual ~SolverBase() = default;
  /// One cycle: time increment, then the Lagrange leapfrog. Fails with
  /// umesh::Error on LULESH's volume and q-stop errors.
  virtual void step() = 0;
  /// Element energies (element numbering of the mesh).
  virtual std::vector<double> energy() const = 0;
  /// How the scatter loops ran (hierarchical and auto plans), or empty.
  virtual std::string summary() const { return {}; }
  const Clock &clock() const { return clock_; }
  LoopTimers &timers() { return timers_; }

protected:
  Clock clock_;
  LoopTimers timers_;
};

template <class Exec, class Layout> class Solver : public SolverBase {
  template <class T, int D> using DatT = umesh::Dat<T, D, Layout, Mem>;
  using Scalar = DatT<double, 1>;
  using Vector = DatT<double, 3>;
  using MapT = umesh::Map<Mem>;
  template <class E> using PlanT = umesh::Plan<E, Space>;

public:
  Solver(const Mesh &m, const Params &p, const RunOptions &o)
      : params_(p), opt_(o), nodes_("nodes", m.num_nodes), elems_("elems", m.num_elems),
        elem_nodes_("elem_nodes", elems_, nodes_, 8, m.elem_nodes),
        neighbours_("elem_neighbours", elems_, elems_, 6, m.neighbours) {
    umesh::copy_from_host(x_, m.coords);
    umesh::copy_from_host(symmetry_, m.node_symmetry);
    umesh::copy_from_host(bc_, m.elem_bc);
    Kokkos::deep_copy(v_.view(), 1.0);
    for (std::size_t r = 0; r < m.regions.size(); ++r) {
      Kokkos::View<int *, Mem> list("region", m.regions[r].size());
      Kokkos::deep_copy(list, Kokkos::View<const int *, Kokkos::HostSpace>(m.regions[r].data(),
                                                                           m.regions[r].size()));
      regions_.push_back({list, m.region_reps[r]});
    }
    node_plan_ = std::make_unique<PlanT<umesh::exec::Atomic>>(Space(), nodes_);
    elem_plan_ = std::make_unique<PlanT<umesh::exec::Atomic>>(Space(), elems_);
    scatter_plan_ = make_scatter_plan();

    // Element volumes and masses; each node gets an eighth of its elements'.
    scatter("initial_mass", InitialMass{}, read_x(0), read_x(1), read_x(2), read_x(3), read_x(4),
            read_x(5), read_x(6), read_x(7), umesh::write(volo_), umesh::write(elem_mass_),
            inc_node(nodal_mass_, 0), inc_node(nodal_mass_, 1), inc_node(nodal_mass_, 2),
            inc_node(nodal_mass_, 3), inc_node(nodal_mass_, 4), inc_node(nodal_mass_, 5),
            inc_node(nodal_mass_, 6), inc_node(nodal_mass_, 7));
    // The blast: all the energy in the element at the origin.
    const double e0 = initial_energy(p.size);
    Kokkos::deep_copy(Kokkos::subview(e_.view(), 0, 0), e0);
    double volo0 = 0;
    Kokkos::deep_copy(volo0, Kokkos::subview(volo_.view(), 0, 0));
    clock_.deltatime = 0.5 * std::cbrt(volo0) / std::sqrt(2.0 * e0);
  }

  void step() override {
    advance(clock_);
    lagrange_nodal();
    lagrange_elements();
    time_constraints();
  }

  std::vector<double> energy() const override {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), e_.view());
    std::vector<double> out(h.extent(0));
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = h(i, 0);
    return out;
  }

  std::string summary() const override {
    if constexpr (std::is_same<Exec, umesh::exec::Hierarchical>::value ||
                  std::is_same<Exec, umesh::exec::Auto>::value) {
      std::string s = scatter_plan_->summary();
      for (char &c : s)
        c = c == '\n' ? ' ' : c;
      return "scatter loops: " + s;
    }
    return {};
  }

private:
  std::unique_ptr<PlanT<Exec>> make_scatter_plan() const {
    return std::make_unique<PlanT<Exec>>(umesh::make_plan(Space(), exec(), elems_, elem_nodes_));
  }
  Exec exec() const { return umesh::perf::executor_from<Exec>(opt_); }

  auto read_x(int slot) const { return umesh::read(x_, elem_nodes_, slot); }
  auto read_xd(int slot) const { return umesh::read(xd_, elem_nodes_, slot); }
  template <class D> auto inc_node(const D &d, int slot) const {
    return umesh::inc(d, elem_nodes_, slot);
  }
  auto read_nb(int face) const { return umesh::read(delv_dir_, neighbours_, face); }

  template <class Kernel, class... Args>
  void scatter(const char *name, const Kernel &k, const Args &...args) {
    timers_.time(name, [&] { umesh::par_loop(exec(), *scatter_plan_, name, k, args...); });
  }
  template <class Kernel, class... Args>
  void plain(const char *name, PlanT<umesh::exec::Atomic> &plan, const Kernel &k,
             const Args &...args) {
    timers_.time(name, [&] { umesh::par_loop(umesh::exec::Atomic{}, plan, name, k, args...); });
  }

  // Forces, then accelerations, velocities and positions of the nodes.
  void lagrange_nodal() {
    // Not under the "stress" timer: its median must be the loop's alone.
    Kokkos::deep_copy(force_.view(), 0.0);
    umesh::Global<double> det_min("determinant_min", 1.0e300);
    scatter("stress", StressForces{}, umesh::read(p_), umesh::read(q_), umesh::write(determ_),
            read_x(0), read_x(1), read_x(2), read_x(3), read_x(4), read_x(5), read_x(6), read_x(7),
            inc_node(force_, 0), inc_node(force_, 1), inc_node(force_, 2), inc_node(force_, 3),
            inc_node(force_, 4), inc_node(force_, 5), inc_node(force_, 6), inc_node(force_, 7),
            umesh::reduce_min(det_min));
    if (det_min.value() <= 0.0)
      umesh::detail::fail("LULESH volume error at cycle ", clock_.cycle,
                          ": an element's Jacobian determinant is ", det_min.value());
    if (constants_.hgcoef > 0.0)
      scatter("hourglass", HourglassForces{constants_.hgcoef}, umesh::read(volo_), umesh::read(v_),
              umesh::read(ss_), umesh::read(elem_mass_), read_x(0), read_x(1), read_x(2), read_x(3),
              read_x(4), read_x(5), read_x(6), read_x(7), read_xd(0), read_xd(1), read_xd(2),
              read_xd(3), read_xd(4), read_xd(5), read_xd(6), read_xd(7), inc_node(force_, 0),
              inc_node(force_, 1), inc_node(force_, 2), inc_node(force_, 3), inc_node(force_, 4),
              inc_node(force_, 5), inc_node(force_, 6), inc_node(force_, 7));
    plain("nodes", *node_plan_, NodeUpdate{clock_.deltatime, constants_.u_cut}, umesh::read(force_),
          umesh::read(nodal_mass_), umesh::read(symmetry_), umesh::rw(xd_), umesh::rw(x_));
  }

  // Kinematics, artificial viscosity, EOS.
  void lagrange_elements() {
    umesh::Global<double> vnew_min("vnew_min", 1.0e300);
    plain("kinematics", *elem_plan_, Kinematics{clock_.deltatime}, umesh::read(volo_),
          umesh::read(v_), read_x(0), read_x(1), read_x(2), read_x(3), read_x(4), read_x(5),
          read_x(6), read_x(7), read_xd(0), read_xd(1), read_xd(2), read_xd(3), read_xd(4),
          read_xd(5), read_xd(6), read_xd(7), umesh::write(vnew_), umesh::write(delv_),
          umesh::write(arealg_), umesh::write(vdov_), umesh::write(delv_dir_),
          umesh::write(delx_dir_), umesh::reduce_min(vnew_min));
    if (vnew_min.value() <= 0.0)
      umesh::detail::fail("LULESH volume error at cycle ", clock_.cycle,
                          ": an element's new relative volume is ", vnew_min.value());
    const Constants &c = constants_;
    plain("monoq", *elem_plan_,
          MonotonicQ{c.monoq_limiter_mult, c.monoq_max_slope, c.qlc_monoq, c.qqc_monoq},
          umesh::read(delv_dir_), umesh::read(delx_dir_), umesh::read(bc_), umesh::read(vdov_),
          umesh::read(elem_mass_), umesh::read(volo_), umesh::read(vnew_), read_nb(0), read_nb(1),
          read_nb(2), read_nb(3), read_nb(4), read_nb(5), umesh::write(ql_), umesh::write(qq_));
    timers_.time("eos", [&] {
      using View = typename Scalar::view_type;
      using ConstView = Kokkos::View<const double *[1], Layout, Mem>;
      for (const auto &r : regions_) {
        const RegionEos<View, ConstView> eos{c,
                                             r.elems,
                                             e_.view(),
                                             p_.view(),
                                             q_.view(),
                                             ql_.view(),
                                             qq_.view(),
                                             delv_.view(),
                                             vnew_.view(),
                                             e_new_.view(),
                                             p_new_.view(),
                                             q_new_.view(),
                                             ss_new_.view()};
        // LULESH's cost model: expensive regions evaluate their EOS again.
        for (int rep = 0; rep < r.reps; ++rep)
          Kokkos::parallel_for("lulesh::eos", Kokkos::RangePolicy<Space>(0, int(r.elems.extent(0))),
                               eos);
      }
    });
    std::swap(e_, e_new_);
    std::swap(p_, p_new_);
    std::swap(q_, q_new_);
    std::swap(ss_, ss_new_);
  }

  // New volumes become current; next step's Courant and hydro limits.
  void time_constraints() {
    umesh::Global<double, 2> dt_min("dt_min", 1.0e20);
    umesh::Global<double> q_max("q_max", 0.0);
    const Constants &c = constants_;
    plain("constraints", *elem_plan_, Constraints{c.v_cut, c.qqc, c.dvovmax}, umesh::write(v_),
          umesh::read(vnew_), umesh::read(ss_), umesh::read(vdov_), umesh::read(arealg_),
          umesh::read(q_), umesh::reduce_min(dt_min), umesh::reduce_max(q_max));
    clock_.dtcourant = dt_min[0];
    clock_.dthydro = dt_min[1];
    if (q_max.value() > c.qstop)
      umesh::detail::fail("LULESH q-stop error at cycle ", clock_.cycle, ": artificial viscosity ",
                          q_max.value(), " exceeds ", c.qstop);
  }

  struct Region {
    Kokkos::View<int *, Mem> elems;
    int reps;
  };

  Params params_;
  RunOptions opt_;
  Constants constants_;
  umesh::Set nodes_, elems_;
  MapT elem_nodes_, neighbours_;
  Vector x_{nodes_, "x"}, xd_{nodes_, "xd"}, force_{nodes_, "force"};
  Scalar nodal_mass_{nodes_, "nodal_mass"};
  DatT<int, 1> symmetry_{nodes_, "symmetry"};
  Scalar e_{elems_, "e"}, p_{elems_, "p"}, q_{elems_, "q"}, ql_{elems_, "ql"}, qq_{elems_, "qq"};
  Scalar v_{elems_, "v"}, volo_{elems_, "volo"}, vnew_{elems_, "vnew"}, delv_{elems_, "delv"};
  Scalar vdov_{elems_, "vdov"}, arealg_{elems_, "arealg"}, ss_{elems_, "ss"};
  Scalar elem_mass_{elems_, "elem_mass"}, determ_{elems_, "determ"};
  Scalar e_new_{elems_, "e_new"}, p_new_{elems_, "p_new"}, q_new_{elems_, "q_new"};
  Scalar ss_new_{elems_, "ss_new"};
  Vector delv_dir_{elems_, "delv_xi_eta_zeta"}, delx_dir_{elems_, "delx_xi_eta_zeta"};
  DatT<int, 1> bc_{elems_, "elem_bc"};
  std::vector<Region> regions_;
  std::unique_ptr<PlanT<umesh::exec::Atomic>> node_plan_, elem_plan_;
  std::unique_ptr<PlanT<Exec>> scatter_plan_;
};

/// Builds the solver for one executor tag and layout; defined once per
/// executor in solver_instance.cpp (compiled once per tag, in parallel).
template <class Exec>
std::unique_ptr<SolverBase> make_solver(bool soa, const Mesh &m, const Params &p,
                                        const RunOptions &o);

} // namespace lulesh

#endif
