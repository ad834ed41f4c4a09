// umesh planning benchmark: reorders shuffled meshes of a given number of
// elements with each method, builds the hierarchical plan on the result and
// prints planning time per phase next to the plan's quality (reuse, block
// and thread colours, staged points and 32-byte lines per block). Host only:
// planning runs on the CPU whatever the backend.
//
//   umesh_plan [--elements 1000000,10000000] [--methods metis,builtin,...]
//              [--kernel res_calc,face_flux] [--block 256] [--csv FILE]
#include "common/cli.hpp"
#include "common/kokkos_scope.hpp"
#include "common/output.hpp"
#include "common/run_main.hpp"
#include "common/sizes.hpp"

#include <umesh/umesh.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace umesh;
using Host = Kokkos::DefaultHostExecutionSpace;
using HostMem = Kokkos::HostSpace;

struct Options {
  std::vector<long> elements{1000000, 10000000};
  std::vector<std::string> methods{"none", "rcm", "gps", "metis", "builtin"};
  std::vector<std::string> kernels{"res_calc", "face_flux"};
  int block = 256;
  std::string csv = "results_planning.csv";
};

Options parse(int argc, char **argv) {
  Options o;
  CLI::App app(
      "umesh planning benchmark: reorders shuffled meshes with each method and builds the "
      "hierarchical plan on the result; prints planning time per phase and the plan's quality",
      "umesh_plan");
  apps::add_version(app);
  app.add_option("--elements", o.elements, "elements per mesh (comma-separated)")
      ->delimiter(',')
      ->check(CLI::Range(1L, 2000000000L))
      ->capture_default_str();
  app.add_option("--methods", o.methods,
                 "reorderings: none, rcm, gps, metis, builtin; rcm/first-touch, gps/first-touch")
      ->delimiter(',')
      ->each([](const std::string &m) { parse_reorder_options(m); })
      ->capture_default_str();
  app.add_option("--kernel", o.kernels, "meshes to plan: res_calc (edges), face_flux (faces)")
      ->delimiter(',')
      ->check(CLI::IsMember({"res_calc", "face_flux"}))
      ->capture_default_str();
  app.add_option("--block", o.block, "hierarchical block size")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--csv", o.csv, "results file (its folder is created)")
      ->check(apps::output_file())
      ->capture_default_str();
  apps::parse_or_exit(app, argc, argv);
  return o;
}

// The generated meshes' sides for `n` elements.
int quad_side(long n) {
  return std::max(2, int(std::lround(std::sqrt(n / 2.0)))); // ~2 nx^2 edges for nx x nx quads
}
int hex_side(long n) {
  return std::max(2, int(std::lround(std::cbrt(n / 3.0)))); // ~3 n^3 faces for n^3 hexes
}

// Refuses meshes past umesh's 32-bit indices or this machine's memory.
void check_sizes(const Options &o) {
  std::string all = "--elements ";
  for (long n : o.elements)
    all += (all.back() == ' ' ? "" : ",") + std::to_string(n);
  apps::set_size_options(all);
  for (long n : o.elements) {
    const std::string given = "--elements " + std::to_string(n);
    for (const auto &kernel : o.kernels)
      if (kernel == "res_calc") {
        const std::int64_t nx = quad_side(n), cells = nx * nx, nodes = (nx + 1) * (nx + 1),
                           edges = 2 * nx * (nx - 1);
        apps::check_counts(given, {{"edges", edges}, {"edge-to-node map entries", 2 * edges}});
        apps::check_memory(given, 16 * nodes + 16 * cells + 16 * edges);
      } else {
        const std::int64_t n3 = hex_side(n), cells = n3 * n3 * n3,
                           nodes = (n3 + 1) * (n3 + 1) * (n3 + 1), faces = 3 * n3 * n3 * (n3 - 1);
        apps::check_counts(given, {{"faces", faces},
                                   {"hex-to-node map entries", 8 * cells},
                                   {"face-to-cell map entries", 2 * faces}});
        apps::check_memory(given, 24 * nodes + 32 * cells + 32 * faces);
      }
  }
}

struct Row {
  std::string kernel, method;
  int elements = 0;
  double reorder_s = 0, plan_s = 0;
  PhaseTimes phases;
  BlockPlan plan;
  std::string note;
};

// Reorders, moves the maps, plans: one row.
template <class... Maps>
Row measure(const Options &o, const std::string &kernel, const std::string &method, const Set &set,
            const Map<HostMem> &inc_map, const Maps &...reads) {
  Row row;
  row.kernel = kernel;
  row.method = method;
  row.elements = set.size();
  const ReorderOptions ro = parse_reorder_options(method);
  if (!reorder_available(ro.method)) {
    row.note = "not built in";
    return row;
  }
  const Renumbering ren =
      reorder(ReorderOptions{ro}.with_block_size(o.block), set, inc_map, read_only(reads)...);
  row.reorder_s = ren.seconds();
  row.phases = ren.phases();
  auto options = exec::Hierarchical{}.with_block_size(o.block);
  if (ren.blocks())
    options.with_blocks(ren.blocks());
  const auto inc2 = ren.apply(inc_map);
  auto plan = make_plan(Host(), options, inc2.from(), inc2, read_only(ren.apply(reads))...);
  row.plan_s = plan.build_seconds();
  row.plan = plan.blocks();
  return row;
}

int run(int &argc, char **argv) {
  // Options first: --help and a bad value answer before Kokkos starts (and
  // Kokkos 3 would print its own help for --help).
  const Options o = parse(argc, argv);
  check_sizes(o);
  umesh::apps::KokkosScope kokkos(argc, argv);
  // Opened before the work, so that a bad path fails at once; the previous
  // results stay until the new ones are complete.
  apps::ResultFile csv(o.csv);
  std::printf("umesh planning benchmark (host: %s, concurrency %d); block size %d; meshes "
              "randomly renumbered\n",
              Host::name(), Host().concurrency(), o.block);
  std::vector<Row> rows;
  for (long n : o.elements)
    for (const auto &kernel : o.kernels) {
      Kokkos::Timer t;
      if (kernel == "res_calc") {
        // ~2 nx^2 edges for nx x nx quads.
        const int nx = quad_side(n);
        const QuadMesh m = make_quad_mesh(nx, nx, {true, 2024});
        std::printf("res_calc: %d x %d quads, %d edges [mesh %.1f s]\n", nx, nx, m.edges.size(),
                    t.seconds());
        std::fflush(stdout);
        Map<HostMem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
        Map<HostMem> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
        for (const auto &method : o.methods)
          rows.push_back(measure(o, kernel, method, m.edges, pecell, pedge));
      } else {
        // ~3 n^3 faces for n^3 hexes.
        const int n3 = hex_side(n);
        const HexMesh m = make_hex_mesh(n3, n3, n3, {true, 2024});
        std::printf("face_flux: %d^3 hexes, %d faces [mesh %.1f s]\n", n3, m.faces.size(),
                    t.seconds());
        std::fflush(stdout);
        Map<HostMem> fc("face_cells", m.faces, m.cells, 2, m.face_cells);
        for (const auto &method : o.methods)
          rows.push_back(measure(o, kernel, method, m.faces, fc));
      }
      const Row &r = rows.back();
      std::printf("  last: %s %.2f s reorder + %.2f s plan\n", r.method.c_str(), r.reorder_s,
                  r.plan_s);
      std::fflush(stdout);
    }

  std::printf("\n%-10s %9s %-15s %9s %8s %7s %8s %8s %10s %9s  %s\n", "kernel", "elements",
              "reorder", "reorder_s", "plan_s", "reuse", "bcolours", "tcolours", "points/blk",
              "lines/blk", "phases");
  csv << "kernel,elements,reorder,block_size,reorder_s,plan_s,reuse,block_colours,"
         "thread_colours_mean,staged_points_per_block,lines_per_block,phases\n";
  for (const auto &r : rows) {
    if (!r.note.empty()) {
      std::printf("%-10s %9d %-15s %s\n", r.kernel.c_str(), r.elements, r.method.c_str(),
                  r.note.c_str());
      continue;
    }
    const auto &p = r.plan;
    std::printf("%-10s %9d %-15s %9.2f %8.2f %7.3f %8d %8.2f %10.1f %9.1f  %s\n", r.kernel.c_str(),
                r.elements, r.method.c_str(), r.reorder_s, r.plan_s, p.reuse, p.num_block_colours(),
                p.mean_thread_colours, p.mean_staged_points, p.mean_cache_lines,
                format(r.phases).c_str());
    csv << r.kernel << ',' << r.elements << ',' << r.method << ',' << o.block << ',' << r.reorder_s
        << ',' << r.plan_s << ',' << p.reuse << ',' << p.num_block_colours() << ','
        << p.mean_thread_colours << ',' << p.mean_staged_points << ',' << p.mean_cache_lines
        << ",\"" << format(r.phases) << "\"\n";
  }
  // Built-in against METIS, same mesh.
  for (const auto &b : rows)
    if (b.method == "builtin")
      for (const auto &m : rows)
        if (m.method == "metis" && m.kernel == b.kernel && m.elements == b.elements &&
            m.note.empty())
          std::printf("%s %d elements: built-in reuse %.1f%% of METIS's, reorder time %.1fx "
                      "less\n",
                      b.kernel.c_str(), b.elements, 100 * b.plan.reuse / m.plan.reuse,
                      m.reorder_s / b.reorder_s);
  csv.commit();
  std::printf("wrote %s\n", apps::absolute_path(o.csv).c_str());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return umesh::apps::run_main("umesh_plan", [&] { return run(argc, argv); });
}
