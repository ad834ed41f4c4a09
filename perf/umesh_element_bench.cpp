// umesh element benchmark: femto's interpolation (nodal values to values and
// gradients at quadrature points) and its transpose (quadrature values
// integrated back to the nodes: an increment) as element loops
// (umesh/element_loop.hpp), on triangles, quads, tets and hexes of order p,
// and LFRic's local-matrix matvec as column loops on an extruded quad mesh
// (600 x 300 columns of 40 layers, 8 or 27 dofs a cell),
// about --elements elements each, over a sweep of elements per team (1 to
// 32 by default: one element per team is the first row) and lanes per
// element, each strategy for the transpose. Every row is validated against a
// serial reference computed on the host first; rows print as CSV with the
// median time and GB/s (bytes of each dataset once, twice if read and
// written), beside the device's copy bandwidth measured in the same run.
// The basis tables hold fixed pseudo-random values standing in for the
// shape functions at the quadrature points: the loops do the operators'
// work and traffic, which is what is measured.
//
//   umesh_element_bench [--elements 1000000] [--shapes tri,quad,tet,hex] [--orders 1,2]
//                       [--ops interp,transpose,matvec] [--dofs 8,27] [--layers 40] [--strategies
//                       atomic,colour,colour-per,gather]
//                       [--per-team 1,...,32] [--lanes 0] [--repeats 10] [--csv FILE]
#include "common/bandwidth.hpp"
#include "common/cli.hpp"
#include "common/output.hpp"
#include "common/run_main.hpp"
#include "element_bench_columns.hpp"
#include "element_bench_run.hpp"

#include <umesh/umesh.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#ifndef UMESH_GIT_HASH
#define UMESH_GIT_HASH "unknown"
#endif

namespace {

using namespace umesh;
using namespace umesh::perf;

BenchOptions parse(int argc, char **argv) {
  BenchOptions o;
  for (int e = 1; e <= 32; ++e)
    o.per_team.push_back(e);
  CLI::App app("umesh element benchmark: femto's interpolation and its transpose as element "
               "loops, swept over elements per team and lanes, validated against a serial "
               "reference",
               "umesh_element_bench");
  apps::add_version(app);
  app.add_option("--elements", o.elements, "about this many elements per mesh")
      ->check(CLI::Range(1L, 50000000L))
      ->capture_default_str();
  app.add_option("--shapes", o.shapes, "element shapes: tri, quad, tet, hex")
      ->delimiter(',')
      ->check(CLI::IsMember({"tri", "quad", "tet", "hex"}))
      ->capture_default_str();
  app.add_option("--orders", o.orders, "polynomial orders (1 to 3)")
      ->delimiter(',')
      ->check(CLI::Range(1, 3))
      ->capture_default_str();
  app.add_option("--ops", o.ops,
                 "interp (nodes to quadrature points), transpose (back: inc), matvec (LFRic's "
                 "local-matrix matvec on an extruded quad mesh, column loops)")
      ->delimiter(',')
      ->check(CLI::IsMember({"interp", "transpose", "matvec"}))
      ->capture_default_str();
  app.add_option("--base-nx", o.base_nx, "matvec: base quads in x")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--base-ny", o.base_ny, "matvec: base quads in y")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--layers", o.layers, "matvec: layers of each column")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--dofs", o.dofs,
                 "matvec: dofs a cell, 8 (Q1) or 27 (Q2; its local matrices take 729 doubles a "
                 "cell: 42 GB at the default size)")
      ->delimiter(',')
      ->check(CLI::IsMember({8, 27}))
      ->capture_default_str();
  app.add_option("--strategies", o.strategies,
                 "the transpose's strategies: atomic, colour (all colours in one launch), "
                 "colour-per (one launch per colour), gather (deterministic)")
      ->delimiter(',')
      ->check(CLI::IsMember({"atomic", "colour", "colour-per", "gather"}))
      ->capture_default_str();
  app.add_option("--per-team", o.per_team, "elements per team, each a row (1 to 1024)")
      ->delimiter(',')
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app.add_option("--lanes", o.lanes,
                 "lanes per element, each a row: powers of two to 32, or 0 for the element's "
                 "own (the power of two covering its nodes and quadrature points, at most 32)")
      ->delimiter(',')
      ->check(CLI::IsMember({0, 1, 2, 4, 8, 16, 32}))
      ->capture_default_str();
  app.add_flag("!--no-tune", o.tune,
               "no exec::ElementAuto row (tuned over the same elements per team and lanes)");
  app.add_option("--repeats", o.repeats, "timed runs per row (median)")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed runs per row first")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  app.add_option("--csv", o.csv, "results file (its folder is created)")
      ->check(apps::output_file())
      ->capture_default_str();
  apps::parse_or_exit(app, argc, argv);
  return o;
}

int run(int &argc, char **argv) {
  const BenchOptions o = parse(argc, argv);
  Kokkos::ScopeGuard guard(argc, argv);
  apps::ResultFile csv(o.csv);
  const double copy = apps::copy_bandwidth_gbps();
  std::printf("umesh element benchmark (umesh %s, git %s); device %s; copy bandwidth %.1f GB/s\n",
              UMESH_VERSION, UMESH_GIT_HASH, Kokkos::DefaultExecutionSpace::name(), copy);
  std::printf("%s\n", csv_header());
  csv << csv_header() << '\n';
  std::vector<BenchRow> rows;
  const bool elements = std::count(o.ops.begin(), o.ops.end(), "interp") +
                            std::count(o.ops.begin(), o.ops.end(), "transpose") >
                        0;
  for (const std::string &shape : elements ? o.shapes : std::vector<std::string>())
    for (int p : o.orders) {
      const std::size_t first = rows.size();
      run_shape(o, shape, p, copy, rows);
      for (std::size_t i = first; i < rows.size(); ++i)
        csv << format_row(rows[i]) << '\n';
    }
  if (std::count(o.ops.begin(), o.ops.end(), "matvec"))
    for (int n : o.dofs) {
      const std::size_t first = rows.size();
      if (n == 8)
        run_matvec<8>(o, copy, rows);
      else
        run_matvec<27>(o, copy, rows);
      for (std::size_t i = first; i < rows.size(); ++i)
        csv << format_row(rows[i]) << '\n';
    }
  summarise(rows);
  csv.commit();
  std::printf("wrote %s\n", apps::absolute_path(o.csv).c_str());
  int failed = 0, validated = 0;
  for (const BenchRow &r : rows) {
    failed += r.status == "FAILED";
    validated += r.status == "ok";
  }
  if (failed > 0 || validated == 0) {
    std::printf("%d rows failed validation, %d validated\n", failed, validated);
    return apps::exit_check_failed;
  }
  std::printf("every row validated against the serial reference (%d rows)\n", validated);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return umesh::apps::run_main("umesh_element_bench", [&] { return run(argc, argv); });
}
