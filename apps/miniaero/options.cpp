// umesh_miniaero's command line: see options.hpp.
#include "options.hpp"

#include "backend.hpp"
#include "problem.hpp"

#include "common/built_check.hpp"
#include "common/cli.hpp"
#include "common/exec_names.hpp"

#include <umesh/umesh.hpp>

#include <cstdio>
#include <cstdlib>

namespace miniaero {

const std::vector<std::string> kAllExecs = [] {
  auto names = umesh::apps::executor_names();
  names.insert(names.end(), {"miniaero-atomic", "miniaero-cellflux"});
  return names;
}();

Options parse(int argc, char **argv) {
  Options o;
  CLI::App app("miniAero on umesh: runs miniAero's input (miniaero.inp) under umesh's executors "
               "and layouts or miniAero's own strategies; writes its results file, compares "
               "with a reference, or benchmarks the loops",
               "umesh_miniaero");
  umesh::apps::add_version(app);
  std::vector<std::string> exec_names = kAllExecs; // and the two not in 'all'
  exec_names.insert(exec_names.end(), {"auto", "all"});
  app.add_option("--input", o.input, "miniAero input file")
      ->check(umesh::apps::input_file())
      ->capture_default_str();
  app.add_option("--exec", o.execs,
                 "variants, or 'all' (on a GPU backend 'all' leaves out serial, one GPU "
                 "thread): serial, atomic, gather, colour, scatterview, hierarchical, segmented, "
                 "warp (umesh executors; segmented: block reduction over point segments; warp: "
                 "warp pre-aggregation, --warp-block), miniaero-atomic, "
                 "miniaero-cellflux (miniAero's own strategies); "
                 "also auto (umesh's tuner: each loop times every strategy on its first call "
                 "and keeps the fastest; not part of 'all')")
      ->delimiter(',')
      ->check(CLI::IsMember(exec_names))
      ->capture_default_str();
  app.add_option("--tuning-file", o.tuning_file,
                 "where auto remembers its choices (default: $UMESH_TUNING_FILE, else nowhere)")
      ->check(umesh::apps::output_file());
  app.add_option("--layout", o.layouts, "layouts of the umesh executors")
      ->delimiter(',')
      ->check(CLI::IsMember({"aos", "soa"}))
      ->capture_default_str();
  o.hierarchical.add_to(app);
  o.autotune.add_to(app);
  app.add_option("--reorder", o.reorders, "none, gps, rcm, metis, builtin")
      ->delimiter(',')
      ->each([](const std::string &r) {
        const umesh::Reorder m = umesh::parse_reorder(r);
        if (!umesh::reorder_available(m))
          throw umesh::Error("--reorder " + r + ": not built in (METIS or Scotch missing)");
      })
      ->capture_default_str();
  app.add_option("--stencil", o.stencil,
                 "faces: the limiter's neighbour min/max and the limiter itself as miniAero "
                 "computes them, loops over faces folding into both cells with min and max; "
                 "cells: loops over cells, each reading its neighbours (a cell-to-cell map) and "
                 "its faces' centroids, nothing to combine (the same numbers); default cells, "
                 "except over MPI ranks dealt by --partition metis, ptscotch or slabs, which need "
                 "faces; "
                 "umesh variants only")
      ->check(CLI::IsMember({"faces", "cells"}));
  app.add_option("--shuffle-seed", o.shuffle_seed,
                 "seed of the interior-face shuffle (0 keeps creation order); miniAero "
                 "shuffles its faces too")
      ->capture_default_str();
  app.add_option("--steps", o.steps, "override the number of time steps of the input")
      ->check(CLI::Range(0, 1 << 30));
  app.add_option("--mesh", o.mesh,
                 "NX,NY,NZ: override the cells per direction of the input (the domain keeps "
                 "its size)")
      ->delimiter(',')
      ->expected(3);
  app.add_option("--results", o.results,
                 "results file (default: results.0 when the input asks for output; with several "
                 "variants, FILE.<variant>.<layout>.<reorder>)")
      ->check(umesh::apps::output_file());
  app.add_option("--compare", o.compare,
                 "compare every run with this reference (miniAero's criterion: relative 1e-3, "
                 "floor 1e-6); exit 1 on a diff")
      ->check(umesh::apps::input_file());
  app.add_option("--bench", o.bench,
                 "benchmark: after one warm-up step, N timed steps; prints per-loop medians and "
                 "writes --csv")
      ->check(CLI::Range(0, 1 << 30));
  app.add_option("--graph", o.graph,
                 "run each RK stage of umesh's variants as one recorded graph (umesh::LoopGraph): "
                 "on CUDA one graph launch a stage instead of one launch a loop; on host backends "
                 "the same loops in order. Same results either way. Default: on for CUDA in one "
                 "process, off otherwise; not over MPI ranks; --bench times each loop one by one, "
                 "then whole stages (as graphs)")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--csv", o.csv, "benchmark table")
      ->check(umesh::apps::output_file())
      ->capture_default_str();
  app.add_flag("--distributed", o.distributed,
               "run the umesh variants over the MPI ranks (umesh::dist) even on one rank; "
               "on more than one rank ('mpirun -np N umesh_miniaero ...') they always are: "
               "cells dealt as --partition says, interior faces on their first cell's rank, "
               "halos exchanged by the loops as their accesses need");
  app.add_option("--transport", o.transport,
                 "distributed runs: halo exchange through host buffers and MPI (host) or GPU to "
                 "GPU through NCCL (nccl: CUDA builds with NCCL, one rank per GPU)")
      ->check(CLI::IsMember({"host", "nccl"}))
      ->capture_default_str();
  app.add_option("--partition", o.partition,
                 "distributed runs: how cells are dealt to ranks: blocks (the box cut into "
                 "px x py x pz blocks cutting the fewest faces; each rank builds only its own "
                 "block, so setup time and host memory per rank fall with the ranks), metis "
                 "(METIS k-way over the cells' face graph, on one rank), ptscotch (PT-Scotch "
                 "over the same graph, each rank partitioning a slice of it; builds with "
                 "PT-Scotch) or slabs (contiguous slabs of the mesh's numbering); with metis, "
                 "ptscotch and slabs every rank builds the whole mesh and keeps its part; "
                 "default blocks")
      ->check(CLI::IsMember({"blocks", "slabs", "metis", "ptscotch"}));
  app.add_flag("--timed-exchanges", o.timed_exchanges,
               "distributed runs: fence the device around each halo exchange, so the exchange "
               "time printed after each run counts the GPU's packing, transfers and unpacking, "
               "not only the host's part (slower: no loop overlaps an exchange)");
  app.add_option("--plan-dir", o.plan_dir,
                 "save renumberings and hierarchical plans in DIR (created) and load them in "
                 "later runs of the same mesh (planning is paid once)")
      ->check(umesh::apps::output_folder());
  o.output.add_to(app, "miniaero-output");
  umesh::apps::parse_or_exit(app, argc, argv);

  const auto refuse = [](const std::string &why) {
    std::fprintf(stderr, "umesh_miniaero: %s\nrun 'umesh_miniaero --help' for the options\n",
                 why.c_str());
    std::exit(2);
  };
  if (const std::string why = umesh::apps::expand_all_executors<Mem>(o.execs, kAllExecs);
      !why.empty())
    refuse(why);
  // Those given (a left-out default fails at the first run, losing none).
  if (const std::string why = umesh::apps::left_out_problem(
          app.count("--exec") ? o.execs : std::vector<std::string>{},
          app.count("--layout") ? o.layouts : std::vector<std::string>{});
      !why.empty())
    refuse(why);
  if (const std::string why = o.hierarchical.problem(); !why.empty())
    refuse(why);
  if (o.output.on() && o.bench > 0)
    refuse("--output is for plain runs; --bench runs time steps and write no fields");
  if (o.output.on() && o.execs.size() * o.layouts.size() * o.reorders.size() > 1)
    refuse("--output writes one run's fields: give one --exec, --layout and --reorder");
  if (const std::string why = o.output.problem(); !why.empty())
    refuse(why);
  if (const std::string why =
          o.autotune.problem<Kokkos::DefaultExecutionSpace>(o.execs, o.hierarchical.options());
      !why.empty())
    refuse(why);
  if (!o.mesh.empty())
    if (const std::string why = mesh_size_problem(o.mesh[0], o.mesh[1], o.mesh[2]); !why.empty())
      refuse("--mesh: " + why);
  return o;
}

} // namespace miniaero
