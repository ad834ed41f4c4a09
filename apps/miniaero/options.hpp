#ifndef UMESH_APPS_MINIAERO_OPTIONS_HPP
#define UMESH_APPS_MINIAERO_OPTIONS_HPP

// umesh_miniaero's command line (CLI11): what it runs, on which input, and
// where results go. Values that cannot run are refused here, before MPI and
// Kokkos start.

#include "common/auto_cli.hpp"
#include "common/field_output.hpp"
#include "common/hierarchical_cli.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace miniaero {

struct Options {
  std::string input = "miniaero.inp", results, compare, csv = "miniaero_bench.csv", plan_dir;
  // The defaults are the fastest configuration measured (H100, Sod 128^3:
  // auto's RK stage 4.341 ms against atomic's 5.445 ms; rcm 20 steps in 0.43 s
  // against 3.88 s in creation order; perf/results/miniaero-order-h100/).
  std::vector<std::string> execs{"auto"}, layouts{"soa"}, reorders{"rcm"};
  int steps = -1, bench = 0;
  std::vector<int> mesh; // empty: the input's
  umesh::apps::HierarchicalCli hierarchical;
  umesh::apps::AutoCli autotune; // --reproducible
  std::string tuning_file;
  std::string stencil;      // faces, cells, or empty: cells in one process, faces over MPI ranks
  bool distributed = false; // --distributed, or more than one MPI rank
  std::string transport = "host";
  std::string partition; // empty: blocks (each rank builds its own block)
  bool timed_exchanges = false;
  std::string graph; // on, off; empty: on where a graph replays (CUDA, one process)
  std::uint64_t shuffle_seed = 1;
  umesh::apps::FieldOutputOptions output; // --output, --output-every, --output-dir
};

/// umesh's executors, then miniAero's own two strategies ('all').
extern const std::vector<std::string> kAllExecs;

/// The options of argv; --help and a bad command line exit here (status 0
/// and 2).
Options parse(int argc, char **argv);

} // namespace miniaero

#endif
