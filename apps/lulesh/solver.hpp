#ifndef UMESH_LULESH_SOLVER_HPP
#define UMESH_LULESH_SOLVER_HPP

// LULESH's Lagrange leapfrog on umesh. The loops that scatter element
// forces to nodes (the volume forces; and the initial nodal mass) run under
// the chosen executor `Exec`, so the race is umesh's to solve; loops that
// only gather through maps, and node loops, have no race and run under the
// atomic executor (plain loops); the EOS runs over every region's elements
// in one loop (umesh::Subsets). In one process or over MPI ranks
// (backend.hpp): the loops are the same.
//
// A cycle makes the host wait for the device once: its checks and time-step
// limits are reductions into device globals (umesh::DeviceGlobalStore), fetched
// together after the last loop. In one process its loops can run as a
// umesh::LoopGraph (RunOptions::graph): one CUDA graph launch a cycle. The
// kernels read the time step from device memory, copied there from pinned
// host memory at the start of each cycle (in the graph), and the states the
// EOS renews swap after the cycle's loops: one graph per arrangement.

#include "backend.hpp"
#include "eos.hpp"
#include "fields.hpp"
#include "kernels.hpp"
#include "problem.hpp"
#include "report.hpp"

#include "common/exchange_tally.hpp"
#include "common/exec_names.hpp"
#include "common/loop_timers.hpp"

#include <umesh/umesh.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace lulesh {

using umesh::apps::LoopTimers;

/// How the scatter loops run (beyond the executor tag).
struct RunOptions {
  umesh::exec::Hierarchical::Variant hierarchical =
      umesh::exec::Hierarchical::Variant{}.with_fallback(true);
  umesh::exec::WarpCombine::Variant warp;
  umesh::exec::AutoAll autotune;
  /// One process: each cycle's loops as a umesh::LoopGraph on
  /// umesh::graph_space() (one CUDA graph launch a cycle; on host backends
  /// the same loops in order). Same results either way.
  bool graph = false;
  /// Distributed runs: halo exchange GPU to GPU through NCCL instead of
  /// through the host (umesh::dist::Partition::use_nccl).
  bool nccl = false;
  /// Distributed runs: how elements are dealt to ranks, "slabs" or "metis"
  /// (umesh::dist::Owners).
  std::string partition = "slabs";
  /// Distributed runs: each exchange fenced on the device, so its cost is
  /// measured whole (dist::Partition::time_exchanges_on_device).
  bool timed_exchanges = false;
  /// Distributed runs from a rank's own part (Mesh::part): a mesh whose
  /// element-node and neighbour arrays the partition may take instead of
  /// copying (the run's own mesh, on its last run: it is empty of them after).
  Mesh *consumable_mesh = nullptr;
};

/// The solver, whatever its executor and layout.
class SolverBase {
public:
  virtual ~SolverBase() = default;
  /// One cycle: time increment, then the Lagrange leapfrog. Fails with
  /// umesh::Error on LULESH's volume and q-stop errors.
  virtual void step() = 0;
  /// The energies of plane 0's elements (the first size^2 of the mesh's
  /// numbering), all the report reads.
  virtual std::vector<double> energy() const = 0;
  /// This rank's elements with the nodes they use (positions now) and the
  /// result fields on them, for --output (collective over MPI ranks: the
  /// nodes' halo copies are brought up to date).
  virtual std::pair<umesh::OutputGrid, umesh::OutputStep> fields() const = 0;
  /// How the scatter loops ran (hierarchical and auto plans), or empty.
  virtual std::string summary() const { return {}; }
  /// Distributed runs: how the mesh was dealt to ranks (method, cut, a line
  /// per rank); empty in one process.
  virtual std::string layout() const { return {}; }
  /// Distributed runs: seconds of this rank's setup by phase (before the
  /// device data and plans); none in one process.
  virtual std::vector<SetupPhase> setup_phases() const { return {}; }
  /// Distributed runs: the partition phase's steps on this rank (wall
  /// seconds; dist::Partition::setup_steps); none in one process.
  virtual std::vector<SetupPhase> partition_steps() const { return {}; }
  /// Distributed runs: this rank's halo exchanges so far; none in one
  /// process.
  virtual umesh::apps::ExchangeTally exchanges() const { return {}; }
  /// Distributed runs through NCCL: NCCL's own transfer of the bytes of the
  /// exchanges `d` counts, seconds per exchange (collective); 0 otherwise.
  virtual double nccl_same_bytes(const umesh::apps::ExchangeTally &) const { return 0; }
  const Clock &clock() const { return clock_; }
  LoopTimers &timers() { return timers_; }

protected:
  Clock clock_;
  LoopTimers timers_;
};

/// B: LocalBackend (one process) or DistBackend (MPI ranks).
template <class Exec, class Layout, class B = LocalBackend> class Solver : public SolverBase {
  template <class T, int D> using DatT = typename B::template Dat<T, D, Layout>;
  using Scalar = DatT<double, 1>;
  using Vector = DatT<double, 3>;
  template <class E> using PlanT = umesh::Plan<E, Space>;

public:
  Solver(const Mesh &m, const Params &p, const RunOptions &o,
         std::shared_ptr<typename B::Parts> parts)
      : params_(p), opt_(o), space_(o.graph ? umesh::graph_space<Space>() : Space()),
        parts_(std::move(parts)), nodes_(parts_->nodes), elems_(parts_->elems),
        elem_nodes_(parts_->elem_nodes), neighbours_(parts_->neighbours),
        x_(make<double, 3>(On::nodes, "x", &m.coords)),
        symmetry_(make<int, 1>(On::nodes, "symmetry", &m.node_symmetry)), e_(blast(m, p)),
        bc_(make<int, 1>(On::elems, "elem_bc", &m.elem_bc)), eos_reps_(eos_reps(m)) {
    Kokkos::deep_copy(B::view(v_), 1.0);
    node_plan_ = std::make_unique<PlanT<umesh::exec::Atomic>>(space_, nodes_);
    elem_plan_ = std::make_unique<PlanT<umesh::exec::Atomic>>(space_, elems_);
    // The EOS: one loop over every region, region by region.
    regions_ = std::make_unique<umesh::Subsets<Mem>>("regions", elems_, parts_->regions);
    eos_plan_ = std::make_unique<PlanT<umesh::exec::Atomic>>(
        umesh::make_plan(space_, umesh::exec::Atomic{}, *regions_));
    scatter_plan_ = make_scatter_plan();

    initial_mass();
    const double volo0 = B::element_value(*parts_, volo_, 0);
    clock_.deltatime = 0.5 * std::cbrt(volo0) / std::sqrt(2.0 * initial_energy(p.size));
    if (o.graph)
      make_graphs();
  }

  void step() override {
    advance(clock_);
    // The last cycle's fetch waited for the copy that read it.
    dt_host_() = clock_.deltatime;
    if (graphs_[0]) {
      graphs_[clock_.cycle % 2]->launch();
    } else {
      start_cycle();
      lagrange_nodal();
      lagrange_elements();
      time_constraints();
    }
    std::swap(e_, e_new_);
    std::swap(p_, p_new_);
    std::swap(q_, q_new_);
    std::swap(ss_, ss_new_);
    check_cycle();
  }

  std::vector<double> energy() const override {
    return B::gather(*parts_, e_, params_.size * params_.size);
  }

  std::pair<umesh::OutputGrid, umesh::OutputStep> fields() const override {
    if constexpr (B::distributed) {
      x_.refresh_halo();
      xd_.refresh_halo();
    }
    return output_fields(B::view(x_), B::view(xd_), B::view(e_), B::view(p_), elem_nodes_.view(),
                         nodes_.size(), elems_.size());
  }

  std::vector<SetupPhase> setup_phases() const override {
    if constexpr (B::distributed)
      return {{"partition", parts_->partition_seconds, parts_->partition_cpu},
              {"NCCL", parts_->nccl_seconds, parts_->nccl_cpu}};
    else
      return {};
  }

  std::vector<SetupPhase> partition_steps() const override {
    std::vector<SetupPhase> steps;
    if constexpr (B::distributed)
      for (const auto &s : parts_->partition->setup_steps())
        steps.push_back({s.name, s.seconds, 0.0}); // (wall only: no CPU seconds a step)
    return steps;
  }

  std::string layout() const override {
    if constexpr (B::distributed)
      return parts_->layout;
    else
      return {};
  }

  umesh::apps::ExchangeTally exchanges() const override {
    if constexpr (B::distributed)
      return umesh::apps::exchange_tally(*parts_->partition);
    else
      return {};
  }

  double nccl_same_bytes(const umesh::apps::ExchangeTally &d) const override {
    if constexpr (B::distributed)
      return umesh::apps::nccl_same_bytes(*parts_->partition, d);
    else
      return 0;
  }

  std::string summary() const override {
    if constexpr (std::is_same<Exec, umesh::exec::Hierarchical>::value ||
                  std::is_same<Exec, umesh::exec::AutoAll>::value) {
      std::string s = scatter_plan_->summary();
      for (char &c : s)
        c = c == '\n' ? ' ' : c;
      return "scatter loops: " + s;
    }
    return {};
  }

private:
  // The blast: all the energy in the element at the origin. The values
  // of the elements the mesh holds (a rank's own part: its own elements').
  Scalar blast(const Mesh &m, const Params &p) const {
    std::vector<double> e(m.elem_bc.size(), 0.0); // (a value per element held)
    if (element_row(m, 0) == 0)
      e[0] = initial_energy(p.size);
    return make<double, 1>(On::elems, "e", &e);
  }
  // Each element's EOS evaluations per cycle: its region's.
  DatT<int, 1> eos_reps(const Mesh &m) const {
    std::vector<int> reps(m.elem_bc.size(), 1);
    for (std::size_t r = 0; r < m.regions.size(); ++r)
      for (int e : m.regions[r])
        reps[std::size_t(element_row(m, e))] = m.region_reps[r];
    return make<int, 1>(On::elems, "eos_reps", &reps);
  }
  template <class T, int D>
  DatT<T, D> make(On on, const std::string &name, const std::vector<T> *values = nullptr) const {
    return B::template make<T, D, Layout>(*parts_, on, name, values);
  }
  std::unique_ptr<PlanT<Exec>> make_scatter_plan() const {
    return std::make_unique<PlanT<Exec>>(
        umesh::make_plan(space_, variant().plan(), elems_, elem_nodes_));
  }
  typename Exec::Variant variant() const { return umesh::apps::executor_from<Exec>(opt_); }

  // read, write, inc, ... unqualified: found by argument-dependent lookup in
  // umesh or umesh::dist, whichever the dats belong to.
  auto read_x(int slot) const { return read(x_, elem_nodes_, slot); }
  auto read_xd(int slot) const { return read(xd_, elem_nodes_, slot); }
  template <class D> auto inc_node(const D &d, int slot) const { return inc(d, elem_nodes_, slot); }
  auto read_nb(const Vector &d, int face) const { return read(d, neighbours_, face); }

  template <class Kernel, class... Args>
  void scatter(const char *name, const Kernel &k, const Args &...args) {
    timers_.time(name, [&] { B::par_loop(*scatter_plan_, variant().loop(), name, k, args...); });
  }
  template <class Kernel, class... Args>
  void plain(const char *name, PlanT<umesh::exec::Atomic> &plan, const Kernel &k,
             const Args &...args) {
    timers_.time(name, [&] { B::par_loop(plan, name, k, args...); });
  }

  // The loops under Exec, apart from the class so that a build on many
  // cores compiles them in files of their own (solver_loops.hpp,
  // solver_instance.cpp).
  void initial_mass();
  void volume_forces();
  void stress_forces();

  // The cycle's loops as graphs, one for each parity of the cycle: a
  // recording keeps the dats it was recorded with, and e, p, q and ss swap
  // every cycle.
  void make_graphs() {
    if constexpr (B::distributed) {
      umesh::fail("LULESH: a cycle runs as a graph in one process only (halo exchanges wait "
                  "for the device)");
    } else {
      for (int parity = 0; parity < 2; ++parity) {
        graphs_[parity] = std::make_unique<umesh::LoopGraph<Space>>(
            "lulesh::cycle" + std::to_string(parity), space_);
        graphs_[parity]
            ->add("time step", [this] { start_cycle(); })
            .add("lagrange nodal", [this] { lagrange_nodal(); })
            .add("lagrange elements", [this] { lagrange_elements(); })
            .add("time constraints", [this] { time_constraints(); });
      }
    }
  }

  // The time step where the kernels read it, and the checks' initial values.
  void start_cycle() {
    Kokkos::deep_copy(space_, dt_, dt_host_);
    B::reset(*parts_, checks_);
  }

  // Forces, then accelerations, velocities and positions of the nodes.
  void lagrange_nodal() {
    // Not under the "forces" timer: its median must be the loop's alone.
    // Ordered with the loops (the host does not wait).
    umesh::fill(space_, B::view(force_), 0.0);
    B::written(force_);
    if (constants_.hgcoef > 0.0)
      volume_forces();
    else
      stress_forces();
    plain("nodes", *node_plan_, NodeUpdate{dt_.data(), constants_.u_cut}, read(force_),
          read(nodal_mass_), read(symmetry_), rw(xd_), rw(x_));
  }

  // Kinematics, artificial viscosity, EOS (into the *_new_ states, which
  // step() swaps with the current ones after the cycle's loops).
  void lagrange_elements() {
    plain("kinematics", *elem_plan_, Kinematics{dt_.data()}, read(volo_), read(v_), read_x(0),
          read_x(1), read_x(2), read_x(3), read_x(4), read_x(5), read_x(6), read_x(7), read_xd(0),
          read_xd(1), read_xd(2), read_xd(3), read_xd(4), read_xd(5), read_xd(6), read_xd(7),
          write(vnew_), write(delv_), write(arealg_), write(vdov_), write(delv_dir_),
          write(delx_dir_), umesh::reduce_min(vnew_min_));
    const Constants &c = constants_;
    const Vector &nb = B::for_neighbours(delv_dir_, delv_dir_nb_);
    plain("monoq", *elem_plan_,
          MonotonicQ{c.monoq_limiter_mult, c.monoq_max_slope, c.qlc_monoq, c.qqc_monoq},
          read(delv_dir_), read(delx_dir_), read(bc_), read(vdov_), read(elem_mass_), read(volo_),
          read(vnew_), read_nb(nb, 0), read_nb(nb, 1), read_nb(nb, 2), read_nb(nb, 3),
          read_nb(nb, 4), read_nb(nb, 5), write(ql_), write(qq_));
    plain("eos", *eos_plan_, Eos{c}, read(eos_reps_), read(e_), read(p_), read(q_), read(ql_),
          read(qq_), read(delv_), read(vnew_), write(e_new_), write(p_new_), write(q_new_),
          write(ss_new_));
  }

  // New volumes become current; next step's Courant and hydro limits (from
  // the EOS's new states).
  void time_constraints() {
    const Constants &c = constants_;
    plain("constraints", *elem_plan_, Constraints{c.v_cut, c.qqc, c.dvovmax}, write(v_),
          read(vnew_), read(ss_new_), read(vdov_), read(arealg_), read(q_new_),
          umesh::reduce_min(dt_min_), umesh::reduce_max(q_max_));
  }

  // The cycle's one wait for the device: its checks (in LULESH's order) and
  // the next cycle's time-step limits.
  void check_cycle() {
    B::fetch(*parts_, checks_);
    if (det_min_.value() <= 0.0)
      umesh::fail("LULESH volume error at cycle ", clock_.cycle,
                  ": an element's Jacobian determinant is ", det_min_.value());
    if (vnew_min_.value() <= 0.0)
      umesh::fail("LULESH volume error at cycle ", clock_.cycle,
                  ": an element's new relative volume is ", vnew_min_.value());
    if (q_max_.value() > constants_.qstop)
      umesh::fail("LULESH q-stop error at cycle ", clock_.cycle, ": artificial viscosity ",
                  q_max_.value(), " exceeds ", constants_.qstop);
    clock_.dtcourant = dt_min_[0];
    clock_.dthydro = dt_min_[1];
  }

  Params params_;
  RunOptions opt_;
  Space space_; // where the loops run: umesh::graph_space() for graphs
  Constants constants_;
  std::shared_ptr<typename B::Parts> parts_;
  umesh::Set nodes_, elems_;
  MapT elem_nodes_, neighbours_;
  Vector node3(const char *name) const { return make<double, 3>(On::nodes, name); }
  Scalar elem(const char *name) const { return make<double, 1>(On::elems, name); }
  Vector x_, xd_ = node3("xd"), force_ = node3("force");
  Scalar nodal_mass_ = make<double, 1>(On::nodes, "nodal_mass");
  DatT<int, 1> symmetry_;
  Scalar e_, p_ = elem("p"), q_ = elem("q"), ql_ = elem("ql"), qq_ = elem("qq");
  Scalar v_ = elem("v"), volo_ = elem("volo"), vnew_ = elem("vnew"), delv_ = elem("delv");
  Scalar vdov_ = elem("vdov"), arealg_ = elem("arealg"), ss_ = elem("ss");
  Scalar elem_mass_ = elem("elem_mass"), determ_ = elem("determ");
  Scalar e_new_ = elem("e_new"), p_new_ = elem("p_new"), q_new_ = elem("q_new");
  Scalar ss_new_ = elem("ss_new");
  Vector delv_dir_ = make<double, 3>(On::elems, "delv_xi_eta_zeta");
  Vector delx_dir_ = make<double, 3>(On::elems, "delx_xi_eta_zeta");
  // delv_dir_ where the neighbour map reads it (over MPI ranks: with a halo
  // of neighbouring elements; in one process: unused).
  Vector delv_dir_nb_ = make<double, 3>(On::neighbour_elems, "delv_xi_eta_zeta_neighbours");
  DatT<int, 1> bc_;
  DatT<int, 1> eos_reps_; // each element's region's EOS evaluations per cycle
  std::unique_ptr<umesh::Subsets<Mem>> regions_;
  // The cycle's checks and time-step limits, on the device until fetched.
  umesh::DeviceGlobalStore<double, Space> checks_{"lulesh::cycle", space_};
  umesh::DeviceGlobal<double, 1, Space> det_min_ = checks_.min("determinant_min", 1.0e300);
  umesh::DeviceGlobal<double, 1, Space> vnew_min_ = checks_.min("vnew_min", 1.0e300);
  umesh::DeviceGlobal<double, 2, Space> dt_min_ = checks_.template min<2>("dt_min", 1.0e20);
  umesh::DeviceGlobal<double, 1, Space> q_max_ = checks_.max("q_max", 0.0);
  std::unique_ptr<PlanT<umesh::exec::Atomic>> node_plan_, elem_plan_, eos_plan_;
  std::unique_ptr<PlanT<Exec>> scatter_plan_;
  // The cycle's time step: where kernels read it, and the host's copy.
  Kokkos::View<double, Mem> dt_{"lulesh::dt"};
  Kokkos::View<double, PinnedMem> dt_host_{"lulesh::dt_host"};
  std::unique_ptr<umesh::LoopGraph<Space>> graphs_[2]; // RunOptions::graph
};

/// Builds the solver for one executor tag and layout (umesh::SoA or AoS), in
/// one process or (`distributed`, MPI builds; an error in others) over the
/// ranks of MPI_COMM_WORLD; defined in solver_instance.cpp, whose objects
/// compile in parallel.
template <class Exec, class Layout>
std::unique_ptr<SolverBase> make_solver(bool distributed, const Mesh &m, const Params &p,
                                        const RunOptions &o);

} // namespace lulesh

#endif
