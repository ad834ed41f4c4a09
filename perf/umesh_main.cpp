// umesh main job: a res_calc-like edge kernel (2D quads) and a face-flux-like
// kernel (3D hexes) under every executor and both layouts. Each run is
// validated against the serial reference, then timed (fenced, median after
// warm-up). Prints a table and writes umesh-results/results.csv (and the
// plan metrics beside it) under the current directory.
//
//   umesh_main [--size tiny|small|large] [--nx N --ny N] [--n3 N]
//              [--executor atomic,gather,...] [--layout aos|soa|all]
//              [--kernel res_calc,face_flux] [--repeats N] [--warmup N]
//              [--out DIR] [--csv FILE] [--kokkos-...]
#include "common/output.hpp"
#include "kernels.hpp"
#include "main_mesh.hpp"
#include "main_options.hpp"
#include "main_report.hpp"

#include <umesh/umesh.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace umesh;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using HostSpace = Kokkos::DefaultHostExecutionSpace;

using namespace umesh::perf;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// Device copy bandwidth: bytes read plus bytes written per second, median.
double copy_bandwidth_gbps() {
  const std::size_t n = std::size_t(64) << 20; // 512 MB per buffer
  Kokkos::View<double *, Mem> a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "copy_a"), n);
  Kokkos::View<double *, Mem> b("copy_b", n);
  Kokkos::deep_copy(a, 1.0);
  std::vector<double> t;
  for (int r = 0; r < 12; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    Kokkos::deep_copy(b, a);
    Kokkos::fence();
    if (r >= 2)
      t.push_back(timer.seconds());
  }
  return 2.0 * n * sizeof(double) / median(t) / 1e9;
}

// Every plan a kernel needs, built once per mesh and shared by both layouts.
struct Plans {
  Plan<exec::Serial, Space> serial;
  Plan<exec::Atomic, Space> atomic;
  Plan<exec::Gather, Space> gather;
  Plan<exec::GlobalColour, Space> colour;
  Plan<exec::ScatterView, Space> scatter;
  std::vector<Plan<exec::Hierarchical, Space>> hier;
  double colour_seconds = 0, gather_seconds = 0;
  // One tuner per layout ("AoS", "SoA"): the layout is a type, and each
  // tunes for its own.
  std::map<std::string, Plan<exec::Auto, Space>> autotune;
};

bool wants(const Options &o, const std::string &executor) {
  return std::count(o.executors.begin(), o.executors.end(), executor) > 0;
}

// `inc_map` is incremented through; `reads` are only read through. Maps are
// in the renumbering's numbering; block renumberings (metis, builtin) give
// the hierarchical plan its blocks, at the renumbering's block size.
template <class... Reads>
Plans make_plans(const Options &o, const Renumbering &ren, const Map<Mem> &inc_map,
                 const Reads &...reads) {
  Space space;
  const Set &set = inc_map.from();
  Plans p{Plan<exec::Serial, Space>(space, set),
          Plan<exec::Atomic, Space>(space, set),
          Plan<exec::Gather, Space>(space, set, inc_map),
          Plan<exec::GlobalColour, Space>(space, set, inc_map),
          Plan<exec::ScatterView, Space>(space, set),
          {},
          0,
          0,
          {}};
  p.colour_seconds = p.colour.build_seconds();
  p.gather_seconds = p.gather.build_seconds();
  if (wants(o, "auto"))
    for (const auto &l : o.layouts)
      p.autotune.emplace(l == "aos" ? "AoS" : "SoA",
                         Plan<exec::Auto, Space>(space, exec::Auto{}.with_block_sizes(o.blocks),
                                                 set, inc_map, read_only(reads)...));
  if (!wants(o, "hierarchical"))
    return p;
  auto add = [&](exec::Hierarchical options) {
    p.hier.emplace_back(space, options, set, inc_map, read_only(reads)...);
    std::printf("  hierarchical plan: %s\n", p.hier.back().summary().c_str());
  };
  if (ren.blocks())
    add(exec::Hierarchical{}.with_block_size(o.reorder_block).with_blocks(ren.blocks()));
  else
    for (int b : o.blocks)
      add(exec::Hierarchical{}.with_block_size(b));
  return p;
}

// The renumbering a reorder name asks for, with its time per phase printed.
template <class... Maps>
Renumbering renumber(const Options &o, const std::string &name, const Set &set,
                     const Maps &...maps) {
  const Renumbering r =
      reorder(ReorderOptions{}.with_method(parse_reorder(name)).with_block_size(o.reorder_block),
              set, maps...);
  if (r.method() != Reorder::none)
    std::printf("  reorder %s: %.2f s (%s)\n", name.c_str(), r.seconds(),
                format(r.phases()).c_str());
  return r;
}

// Hierarchical variants to run: every staging x combine x writeback asked
// for; combining options apply to staged increments only, so staging 'none'
// runs once, with both colourings.
std::vector<exec::Hierarchical> hierarchical_variants(const Options &o) {
  std::vector<exec::Hierarchical> out;
  for (auto staging : o.stagings)
    for (auto combine : o.combines)
      for (auto writeback : o.writebacks) {
        const bool plain =
            combine == exec::Combine::colours && writeback == exec::Writeback::coloured;
        if (staging == exec::Staging::none && !plain)
          continue;
        out.push_back(
            exec::Hierarchical{}.with_staging(staging).with_combine(combine).with_writeback(
                writeback));
      }
  for (auto staging : o.stagings) // 'none' asked for with atomics only: run it plainly
    if (staging == exec::Staging::none && std::none_of(out.begin(), out.end(), [](const auto &h) {
          return h.staging == exec::Staging::none;
        }))
      out.push_back(exec::Hierarchical{}.with_staging(staging));
  return out;
}

// Runs every requested executor (and hierarchical variant) of one kernel and
// layout. loop(exec, plan) runs the kernel once.
template <class OutDat, class RefDat, class Loop>
std::vector<Row> run_all(const Options &o, const std::string &kernel, const std::string &layout,
                         double bytes, Plans &plans, const OutDat &out, const RefDat &ref,
                         const OutDat &initial, Loop &&loop) {
  std::vector<Row> rows;
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  auto one = [&](const std::string &name, auto exec, auto &plan) {
    rows.push_back(
        measure(o, kernel, name, layout, bytes, out, ref, initial, [&] { loop(exec, plan); }));
    return &rows.back();
  };
  for (const auto &name : o.executors) {
    if (name == "serial" && host) // one GPU thread would take minutes at these sizes
      one(name, exec::Serial{}, plans.serial);
    else if (name == "atomic")
      one(name, exec::Atomic{}, plans.atomic);
    else if (name == "gather")
      one(name, exec::Gather{}, plans.gather);
    else if (name == "colour")
      one(name, exec::GlobalColour{}, plans.colour)->note =
          std::to_string(plans.colour.num_colours()) + " colours";
    else if (name == "scatterview")
      one(name, exec::ScatterView{}, plans.scatter);
    else if (name == "auto") {
      // The first (validation) run tunes: its result is checked like any
      // other; the timed runs use the winner. Tuning time is reported apart.
      auto &plan = plans.autotune.at(layout);
      Row *r = one(name, exec::Auto{}, plan);
      char note[256];
      std::snprintf(note, sizeof note, "tuned in %.2f s: %s", plan.tuning_seconds(kernel),
                    plan.choice(kernel).c_str());
      r->note = note;
    } else if (name == "hierarchical")
      for (auto &plan : plans.hier)
        for (const auto &variant : hierarchical_variants(o)) {
          const std::string label = exec::variant_name(variant);
          try {
            Row *r = one(label, variant, plan);
            r->block_size = plan.options().block_size;
            r->scratch = plan.scratch_bytes(kernel);
            r->note = variant.writeback == exec::Writeback::atomic
                          ? "1 launch"
                          : std::to_string(plan.num_block_colours()) + " block colours";
          } catch (const Error &e) {
            // Does not fit this device (scratch or team size): reported, not timed.
            Row r{kernel, label, layout, plan.options().block_size, NAN, NAN, NAN, e.what(), -1};
            rows.push_back(r);
          }
        }
  }
  return rows;
}

template <class DatT> void randomise(const DatT &d, std::uint64_t seed, double lo, double hi) {
  auto h = Kokkos::create_mirror_view(d.view());
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  for (std::size_t i = 0; i < h.extent(0); ++i)
    for (std::size_t k = 0; k < h.extent(1); ++k)
      h(i, k) = u(rng);
  Kokkos::deep_copy(d.view(), h);
}

template <class A, class B> double max_rel_err(const A &got, const B &want) {
  auto g = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), got.view());
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), want.view());
  double err = 0;
  for (std::size_t i = 0; i < g.extent(0); ++i)
    for (std::size_t k = 0; k < g.extent(1); ++k) {
      const double e = std::fabs(g(i, k) - w(i, k)) / std::max(1.0, std::fabs(w(i, k)));
      err = std::isnan(e) ? INFINITY : std::max(err, e);
    }
  return err;
}

// Calls f(exec tag) for an executor name.
template <class F> void with_executor(const std::string &name, F &&f) {
  if (name == "serial")
    f(exec::Serial{});
  else if (name == "atomic")
    f(exec::Atomic{});
  else if (name == "gather")
    f(exec::Gather{});
  else if (name == "colour")
    f(exec::GlobalColour{});
  else if (name == "scatterview")
    f(exec::ScatterView{});
}

// Validates one executor against the reference, times it, then checks that
// every timed launch ran: the output must have moved by exactly
// (timed runs) x (one run's increment).
template <class OutDat, class RefDat, class RunOnce>
Row measure(const Options &o, const std::string &kernel, const std::string &executor,
            const std::string &layout, double bytes, const OutDat &out, const RefDat &ref,
            const OutDat &initial, RunOnce &&run_once) {
  Row row{kernel, executor, layout, 0, 0, 0, 0, ""};
  copy_values(out, initial);
  run_once();
  Kokkos::fence();
  row.max_rel_err = max_rel_err(out, ref);
  const int repeats = executor == "serial" ? std::min(o.repeats, 3) : o.repeats;
  const int warmup = executor == "serial" ? 1 : o.warmup;
  for (int w = 0; w < warmup; ++w)
    run_once();
  Kokkos::fence();
  // create_mirror (not _view): a host dat must be copied, not aliased.
  auto before = Kokkos::create_mirror(out.view());
  Kokkos::deep_copy(before, out.view());
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    run_once();
    Kokkos::fence();
    times.push_back(timer.seconds());
  }
  auto after = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.view());
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ref.view());
  auto i0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), initial.view());
  double drift = 0;
  for (std::size_t i = 0; i < r.extent(0); ++i)
    for (std::size_t k = 0; k < r.extent(1); ++k) {
      const double one = r(i, k) - i0(i, k);
      const double got = (after(i, k) - before(i, k)) / repeats;
      drift = std::max(drift, std::fabs(got - one) / std::max(1.0, std::fabs(one)));
    }
  if (!(drift < 1e-6))
    row.note = "TIMED RUNS INCOMPLETE";
  row.time_ms = median(times) * 1e3;
  row.gbps = bytes / (row.time_ms * 1e-3) / 1e9;
  return row;
}

template <class L>
std::vector<Row> res_calc(const Options &o, const std::string &label, const EdgeFluxMesh &m,
                          const Map<Mem> &pedge, const Map<Mem> &pecell, const Renumbering &ren,
                          const Map<Mem> &pe, const Map<Mem> &pc, Plans &plans, const char *lname) {
  Dat<double, 2, L, Mem> x(m.nodes, "x");
  Dat<double, 4, L, Mem> q(m.cells, "q"), res0(m.cells, "res0");
  Dat<double, 1, L, Mem> adt(m.cells, "adt");
  copy_from_host(x, m.node_coords);
  // Plausible flow states (positive density and pressure), random per cell.
  auto hq = Kokkos::create_mirror_view(q.view());
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0, 1);
  for (int c = 0; c < m.cells.size(); ++c) {
    hq(c, 0) = 0.8 + 0.4 * u(rng);
    hq(c, 1) = 0.3 * (u(rng) - 0.5);
    hq(c, 2) = 0.3 * (u(rng) - 0.5);
    hq(c, 3) = 2.0 + u(rng);
  }
  Kokkos::deep_copy(q.view(), hq);
  randomise(adt, 43, 0.5, 1.5);
  randomise(res0, 44, -1, 1);
  const perf::ResCalc kernel{0.4, 0.05};

  // Reference: the serial executor on host copies of the same inputs.
  auto hx = clone_to<Kokkos::HostSpace>(x);
  auto hqd = clone_to<Kokkos::HostSpace>(q);
  auto hadt = clone_to<Kokkos::HostSpace>(adt);
  auto ref = clone_to<Kokkos::HostSpace>(res0);
  auto hpedge = clone_to<Kokkos::HostSpace>(pedge);
  auto hpecell = clone_to<Kokkos::HostSpace>(pecell);
  par_loop(HostSpace(), exec::Serial{}, m.edges, label, kernel, read(hx, hpedge, 0),
           read(hx, hpedge, 1), read(hqd, hpecell, 0), read(hqd, hpecell, 1),
           read(hadt, hpecell, 0), read(hadt, hpecell, 1), inc(ref, hpecell, 0),
           inc(ref, hpecell, 1));

  // Everything moves into the renumbering's numbering (pe, pc: the maps
  // there); so does the reference, which was computed in the original one.
  const auto x2 = ren.apply(x);
  const auto q2 = ren.apply(q);
  const auto adt2 = ren.apply(adt);
  const auto res0_2 = ren.apply(res0);
  const auto res = ren.apply(res0);
  const auto ref2 = ren.apply(ref);
  const double bytes =
      8.0 * (2 * m.nodes.size() + 4 * m.cells.size() + m.cells.size() + 2 * 4 * m.cells.size()) +
      2 * 4.0 * 2 * m.edges.size();
  return run_all(o, label, lname, bytes, plans, res, ref2, res0_2, [&](auto exec, auto &plan) {
    par_loop(exec, plan, label, kernel, read(x2, pe, 0), read(x2, pe, 1), read(q2, pc, 0),
             read(q2, pc, 1), read(adt2, pc, 0), read(adt2, pc, 1), inc(res, pc, 0),
             inc(res, pc, 1));
  });
}

template <class L>
std::vector<Row> face_flux(const Options &o, const std::string &label, const FaceFluxMesh &m,
                           const Map<Mem> &fc, const Renumbering &ren, const Map<Mem> &fc2,
                           Plans &plans, const char *lname) {
  Dat<double, 3, L, Mem> normal(m.faces, "normal");
  Dat<double, 5, L, Mem> state(m.cells, "u"), flux0(m.cells, "flux0");
  copy_from_host(normal, m.face_normals);
  auto hu = Kokkos::create_mirror_view(state.view());
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  for (int c = 0; c < m.cells.size(); ++c) {
    const double rho = 0.8 + 0.4 * u(rng);
    const double v[3] = {u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5};
    hu(c, 0) = rho;
    for (int k = 0; k < 3; ++k)
      hu(c, 1 + k) = rho * v[k];
    hu(c, 4) = 2.5 + u(rng) + 0.5 * rho * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
  Kokkos::deep_copy(state.view(), hu);
  randomise(flux0, 8, -1, 1);
  const perf::FaceFlux kernel{1.4};

  auto hn = clone_to<Kokkos::HostSpace>(normal);
  auto hs = clone_to<Kokkos::HostSpace>(state);
  auto ref = clone_to<Kokkos::HostSpace>(flux0);
  auto hfc = clone_to<Kokkos::HostSpace>(fc);
  par_loop(HostSpace(), exec::Serial{}, m.faces, label, kernel, read(hn), read(hs, hfc, 0),
           read(hs, hfc, 1), inc(ref, hfc, 0), inc(ref, hfc, 1));

  const auto normal2 = ren.apply(normal);
  const auto state2 = ren.apply(state);
  const auto flux0_2 = ren.apply(flux0);
  const auto flux = ren.apply(flux0);
  const auto ref2 = ren.apply(ref);
  const double bytes = 8.0 * (3 * m.faces.size() + 5 * m.cells.size() + 2 * 5 * m.cells.size()) +
                       4.0 * 2 * m.faces.size();
  return run_all(o, label, lname, bytes, plans, flux, ref2, flux0_2, [&](auto exec, auto &plan) {
    par_loop(exec, plan, label, kernel, read(normal2), read(state2, fc2, 0), read(state2, fc2, 1),
             inc(flux, fc2, 0), inc(flux, fc2, 1));
  });
}

} // namespace

int main(int argc, char **argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const Options o = parse(argc, argv);
  try { // a results path that cannot be written fails now, not after the run
    open_output(o.csv);
  } catch (const Error &e) {
    std::fprintf(stderr, "umesh_main: %s\n", e.what());
    return 2;
  }
  std::printf("umesh main job (git %s, Kokkos %d, execution space %s, C++%ld)\n", UMESH_GIT_HASH,
              KOKKOS_VERSION, Space::name(), __cplusplus / 100 - 2000);
  std::ostringstream config;
  Space().print_configuration(config, false);
  std::string device = Space::name();
#ifdef KOKKOS_ENABLE_CUDA
  {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
      device = prop.name;
  }
#endif
  const double copy_gbps = copy_bandwidth_gbps();
  std::printf(
      "device: %s; concurrency %d; copy bandwidth %.1f GB/s (device-to-device, read+write)\n",
      device.c_str(), Space().concurrency(), copy_gbps);

  std::vector<Row> rows;
  std::vector<PlanRow> plan_rows;
  const bool want2d = std::count(o.kernels.begin(), o.kernels.end(), "res_calc") > 0;
  const bool want3d = std::count(o.kernels.begin(), o.kernels.end(), "face_flux") > 0;
  auto run2d = [&](const std::string &label, const EdgeFluxMesh &m, double mesh_s) {
    std::printf("%s: %s, %d nodes, %d cells, %d edges [mesh %.1f s]\n", label.c_str(),
                m.description.c_str(), m.nodes.size(), m.cells.size(), m.edges.size(), mesh_s);
    Map<Mem> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
    Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
    for (const auto &name : o.reorders) {
      const Renumbering ren = renumber(o, name, m.edges, pecell, read_only(pedge));
      const Map<Mem> pc = ren.apply(pecell), pe = ren.apply(pedge);
      Plans plans = make_plans(o, ren, pc, pe);
      for (auto &p : plans.hier)
        plan_rows.push_back({label, name, p.blocks(), ren.seconds()});
      for (const auto &l : o.layouts) {
        auto r = l == "aos" ? res_calc<AoS>(o, label, m, pedge, pecell, ren, pe, pc, plans, "AoS")
                            : res_calc<SoA>(o, label, m, pedge, pecell, ren, pe, pc, plans, "SoA");
        for (auto &row : r)
          row.reorder = name;
        rows.insert(rows.end(), r.begin(), r.end());
      }
    }
  };
  auto run3d = [&](const std::string &label, const FaceFluxMesh &m, double mesh_s) {
    std::printf("%s: %s, %d cells, %d faces [mesh %.1f s]\n", label.c_str(), m.description.c_str(),
                m.cells.size(), m.faces.size(), mesh_s);
    Map<Mem> fc("face_cells", m.faces, m.cells, 2, m.face_cells);
    for (const auto &name : o.reorders) {
      const Renumbering ren = renumber(o, name, m.faces, fc);
      const Map<Mem> fc2 = ren.apply(fc);
      Plans plans = make_plans(o, ren, fc2);
      for (auto &p : plans.hier)
        plan_rows.push_back({label, name, p.blocks(), ren.seconds()});
      for (const auto &l : o.layouts) {
        auto r = l == "aos" ? face_flux<AoS>(o, label, m, fc, ren, fc2, plans, "AoS")
                            : face_flux<SoA>(o, label, m, fc, ren, fc2, plans, "SoA");
        for (auto &row : r)
          row.reorder = name;
        rows.insert(rows.end(), r.begin(), r.end());
      }
    }
  };
  try {
    if (!o.mesh.empty()) {
      Kokkos::Timer t;
      const FileMeshes fm = read_file_meshes(o.mesh);
      for (const auto &k : o.kernels_asked) // a kernel asked by name must fit the file
        if ((k == "res_calc" && !fm.edges) || (k == "face_flux" && !fm.faces))
          detail::fail("--kernel ", k, ": mesh file '", o.mesh, "' has no ",
                       k == "res_calc" ? "triangles or quads (or they bound 3D cells)"
                                       : "tets or hexes");
      if (want2d && fm.edges)
        run2d("res_calc/" + fm.name, *fm.edges, t.seconds());
      if (want3d && fm.faces)
        run3d("face_flux/" + fm.name, *fm.faces, t.seconds());
    }
  } catch (const Error &e) {
    std::fprintf(stderr, "umesh_main: %s\n", e.what());
    return 2;
  }
  for (const auto &numbering : o.mesh.empty() ? o.numberings : std::vector<std::string>{}) {
    const MeshOptions mo{numbering == "shuffled", 2024};
    if (want2d) {
      Kokkos::Timer t;
      const EdgeFluxMesh m = edge_flux_mesh(make_quad_mesh(o.nx, o.ny, mo), o.nx, o.ny);
      run2d("res_calc/" + numbering, m, t.seconds());
    }
    if (want3d) {
      Kokkos::Timer t;
      const FaceFluxMesh m = face_flux_mesh(make_hex_mesh(o.n3, o.n3, o.n3, mo), o.n3);
      run3d("face_flux/" + numbering, m, t.seconds());
    }
  }

  try {
    return report(o, rows, plan_rows, copy_gbps);
  } catch (const Error &e) { // results lost: say so, and fail
    std::fprintf(stderr, "umesh_main: %s\n", e.what());
    return 2;
  }
}
