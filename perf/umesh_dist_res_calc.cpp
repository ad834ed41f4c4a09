// res_calc over MPI ranks (umesh::dist): Airfoil's edge loop on a quad mesh
// whose edges are dealt to the ranks, then a cell update, as one time step;
// checked against the serial reference on the whole mesh, then timed: time
// per step (the slowest rank's median) and the share spent in halo exchange.
// One GPU per rank with Kokkos' --kokkos-num-devices=N; each rank's device and
// its copy bandwidth are printed first, so a scaling run shows where it ran.
// --overlap on runs res_calc with an OverlapPlan (halo exchange under way
// while the edges that reach no halo cell run; dist/overlap.hpp); --transport
// nccl exchanges GPU to GPU through NCCL instead of through the host.
#include "kernels.hpp"

#include "common/bandwidth.hpp"
#include "common/cli.hpp"
#include "common/kokkos_scope.hpp"
#include "common/output.hpp"
#include "common/ranks.hpp"
#include "common/run_main.hpp"
#include "common/sizes.hpp"
#include "dist_report.hpp"

#include <umesh/dist.hpp>
#include <umesh/exec_names.hpp>
#include <umesh/umesh.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <type_traits>

namespace {

using namespace umesh;
using perf::per_rank_text;
using perf::report_devices;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

// The hierarchical variant it runs (staging inc, gather, atomic write-back,
// four blocks per team): only those kernels are compiled.
using DistHierarchical =
    exec::HierarchicalOf<exec::HierarchicalKernels::gather | exec::HierarchicalKernels::pipelined>;
// The executors --exec takes (the names: umesh/exec_names.hpp).
using Executors =
    exec::List<exec::Atomic, exec::ScatterView, exec::Gather, exec::GlobalColour, DistHierarchical>;

struct Options {
  int nx = 2400, ny = 1200, steps = 20, warmup = 3, block = 256;
  std::vector<std::string> execs{exec::name_of_v<exec::Atomic>,
                                 exec::name_of_v<exec::Hierarchical>};
  std::vector<std::string> overlaps{"off"};
  std::vector<std::string> transports{"host"};
  std::string layout = "soa", csv;
  std::string reorder = "none"; // each rank renumbers its part (Partition's local order)
  std::string partition;        // how edges are dealt; empty: METIS when built, else slabs
  bool check = true;
  bool breakdown = false; // also time the step's parts apart, fenced, per rank
};

// The failure policy's test (perf.dist_res_calc.one_rank_fails): the rank
// that UMESH_TEST_FAIL_RANK names fails here, alone, once the edges are
// dealt, as a rank that runs out of memory would while the others go on
// into the partition's collectives.
void fail_here_if_asked(int rank) {
  const char *asked = std::getenv("UMESH_TEST_FAIL_RANK");
  if (asked && std::to_string(rank) == asked)
    throw Error(std::string("failing here, alone, as UMESH_TEST_FAIL_RANK=") + asked +
                " asks (a test of the failure policy)");
}

// Median of timed runs of f, each fenced, in ms.
template <class F> double median_ms(int runs, F &&f) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    Kokkos::Timer timer;
    f();
    Kokkos::fence();
    t.push_back(timer.seconds() * 1e3);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Airfoil's update, reduced: the state moves by the residual, which is reset.
struct Update {
  template <class R, class Q> KOKKOS_INLINE_FUNCTION void operator()(R res, Q q) const {
    for (int k = 0; k < 4; ++k) {
      q(k) += 1e-9 * res(k);
      res(k) = 0.0;
    }
  }
};

struct Result {
  double step_ms = 0, exchange_share = 0, max_rel_err = -1;
  double pack_share = 0, wait_share = 0, unpack_share = 0; // of the time, the exchange's phases
  std::string per_rank;  // each rank's median step (ms) and edge count, to see imbalance
  std::string breakdown; // --breakdown: each rank's parts of the step, fenced apart
};

// Both halos' phases (cells and nodes) summed.
dist::Exchange::Phases phases_of(const dist::Exchange &a, const dist::Exchange &b) {
  const auto x = a.phases(), y = b.phases();
  return {x.pack + y.pack, x.wait + y.wait, x.unpack + y.unpack};
}

template <class L, class E, class PlanT>
Result run_with(const Options &o, const QuadMesh &m, const dist::Partition<Mem> &part, E exec,
                PlanT plan, const std::vector<double> &q0, const std::vector<double> &adt0) {
  const auto &cells = part.part(m.cells);
  dist::Dat<double, 2, L, Mem> x(part.part(m.nodes), "x");
  dist::Dat<double, 4, L, Mem> q(cells, "q"), res(cells, "res");
  dist::Dat<double, 1, L, Mem> adt(cells, "adt");
  x.set_global(m.node_coords);
  q.set_global(q0);
  adt.set_global(adt0);
  const Map<Mem> &pe = part.map("pedge"), &pc = part.map("pecell");
  auto cell_plan = make_plan(Space(), exec::Atomic{}, cells->local);
  const perf::ResCalc kernel{0.4, 0.05};
  // res_calc's arguments on the given dats: the distributed ones (argument
  // lookup picks dist::read and dist::inc) or their local parts (umesh's).
  auto res_calc_on = [&](auto &&loop, const auto &xd, const auto &qd, const auto &ad,
                         const auto &rd) {
    loop(read(xd, pe, 0), read(xd, pe, 1), read(qd, pc, 0), read(qd, pc, 1), read(ad, pc, 0),
         read(ad, pc, 1), inc(rd, pc, 0), inc(rd, pc, 1));
  };
  auto res_calc = [&] {
    res_calc_on(
        [&](const auto &...a) { dist::par_loop(plan, exec.loop(), "res_calc", kernel, a...); }, x,
        q, adt, res);
  };
  auto step = [&] {
    res_calc();
    dist::par_loop(cell_plan, "update", Update{}, dist::rw(res), dist::rw(q));
  };
  Result r;
  if (o.check) { // one res_calc against the serial loop on the whole mesh
    res_calc();
    using H = Kokkos::HostSpace;
    Map<H> hpe("pedge", m.edges, m.nodes, 2, m.edge_nodes);
    Map<H> hpc("pecell", m.edges, m.cells, 2, m.edge_cells);
    umesh::Dat<double, 2, L, H> hx(m.nodes, "x");
    umesh::Dat<double, 4, L, H> hq(m.cells, "q"), hres(m.cells, "res");
    umesh::Dat<double, 1, L, H> hadt(m.cells, "adt");
    copy_from_host(hx, m.node_coords);
    copy_from_host(hq, q0);
    copy_from_host(hadt, adt0);
    auto serial = make_plan(Kokkos::DefaultHostExecutionSpace(), exec::Serial{}, m.edges);
    par_loop(serial, "res_calc", kernel, read(hx, hpe, 0), read(hx, hpe, 1), read(hq, hpc, 0),
             read(hq, hpc, 1), read(hadt, hpc, 0), read(hadt, hpc, 1), inc(hres, hpc, 0),
             inc(hres, hpc, 1));
    const std::vector<double> got = res.gather_global(MPI_COMM_WORLD);
    double err = 0;
    for (int c = 0; c < m.cells.size(); ++c)
      for (int k = 0; k < 4; ++k) {
        const double a = got[4 * std::size_t(c) + k], b = hres.view()(c, k);
        err = std::isnan(a) ? INFINITY
                            : std::max(err, std::fabs(a - b) / std::max(1.0, std::fabs(b)));
      }
    r.max_rel_err = err;
    dist::par_loop(cell_plan, "reset", Update{}, dist::rw(res), dist::rw(q));
  }
  for (int i = 0; i < o.warmup; ++i)
    step();
  Kokkos::fence();
  const auto phases0 = phases_of(*cells->halo, *part.part(m.nodes)->halo);
  std::vector<double> times;
  Kokkos::Timer total;
  for (int i = 0; i < o.steps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    Kokkos::Timer t;
    step();
    Kokkos::fence();
    times.push_back(t.seconds());
  }
  const double all = total.seconds();
  std::sort(times.begin(), times.end());
  const auto phases = phases_of(*cells->halo, *part.part(m.nodes)->halo);
  const double pack = phases.pack - phases0.pack, wait = phases.wait - phases0.wait,
               unpack = phases.unpack - phases0.unpack;
  double mine[5] = {times[times.size() / 2] * 1e3, (pack + wait + unpack) / all, pack / all,
                    wait / all, unpack / all},
         worst[5];
  MPI_Allreduce(mine, worst, 5, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  r.step_ms = worst[0];
  r.exchange_share = worst[1];
  r.pack_share = worst[2];
  r.wait_share = worst[3];
  r.unpack_share = worst[4];
  r.per_rank = per_rank_text({mine[0], double(part.elements()->local.size())},
                             {" %.4f ms", " over %.0f edges"});
  if (o.breakdown) {
    // The dist loop (q's import and res's export in it, as in a step) and the
    // update, each fenced; then the same res_calc as a plain umesh::par_loop
    // on this rank's local dats (no exchange, no halo zeroing): what the loop
    // costs here without MPI.
    const double loop = median_ms(o.steps, [&] {
      q.mark_halo_stale();
      res_calc();
    });
    const double update = median_ms(o.steps, [&] {
      dist::par_loop(cell_plan, "update", Update{}, dist::rw(res), dist::rw(q));
    });
    const double owned = cells->owned, local = cells->local.size();
    if constexpr (std::is_same_v<PlanT, dist::OverlapPlan<plan_executor_t<PlanT>, Space>>) {
      r.breakdown =
          per_rank_text({loop, update, owned, local}, {" res_calc %.4f ms", ", update %.4f ms",
                                                       " (cells: %.0f owned", ", %.0f local)"});
    } else {
      const double bare = median_ms(o.steps, [&] {
        res_calc_on(
            [&](const auto &...a) {
              umesh::par_loop(plan, exec.loop(), "res_calc_local", kernel, a...);
            },
            x.local(), q.local(), adt.local(), res.local());
      });
      r.breakdown = per_rank_text({loop, bare, update, owned, local},
                                  {" res_calc %.4f ms", ", without the exchanges %.4f ms",
                                   ", update %.4f ms", " (cells: %.0f owned", ", %.0f local)"});
    }
  }
  return r;
}

template <class L, class E>
Result run(const Options &o, const QuadMesh &m, const std::vector<int> &owner, E exec, bool nccl,
           bool overlap, const std::vector<double> &q0, const std::vector<double> &adt0,
           bool describe) {
  dist::Partition<Mem> part(
      MPI_COMM_WORLD, m.edges, owner,
      {{"pedge", m.nodes, 2, m.edge_nodes}, {"pecell", m.cells, 2, m.edge_cells}},
      std::vector<dist::PointOwners>{},
      overlap ? dist::ElementOrder::overlap : dist::ElementOrder::global,
      umesh::ReorderOptions{}
          .with_method(umesh::parse_reorder(o.reorder))
          .with_block_size(o.block));
  if (describe) {
    const std::string shares = dist::describe(dist::rank_shares(part), "edges");
    if (part.rank() == 0)
      std::printf("%s", shares.c_str());
  }
  if (nccl)
    part.use_nccl();
  if (overlap)
    return run_with<L>(o, m, part, exec,
                       dist::make_overlap_plan(Space(), exec.plan(), part, part.map("pecell")), q0,
                       adt0);
  return run_with<L>(o, m, part, exec,
                     make_plan(Space(), exec.plan(), part.elements()->local, part.map("pecell")),
                     q0, adt0);
}
int run(int argc, char **argv) {
  Options o;
  CLI::App app("res_calc over MPI ranks (umesh::dist): edges dealt to the ranks in contiguous "
               "strips, halo exchange around every loop; checked against the serial reference, "
               "then timed",
               "umesh_dist_res_calc");
  umesh::apps::add_version(app);
  app.add_option("--nx", o.nx, "quads along x")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--ny", o.ny, "quads along y")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--exec", o.execs, "executors")
      ->delimiter(',')
      ->check(CLI::IsMember(exec::names(Executors{})))
      ->capture_default_str();
  app.add_option("--layout", o.layout, "aos or soa")
      ->check(CLI::IsMember({"aos", "soa"}))
      ->capture_default_str();
  app.add_option("--block", o.block,
                 "hierarchical block size (staging inc, gather combine, "
                 "atomic write-back, 4 blocks per team)")
      ->check(CLI::Range(32, 4096))
      ->capture_default_str();
  app.add_option("--steps", o.steps, "timed steps")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed steps first")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  app.add_option("--transport", o.transports,
                 "halo exchange through host buffers and MPI (host) and/or GPU to GPU through "
                 "NCCL (nccl: CUDA builds with NCCL, one rank per GPU); each executor runs once "
                 "per value")
      ->delimiter(',')
      ->check(CLI::IsMember({"host", "nccl"}))
      ->capture_default_str();
  app.add_option("--overlap", o.overlaps,
                 "run res_calc plainly (off) and/or with halo exchange under way while the "
                 "edges that reach no halo cell run (on); each executor runs once per value")
      ->delimiter(',')
      ->check(CLI::IsMember({"off", "on"}))
      ->capture_default_str();
  app.add_option("--reorder", o.reorder,
                 "each rank renumbers its edges and owned nodes and cells for locality: none, "
                 "gps, rcm, metis, builtin (halo points stay after the owned ones)")
      ->check([](const std::string &r) -> std::string {
        try {
          if (!umesh::reorder_available(umesh::parse_reorder(r)))
            return "--reorder " + r + ": not built in (METIS or Scotch missing)";
        } catch (const umesh::Error &e) {
          return umesh::apps::without_program_prefix(e.what(), "");
        }
        return {};
      })
      ->capture_default_str();
  app.add_option("--partition", o.partition,
                 "how edges are dealt to ranks: metis (METIS k-way over the edges sharing a node "
                 "or cell, on one rank), ptscotch (PT-Scotch over the same graph, each rank "
                 "partitioning a slice of it; builds with PT-Scotch) or slabs (rows of the "
                 "grid); default metis when umesh has METIS, else slabs")
      ->check([](const std::string &p) -> std::string {
        try {
          umesh::dist::parse_owners(p);
        } catch (const umesh::Error &e) {
          return umesh::apps::without_program_prefix(e.what(), "");
        }
        return {};
      });
  app.add_flag("--breakdown", o.breakdown,
               "after the timed steps, time res_calc (with its exchanges), the update, and "
               "res_calc as a plain loop on each rank's local data (no exchange), each fenced "
               "apart; printed per rank");
  bool no_check = false;
  app.add_flag("--no-check", no_check, "skip the check against the serial reference");
  app.add_option("--csv", o.csv,
                 "write a row per executor to this file (rank 0; in place when the run ends, "
                 "the previous file kept until then)")
      ->check(umesh::apps::output_file());
  umesh::apps::parse_or_exit(app, argc, argv); // before MPI: --help and bad values exit here
  o.check = !no_check;
#if !defined(UMESH_HAS_NCCL)
  // Refused now, not when its turn comes after the host runs.
  if (std::count(o.transports.begin(), o.transports.end(), "nccl"))
    throw umesh::Error("--transport nccl: umesh was built without NCCL (it needs a CUDA build "
                       "that finds nccl.h and libnccl; CMake option UMESH_ENABLE_NCCL)");
#endif
  { // every rank builds the whole mesh: refused here when it cannot
    const std::int64_t x = o.nx, y = o.ny, cells = x * y, nodes = (x + 1) * (y + 1),
                       edges = (x - 1) * y + x * (y - 1);
    const std::string given = "--nx " + std::to_string(o.nx) + " --ny " + std::to_string(o.ny);
    umesh::apps::check_counts(given, {{"nodes", nodes},
                                      {"cells", cells},
                                      {"edges", edges},
                                      {"edge-to-node map entries", 2 * edges}});
    umesh::apps::check_memory(given, 16 * nodes + 80 * cells + 16 * edges);
    umesh::apps::check_interior_edges(given, x, y, "res_calc");
    umesh::apps::set_size_options(given);
  }
  // MPI's lifetime and the failure policy of every multi-rank program
  // (apps/common/ranks.hpp): rank 0 prints, and a rank that fails alone ends
  // the job with its own status and message.
  const umesh::apps::Ranks ranks(argc, argv, /*distributed=*/true);
  const int rank = ranks.rank, size = ranks.size;
  int failures = 0, status = umesh::apps::exit_ok;
  {
    umesh::apps::KokkosScope kokkos(argc, argv);
    const std::string program = "umesh_dist_res_calc rank " + std::to_string(rank);
    std::unique_ptr<umesh::apps::ResultFile> csv; // rank 0 writes; fails now, not after the run
    try {
      if (!o.csv.empty() && rank == 0) {
        csv = std::make_unique<umesh::apps::ResultFile>(o.csv);
        *csv << "exec,layout,ranks,nx,ny,edges,step_ms,exchange_share,max_rel_err,copy_gbps,"
                "pack_share,wait_share,unpack_share,overlap,transport\n";
      }
    } catch (...) {
      status = umesh::apps::report_exception(program);
    }
    // Every rank stops when rank 0 cannot write (the others would wait in
    // the partition's collectives for it).
    int worst = status;
    MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst == umesh::apps::exit_ok)
      try {
        const QuadMesh m = make_quad_mesh(o.nx, o.ny);
        // METIS k-way or PT-Scotch over the edges' graph, or contiguous
        // strips of the edge numbering (rows of the grid).
        const umesh::dist::Owners how = o.partition.empty()
                                            ? umesh::dist::default_owners()
                                            : umesh::dist::parse_owners(o.partition);
        const std::vector<umesh::HostConnectivity> graph{
            {m.edge_nodes.data(), 2, 0, m.nodes.size()},
            {m.edge_cells.data(), 2, 1, m.cells.size()}};
        const std::vector<int> owner =
            umesh::dist::element_owners(MPI_COMM_WORLD, how, m.edges.size(), graph);
        if (rank == 0)
          std::printf("edges dealt by %s\n",
                      umesh::dist::owners_label(how, MPI_COMM_WORLD).c_str());
        fail_here_if_asked(rank);
        bool described = false; // each rank's share, once
        std::vector<double> q0(4 * std::size_t(m.cells.size())), adt0(m.cells.size());
        std::mt19937_64 rng(42);
        std::uniform_real_distribution<double> u(0, 1);
        for (int c = 0; c < m.cells.size(); ++c) {
          const double v[4] = {0.8 + 0.4 * u(rng), 0.3 * (u(rng) - 0.5), 0.3 * (u(rng) - 0.5),
                               2.0 + u(rng)};
          std::copy(v, v + 4, q0.begin() + 4 * std::size_t(c));
          adt0[c] = 0.5 + u(rng);
        }
        if (rank == 0)
          std::printf("res_calc on %d ranks: %d x %d quads, %d edges, %d cells, device %s\n", size,
                      o.nx, o.ny, m.edges.size(), m.cells.size(), Space::name());
        const double copy_gbps = report_devices(rank, size);
        for (const auto &e : o.execs)
          for (const auto &tr : o.transports)
            for (const auto &ov : o.overlaps) {
              const bool overlap = ov == "on", nccl = tr == "nccl";
              Result r;
              const bool soa = o.layout == "soa";
              auto go = [&](auto tag) {
                r = soa ? run<SoA>(o, m, owner, tag, nccl, overlap, q0, adt0, !described)
                        : run<AoS>(o, m, owner, tag, nccl, overlap, q0, adt0, !described);
                described = true;
              };
              exec::with_name(Executors{}, e, [&](auto tag) {
                if constexpr (std::is_same<decltype(tag), DistHierarchical>::value)
                  go(DistHierarchical::Variant{}
                         .with_block_size(o.block)
                         .with_staging(exec::Staging::increments)
                         .with_combine(exec::Combine::gather)
                         .with_writeback(exec::Writeback::atomic)
                         .with_blocks_per_team(4));
                else
                  go(typename decltype(tag)::Variant{});
              });
              const bool bad = o.check && !(r.max_rel_err < 1e-12);
              failures += bad;
              if (rank == 0) {
                std::printf(
                    "  %-12s %d ranks, %-4s, overlap %-3s: step %.4f ms (slowest rank's median), "
                    "halo "
                    "exchange %.1f%% of the time (pack %.1f%%, wait %.1f%%, unpack %.1f%%)%s\n",
                    e.c_str(), size, tr.c_str(), ov.c_str(), r.step_ms, 100 * r.exchange_share,
                    100 * r.pack_share, 100 * r.wait_share, 100 * r.unpack_share,
                    !o.check ? ""
                    : bad    ? "; DIFFERS from the serial reference"
                             : "; matches the serial reference");
                if (size > 1)
                  std::printf("    each rank's step: %s\n", r.per_rank.c_str());
                if (o.breakdown)
                  std::printf("    fenced apart: %s\n", r.breakdown.c_str());
                if (csv) {
                  *csv << e << ',' << o.layout << ',' << size << ',' << o.nx << ',' << o.ny << ','
                       << m.edges.size() << ',' << r.step_ms << ',' << r.exchange_share << ','
                       << r.max_rel_err << ',' << copy_gbps << ',' << r.pack_share << ','
                       << r.wait_share << ',' << r.unpack_share << ',' << ov << ',' << tr << '\n';
                }
              }
            }
        if (csv)
          csv->commit();
      } catch (...) {
        status = umesh::apps::report_exception(program);
      }
    else
      status = worst;
  }
  if (status == umesh::apps::exit_ok && failures > 0)
    status = umesh::apps::exit_check_failed;
  // Every rank exits alike; a rank that failed (an exception) while the
  // others wait for it in the run's collectives gives them 10 s to stop
  // with it, then ends the job with its status.
  return ranks.agree(status, size > 1 && status >= umesh::apps::exit_bad_input);
}

} // namespace

int main(int argc, char **argv) {
  return umesh::apps::run_main("umesh_dist_res_calc", [&] { return run(argc, argv); });
}
