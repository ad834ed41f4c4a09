#ifndef UMESH_MINIAERO_SOLVER_HPP
#define UMESH_MINIAERO_SOLVER_HPP

// miniAero's explicit RK4 solver on umesh: every loop that increments or
// folds through a map is a par_loop, so the executor (and the layout) is a
// template parameter and the physics is written once (kernels.hpp).

#include "backend.hpp"
#include "cell_stencil.hpp"
#include "common/exec_names.hpp"
#include "common/loop_timers.hpp"
#include "kernels.hpp"
#include "problem.hpp"

#include <umesh/umesh.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace miniaero {

using umesh::apps::LoopTimers;

/// Options of a umesh run that are not in miniaero.inp.
struct SolverOptions {
  umesh::exec::Hierarchical::Variant hierarchical =
      umesh::exec::Hierarchical::Variant{}.with_fallback(true);
  umesh::exec::WarpCombine::Variant warp;
  /// exec::AutoAll (every executor a candidate: common/app_built.hpp): what it tries, and where it
  /// remembers its choices.
  umesh::exec::AutoAll autotune;
  umesh::Reorder reorder = umesh::Reorder::none;
  /// Stencil min/max per cell over a cell-to-cell map (no combining; the
  /// same numbers) instead of miniAero's loop over faces with min/max.
  bool cell_stencil = false;
  /// When set, renumberings and hierarchical plans are saved under this
  /// prefix and loaded by later runs (file names add method, set, block).
  std::string plan_prefix;
  /// One process: each RK stage as a umesh::LoopGraph (one CUDA graph launch
  /// a stage) unless timers time its loops; same results either way.
  bool graph = false;
  /// Distributed runs: halo exchange GPU to GPU through NCCL instead of
  /// through the host (umesh::dist::Partition::use_nccl).
  bool nccl = false;
  /// Distributed runs: each halo exchange fences the device, so the
  /// exchange time counts the GPU's part (Partition::time_exchanges_on_device).
  bool timed_exchanges = false;
  /// Distributed runs: how cells are dealt to ranks, "slabs" or "metis"
  /// (umesh::dist::Owners), or "blocks" (each rank built its own block of
  /// the box: Mesh::part).
  std::string partition = "slabs";
};

/// RK4 coefficients (miniAero's): stage state U_n + alpha R, update beta R.
constexpr double kAlpha[4] = {0.0, 0.5, 0.5, 1.0};
constexpr double kBeta[4] = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
/// Common interface of the umesh solver and miniAero's reference variants.
class SolverBase {
public:
  virtual ~SolverBase() = default;
  virtual void step() = 0;
  /// Conservative solution [cell][5] in the original cell numbering.
  virtual std::vector<double> solution() const = 0;
  /// Whether every value of the solution is finite, on every rank (a
  /// collective call over MPI ranks, which gathers nothing).
  virtual bool finite() const {
    const std::vector<double> u = solution();
    return std::all_of(u.begin(), u.end(), [](double x) { return std::isfinite(x); });
  }
  /// Distributed runs: the whole mesh's cell centroids [cell][3] (original
  /// numbering), gathered for the results where no rank holds the whole
  /// mesh; empty in one process (the mesh has them).
  virtual std::vector<double> centroids() const { return {}; }
  /// The cells this rank owns (original numbers) and their conservative
  /// solution [cell][5], gathering nothing (--output): every cell in one
  /// process.
  virtual std::pair<std::vector<int>, std::vector<double>> own_solution() const {
    std::vector<double> u = solution();
    std::vector<int> ids(u.size() / 5);
    for (std::size_t c = 0; c < ids.size(); ++c)
      ids[c] = int(c);
    return {std::move(ids), std::move(u)};
  }
  /// One line on how loops ran (plans, staging, fallbacks).
  virtual std::string summary() const { return {}; }
  /// This rank's halo exchanges so far: how many, and the seconds they took
  /// as the host sees them (packing, waiting, unpacking; NCCL's transfers
  /// run on the stream unless SolverOptions::timed_exchanges); none in one
  /// process.
  virtual ExchangeTally exchanges() const { return {}; }
  /// Distributed runs through NCCL: NCCL's own transfer of the bytes of the
  /// exchanges `d` counts, seconds per exchange (collective); 0 otherwise.
  virtual double nccl_same_bytes(const ExchangeTally &) const { return 0; }
  /// Distributed runs: how the mesh was dealt to ranks (method, cut, a line
  /// per rank); empty in one process.
  virtual std::string layout() const { return {}; }
  LoopTimers &timers() { return timers_; }

protected:
  LoopTimers timers_;
};

/// B: LocalBackend (one process) or DistBackend (MPI ranks: each renumbers
/// its own part; the cell stencil with each rank's own block).
template <class Exec, class Layout, class B = LocalBackend> class Solver : public SolverBase {
  template <int D> using DatT = typename B::template Dat<D, Layout>;
  template <class E> using PlanT = umesh::Plan<E, Space>;

  struct Geometry {
    DatT<3> centroid, normal, tangent, binormal;
  };
  struct Boundary {
    Bc bc;
    umesh::Set set;
    MapT cell;
    Geometry geo;
    std::unique_ptr<PlanT<Exec>> plan;
  };

public:
  Solver(const Input &in, const Mesh &m, const SolverOptions &opt,
         std::shared_ptr<typename B::Parts> parts)
      : in_(in), opt_(opt), space_(opt.graph ? umesh::graph_space<Space>() : Space()),
        parts_(std::move(parts)), cells_(parts_->cells), faces_(parts_->faces),
        face_cells_(parts_->face_cells), face_geo_(geometry(-2, m.faces)),
        volume_(cell_dat<1>("volume", &m.cell_volume)),
        centroid_(cell_dat<3>("centroid", &m.cell_centroid)),
        un_(cell_dat<5>("U_n", &static_cast<const std::vector<double> &>(initial_state(in, m)))),
        ustage_(cell_dat<5>("U_stage")), unp1_(cell_dat<5>("U_np1")), res_(cell_dat<5>("residual")),
        flux_(cell_dat<5>("flux")), grad_(cell_dat<15>("gradient")),
        lo_(cell_dat<5>("stencil_min")), hi_(cell_dat<5>("stencil_max")),
        lim_(cell_dat<5>("limiter")) {
    for (std::size_t b = 0; b < parts_->boundaries.size(); ++b) {
      const auto &bs = parts_->boundaries[b];
      boundaries_.push_back(
          {bs.bc, bs.set, bs.cell, geometry(int(b), m.boundaries[b].geometry), nullptr});
    }
    if constexpr (!B::distributed) {
      if (opt.reorder != umesh::Reorder::none)
        renumber();
      if (opt.cell_stencil && in.second_order) { // (first order has no limiter)
        cell_neighbours_ = std::make_unique<MapT>(neighbours());
        cell_faces_ = std::make_unique<DatT<18>>(face_centroids_by_cell());
      }
    } else if (opt.cell_stencil && in.second_order) {
      // (--reorder renumbers each rank's part: DistBackend::parts.) Each
      // rank's own block brings its cells' neighbours and face centroids.
      cell_neighbours_ = std::make_unique<MapT>(B::cell_neighbours(*parts_, m));
      cell_faces_ = std::make_unique<DatT<18>>(
          cell_dat<18>("cell_face_centroids", &m.part->cell_face_centroids));
    }
    copy(unp1_, un_);
    make_plans();
    // Each RK stage a graph of its own (its coefficients are kernel arguments).
    for (int s = 0; s < 4 && opt.graph && !B::distributed; ++s) {
      graphs_[s] = std::make_unique<umesh::LoopGraph<Space>>(
          "miniaero::rk_stage" + std::to_string(s), space_);
      graphs_[s]->add("stage", [this, s] { stage(s); });
    }
  }

  void step() override {
    // A graph where no timer times a loop inside a stage.
    const bool graphed = graphs_[0] && timers_.times_at_most("rk_stage");
    for (int s = 0; s < 4; ++s)
      timers_.time("rk_stage", [&] { graphed ? graphs_[s]->launch() : stage(s); });
    copy(un_, unp1_);
  }

  std::vector<double> solution() const override {
    if constexpr (B::distributed)
      return B::gather(*parts_, un_);
    else
      return B::gather(*parts_, renumbering_ ? renumbering_->to_original(un_) : un_);
  }

  std::pair<std::vector<int>, std::vector<double>> own_solution() const override {
    if constexpr (B::distributed) {
      const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), un_.local().view());
      const int owned = un_.part().owned;
      std::vector<int> ids(un_.part().global_ids.begin(), un_.part().global_ids.begin() + owned);
      std::vector<double> u(std::size_t(owned) * 5);
      for (int i = 0; i < owned; ++i)
        for (int k = 0; k < 5; ++k)
          u[std::size_t(i) * 5 + k] = h(i, k);
      return {std::move(ids), std::move(u)};
    } else {
      return SolverBase::own_solution();
    }
  }

  bool finite() const override {
    if constexpr (B::distributed) {
      const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), un_.local().view());
      int ok = 1;
      for (int i = 0; i < un_.part().owned && ok; ++i)
        for (int k = 0; k < 5; ++k)
          ok &= std::isfinite(h(i, k));
      return B::on_every_rank(*parts_, ok != 0);
    } else {
      return SolverBase::finite();
    }
  }

  std::vector<double> centroids() const override {
    if constexpr (B::distributed)
      return B::gather(*parts_, centroid_);
    else
      return {};
  }

  ExchangeTally exchanges() const override {
    if constexpr (B::distributed)
      return B::exchanges(*parts_);
    else
      return {};
  }

  double nccl_same_bytes(const ExchangeTally &d) const override {
    if constexpr (B::distributed)
      return umesh::apps::nccl_same_bytes(*parts_->interior, d);
    else
      return 0;
  }

  std::string layout() const override {
    if constexpr (B::distributed)
      return parts_->layout;
    else
      return {};
  }

  std::string summary() const override {
    std::string out = cell_neighbours_ ? "limiter stencil and limiter over cells" : "";
    if constexpr (std::is_same<Exec, umesh::exec::Hierarchical>::value ||
                  std::is_same<Exec, umesh::exec::AutoAll>::value) {
      std::string faces = face_plan_->summary();
      std::replace(faces.begin(), faces.end(), '\n', ' ');
      out += (out.empty() ? "" : "; ") + ("faces: " + faces);
    }
    return out;
  }

private:
  // Face geometry of the interior faces (-2) or boundary set `where`.
  Geometry geometry(int where, const FaceGeometry &g) const {
    auto make = [&](const char *name, const std::vector<double> &v) {
      return B::template make<3, Layout>(*parts_, where, name, &v);
    };
    return {make("face_centroid", g.centroid), make("face_normal", g.normal),
            make("face_tangent", g.tangent), make("face_binormal", g.binormal)};
  }
  template <int D>
  DatT<D> cell_dat(const std::string &name, const std::vector<double> *values = nullptr) const {
    return B::template make<D, Layout>(*parts_, -1, name, values);
  }
  // Whole-dat copy and fill outside the loops (the backend tracks halos),
  // ordered with the loops on their execution space: the host does not wait.
  template <class D> void copy(const D &to, const D &from) const {
    Kokkos::deep_copy(space_, B::view(to), B::view(from));
    B::written(to);
  }
  template <class D> void fill(const D &d, double v) const {
    umesh::fill(space_, B::view(d), v);
    B::written(d);
  }

  // Renumbers faces and cells for locality (--reorder); boundary maps follow
  // the cells. Results go back to the original numbering in solution().
  void renumber() {
    auto ro = umesh::ReorderOptions{}
                  .with_method(opt_.reorder)
                  .with_block_size(opt_.hierarchical.block_size);
    if (!opt_.plan_prefix.empty())
      ro.with_plan_file(opt_.plan_prefix + "renumbering-" + umesh::reorder_name(opt_.reorder) +
                        "-b" + std::to_string(ro.block_size) + ".plan");
    auto r = std::make_shared<umesh::Renumbering>(umesh::reorder(ro, faces_, face_cells_));
    auto move_geo = [&](Geometry &g) {
      g = {r->apply(g.centroid), r->apply(g.normal), r->apply(g.tangent), r->apply(g.binormal)};
    };
    move_geo(face_geo_);
    face_cells_ = r->apply(face_cells_);
    faces_ = face_cells_.from();
    cells_ = face_cells_.to();
    volume_ = r->apply(volume_);
    centroid_ = r->apply(centroid_);
    un_ = r->apply(un_);
    for (auto *d : {&ustage_, &unp1_, &res_, &flux_, &lo_, &hi_, &lim_})
      *d = DatT<5>(cells_, d->name());
    grad_ = DatT<15>(cells_, grad_.name());
    for (auto &b : boundaries_) {
      b.cell = r->apply(b.cell);
      move_geo(b.geo);
    }
    renumbering_ = std::move(r);
  }

  // The cell stencil's inputs (cell_stencil.hpp) in the current numbering.
  MapT neighbours() const { return cell_neighbours<MapT>(cells_, faces_, face_cells_); }
  DatT<18> face_centroids_by_cell() const {
    DatT<18> out(cells_, "cell_face_centroids");
    std::vector<FaceSide> sides{{&face_cells_, B::view(face_geo_.centroid)}};
    for (const auto &b : boundaries_)
      sides.push_back({&b.cell, B::view(b.geo.centroid)});
    umesh::copy_from_host(out, cell_face_centroids(cells_.size(), sides));
    return out;
  }
  struct FaceSide {
    const MapT *cells; // faces to their cells, one or two a face
    typename B::template Dat<3, Layout>::view_type centroid;
  };

  void make_plans() {
    cell_plan_ = std::make_unique<PlanT<umesh::exec::Atomic>>(space_, cells_);
    face_plan_ = make(faces_, face_cells_);
    for (auto &b : boundaries_)
      b.plan = make(b.set, b.cell);
  }
  std::unique_ptr<PlanT<Exec>> make(const umesh::Set &set, const MapT &map) const {
    if constexpr (std::is_same<Exec, umesh::exec::Hierarchical>::value) {
      auto o = opt_.hierarchical;
      if (renumbering_ && renumbering_->blocks() && set == faces_)
        o.with_blocks(renumbering_->blocks());
      if (!opt_.plan_prefix.empty())
        o.with_plan_file(opt_.plan_prefix + "hierarchical-" + set.name() + "-" +
                         umesh::reorder_name(opt_.reorder) + "-b" + std::to_string(o.block_size) +
                         ".plan");
      return std::make_unique<PlanT<Exec>>(space_, o.plan(), set, map);
    } else {
      return std::make_unique<PlanT<Exec>>(umesh::make_plan(space_, variant().plan(), set, map));
    }
  }
  typename Exec::Variant variant() const { return umesh::apps::executor_from<Exec>(opt_); }

  template <class Kernel, class... Args>
  void loop(const char *timer, PlanT<Exec> &plan, const char *name, const Kernel &k,
            const Args &...args) {
    timers_.time(timer, [&] { B::par_loop(plan, variant().loop(), name, k, args...); });
  }

  void stage(int s) {
    // read, inc, min, ... unqualified: found by argument-dependent lookup in
    // umesh or umesh::dist, whichever the dats belong to.
    const bool gradients = in_.second_order || in_.viscous;
    timers_.time("update", [&] {
      B::par_loop(*cell_plan_, "stage_state", StageState{kAlpha[s]}, read(un_), read(res_),
                  write(ustage_));
      fill(flux_, 0.0);
    });
    if (gradients) {
      timers_.time("gradient", [&] { fill(grad_, 0.0); });
      gradient_loops();
    }
    if (in_.second_order) {
      if (cell_neighbours_) {
        const MapT &nb = *cell_neighbours_;
        timers_.time("stencil_minmax", [&] {
          B::par_loop(*cell_plan_, "stencil_cells", StencilCell{}, read(ustage_), write(lo_),
                      write(hi_), read(ustage_, nb, 0), read(ustage_, nb, 1), read(ustage_, nb, 2),
                      read(ustage_, nb, 3), read(ustage_, nb, 4), read(ustage_, nb, 5));
        });
      } else {
        timers_.time("stencil_minmax", [&] {
          fill(lo_, 1e300);
          fill(hi_, -1e300);
        });
        stencil_through_faces();
      }
      if (cell_faces_) {
        timers_.time("limiter", [&] {
          B::par_loop(*cell_plan_, "limiter_cells", LimiterCell{}, read(ustage_), read(centroid_),
                      read(grad_), read(lo_), read(hi_), read(*cell_faces_), write(lim_));
        });
      } else {
        limiter_through_faces();
      }
    }
    face_flux();
    boundary_fluxes();
    timers_.time("update", [&] {
      B::par_loop(*cell_plan_, "residual", Residual{in_.dt}, read(volume_), read(flux_),
                  write(res_));
      B::par_loop(*cell_plan_, "accumulate", Accumulate{kBeta[s]}, read(res_), rw(unp1_));
    });
  }

  // The loops under Exec, in groups that compile in files of their own
  // where the build splits the solver (solver_loops.hpp, solver_instance.cpp).
  void gradient_loops();
  void stencil_through_faces();
  void limiter_through_faces();
  void boundary_fluxes();
  void face_flux() {
    if (!in_.second_order && !in_.viscous)
      face_flux_first_order();
    else if (in_.second_order && in_.viscous)
      face_flux_with(FaceFlux<true, true>{});
    else if (in_.second_order)
      face_flux_with(FaceFlux<true, false>{});
    else
      face_flux_with(FaceFlux<false, true>{});
  }
  void face_flux_first_order();
  template <class Kernel> void face_flux_with(const Kernel &kernel);

  Input in_;
  SolverOptions opt_;
  Space space_; // where the loops run: umesh::graph_space() for graphs
  std::shared_ptr<typename B::Parts> parts_;
  umesh::Set cells_, faces_;
  MapT face_cells_;
  Geometry face_geo_;
  DatT<1> volume_;
  DatT<3> centroid_;
  DatT<5> un_, ustage_, unp1_, res_, flux_;
  DatT<15> grad_;
  DatT<5> lo_, hi_, lim_;
  std::vector<Boundary> boundaries_;
  std::shared_ptr<umesh::Renumbering> renumbering_;
  std::unique_ptr<PlanT<umesh::exec::Atomic>> cell_plan_;
  std::unique_ptr<MapT> cell_neighbours_; // --stencil cells
  std::unique_ptr<DatT<18>> cell_faces_;  // --stencil cells: the limiter's face centroids
  std::unique_ptr<PlanT<Exec>> face_plan_;
  std::unique_ptr<umesh::LoopGraph<Space>> graphs_[4]; // SolverOptions::graph
};

/// Builds the solver for an executor tag and layout (umesh::SoA or AoS), in
/// one process or (`distributed`, MPI builds; an error in others) over the
/// ranks of MPI_COMM_WORLD; defined in solver_instance.cpp, whose objects
/// compile in parallel.
template <class Exec, class Layout>
std::unique_ptr<SolverBase> make_umesh_solver(bool distributed, const Input &in, const Mesh &m,
                                              const SolverOptions &opt);

/// miniAero's own strategies (reference.hpp): atomics, or the cell-flux
/// array summed by apply_cell_flux.
std::unique_ptr<SolverBase> make_reference_solver(bool atomic, const Input &in, const Mesh &m);

} // namespace miniaero

#endif
