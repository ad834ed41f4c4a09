#include <umesh/error.hpp>
#include <umesh/mesh.hpp>

#include <algorithm>
#include <climits>
#include <numeric>
#include <random>
#include <string>

namespace umesh {
namespace {

void check_dims(const char *what, std::initializer_list<int> dims) {
  for (int d : dims)
    if (d < 1)
      detail::fail(what, ": every dimension must be >= 1, got ", d);
}

std::vector<int> random_permutation(int n, std::mt19937_64 &rng) {
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

// Row i of `rows` moves to perm[i].
template <class T>
void permute_rows(std::vector<T> &rows, int width, const std::vector<int> &perm) {
  std::vector<T> out(rows.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    std::copy_n(rows.begin() + i * width, width, out.begin() + std::size_t(perm[i]) * width);
  rows.swap(out);
}

void renumber(std::vector<int> &conn, const std::vector<int> &perm) {
  for (int &v : conn)
    v = perm[v];
}

// Random numbering of a 2D mesh with edges -> 2 nodes, 2 cells.
template <class Mesh> void shuffle_2d(Mesh &m, int corners, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto pn = random_permutation(m.nodes.size(), rng),
             pc = random_permutation(m.cells.size(), rng),
             pe = random_permutation(m.edges.size(), rng);
  renumber(m.edge_nodes, pn);
  renumber(m.cell_nodes, pn);
  renumber(m.edge_cells, pc);
  permute_rows(m.node_coords, 2, pn);
  permute_rows(m.cell_nodes, corners, pc);
  permute_rows(m.edge_nodes, 2, pe);
  permute_rows(m.edge_cells, 2, pe);
}

} // namespace

QuadMesh make_quad_mesh(int nx, int ny, const MeshOptions &opt) {
  check_dims("make_quad_mesh", {nx, ny});
  // Sizes in 64 bits: Set refuses one past 2^31-1 by name instead of
  // receiving a wrapped-around negative count.
  const std::int64_t nnode = (std::int64_t(nx) + 1) * (std::int64_t(ny) + 1),
                     ncell = std::int64_t(nx) * ny;
  const std::int64_t nedge = std::int64_t(nx - 1) * ny + std::int64_t(nx) * (ny - 1);
  QuadMesh m{Set("nodes", nnode), Set("cells", ncell), Set("edges", nedge), {}, {}, {}, {}};
  auto node = [&](int i, int j) { return j * (nx + 1) + i; };
  auto cell = [&](int i, int j) { return j * nx + i; };
  m.node_coords.reserve(std::size_t(nnode) * 2);
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      m.node_coords.push_back(double(i) / nx);
      m.node_coords.push_back(double(j) / ny);
    }
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      for (int v : {node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)})
        m.cell_nodes.push_back(v);
  m.edge_nodes.reserve(std::size_t(nedge) * 2);
  m.edge_cells.reserve(std::size_t(nedge) * 2);
  // Edges in row-major order of the cells left/below them, like a mesh
  // file written by a structured generator.
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (i + 1 < nx) { // vertical edge between (i,j) and (i+1,j)
        m.edge_nodes.insert(m.edge_nodes.end(), {node(i + 1, j), node(i + 1, j + 1)});
        m.edge_cells.insert(m.edge_cells.end(), {cell(i, j), cell(i + 1, j)});
      }
      if (j + 1 < ny) { // horizontal edge between (i,j) and (i,j+1)
        m.edge_nodes.insert(m.edge_nodes.end(), {node(i + 1, j + 1), node(i, j + 1)});
        m.edge_cells.insert(m.edge_cells.end(), {cell(i, j), cell(i, j + 1)});
      }
    }
  if (opt.shuffle)
    shuffle_2d(m, 4, opt.seed);
  return m;
}

TriMesh make_tri_mesh(int nx, int ny, const MeshOptions &opt) {
  check_dims("make_tri_mesh", {nx, ny});
  const std::int64_t nnode = (std::int64_t(nx) + 1) * (std::int64_t(ny) + 1),
                     ncell = 2 * std::int64_t(nx) * ny;
  auto node = [&](int i, int j) { return j * (nx + 1) + i; };
  // Square (i,j) holds lower triangle 2c and upper triangle 2c+1, split
  // along its diagonal from (i,j) to (i+1,j+1).
  auto lower = [&](int i, int j) { return 2 * (j * nx + i); };
  auto upper = [&](int i, int j) { return 2 * (j * nx + i) + 1; };
  TriMesh m{Set("nodes", nnode), Set("cells", ncell), Set("edges", 0), {}, {}, {}, {}};
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i)
      m.node_coords.insert(m.node_coords.end(), {double(i) / nx, double(j) / ny});
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      m.cell_nodes.insert(m.cell_nodes.end(), {node(i, j), node(i + 1, j), node(i + 1, j + 1)});
      m.cell_nodes.insert(m.cell_nodes.end(), {node(i, j), node(i + 1, j + 1), node(i, j + 1)});
    }
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      // diagonal
      m.edge_nodes.insert(m.edge_nodes.end(), {node(i, j), node(i + 1, j + 1)});
      m.edge_cells.insert(m.edge_cells.end(), {lower(i, j), upper(i, j)});
      if (i + 1 < nx) { // right side: lower(i,j) | upper(i+1,j)
        m.edge_nodes.insert(m.edge_nodes.end(), {node(i + 1, j), node(i + 1, j + 1)});
        m.edge_cells.insert(m.edge_cells.end(), {lower(i, j), upper(i + 1, j)});
      }
      if (j + 1 < ny) { // top side: upper(i,j) | lower(i,j+1)
        m.edge_nodes.insert(m.edge_nodes.end(), {node(i + 1, j + 1), node(i, j + 1)});
        m.edge_cells.insert(m.edge_cells.end(), {upper(i, j), lower(i, j + 1)});
      }
    }
  const int nedge = int(m.edge_cells.size() / 2);
  m.edges = Set("edges", nedge);
  if (opt.shuffle)
    shuffle_2d(m, 3, opt.seed);
  return m;
}

HexMesh make_hex_mesh(int nx, int ny, int nz, const MeshOptions &opt) {
  check_dims("make_hex_mesh", {nx, ny, nz});
  const std::int64_t nnode64 = std::int64_t(nx + 1) * (ny + 1) * (nz + 1);
  const std::int64_t ncell64 = std::int64_t(nx) * ny * nz;
  const std::int64_t nface64 = std::int64_t(nx - 1) * ny * nz + std::int64_t(nx) * (ny - 1) * nz +
                               std::int64_t(nx) * ny * (nz - 1);
  HexMesh m{Set("nodes", nnode64), Set("cells", ncell64), Set("faces", nface64), {}, {}, {}, {}};
  const double hx = 1.0 / nx, hy = 1.0 / ny, hz = 1.0 / nz;
  auto node = [&](int i, int j, int k) { return (k * (ny + 1) + j) * (nx + 1) + i; };
  auto cell = [&](int i, int j, int k) { return (k * ny + j) * nx + i; };
  m.node_coords.reserve(std::size_t(nnode64) * 3);
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        m.node_coords.insert(m.node_coords.end(), {i * hx, j * hy, k * hz});
  m.cell_nodes.reserve(std::size_t(ncell64) * 8);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        m.cell_nodes.insert(m.cell_nodes.end(),
                            {node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k),
                             node(i, j + 1, k), node(i, j, k + 1), node(i + 1, j, k + 1),
                             node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)});
  m.face_cells.reserve(std::size_t(nface64) * 2);
  m.face_normals.reserve(std::size_t(nface64) * 3);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        if (i + 1 < nx) {
          m.face_cells.insert(m.face_cells.end(), {cell(i, j, k), cell(i + 1, j, k)});
          m.face_normals.insert(m.face_normals.end(), {hy * hz, 0.0, 0.0});
        }
        if (j + 1 < ny) {
          m.face_cells.insert(m.face_cells.end(), {cell(i, j, k), cell(i, j + 1, k)});
          m.face_normals.insert(m.face_normals.end(), {0.0, hx * hz, 0.0});
        }
        if (k + 1 < nz) {
          m.face_cells.insert(m.face_cells.end(), {cell(i, j, k), cell(i, j, k + 1)});
          m.face_normals.insert(m.face_normals.end(), {0.0, 0.0, hx * hy});
        }
      }
  if (opt.shuffle) {
    std::mt19937_64 rng(opt.seed);
    const auto pn = random_permutation(int(nnode64), rng),
               pc = random_permutation(int(ncell64), rng),
               pf = random_permutation(int(nface64), rng);
    renumber(m.cell_nodes, pn);
    renumber(m.face_cells, pc);
    permute_rows(m.node_coords, 3, pn);
    permute_rows(m.cell_nodes, 8, pc);
    permute_rows(m.face_cells, 2, pf);
    permute_rows(m.face_normals, 3, pf);
  }
  return m;
}

TetMesh make_tet_mesh(int nx, int ny, int nz, const MeshOptions &opt) {
  MeshOptions nodes_only = opt;
  nodes_only.shuffle = false; // the tets are shuffled below, with the nodes
  const HexMesh h = make_hex_mesh(nx, ny, nz, nodes_only);
  if (std::int64_t(h.cells.size()) * 6 > INT_MAX)
    detail::fail("make_tet_mesh: ", std::int64_t(h.cells.size()) * 6, " tets; at most ", INT_MAX);
  // A path from corner 0 to 6 along the cube's edges per tet (x, y, z in
  // each order): the six share the diagonal, and neighbouring cubes cut
  // their common face along the same diagonal.
  static const int cut[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                                {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
  TetMesh m{h.nodes, Set("tets", std::int64_t(h.cells.size()) * 6), {}, h.node_coords};
  m.cell_nodes.reserve(std::size_t(m.cells.size()) * 4);
  const double *x = h.node_coords.data();
  for (int c = 0; c < h.cells.size(); ++c)
    for (const auto &t : cut) {
      int v[4];
      for (int k = 0; k < 4; ++k)
        v[k] = h.cell_nodes[std::size_t(c) * 8 + t[k]];
      double a[3], b[3], d[3];
      for (int k = 0; k < 3; ++k) {
        a[k] = x[v[1] * 3 + k] - x[v[0] * 3 + k];
        b[k] = x[v[2] * 3 + k] - x[v[0] * 3 + k];
        d[k] = x[v[3] * 3 + k] - x[v[0] * 3 + k];
      }
      const double volume = (a[1] * b[2] - a[2] * b[1]) * d[0] +
                            (a[2] * b[0] - a[0] * b[2]) * d[1] + (a[0] * b[1] - a[1] * b[0]) * d[2];
      if (volume < 0)
        std::swap(v[1], v[2]);
      m.cell_nodes.insert(m.cell_nodes.end(), v, v + 4);
    }
  if (opt.shuffle) {
    std::mt19937_64 rng(opt.seed);
    const auto pn = random_permutation(m.nodes.size(), rng),
               pc = random_permutation(m.cells.size(), rng);
    renumber(m.cell_nodes, pn);
    permute_rows(m.node_coords, 3, pn);
    permute_rows(m.cell_nodes, 4, pc);
  }
  return m;
}

std::vector<int> make_random_connectivity(const Set &from, const Set &to, int arity,
                                          std::uint64_t seed) {
  if (arity < 1)
    detail::fail("make_random_connectivity: arity ", arity, " (must be >= 1)");
  if (to.size() == 0 && from.size() > 0)
    detail::fail("make_random_connectivity: set '", to.name(), "' is empty");
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pick(0, std::max(0, to.size() - 1));
  std::vector<int> conn(std::size_t(from.size()) * arity);
  for (int &v : conn)
    v = pick(rng);
  return conn;
}

} // namespace umesh
