#ifndef UMESH_PERF_SWEEP_BENCH_MESH_HPP
#define UMESH_PERF_SWEEP_BENCH_MESH_HPP

// The sweep benchmark's meshes: tets of a cube of side L, from Gmsh (a .geo
// this program writes, meshed by `gmsh -3` to about the number of tets
// asked for and kept for later runs, or a .msh given), or structured
// (make_tet_mesh, for tests and machines without Gmsh). Each with its cells'
// centroids and volumes and its SweepMesh.

#include <umesh/connectivity.hpp>
#include <umesh/error.hpp>
#include <umesh/gmsh.hpp>
#include <umesh/mesh.hpp>
#include <umesh/sweep_mesh.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char **environ;

namespace umesh::perf {

struct BenchMesh {
  std::string name;
  Set nodes{"nodes", 0}, cells{"tets", 0};
  std::vector<int> tets;      ///< [cell][4]
  std::vector<double> coords; ///< [node][3]
  std::vector<double> centroid, volume;
  SweepMesh sweep;
};

inline void finish_mesh(BenchMesh &m) {
  const int n = m.cells.size();
  m.centroid.assign(std::size_t(n) * 3, 0.0);
  m.volume.assign(std::size_t(n), 0.0);
  for (int c = 0; c < n; ++c) {
    const double *p[4];
    for (int k = 0; k < 4; ++k)
      p[k] = &m.coords[std::size_t(m.tets[std::size_t(c) * 4 + k]) * 3];
    double a[3], b[3], d[3];
    for (int k = 0; k < 3; ++k) {
      m.centroid[std::size_t(c) * 3 + k] = 0.25 * (p[0][k] + p[1][k] + p[2][k] + p[3][k]);
      a[k] = p[1][k] - p[0][k], b[k] = p[2][k] - p[0][k], d[k] = p[3][k] - p[0][k];
    }
    m.volume[c] = std::abs((a[1] * b[2] - a[2] * b[1]) * d[0] + (a[2] * b[0] - a[0] * b[2]) * d[1] +
                           (a[0] * b[1] - a[1] * b[0]) * d[2]) /
                  6;
  }
  m.sweep = sweep_mesh_from_cells(m.cells, 4, m.tets, m.nodes, m.coords);
}

/// Structured tets: n^3 cubes of six tets, scaled to side `side`.
inline BenchMesh structured_cube(int n, double side) {
  TetMesh t = make_tet_mesh(n, n, n);
  for (double &x : t.node_coords)
    x *= side;
  BenchMesh m;
  m.name = "structured " + std::to_string(t.cells.size()) + " tets";
  m.nodes = t.nodes, m.cells = t.cells;
  m.tets = std::move(t.cell_nodes);
  m.coords = std::move(t.node_coords);
  finish_mesh(m);
  return m;
}

/// The tets of a Gmsh file (its first tet block, each element once).
inline BenchMesh read_tet_mesh(const std::string &path) {
  const GmshMesh g = read_gmsh(path);
  const GmshMesh::Block tets = elements_once(g.block("tet"), g.format_version);
  BenchMesh m;
  m.name = std::filesystem::path(path).filename().string();
  m.nodes = g.nodes;
  m.cells = Set("tets", tets.set.size());
  m.tets = tets.nodes;
  m.coords = g.coords;
  finish_mesh(m);
  return m;
}

/// Runs argv (argv[0] looked up on PATH) with its output in `log`; its
/// exit status, or -1 if it could not start.
inline int run_program(const std::vector<std::string> &args, const std::string &log) {
  std::vector<char *> argv;
  for (const std::string &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t io;
  posix_spawn_file_actions_init(&io);
  posix_spawn_file_actions_addopen(&io, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&io, 1, 2);
  pid_t pid;
  const int rc = posix_spawnp(&pid, argv[0], &io, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&io);
  if (rc != 0)
    return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
    return -1;
  return WEXITSTATUS(status);
}

/// The cube of side `side` in about `tets` Gmsh tets: `dir`/cube_<tets>.msh,
/// made by `gmsh` from `dir`/cube.geo when it is not there yet (through a
/// temporary renamed into place, so a stopped run leaves no half mesh).
/// Gmsh's Delaunay mesher gives about 4.56 / h^3 tets in a unit cube at size h.
inline std::string gmsh_cube(long tets, double side, const std::string &dir,
                             const std::string &gmsh) {
  const std::string msh = dir + "/cube_" + std::to_string(tets) + ".msh";
  if (std::filesystem::exists(msh))
    return msh;
  std::filesystem::create_directories(dir);
  const std::string geo = dir + "/cube.geo";
  {
    std::ofstream out(geo);
    out << "// The cube [0, L]^3 in tets of size about h (umesh_sweep_bench).\n"
           "DefineConstant[ h = {0.05, Name \"h\"}, L = {1, Name \"L\"} ];\n"
           "Point(1) = {0, 0, 0, h}; Point(2) = {L, 0, 0, h}; Point(3) = {L, L, 0, h};\n"
           "Point(4) = {0, L, 0, h}; Point(5) = {0, 0, L, h}; Point(6) = {L, 0, L, h};\n"
           "Point(7) = {L, L, L, h}; Point(8) = {0, L, L, h};\n"
           "Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};\n"
           "Line(5) = {5, 6}; Line(6) = {6, 7}; Line(7) = {7, 8}; Line(8) = {8, 5};\n"
           "Line(9) = {1, 5}; Line(10) = {2, 6}; Line(11) = {3, 7}; Line(12) = {4, 8};\n"
           "Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};\n"
           "Curve Loop(2) = {5, 6, 7, 8}; Plane Surface(2) = {2};\n"
           "Curve Loop(3) = {1, 10, -5, -9}; Plane Surface(3) = {3};\n"
           "Curve Loop(4) = {2, 11, -6, -10}; Plane Surface(4) = {4};\n"
           "Curve Loop(5) = {3, 12, -7, -11}; Plane Surface(5) = {5};\n"
           "Curve Loop(6) = {4, 9, -8, -12}; Plane Surface(6) = {6};\n"
           "Surface Loop(1) = {1, 2, 3, 4, 5, 6}; Volume(1) = {1};\n"
           "Physical Volume(\"cube\") = {1};\n";
    if (!out)
      fail("cannot write '", geo, "'");
  }
  const double h = side * std::cbrt(4.56 / double(tets));
  const std::string tmp = msh + ".part";
  const std::string log = msh + ".log";
  const int rc = run_program({gmsh, "-3", "-format", "msh22", "-setnumber", "h", std::to_string(h),
                              "-setnumber", "L", std::to_string(side), geo, "-o", tmp},
                             log);
  if (rc < 0)
    fail("no mesh '", msh, "' and gmsh ('", gmsh,
         "') could not run to make it: give --gmsh, or make it where gmsh is and bring it (",
         "docs/sweeps.md)");
  if (rc != 0)
    fail("gmsh exited with status ", rc, " meshing '", geo, "' (its output: '", log, "')");
  std::filesystem::rename(tmp, msh);
  return msh;
}

} // namespace umesh::perf

#endif
