// Writes the main job's res_calc mesh (umesh::make_quad_mesh, natural
// numbering) in the text format of the locality paper's library, cuda_fot
// (its res_calc reads DIR/mesh_{res,x,q,adt} and DIR/data_{res,x,q,adt}), so
// that perf/cuda_fot/run.sh times both codes on the same mesh:
//   mesh_*  "points edges" then one line per edge with its two points
//   data_*  one line per point with its components
// Inputs are drawn like the main job's (positive densities and pressures).
//
//   umesh_export_cuda_fot --nx 2400 --ny 1200 --out DIR
#include "common/cli.hpp"
#include "common/output.hpp"
#include "common/run_main.hpp"
#include "common/sizes.hpp"

#include <umesh/mesh.hpp>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <pthread.h>

namespace {

using umesh::apps::ResultFile;

// cuda_fot's files, and the manifest that says they are one mesh's.
constexpr const char *kNames[8] = {"mesh_res", "mesh_q", "mesh_adt", "mesh_x",
                                   "data_res", "data_x", "data_q",   "data_adt"};
constexpr const char *kManifest = "umesh_export";

// One line per element of a printf format; ResultFile checks the writes.
template <class... A> void print(ResultFile &out, const char *fmt, A... a) {
  char line[128];
  std::snprintf(line, sizeof line, fmt, a...);
  out << line;
}

void write_map(ResultFile &out, int points, const std::vector<int> &conn) {
  const int n = int(conn.size() / 2);
  print(out, "%d %d\n", points, n);
  for (int e = 0; e < n; ++e)
    print(out, "%d %d\n", conn[2 * e], conn[2 * e + 1]);
}

void write_data(ResultFile &out, const std::vector<double> &v, int dim) {
  for (std::size_t i = 0; i < v.size(); i += dim)
    for (int k = 0; k < dim; ++k)
      print(out, k + 1 < dim ? "%.17g " : "%.17g\n", v[i + k]);
}

int run(int argc, char **argv) {
  int nx = 0, ny = 0;
  std::string dir;
  CLI::App app("Writes the main job's res_calc mesh and data (natural numbering) in the text "
               "format of cuda_fot's res_calc, for perf/cuda_fot/run.sh",
               "umesh_export_cuda_fot");
  umesh::apps::add_version(app);
  app.add_option("--nx", nx, "quads along x")->required()->check(CLI::Range(1, 100000));
  app.add_option("--ny", ny, "quads along y")->required()->check(CLI::Range(1, 100000));
  app.add_option("--out", dir, "folder to write mesh_* and data_* into (must exist)")
      ->required()
      ->check(umesh::apps::output_folder());
  umesh::apps::parse_or_exit(app, argc, argv);
  {
    const std::int64_t x = nx, y = ny, cells = x * y, nodes = (x + 1) * (y + 1),
                       edges = (x - 1) * y + x * (y - 1);
    const std::string given = "--nx " + std::to_string(nx) + " --ny " + std::to_string(ny);
    umesh::apps::check_counts(given, {{"nodes", nodes},
                                      {"cells", cells},
                                      {"edges", edges},
                                      {"edge-to-node map entries", 2 * edges}});
    umesh::apps::check_memory(given, 16 * nodes + 88 * cells + 16 * edges);
    umesh::apps::check_interior_edges(given, x, y, "cuda_fot's res_calc");
    umesh::apps::set_size_options(given);
  }
  // Every file opened (and its path checked) before the mesh is built, and
  // all renamed into place at the end, then a manifest naming the mesh
  // (umesh_export: its size and each file's bytes), renamed last: the old
  // manifest is removed before the first rename, so a folder whose files
  // are a mix of two meshes (a run killed between the renames) has none,
  // and perf/cuda_fot/run.sh refuses it.
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw umesh::Error("cannot write '" + dir + "/mesh_res': the folder '" + dir +
                       "' does not exist (--out must exist)");
  // The files are written into --out itself: a name there that links
  // elsewhere would put the files (and the manifest) into another folder,
  // which could then hold a mix of two meshes.
  for (const char *name : kNames)
    if (std::filesystem::is_symlink(dir + "/" + name, ec))
      throw umesh::Error("--out: '" + dir + "/" + name +
                         "' is a symbolic link: the export writes its files into the folder "
                         "itself (remove the link)");
  if (std::filesystem::is_symlink(dir + "/" + kManifest, ec))
    throw umesh::Error("--out: '" + dir + "/" + kManifest +
                       "' is a symbolic link: the export writes its files into the folder itself "
                       "(remove the link)");
  std::vector<std::unique_ptr<ResultFile>> files;
  auto open = [&](const std::string &name) -> ResultFile & {
    files.push_back(std::make_unique<ResultFile>(dir + "/" + name));
    return *files.back();
  };
  ResultFile &manifest = open(kManifest);
  ResultFile &mesh_res = open(kNames[0]), &mesh_q = open(kNames[1]), &mesh_adt = open(kNames[2]),
             &mesh_x = open(kNames[3]), &data_res = open(kNames[4]), &data_x = open(kNames[5]),
             &data_q = open(kNames[6]), &data_adt = open(kNames[7]);
  const umesh::QuadMesh m = umesh::make_quad_mesh(nx, ny);
  const int cells = m.cells.size(), nodes = m.nodes.size();
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> q(std::size_t(cells) * 4), adt(cells), res(std::size_t(cells) * 4);
  for (int c = 0; c < cells; ++c) {
    q[4 * c] = 0.8 + 0.4 * u(rng);
    q[4 * c + 1] = 0.3 * (u(rng) - 0.5);
    q[4 * c + 2] = 0.3 * (u(rng) - 0.5);
    q[4 * c + 3] = 2.0 + u(rng);
  }
  for (auto &a : adt)
    a = 0.5 + u(rng);
  for (auto &r : res)
    r = 2 * u(rng) - 1;
  for (ResultFile *f : {&mesh_res, &mesh_q, &mesh_adt})
    write_map(*f, cells, m.edge_cells);
  write_map(mesh_x, nodes, m.edge_nodes);
  write_data(data_res, res, 4);
  write_data(data_x, m.node_coords, 2);
  write_data(data_q, q, 4);
  write_data(data_adt, adt, 1);
  print(manifest, "umesh_export_cuda_fot %d %d\n", nx, ny);
  for (std::size_t i = 1; i < files.size(); ++i) {
    files[i]->flush(); // every write checked before any file replaces an old one
    print(manifest, "%s %lld\n", kNames[i - 1], (long long)files[i]->bytes());
  }
  manifest.flush();
  // SIGINT, SIGTERM and SIGHUP wait until every file is in place (a kill
  // that cannot wait, SIGKILL, leaves no manifest, as said above).
  sigset_t stop, before;
  sigemptyset(&stop);
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    sigaddset(&stop, sig);
  pthread_sigmask(SIG_BLOCK, &stop, &before);
  std::filesystem::remove(dir + "/" + kManifest, ec);
  for (std::size_t i = 1; i < files.size(); ++i)
    files[i]->commit();
  manifest.commit();
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  std::printf("wrote %dx%d quads (%d edges, %d cells, %d nodes) to %s\n", nx, ny, m.edges.size(),
              cells, nodes, dir.c_str());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return umesh::apps::run_main("umesh_export_cuda_fot", [&] { return run(argc, argv); });
}
