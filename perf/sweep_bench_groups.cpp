// The sweep benchmark at UMESH_SWEEP_GROUPS groups (sweep_bench_run.hpp):
// compiled once per group count, the counts in parallel.
#include "sweep_bench_flux.hpp"
#include "sweep_bench_run.hpp"

#include <umesh/sweep_auto.hpp>
#include <umesh/umesh.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#ifndef UMESH_SWEEP_GROUPS
#define UMESH_SWEEP_GROUPS 16
#endif

namespace umesh::perf {

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

// The largest relative difference of a from b, with an absolute floor far
// below the values' scale (1e-15 of the largest).
double max_relative(const std::vector<double> &a, const std::vector<double> &b) {
  double scale = 0, worst = 0;
  for (double v : b)
    scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double e = std::abs(a[i] - b[i]) / (std::abs(b[i]) + 1e-15 * scale + 1e-300);
    worst = std::isnan(e) ? INFINITY : std::max(worst, e);
  }
  return worst;
}

template <class F>
void with_plan(const std::string &name, const SweepBenchOptions &o,
               SweepPlan<exec::SweepLevels> &base, F &&f) {
  if (name == "serial") {
    auto plan = make_sweep_plan(exec::SweepSerial{}, base);
    f(plan);
  } else if (name == "levels") {
    f(base);
  } else if (name == "teams") {
    auto plan = make_sweep_plan(exec::SweepTeams{}, base);
    f(plan);
  } else if (name == "flow") {
    auto plan = make_sweep_plan(exec::SweepDataFlow{}, base);
    f(plan);
  } else {
    auto plan = make_sweep_plan(exec::SweepAuto{}.with_tuning_file(o.tuning_file), base);
    f(plan);
  }
}

template <int G, class Layout> struct LayoutRun {
  const SweepBenchOptions &o;
  const BenchMesh &mesh;
  const Quadrature &q;
  SweepPlan<exec::SweepLevels> &base;
  const StepTransport k;
  const std::vector<double> &reference; // phi after one sweep from zero
  const std::vector<double> &converged; // the reference's source iteration (--reference full)
  int fixed_iterations;                 // its iterations (0: iterate to the tolerance)
  Dat<double, 3, AoS, Mem> x;
  Dat<double, 1, AoS, Mem> vol;
  Dat<double, G, AoS, Mem> phi, next;
  Kokkos::View<double *, Mem> weights;
  AngularFlux<double, Layout, Mem> psi;
  std::vector<double> first_final; // the first executor's converged flux

  template <class Plan> void sweep(Plan &plan) {
    sweep_loop(plan, "transport", k, psi, read(x), read(vol), read(phi));
  }
  void scalar_flux() {
    using V = typename AngularFlux<double, Layout, Mem>::view_type;
    const std::int64_t n = std::int64_t(mesh.cells.size()) * G;
    Kokkos::parallel_for("sweep_bench::scalar_flux",
                         Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
                         ScalarFlux<V, Mem>{psi.view(), weights, next.view().data(), G, q.size()});
  }
  double change() {
    double diff = 0, norm = 0;
    const std::int64_t n = std::int64_t(mesh.cells.size()) * G;
    Kokkos::parallel_reduce("sweep_bench::change",
                            Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
                            FluxChange{next.view().data(), phi.view().data()}, diff, norm);
    return norm > 0 ? diff / norm : diff;
  }
  double hat_error() {
    using V = typename AngularFlux<double, Layout, Mem>::view_type;
    double diff = 0, norm = 0;
    const std::int64_t n = std::int64_t(mesh.cells.size()) * q.size() * G;
    Kokkos::parallel_reduce("sweep_bench::hat_error",
                            Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
                            HatError<V>{psi.view(), x.view().data(), k, q.size(), G}, diff, norm);
    return std::sqrt(diff / norm);
  }
  std::vector<double> host_flux() const {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), next.view());
    return std::vector<double>(h.data(), h.data() + std::size_t(mesh.cells.size()) * G);
  }
  void reset() {
    Kokkos::deep_copy(psi.view(), 0.0);
    Kokkos::deep_copy(phi.view(), 0.0);
  }

  template <class Plan> void measure(Plan &plan, SweepBenchRow &row) {
    reset();
    sweep(plan); // (exec::SweepAuto tunes here)
    scalar_flux();
    row.ref_error = reference.empty() ? NAN : max_relative(host_flux(), reference);
    row.status = reference.empty() ? "unchecked" : row.ref_error <= 1e-12 ? "ok" : "FAILED";
    if constexpr (!std::is_same<Plan, SweepPlan<exec::SweepLevels>>::value &&
                  !std::is_same<Plan, SweepPlan<exec::SweepSerial>>::value &&
                  !std::is_same<Plan, SweepPlan<exec::SweepTeams>>::value &&
                  !std::is_same<Plan, SweepPlan<exec::SweepDataFlow>>::value)
      row.choice = plan.choice("transport");
    std::vector<double> ms;
    for (int r = 0; r < o.repeats; ++r) {
      Kokkos::fence();
      Kokkos::Timer t;
      sweep(plan);
      Kokkos::fence();
      ms.push_back(t.seconds() * 1e3);
    }
    std::sort(ms.begin(), ms.end());
    row.sweep_ms = ms[ms.size() / 2];
    const double updates = double(mesh.cells.size()) * q.size() * G;
    row.grind_ns = row.sweep_ms * 1e6 / updates;
    row.updates_per_s = updates / (row.sweep_ms * 1e-3);
    reset();
    const int most = fixed_iterations > 0 ? fixed_iterations : o.max_iterations;
    for (row.iterations = 1;; ++row.iterations) {
      sweep(plan);
      scalar_flux();
      row.residual = change();
      Kokkos::deep_copy(phi.view(), next.view());
      if (row.iterations == most || (fixed_iterations == 0 && row.residual < o.tolerance))
        break;
    }
    row.hat_l2 = hat_error();
    const std::vector<double> final = host_flux();
    if (first_final.empty()) {
      first_final = final;
      if (!o.flux_out.empty())
        write_flux(final);
    }
    row.agree = max_relative(final, converged.empty() ? first_final : converged);
    if (row.agree > 1e-12 && row.status == "ok")
      row.status = "FAILED";
  }
  void write_flux(const std::vector<double> &flux) const {
    const std::string path =
        o.flux_out + "_" + std::to_string(mesh.cells.size()) + "_g" + std::to_string(G) + ".phi";
    std::ofstream out(path, std::ios::binary);
    out << "umesh sweep flux " << mesh.cells.size() << " " << G << "\n";
    out.write(reinterpret_cast<const char *>(flux.data()), std::streamsize(flux.size() * 8));
    if (!out)
      fail("cannot write '", path, "'");
    std::printf("# wrote the scalar flux to %s\n", path.c_str());
  }
};

template <int G, class Layout>
void run_layout(const SweepBenchOptions &o, const BenchMesh &mesh, const Quadrature &q,
                SweepPlan<exec::SweepLevels> &base, const StepTransport &k,
                const std::vector<double> &reference, const std::vector<double> &converged,
                int fixed_iterations, std::vector<SweepBenchRow> &rows) {
  const Set &cells = base.cells();
  LayoutRun<G, Layout> run{o,
                           mesh,
                           q,
                           base,
                           k,
                           reference,
                           converged,
                           fixed_iterations,
                           Dat<double, 3, AoS, Mem>(cells, "centroid"),
                           Dat<double, 1, AoS, Mem>(cells, "volume"),
                           Dat<double, G, AoS, Mem>(cells, "phi"),
                           Dat<double, G, AoS, Mem>(cells, "phi_next"),
                           detail::upload<double, Mem>("weights", q.weights),
                           AngularFlux<double, Layout, Mem>(cells, q.size(), G, "psi"),
                           {}};
  copy_from_host(run.x, mesh.centroid);
  copy_from_host(run.vol, mesh.volume);
  double levels_ms = 0;
  for (const std::string &name : o.executors) {
    SweepBenchRow row;
    row.mesh = mesh.name;
    row.cells = mesh.cells.size();
    row.directions = q.size();
    row.groups = G;
    row.layout = std::is_same<Layout, AoS>::value ? "AoS" : "SoA";
    row.executor = name;
    row.levels = base.schedule().max_levels();
    row.lagged = base.schedule().lagged_faces();
    with_plan(name, o, base, [&](auto &plan) { run.measure(plan, row); });
    if (name == "levels")
      levels_ms = row.sweep_ms;
    row.vs_levels = levels_ms > 0 ? levels_ms / row.sweep_ms : NAN;
    std::printf("%s\n", sweep_csv_row(row).c_str());
    std::fflush(stdout);
    rows.push_back(row);
  }
}

} // namespace

template <int G>
void run_sweep_groups(const SweepBenchOptions &o, const BenchMesh &mesh, const Quadrature &q,
                      SweepPlan<exec::SweepLevels> &base, std::vector<SweepBenchRow> &rows) {
  StepTransport k;
  k.sigma_t = o.sigma_t, k.sigma_s = o.sigma_s, k.centre = o.side / 2, k.radius = 0.3 * o.side;
  const SweepSchedule &s = base.schedule();
  std::vector<double> reference;
  if (o.reference != "none") {
    Kokkos::Timer t;
    std::vector<double> lagged(std::size_t(s.lagged_faces()) * G, 0.0);
    const std::vector<double> zero(std::size_t(mesh.cells.size()) * G, 0.0);
    reference_sweep(s, k, G, q.weights, mesh.centroid, mesh.volume, zero, lagged, reference);
    std::printf("# serial reference sweep, %d groups: %.3f s on the host\n", G, t.seconds());
    std::fflush(stdout);
  }
  // --reference full: the reference's source iteration to the tolerance;
  // the executors then run as many iterations and are compared with it.
  std::vector<double> converged;
  int iterations = 0;
  if (o.reference == "full") {
    Kokkos::Timer t;
    std::vector<double> lagged(std::size_t(s.lagged_faces()) * G, 0.0), next;
    std::vector<double> before(std::size_t(mesh.cells.size()) * G, 0.0);
    double change = 0;
    for (iterations = 1;; ++iterations) {
      reference_sweep(s, k, G, q.weights, mesh.centroid, mesh.volume, before, lagged, next);
      double diff = 0, norm = 0;
      for (std::size_t i = 0; i < next.size(); ++i)
        diff += std::abs(next[i] - before[i]), norm += std::abs(next[i]);
      change = norm > 0 ? diff / norm : diff;
      before.swap(next);
      if (change < o.tolerance || iterations == o.max_iterations)
        break;
    }
    converged = before;
    std::printf("# serial reference source iteration, %d groups: %d iterations to %.3g, %.3f s\n",
                G, iterations, change, t.seconds());
  }
  for (const std::string &layout : o.layouts)
    if (layout == "aos")
      run_layout<G, AoS>(o, mesh, q, base, k, reference, converged, iterations, rows);
    else
      run_layout<G, SoA>(o, mesh, q, base, k, reference, converged, iterations, rows);
}

template void run_sweep_groups<UMESH_SWEEP_GROUPS>(const SweepBenchOptions &, const BenchMesh &,
                                                   const Quadrature &,
                                                   SweepPlan<exec::SweepLevels> &,
                                                   std::vector<SweepBenchRow> &);

} // namespace umesh::perf
