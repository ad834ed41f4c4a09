#ifndef UMESH_PERF_MAIN_MESH_HPP
#define UMESH_PERF_MAIN_MESH_HPP

// The main job's meshes: generated (quads for res_calc and getacc, hexes for
// face_flux and integrate_stress, triangles for Volna) or read from a Gmsh,
// Exodus II or CGNS file (--mesh; umesh/mesh_file.hpp). A file's triangles and quads
// give res_calc its edges, its quads give getacc its cells, its tets and
// hexes give face_flux its faces; when a file has 3D cells its triangles and
// quads are their boundary, not a mesh.

#include <umesh/connectivity.hpp>
#include <umesh/mesh_file.hpp>
#include <umesh/umesh.hpp>

#include <algorithm>
#include <cmath>

#include <optional>
#include <string>
#include <vector>

namespace umesh::perf {

/// What res_calc runs over: interior edges with two nodes and two cells.
struct EdgeFluxMesh {
  Set nodes{"nodes", 0}, cells{"cells", 0}, edges{"edges", 0};
  std::vector<int> edge_nodes, edge_cells; ///< [edge][2]
  std::vector<double> node_coords;         ///< [node][2]
  std::string description;
};

/// What face_flux runs over: interior faces with two cells and a normal.
struct FaceFluxMesh {
  Set nodes{"nodes", 0}, cells{"cells", 0}, faces{"faces", 0};
  std::vector<int> face_cells;      ///< [face][2]
  std::vector<double> face_normals; ///< [face][3], area-weighted, cell 0 -> 1
  std::string description;
};

inline EdgeFluxMesh edge_flux_mesh(QuadMesh &&m, int nx, int ny) {
  return {m.nodes,
          m.cells,
          m.edges,
          std::move(m.edge_nodes),
          std::move(m.edge_cells),
          std::move(m.node_coords),
          std::to_string(nx) + " x " + std::to_string(ny) + " quads"};
}

inline FaceFluxMesh face_flux_mesh(HexMesh &&m, int n3) {
  return {m.nodes,
          m.cells,
          m.faces,
          std::move(m.face_cells),
          std::move(m.face_normals),
          std::to_string(n3) + "^3 hexes"};
}

/// What getacc runs over: quads with their four nodes.
struct QuadNodeMesh {
  Set nodes{"nodes", 0}, cells{"cells", 0};
  std::vector<int> cell_nodes; ///< [cell][4], counter-clockwise
  std::string description;
};

inline QuadNodeMesh quad_node_mesh(QuadMesh &&m, int nx, int ny) {
  return {m.nodes, m.cells, std::move(m.cell_nodes),
          std::to_string(nx) + " x " + std::to_string(ny) + " quads"};
}

/// The kernels' meshes from one mesh file; any may be absent.
struct FileMeshes {
  std::string name; ///< the file's name without folder and extension
  std::optional<EdgeFluxMesh> edges;
  std::optional<FaceFluxMesh> faces;
  std::optional<QuadNodeMesh> quads;
};

/// f(), its umesh::Error naming `path` (with --skip-mesh-checks a bad cell
/// is first met here, and the library's message names only the set).
template <class F> auto naming_file(const std::string &path, F &&f) {
  try {
    return f();
  } catch (const Error &e) {
    std::string why = e.what();
    if (why.rfind("umesh: ", 0) == 0)
      why.erase(0, 7);
    umesh::fail("mesh file '", path, "': ", why);
  }
}

inline FileMeshes read_file_meshes(const std::string &path, const GmshOptions &options = {}) {
  GmshMesh g = read_mesh_file(path, options);
  FileMeshes out;
  out.name = path.substr(path.find_last_of('/') + 1);
  out.name = out.name.substr(0, out.name.rfind('.'));
  // A 2.2 file writes a cell once per physical group it is in (check_gmsh
  // allows those copies and refuses other repeats); the kernels run over
  // each cell once.
  for (auto &b : g.blocks)
    if (b.type != "point" && b.type != "line")
      b = elements_once(b, g.format_version);
  // Cells of the wanted types, one block after another.
  auto gather = [&](std::initializer_list<const char *> types, std::string &what) {
    std::vector<CellBlock> blocks;
    int count = 0;
    for (const char *t : types)
      if (g.has(t)) {
        const auto &b = g.block(t);
        blocks.push_back({b.nodes_per_element, b.nodes});
        count += b.set.size();
        what += (what.empty() ? "" : " + ") + std::to_string(b.set.size()) + " " + t +
                (b.set.size() == 1         ? ""
                 : std::string(t) == "hex" ? "es"
                                           : "s");
      }
    return std::make_pair(blocks, count);
  };
  std::string what3;
  const auto [blocks3, cells3] = gather({"hex", "tet"}, what3);
  if (cells3 > 0) {
    FaceFluxMesh m;
    m.nodes = g.nodes;
    m.cells = Set("cells", cells3);
    const CellSides s = naming_file(path, [&] { return derive_faces(m.cells, blocks3, g.nodes); });
    m.faces = Set("faces", s.sides.size());
    m.face_cells = s.side_cells;
    m.face_normals = side_normals(s, g.coords);
    m.description = what3 + " from " + path + " (" + std::to_string(s.boundary.size()) +
                    " boundary faces left out)";
    out.faces = std::move(m);
    return out;
  }
  std::string what2;
  const auto [blocks2, cells2] = gather({"quad", "triangle"}, what2);
  if (cells2 > 0) {
    EdgeFluxMesh m;
    m.nodes = g.nodes;
    m.cells = Set("cells", cells2);
    // The 2D kernels read x and y: cells in another plane (x = 0, say)
    // would all have zero area there, and still "validate".
    const double z0 = g.coords[3 * std::size_t(blocks2.front().cell_nodes.front()) + 2];
    for (const auto &b : blocks2)
      for (int n : b.cell_nodes)
        if (const double z = g.coords[3 * std::size_t(n) + 2]; z != z0)
          umesh::fail("mesh file '", path,
                      "': its triangles and quads do not lie in one plane z = const (z = ", z0,
                      " and z = ", z, ", the latter at its node ", n + 1,
                      " in file order); the 2D kernels read x and y only");
    const CellSides s = naming_file(path, [&] { return derive_edges(m.cells, blocks2, g.nodes); });
    m.edges = Set("edges", s.sides.size());
    m.edge_nodes = s.side_nodes;
    m.edge_cells = s.side_cells;
    m.node_coords.resize(std::size_t(g.nodes.size()) * 2);
    for (int n = 0; n < g.nodes.size(); ++n) // the plane z = const: x and y
      for (int k = 0; k < 2; ++k)
        m.node_coords[2 * n + k] = g.coords[3 * n + k];
    m.description = what2 + " from " + path + " (" + std::to_string(s.boundary.size()) +
                    " boundary edges left out)";
    out.edges = std::move(m);
    if (g.has("quad")) {
      const auto &q = g.block("quad");
      out.quads = QuadNodeMesh{g.nodes, Set("quads", q.set.size()), q.nodes,
                               std::to_string(q.set.size()) + " quads from " + path};
    }
  }
  if (!out.edges && !out.faces)
    umesh::fail("mesh file '", path,
                "' has no cells the main job's kernels run over (triangles or quads for "
                "res_calc, tets or hexes for face_flux)");
  return out;
}

/// What integrate_stress runs over: hexes with their eight nodes (LULESH's
/// order) and the nodes' coordinates.
struct HexNodeMesh {
  Set nodes{"nodes", 0}, cells{"cells", 0};
  std::vector<int> cell_nodes;     ///< [cell][8]
  std::vector<double> node_coords; ///< [node][3]
  std::string description;
};

inline HexNodeMesh hex_node_mesh(HexMesh &&m, int n3) {
  return {m.nodes, m.cells, std::move(m.cell_nodes), std::move(m.node_coords),
          std::to_string(n3) + "^3 hexes"};
}

/// What the Volna kernel runs over: every edge of a triangle mesh with its
/// two cells (a boundary edge: its cell twice), its unit normal and the
/// cells' areas.
struct VolnaMesh {
  Set cells{"cells", 0}, edges{"edges", 0};
  std::vector<int> edge_cells;      ///< [edge][2]
  std::vector<int> is_boundary;     ///< [edge]
  std::vector<double> edge_normals; ///< [edge][2], unit, out of the first cell
  std::vector<double> edge_lengths; ///< [edge]
  std::vector<double> cell_areas;   ///< [cell]
  std::string description;
};

inline VolnaMesh volna_mesh(const TriMesh &m, int nx, int ny) {
  const CellSides s = derive_edges(m.cells, 3, m.cell_nodes, m.nodes);
  const int ni = s.sides.size(), nb = s.boundary.size(), n = ni + nb;
  VolnaMesh v;
  v.cells = m.cells;
  v.edges = Set("edges", n);
  v.edge_cells.resize(2 * std::size_t(n));
  v.is_boundary.assign(n, 0);
  v.edge_normals.resize(2 * std::size_t(n));
  v.edge_lengths.resize(n);
  const auto &xy = m.node_coords;
  auto normal = [&](int e, int a, int b) { // edge a -> b, its cell on the left
    const double dx = xy[2 * b] - xy[2 * a], dy = xy[2 * b + 1] - xy[2 * a + 1];
    const double len = std::sqrt(dx * dx + dy * dy);
    v.edge_lengths[e] = len;
    v.edge_normals[2 * e] = dy / len;
    v.edge_normals[2 * e + 1] = -dx / len;
  };
  for (int e = 0; e < ni; ++e) {
    v.edge_cells[2 * e] = s.side_cells[2 * e];
    v.edge_cells[2 * e + 1] = s.side_cells[2 * e + 1];
    normal(e, s.side_nodes[2 * e], s.side_nodes[2 * e + 1]);
  }
  for (int b = 0; b < nb; ++b) {
    const int e = ni + b;
    v.edge_cells[2 * e] = v.edge_cells[2 * e + 1] = s.boundary_cells[b];
    v.is_boundary[e] = 1;
    normal(e, s.boundary_nodes[2 * b], s.boundary_nodes[2 * b + 1]);
  }
  v.cell_areas.resize(m.cells.size());
  for (int c = 0; c < m.cells.size(); ++c) {
    const int *p = &m.cell_nodes[3 * std::size_t(c)];
    const double ax = xy[2 * p[1]] - xy[2 * p[0]], ay = xy[2 * p[1] + 1] - xy[2 * p[0] + 1];
    const double bx = xy[2 * p[2]] - xy[2 * p[0]], by = xy[2 * p[2] + 1] - xy[2 * p[0] + 1];
    v.cell_areas[c] = 0.5 * std::fabs(ax * by - ay * bx);
  }
  v.description = std::to_string(nx) + " x " + std::to_string(ny) + " squares in " +
                  std::to_string(m.cells.size()) + " triangles, " + std::to_string(nb) +
                  " boundary edges";
  return v;
}

} // namespace umesh::perf

#endif
