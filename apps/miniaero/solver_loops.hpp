#ifndef UMESH_MINIAERO_SOLVER_LOOPS_HPP
#define UMESH_MINIAERO_SOLVER_LOOPS_HPP

// The solver's loops under its executor (solver.hpp declares them). Apart
// from the class, so that a build on many cores compiles them in files of
// their own, every executor's kernels of one group of loops in each
// (solver_instance.cpp): exec::Auto's candidates and the executors' own
// solvers then share their kernels, and no one file holds every loop.

#include "solver.hpp"

namespace miniaero {

// read, inc, min, ... unqualified: found by argument-dependent lookup in
// umesh or umesh::dist, whichever the dats belong to.

template <class Exec, class Layout, class B> void Solver<Exec, Layout, B>::gradient_loops() {
  const auto &fc = face_cells_;
  loop("gradient", *face_plan_, "gradient", GradientFace{}, read(ustage_, fc, 0),
       read(ustage_, fc, 1), read(volume_, fc, 0), read(volume_, fc, 1), read(face_geo_.normal),
       inc(grad_, fc, 0), inc(grad_, fc, 1));
  for (auto &b : boundaries_)
    loop("gradient", *b.plan, "gradient_bc", GradientBoundary{}, read(ustage_, b.cell, 0),
         read(volume_, b.cell, 0), read(b.geo.normal), inc(grad_, b.cell, 0));
}

// miniAero's stencil min/max: a loop over faces folding each face's two
// cells into both.
template <class Exec, class Layout, class B> void Solver<Exec, Layout, B>::stencil_through_faces() {
  const auto &fc = face_cells_;
  loop("stencil_minmax", *face_plan_, "stencil", StencilFace{}, read(ustage_, fc, 0),
       read(ustage_, fc, 1), min(lo_, fc, 0), min(lo_, fc, 1), max(hi_, fc, 0), max(hi_, fc, 1));
  for (auto &b : boundaries_)
    loop("stencil_minmax", *b.plan, "stencil_bc", StencilBoundary{}, read(ustage_, b.cell, 0),
         min(lo_, b.cell, 0), max(hi_, b.cell, 0));
}

// The limiter as miniAero computes it: a loop over faces folding each
// face's value into both cells with min.
template <class Exec, class Layout, class B> void Solver<Exec, Layout, B>::limiter_through_faces() {
  const auto &fc = face_cells_;
  const Geometry &fg = face_geo_;
  timers_.time("limiter", [&] { fill(lim_, 1.0); });
  loop("limiter", *face_plan_, "limiter", LimiterFace{}, read(fg.centroid), read(ustage_, fc, 0),
       read(ustage_, fc, 1), read(centroid_, fc, 0), read(centroid_, fc, 1), read(grad_, fc, 0),
       read(grad_, fc, 1), read(lo_, fc, 0), read(lo_, fc, 1), read(hi_, fc, 0), read(hi_, fc, 1),
       min(lim_, fc, 0), min(lim_, fc, 1));
  for (auto &b : boundaries_)
    loop("limiter", *b.plan, "limiter_bc", LimiterBoundary{}, read(b.geo.centroid),
         read(ustage_, b.cell, 0), read(centroid_, b.cell, 0), read(grad_, b.cell, 0),
         read(lo_, b.cell, 0), read(hi_, b.cell, 0), min(lim_, b.cell, 0));
}

template <class Exec, class Layout, class B> void Solver<Exec, Layout, B>::boundary_fluxes() {
  for (auto &b : boundaries_) {
    const auto &g = b.geo;
    switch (b.bc) {
    case Bc::extrapolate:
      loop("bc_flux", *b.plan, "extrapolate", ExtrapolateBc{}, read(g.normal), read(g.tangent),
           read(g.binormal), read(ustage_, b.cell, 0), inc(flux_, b.cell, 0));
      break;
    case Bc::tangent:
      loop("bc_flux", *b.plan, "tangent", TangentBc{}, read(g.normal), read(g.tangent),
           read(g.binormal), read(ustage_, b.cell, 0), inc(flux_, b.cell, 0));
      break;
    case Bc::inflow:
      loop("bc_flux", *b.plan, "inflow",
           InflowBc{{kInflow[0], kInflow[1], kInflow[2], kInflow[3], kInflow[4]}}, read(g.normal),
           read(g.tangent), read(g.binormal), read(ustage_, b.cell, 0), inc(flux_, b.cell, 0));
      break;
    case Bc::noslip:
      loop("bc_flux", *b.plan, "noslip", NoSlipBc{}, read(g.centroid), read(g.normal),
           read(g.tangent), read(g.binormal), read(ustage_, b.cell, 0), read(centroid_, b.cell, 0),
           inc(flux_, b.cell, 0));
      break;
    }
  }
}

template <class Exec, class Layout, class B> void Solver<Exec, Layout, B>::face_flux_first_order() {
  const auto &fc = face_cells_;
  const Geometry &g = face_geo_;
  loop("face_flux", *face_plan_, "face_flux", FaceFluxFirstOrder{}, read(g.normal), read(g.tangent),
       read(g.binormal), read(ustage_, fc, 0), read(ustage_, fc, 1), inc(flux_, fc, 0),
       inc(flux_, fc, 1));
}

// Second order, viscous or both (FaceFlux's two flags).
template <class Exec, class Layout, class B>
template <class Kernel>
void Solver<Exec, Layout, B>::face_flux_with(const Kernel &kernel) {
  const auto &fc = face_cells_;
  const Geometry &g = face_geo_;
  loop("face_flux", *face_plan_, "face_flux", kernel, read(g.centroid), read(g.normal),
       read(g.tangent), read(g.binormal), read(ustage_, fc, 0), read(ustage_, fc, 1),
       read(centroid_, fc, 0), read(centroid_, fc, 1), read(grad_, fc, 0), read(grad_, fc, 1),
       read(lim_, fc, 0), read(lim_, fc, 1), inc(flux_, fc, 0), inc(flux_, fc, 1));
}

} // namespace miniaero

#endif
