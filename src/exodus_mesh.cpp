// Exodus II meshes through the Exodus II library (Debian: libexodusii-dev):
// read_exodus hands what the file holds to assemble_mesh, which checks it;
// write_exodus_mesh writes a GmshMesh through a temporary beside the target.
#include <umesh/detail/isolated_read.hpp>
#include <umesh/error.hpp>
#include <umesh/mesh_file.hpp>

#include "mesh_assembly.hpp"
#include "mesh_sides.hpp"

#if defined(UMESH_HAS_EXODUS)
#include "exodus_file.hpp"
#include "temp_beside.hpp"

#include <algorithm>
#include <cstring>
#include <map>

namespace umesh {
namespace {

using detail::ExodusFile;

std::vector<detail::RawMesh::Block> read_blocks(ExodusFile &f, long long count) {
  const std::vector<long long> ids = f.ids(EX_ELEM_BLOCK, count);
  const std::vector<std::string> names = f.names(EX_ELEM_BLOCK, count);
  std::vector<detail::RawMesh::Block> blocks;
  long long first = 1;
  for (long long i = 0; i < count; ++i) {
    char type[MAX_STR_LENGTH + 1] = {};
    int64_t n = 0, k = 0, edges = 0, faces = 0, attributes = 0;
    f.check(ex_get_block(f.id(), EX_ELEM_BLOCK, ids[i], type, &n, &k, &edges, &faces, &attributes),
            "reading element block " + std::to_string(ids[i]));
    if (n < 0 || k < 0 || (k > 0 && n > f.most_values() / k))
      f.bad("element block " + std::to_string(ids[i]) + " declares " + std::to_string(n) +
            " elements of " + std::to_string(k) + " nodes");
    detail::RawMesh::Block b;
    b.file_type = type;
    b.type = detail::exodus_type(type, k);
    b.id = ids[i];
    b.name = names[i];
    b.first = first;
    b.nodes_per_element = int(k);
    first += n;
    if (!b.type.empty() && n > 0) { // (the assembly names a type umesh does not read)
      std::vector<int64_t> conn(static_cast<std::size_t>(n * k));
      f.check(ex_get_conn(f.id(), EX_ELEM_BLOCK, ids[i], conn.data(), nullptr, nullptr),
              "reading element block " + std::to_string(ids[i]) + "'s connectivity");
      b.nodes.assign(conn.begin(), conn.end());
    }
    blocks.push_back(std::move(b));
  }
  return blocks;
}

// Side sets (elements and sides) or node sets (nodes).
template <class Set>
std::vector<Set> read_sets(ExodusFile &f, ex_entity_type type, long long count) {
  const std::vector<long long> ids = f.ids(type, count);
  const std::vector<std::string> names = f.names(type, count);
  const char *what = type == EX_SIDE_SET ? "side set " : "node set ";
  std::vector<Set> sets;
  for (long long i = 0; i < count; ++i) {
    int64_t n = 0, factors = 0;
    f.check(ex_get_set_param(f.id(), type, ids[i], &n, &factors),
            std::string("reading ") + what + std::to_string(ids[i]));
    if (n < 0 || n > f.most_values())
      f.bad(what + std::to_string(ids[i]) + " declares " + std::to_string(n) + " entries");
    std::vector<int64_t> entries(static_cast<std::size_t>(n)),
        extra(type == EX_SIDE_SET ? std::size_t(n) : 0);
    if (n > 0)
      f.check(ex_get_set(f.id(), type, ids[i], entries.data(),
                         type == EX_SIDE_SET ? extra.data() : nullptr),
              std::string("reading ") + what + std::to_string(ids[i]));
    Set s;
    s.id = ids[i];
    s.name = names[i];
    if constexpr (std::is_same_v<Set, detail::RawMesh::SideSet>) {
      s.elements.assign(entries.begin(), entries.end());
      s.sides.assign(extra.begin(), extra.end());
    } else {
      s.nodes.assign(entries.begin(), entries.end());
    }
    sets.push_back(std::move(s));
  }
  return sets;
}

} // namespace

namespace {

// What the file holds, as its library reads it.
detail::RawMesh raw_exodus(const std::string &path) {
  ExodusFile f = ExodusFile::open(path);
  ex_init_params p{};
  f.check(ex_get_init_ext(f.id(), &p), "reading its header");
  detail::RawMesh raw;
  raw.format = "exodus";
  raw.version = f.version();
  raw.dim = int(p.num_dim);
  if (p.num_dim < 1 || p.num_dim > 3 || p.num_nodes < 0 || p.num_elem_blk < 0 ||
      p.num_side_sets < 0 || p.num_node_sets < 0 || p.num_nodes > f.most_values() / 3)
    f.bad("its header is out of range (" + std::to_string(p.num_dim) + " dimensions, " +
          std::to_string(p.num_nodes) + " nodes, " + std::to_string(p.num_elem_blk) +
          " element blocks)");
  const std::size_t n = std::size_t(p.num_nodes);
  std::vector<double> x(n), y(n), z(n);
  if (n > 0)
    f.check(ex_get_coord(f.id(), x.data(), p.num_dim > 1 ? y.data() : nullptr,
                         p.num_dim > 2 ? z.data() : nullptr),
            "reading its coordinates");
  raw.coords.resize(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    raw.coords[3 * i] = x[i];
    raw.coords[3 * i + 1] = y[i];
    raw.coords[3 * i + 2] = z[i];
  }
  raw.blocks = read_blocks(f, p.num_elem_blk);
  raw.side_sets = read_sets<detail::RawMesh::SideSet>(f, EX_SIDE_SET, p.num_side_sets);
  raw.node_sets = read_sets<detail::RawMesh::NodeSet>(f, EX_NODE_SET, p.num_node_sets);
  f.close();
  return raw;
}

} // namespace

GmshMesh read_exodus(const std::string &path, const GmshOptions &options) {
  // The library's read first in a process of its own (detail/isolated_read.hpp).
  detail::read_in_child_first(path, "exodus file '" + path + "'", "Exodus II (NetCDF)",
                              [&] { raw_exodus(path); });
  return detail::assemble_mesh(raw_exodus(path), path, options);
}

namespace {

// Faces (or points) of one tag, whatever their types, in file order.
std::map<int, std::vector<std::pair<const GmshMesh::Block *, int>>>
by_tag(const GmshMesh &mesh, int dim, std::vector<int> &order) {
  std::map<int, std::vector<std::pair<const GmshMesh::Block *, int>>> out;
  for (const auto &g : detail::groups_of(mesh, dim)) {
    if (g.tag <= 0)
      continue;
    if (!out.count(g.tag))
      order.push_back(g.tag);
    for (int e : g.elements)
      out[g.tag].emplace_back(g.block, e);
  }
  return out;
}

// The side sets and node sets of write_exodus_mesh: a set per tag.
void write_sets(ExodusFile &f, const GmshMesh &mesh, const std::vector<detail::TagGroup> &cells,
                int cell_dim, int num_dim) {
  std::vector<int> order;
  const auto faces = by_tag(mesh, cell_dim - 1, order);
  std::vector<std::string> names;
  if (cell_dim >= 2 && !order.empty()) {
    const detail::SideIndex index(cells, num_dim);
    for (int tag : order) {
      std::vector<int64_t> elements, sides;
      for (const auto &[b, e] : faces.at(tag)) {
        const int k = b->nodes_per_element;
        const auto [cell, side] = index.side_of(&b->nodes[std::size_t(e) * k], k);
        if (cell == 0)
          fail("exodus file: ", b->type, " ", b->tags[std::size_t(e)], " (tag ", tag,
               ") is no side of any cell: Exodus II stores faces as sides of cells");
        elements.push_back(cell);
        sides.push_back(side);
      }
      f.check(ex_put_set_param(f.id(), EX_SIDE_SET, tag, int64_t(elements.size()), 0),
              "writing side set " + std::to_string(tag));
      f.check(ex_put_set(f.id(), EX_SIDE_SET, tag, elements.data(), sides.data()),
              "writing side set " + std::to_string(tag));
      names.push_back(detail::tag_name(mesh, tag, cell_dim - 1, cell_dim));
    }
    f.put_names(EX_SIDE_SET, names);
  }
  order.clear();
  names.clear();
  const auto points = by_tag(mesh, 0, order);
  if (cell_dim == 0)
    return;
  for (int tag : order) {
    std::vector<int64_t> nodes;
    for (const auto &[b, e] : points.at(tag))
      nodes.push_back(int64_t(b->nodes[std::size_t(e)]) + 1);
    f.check(ex_put_set_param(f.id(), EX_NODE_SET, tag, int64_t(nodes.size()), 0),
            "writing node set " + std::to_string(tag));
    f.check(ex_put_set(f.id(), EX_NODE_SET, tag, nodes.data(), nullptr),
            "writing node set " + std::to_string(tag));
    names.push_back(detail::tag_name(mesh, tag, 0, cell_dim));
  }
  f.put_names(EX_NODE_SET, names);
}

} // namespace

void write_exodus_mesh(const std::string &path, const GmshMesh &mesh) {
  int cell_dim = 0;
  for (const auto &b : mesh.blocks)
    if (!b.physical.empty())
      cell_dim = std::max(cell_dim, detail::type_dimension(b.type));
  const std::vector<detail::TagGroup> cells = detail::groups_of(mesh, cell_dim);
  bool planar = cell_dim < 3;
  for (std::size_t i = 2; i < mesh.coords.size() && planar; i += 3)
    planar = mesh.coords[i] == 0;
  const int num_dim = planar ? 2 : 3;
  std::vector<int> face_tags, point_tags;
  by_tag(mesh, cell_dim - 1, face_tags);
  by_tag(mesh, 0, point_tags);
  const long long side_sets = cell_dim >= 2 ? (long long)(face_tags.size()) : 0;
  const long long node_sets = cell_dim > 0 ? (long long)(point_tags.size()) : 0;
  long long elements = 0;
  for (const auto &g : cells)
    elements += (long long)(g.elements.size());

  detail::TempBeside temp(path, "exodus file '" + path + "'");
  ExodusFile f = ExodusFile::create(temp.path(), path);
  f.check(ex_put_init(f.id(), "umesh", num_dim, mesh.nodes.size(), elements,
                      (long long)(cells.size()), node_sets, side_sets),
          "writing its header");
  const std::size_t n = std::size_t(mesh.nodes.size());
  std::vector<double> x(n), y(n), z(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = mesh.coords[3 * i];
    y[i] = mesh.coords[3 * i + 1];
    z[i] = mesh.coords[3 * i + 2];
  }
  f.check(ex_put_coord(f.id(), x.data(), y.data(), num_dim == 3 ? z.data() : nullptr),
          "writing its coordinates");
  // Block ids: the tag where it is positive and still free.
  std::vector<std::string> names;
  std::map<long long, bool> used;
  for (const auto &g : cells)
    used[g.tag] = false;
  long long next = 1;
  for (const auto &g : cells) {
    long long id = g.tag;
    if (id <= 0 || used[id]) {
      while (used.count(next))
        ++next;
      id = next;
    }
    used[id] = true;
    const int k = g.block->nodes_per_element;
    static const std::map<std::string, const char *> exodus_names{
        {"point", "SPHERE"}, {"line", "BAR2"}, {"triangle", "TRI3"}, {"quad", "QUAD4"},
        {"tet", "TETRA4"},   {"hex", "HEX8"},  {"wedge", "WEDGE6"}};
    const char *type = exodus_names.at(g.block->type);
    f.check(ex_put_block(f.id(), EX_ELEM_BLOCK, id, type, int64_t(g.elements.size()), k, 0, 0, 0),
            "writing element block " + std::to_string(id));
    std::vector<int64_t> conn;
    conn.reserve(g.elements.size() * std::size_t(k));
    for (int e : g.elements)
      for (int a = 0; a < k; ++a)
        conn.push_back(int64_t(g.block->nodes[std::size_t(e) * k + a]) + 1);
    f.check(ex_put_conn(f.id(), EX_ELEM_BLOCK, id, conn.data(), nullptr, nullptr),
            "writing element block " + std::to_string(id));
    names.push_back(detail::tag_name(mesh, g.tag, cell_dim, cell_dim));
  }
  f.put_names(EX_ELEM_BLOCK, names);
  write_sets(f, mesh, cells, cell_dim, num_dim);
  f.close();
  temp.commit();
}

} // namespace umesh

#else // built without Exodus II

#include <umesh/mesh_file.hpp>

namespace umesh {
GmshMesh read_exodus(const std::string &path, const GmshOptions &) {
  fail("exodus file '", path, "': ", mesh_format_missing(MeshFormat::exodus));
}
void write_exodus_mesh(const std::string &path, const GmshMesh &) {
  fail("exodus file '", path, "': ", mesh_format_missing(MeshFormat::exodus));
}
} // namespace umesh

#endif
