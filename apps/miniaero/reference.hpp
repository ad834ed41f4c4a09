#ifndef UMESH_MINIAERO_REFERENCE_HPP
#define UMESH_MINIAERO_REFERENCE_HPP

// miniAero's own two strategies, kept in its code shape as the baseline the
// umesh executors are measured against: plain Kokkos kernels over Views in
// the device's default layout, internal faces visited through a permutation
// sorted by left cell, and either
//   Atomic = true : Kokkos atomics into per-cell arrays (ATOMICS_FLUX), or
//   Atomic = false: every face writes its own [cell][face slot] entry and a
//                   per-cell kernel sums (or min/max-es) the six slots
//                   afterwards (CELL_FLUX, apply_cell_flux).
// The pointwise physics is the same code as the umesh kernels (kernels.hpp),
// reached through small accessors over these Views, so that only the data
// movement differs between the variants.

#include "kernels.hpp"
#include "reference_access.hpp"
#include "solver.hpp"

#include <algorithm>
#include <numeric>

namespace miniaero {

template <bool Atomic> class MiniAeroReference : public SolverBase {
public:
  using Sol = Kokkos::View<double *[5], Mem>;
  using Vec = Kokkos::View<double *[3], Kokkos::LayoutRight, Mem>;
  using Conn = Kokkos::View<int *[2], Mem>;
  using Store = Kokkos::View<double **[5], Mem>;
  using GradStore = Kokkos::View<double **[5][3], Mem>;
  using Grad = Kokkos::View<double *[5][3], Mem>;
  static constexpr int kSlots = Atomic ? 1 : 6;

  struct FaceSet {
    Bc bc;
    int n;
    Conn conn, slot;
    Vec xf, normal, tangent, binormal;
  };

  MiniAeroReference(const Input &in, const Mesh &m) : in_(in) {
    nc_ = m.num_cells;
    faces_ = upload_faces(Bc::extrapolate, m.face_cells, m.face_slots, m.faces);
    for (const auto &b : m.boundaries) {
      std::vector<int> conn, slot;
      for (int c : b.cell) {
        conn.insert(conn.end(), {c, -1});
        slot.insert(slot.end(), {0, 0});
      }
      boundaries_.push_back(upload_faces(b.bc, conn, slot, b.geometry));
    }
    // Which of its six faces a boundary face is, in its cell: needed for the
    // slot arrays. A cell's boundary faces take the slots its interior faces
    // leave free.
    if (!Atomic)
      assign_boundary_slots(m);
    // Faces visited in order of their left cell (miniAero's BinSort).
    std::vector<int> order(faces_.n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return m.face_cells[2 * a] < m.face_cells[2 * b]; });
    perm_ = upload_ints(order, "permute_vector");
    volume_ = Kokkos::View<double *, Mem>("volume", nc_);
    {
      auto h = Kokkos::create_mirror_view(volume_);
      for (int c = 0; c < nc_; ++c)
        h(c) = m.cell_volume[c];
      Kokkos::deep_copy(volume_, h);
    }
    xc_ = upload_vec(m.cell_centroid, "cell_centroid");
    un_ = Sol("U_n", nc_);
    {
      auto h = Kokkos::create_mirror_view(un_);
      const auto u0 = initial_state(in, m);
      for (int c = 0; c < nc_; ++c)
        for (int k = 0; k < 5; ++k)
          h(c, k) = u0[5 * c + k];
      Kokkos::deep_copy(un_, h);
    }
    ustage_ = Sol("U_stage", nc_);
    unp1_ = Sol("U_np1", nc_);
    Kokkos::deep_copy(unp1_, un_);
    res_ = Sol("residual", nc_);
    cell_flux_ = Store("cell_flux", nc_, kSlots);
    if (in.second_order || in.viscous) {
      cell_grad_ = GradStore("cell_gradient", nc_, kSlots);
      grad_ = Grad("gradient", nc_);
    }
    if (in.second_order) {
      stored_min_ = Store("stored_min", nc_, kSlots);
      stored_max_ = Store("stored_max", nc_, kSlots);
      stored_lim_ = Store("stored_limiter", nc_, kSlots);
      lo_ = Sol("stencil_min", nc_);
      hi_ = Sol("stencil_max", nc_);
      lim_ = Sol("limiter", nc_);
    }
  }

  void step() override {
    for (int s = 0; s < 4; ++s)
      timers_.time("rk_stage", [&] { stage(s); });
    Kokkos::deep_copy(un_, unp1_);
  }

  std::vector<double> solution() const override {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), un_);
    std::vector<double> out(std::size_t(nc_) * 5);
    for (int c = 0; c < nc_; ++c)
      for (int k = 0; k < 5; ++k)
        out[std::size_t(c) * 5 + k] = h(c, k);
    return out;
  }

  // The loops (public: nvcc wants device lambdas in public members).
  void stage(int s) {
    timers_.time("update", [&] { stage_state(kAlpha[s]); });
    if (in_.second_order || in_.viscous)
      timers_.time("gradient", [&] { gradients(); });
    if (in_.second_order) {
      timers_.time("stencil_minmax", [&] { stencil(); });
      timers_.time("limiter", [&] { limiter(); });
    }
    timers_.time("face_flux", [&] { face_flux(); });
    timers_.time("bc_flux", [&] { boundary_flux(); });
    timers_.time("apply_cell_flux", [&] { apply_cell_flux(); });
    timers_.time("update", [&] { accumulate(kBeta[s]); });
  }

  void stage_state(double alpha) {
    auto un = un_, res = res_, us = ustage_;
    Kokkos::parallel_for(
        "miniaero::update", nc_, KOKKOS_LAMBDA(int i) {
          for (int k = 0; k < 5; ++k)
            us(i, k) = un(i, k) + alpha * res(i, k);
        });
    Kokkos::deep_copy(cell_flux_, 0.0);
  }

  void accumulate(double beta) {
    auto res = res_, unp1 = unp1_;
    Kokkos::parallel_for(
        "miniaero::accumulate", nc_, KOKKOS_LAMBDA(int i) {
          for (int k = 0; k < 5; ++k)
            unp1(i, k) += beta * res(i, k);
        });
  }

  void gradients() {
    using ref::row;
    Kokkos::deep_copy(cell_grad_, 0.0);
    auto u = ustage_;
    auto vol = volume_;
    auto cg = cell_grad_;
    using VolRow = ref::Scalar<Kokkos::View<double *, Mem>>;
    using G = ref::GradSlot<Atomic, GradStore>;
    {
      const FaceSet f = faces_;
      auto perm = perm_;
      Kokkos::parallel_for(
          "miniaero::green_gauss_face", f.n, KOKKOS_LAMBDA(int ii) {
            const int i = perm(ii), l = f.conn(i, 0), r = f.conn(i, 1);
            GradientFace{}(row(u, l), row(u, r), VolRow{vol, l}, VolRow{vol, r}, row(f.normal, i),
                           G{cg, l, Atomic ? 0 : f.slot(i, 0)},
                           G{cg, r, Atomic ? 0 : f.slot(i, 1)});
          });
    }
    for (const FaceSet &f : boundaries_)
      Kokkos::parallel_for(
          "miniaero::green_gauss_boundary_face", f.n, KOKKOS_LAMBDA(int i) {
            const int c = f.conn(i, 0);
            GradientBoundary{}(row(u, c), VolRow{vol, c}, row(f.normal, i),
                               G{cg, c, Atomic ? 0 : f.slot(i, 0)});
          });
    auto g = grad_;
    Kokkos::parallel_for(
        "miniaero::green_gauss_gradient_sum", nc_, KOKKOS_LAMBDA(int i) {
          for (int k = 0; k < 5; ++k)
            for (int d = 0; d < 3; ++d) {
              double sum = 0;
              for (int s = 0; s < kSlots; ++s)
                sum += cg(i, s, k, d);
              g(i, k, d) = sum;
            }
        });
  }

  void stencil() {
    using ref::row;
    Kokkos::deep_copy(stored_min_, 1e300);
    Kokkos::deep_copy(stored_max_, -1e300);
    auto u = ustage_;
    auto smin = stored_min_, smax = stored_max_;
    using Lo = ref::Slot<ref::Op::min, Atomic, Store>;
    using Hi = ref::MaxSlot<Atomic, Store>;
    {
      const FaceSet f = faces_;
      auto perm = perm_;
      Kokkos::parallel_for(
          "miniaero::min_max_face", f.n, KOKKOS_LAMBDA(int ii) {
            const int i = perm(ii), l = f.conn(i, 0), r = f.conn(i, 1);
            const int sl = Atomic ? 0 : f.slot(i, 0), sr = Atomic ? 0 : f.slot(i, 1);
            StencilFace{}(row(u, l), row(u, r), Lo{smin, l, sl}, Lo{smin, r, sr}, Hi{smax, l, sl},
                          Hi{smax, r, sr});
          });
    }
    for (const FaceSet &f : boundaries_)
      Kokkos::parallel_for(
          "miniaero::min_max_boundary_face", f.n, KOKKOS_LAMBDA(int i) {
            const int c = f.conn(i, 0), s = Atomic ? 0 : f.slot(i, 0);
            StencilBoundary{}(row(u, c), Lo{smin, c, s}, Hi{smax, c, s});
          });
    auto lo = lo_, hi = hi_;
    Kokkos::parallel_for(
        "miniaero::gather_min_max", nc_, KOKKOS_LAMBDA(int i) {
          for (int k = 0; k < 5; ++k) {
            double a = 1e300, b = -1e300;
            for (int s = 0; s < kSlots; ++s) {
              a = smin(i, s, k) < a ? smin(i, s, k) : a;
              b = smax(i, s, k) > b ? smax(i, s, k) : b;
            }
            lo(i, k) = a;
            hi(i, k) = b;
          }
        });
  }

  void limiter() {
    using ref::row;
    Kokkos::deep_copy(stored_lim_, 1.0);
    auto u = ustage_;
    auto xc = xc_;
    auto g = grad_;
    auto lo = lo_, hi = hi_;
    auto sl = stored_lim_;
    using Lim = ref::Slot<ref::Op::min, Atomic, Store>;
    using G = ref::GradRow<Grad>;
    {
      const FaceSet f = faces_;
      auto perm = perm_;
      Kokkos::parallel_for(
          "miniaero::limiter_face", f.n, KOKKOS_LAMBDA(int ii) {
            const int i = perm(ii), l = f.conn(i, 0), r = f.conn(i, 1);
            LimiterFace{}(row(f.xf, i), row(u, l), row(u, r), row(xc, l), row(xc, r), G{g, l},
                          G{g, r}, row(lo, l), row(lo, r), row(hi, l), row(hi, r),
                          Lim{sl, l, Atomic ? 0 : f.slot(i, 0)},
                          Lim{sl, r, Atomic ? 0 : f.slot(i, 1)});
          });
    }
    for (const FaceSet &f : boundaries_)
      Kokkos::parallel_for(
          "miniaero::limiter_boundary_face", f.n, KOKKOS_LAMBDA(int i) {
            const int c = f.conn(i, 0);
            LimiterBoundary{}(row(f.xf, i), row(u, c), row(xc, c), G{g, c}, row(lo, c), row(hi, c),
                              Lim{sl, c, Atomic ? 0 : f.slot(i, 0)});
          });
    auto lim = lim_;
    Kokkos::parallel_for(
        "miniaero::gather_limiter", nc_, KOKKOS_LAMBDA(int i) {
          for (int k = 0; k < 5; ++k) {
            double a = 1.0;
            for (int s = 0; s < kSlots; ++s)
              a = sl(i, s, k) < a ? sl(i, s, k) : a;
            lim(i, k) = a;
          }
        });
  }

  template <class Kernel> void face_flux_with(const Kernel &kernel) {
    using ref::row;
    using F = ref::Slot<ref::Op::sum, Atomic, Store>;
    using G = ref::GradRow<Grad>;
    const FaceSet f = faces_;
    auto perm = perm_;
    auto u = ustage_;
    auto xc = xc_;
    auto g = grad_;
    auto lim = lim_;
    auto cf = cell_flux_;
    Kokkos::parallel_for(
        "miniaero::compute_face_flux", f.n, KOKKOS_LAMBDA(int ii) {
          // Everything captured is touched before the constexpr branch (nvcc).
          const Kernel k = kernel;
          const int i = perm(ii), l = f.conn(i, 0), r = f.conn(i, 1);
          const F fl{cf, l, Atomic ? 0 : f.slot(i, 0)}, fr{cf, r, Atomic ? 0 : f.slot(i, 1)};
          // One type per declaration: nvcc rejects mixed-type auto lists.
          const auto x = row(f.xf, i), n = row(f.normal, i), t = row(f.tangent, i),
                     b = row(f.binormal, i);
          const auto ul = row(u, l), ur = row(u, r);
          const auto xl = row(xc, l), xr = row(xc, r);
          const G gl{g, l}, gr{g, r};
          const auto ll = row(lim, l), lr = row(lim, r);
          if constexpr (std::is_same<Kernel, FaceFluxFirstOrder>::value)
            k(n, t, b, ul, ur, fl, fr);
          else
            k(x, n, t, b, ul, ur, xl, xr, gl, gr, ll, lr, fl, fr);
        });
  }

  void face_flux() {
    if (!in_.second_order && !in_.viscous)
      face_flux_with(FaceFluxFirstOrder{});
    else if (in_.second_order && in_.viscous)
      face_flux_with(FaceFlux<true, true>{});
    else if (in_.second_order)
      face_flux_with(FaceFlux<true, false>{});
    else
      face_flux_with(FaceFlux<false, true>{});
  }

  template <class Kernel> void boundary_flux_with(const FaceSet &f, const Kernel &kernel) {
    using ref::row;
    using F = ref::Slot<ref::Op::sum, Atomic, Store>;
    auto u = ustage_;
    auto xc = xc_;
    auto cf = cell_flux_;
    Kokkos::parallel_for(
        "miniaero::boundary_flux", f.n, KOKKOS_LAMBDA(int i) {
          const Kernel k = kernel;
          const int c = f.conn(i, 0);
          const F fb{cf, c, Atomic ? 0 : f.slot(i, 0)};
          const auto x = row(f.xf, i), n = row(f.normal, i), t = row(f.tangent, i),
                     b = row(f.binormal, i);
          const auto uc = row(u, c);
          const auto xcc = row(xc, c);
          if constexpr (std::is_same<Kernel, NoSlipBc>::value)
            k(x, n, t, b, uc, xcc, fb);
          else
            k(n, t, b, uc, fb);
        });
  }

  void boundary_flux() {
    for (const FaceSet &f : boundaries_) {
      switch (f.bc) {
      case Bc::extrapolate:
        boundary_flux_with(f, ExtrapolateBc{});
        break;
      case Bc::tangent:
        boundary_flux_with(f, TangentBc{});
        break;
      case Bc::inflow:
        boundary_flux_with(f,
                           InflowBc{{kInflow[0], kInflow[1], kInflow[2], kInflow[3], kInflow[4]}});
        break;
      case Bc::noslip:
        boundary_flux_with(f, NoSlipBc{});
        break;
      }
    }
  }

  void apply_cell_flux() {
    auto cf = cell_flux_;
    auto vol = volume_;
    auto res = res_;
    const double dt = in_.dt;
    Kokkos::parallel_for(
        "miniaero::apply_cell_flux", nc_, KOKKOS_LAMBDA(int i) {
          for (int k = 0; k < 5; ++k) {
            double r = 0;
            for (int s = 0; s < kSlots; ++s)
              r += dt / vol(i) * cf(i, s, k);
            res(i, k) = r;
          }
        });
  }

private:
  static Kokkos::View<int *, Mem> upload_ints(const std::vector<int> &v, const char *label) {
    Kokkos::View<int *, Mem> d(std::string(label), v.size());
    auto h = Kokkos::create_mirror_view(d);
    for (std::size_t i = 0; i < v.size(); ++i)
      h(i) = v[i];
    Kokkos::deep_copy(d, h);
    return d;
  }
  static Vec upload_vec(const std::vector<double> &v, const char *label) {
    Vec d(std::string(label), v.size() / 3);
    auto h = Kokkos::create_mirror_view(d);
    for (std::size_t i = 0; i < v.size() / 3; ++i)
      for (int k = 0; k < 3; ++k)
        h(i, k) = v[3 * i + k];
    Kokkos::deep_copy(d, h);
    return d;
  }
  static Conn upload_pairs(const std::vector<int> &v, const char *label) {
    Conn d(std::string(label), v.size() / 2);
    auto h = Kokkos::create_mirror_view(d);
    for (std::size_t i = 0; i < v.size() / 2; ++i)
      for (int k = 0; k < 2; ++k)
        h(i, k) = v[2 * i + k];
    Kokkos::deep_copy(d, h);
    return d;
  }
  static FaceSet upload_faces(Bc bc, const std::vector<int> &conn, const std::vector<int> &slot,
                              const FaceGeometry &g) {
    return {bc,
            int(conn.size() / 2),
            upload_pairs(conn, "face_cell_conn"),
            upload_pairs(slot, "cell_flux_index"),
            upload_vec(g.centroid, "face_centroid"),
            upload_vec(g.normal, "face_normal"),
            upload_vec(g.tangent, "face_tangent"),
            upload_vec(g.binormal, "face_binormal")};
  }
  void assign_boundary_slots(const Mesh &m) {
    std::vector<unsigned char> used(nc_, 0);
    for (std::size_t f = 0; f < m.face_slots.size() / 2; ++f)
      for (int a = 0; a < 2; ++a)
        used[m.face_cells[2 * f + a]] |= 1u << m.face_slots[2 * f + a];
    for (std::size_t b = 0; b < m.boundaries.size(); ++b) {
      std::vector<int> slot;
      for (int c : m.boundaries[b].cell) {
        int s = 0;
        while (used[c] >> s & 1u)
          ++s;
        used[c] |= 1u << s;
        slot.insert(slot.end(), {s, 0});
      }
      boundaries_[b].slot = upload_pairs(slot, "cell_flux_index");
    }
  }

  Input in_;
  int nc_ = 0;
  FaceSet faces_;
  std::vector<FaceSet> boundaries_;
  Kokkos::View<int *, Mem> perm_;
  Kokkos::View<double *, Mem> volume_;
  Vec xc_;
  Sol un_, ustage_, unp1_, res_, lo_, hi_, lim_;
  Store cell_flux_, stored_min_, stored_max_, stored_lim_;
  GradStore cell_grad_;
  Grad grad_;
};

} // namespace miniaero

#endif
