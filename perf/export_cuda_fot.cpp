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

#include <umesh/mesh.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "umesh_export_cuda_fot: %s\n", what.c_str());
  std::exit(2);
}

// One file; every write is checked, so a full disk is an error, not a short file.
class Out {
public:
  explicit Out(const std::string &path) : path_(path), f_(std::fopen(path.c_str(), "w")) {
    if (!f_)
      fail("cannot write '" + path + "': " + std::strerror(errno));
  }
  ~Out() {
    if (f_ && std::fclose(f_) != 0)
      fail("cannot finish '" + path_ + "': " + std::strerror(errno));
  }
  template <class... A> void print(const char *fmt, A... a) {
    if (std::fprintf(f_, fmt, a...) < 0)
      fail("cannot write '" + path_ + "': " + std::strerror(errno));
  }

private:
  std::string path_;
  std::FILE *f_;
};

void write_map(const std::string &path, int points, const std::vector<int> &conn) {
  Out out(path);
  const int n = int(conn.size() / 2);
  out.print("%d %d\n", points, n);
  for (int e = 0; e < n; ++e)
    out.print("%d %d\n", conn[2 * e], conn[2 * e + 1]);
}

void write_data(const std::string &path, const std::vector<double> &v, int dim) {
  Out out(path);
  for (std::size_t i = 0; i < v.size(); i += dim)
    for (int k = 0; k < dim; ++k)
      out.print(k + 1 < dim ? "%.17g " : "%.17g\n", v[i + k]);
}

} // namespace

int main(int argc, char **argv) {
  int nx = 0, ny = 0;
  std::string dir;
  CLI::App app("Writes the main job's res_calc mesh and data (natural numbering) in the text "
               "format of cuda_fot's res_calc, for perf/cuda_fot/run.sh",
               "umesh_export_cuda_fot");
  umesh::perf::add_version(app);
  app.add_option("--nx", nx, "quads along x")->required()->check(CLI::Range(1, 100000));
  app.add_option("--ny", ny, "quads along y")->required()->check(CLI::Range(1, 100000));
  app.add_option("--out", dir, "folder to write mesh_* and data_* into (must exist)")->required();
  umesh::perf::parse_or_exit(app, argc, argv);
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
  for (const char *name : {"res", "q", "adt"})
    write_map(dir + "/mesh_" + name, cells, m.edge_cells);
  write_map(dir + "/mesh_x", nodes, m.edge_nodes);
  write_data(dir + "/data_res", res, 4);
  write_data(dir + "/data_x", m.node_coords, 2);
  write_data(dir + "/data_q", q, 4);
  write_data(dir + "/data_adt", adt, 1);
  std::printf("wrote %dx%d quads (%d edges, %d cells, %d nodes) to %s\n", nx, ny, m.edges.size(),
              cells, nodes, dir.c_str());
  return 0;
}
