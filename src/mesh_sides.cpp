// Blocks, tags and sides for the mesh readers and writers (mesh_sides.hpp).
#include "mesh_sides.hpp"

#include <algorithm>
#include <climits>
#include <map>

namespace umesh::detail {

int type_dimension(const std::string &type) {
  return type == "point" ? 0 : type == "line" ? 1 : type == "triangle" || type == "quad" ? 2 : 3;
}

ExodusSide exodus_side(const std::string &type, int dim, long long side) {
  static const int tet[4][3] = {{0, 1, 3}, {1, 2, 3}, {0, 3, 2}, {0, 2, 1}};
  static const int hex[6][4] = {{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6},
                                {0, 4, 7, 3}, {0, 3, 2, 1}, {4, 5, 6, 7}};
  static const int wedge_quads[3][4] = {{0, 1, 4, 3}, {1, 2, 5, 4}, {0, 3, 5, 2}};
  static const int wedge_tris[2][3] = {{0, 2, 1}, {3, 4, 5}};
  ExodusSide s;
  const auto set = [&](const char *t, const int *n, int k) {
    s.type = t;
    std::copy(n, n + k, s.nodes);
  };
  const long long i = side - 1;
  if (i < 0 || i >= exodus_side_count(type, dim))
    return s;
  if (type == "tet")
    set("triangle", tet[i], 3);
  else if (type == "hex")
    set("quad", hex[i], 4);
  else if (type == "wedge" && i < 3)
    set("quad", wedge_quads[i], 4);
  else if (type == "wedge")
    set("triangle", wedge_tris[i - 3], 3);
  else { // a triangle or quad: its faces in 3D, then its edges
    const int k = type == "quad" ? 4 : 3;
    const long long edge = dim == 2 ? i : i - 2;
    s.type = edge < 0 ? (k == 4 ? "quad" : "triangle") : "line";
    if (edge == -2)
      for (int a = 0; a < k; ++a)
        s.nodes[a] = a;
    else if (edge == -1)
      for (int a = 0; a < k; ++a)
        s.nodes[a] = (k - a) % k;
    else {
      s.nodes[0] = int(edge);
      s.nodes[1] = int((edge + 1) % k);
    }
  }
  return s;
}

int exodus_side_count(const std::string &type, int dim) {
  if (type == "tet")
    return 4;
  if (type == "hex")
    return 6;
  if (type == "wedge")
    return 5;
  if (type == "triangle" || type == "quad")
    return (type == "quad" ? 4 : 3) + (dim == 3 ? 2 : 0);
  return 0;
}

std::vector<TagGroup> groups_of(const GmshMesh &mesh, int dim) {
  std::vector<TagGroup> out;
  for (const auto &b : mesh.blocks) {
    if (type_dimension(b.type) != dim)
      continue;
    std::map<int, std::size_t> group_of; // tag -> place in out
    for (std::size_t e = 0; e < b.physical.size(); ++e) {
      const int tag = b.physical[e];
      auto it = group_of.find(tag);
      if (it == group_of.end()) {
        it = group_of.emplace(tag, out.size()).first;
        out.push_back({&b, tag, {}});
      }
      out[it->second].elements.push_back(int(e));
    }
  }
  return out;
}

std::string tag_name(const GmshMesh &mesh, int tag, int dim, int cell_dim) {
  const auto find = [&](const std::map<int, std::string> &names) {
    const auto it = names.find(tag);
    return it == names.end() ? std::string() : it->second;
  };
  std::string name;
  if (dim == 0)
    name = find(mesh.node_set_names);
  else if (dim == cell_dim - 1)
    name = find(mesh.side_set_names);
  return name.empty() ? find(mesh.physical_names) : name;
}

SideIndex::SideIndex(const std::vector<TagGroup> &groups, int dim) {
  long long cell = 0;
  for (const auto &g : groups) {
    const int k = g.block->nodes_per_element, sides = exodus_side_count(g.block->type, dim);
    for (int e : g.elements) {
      ++cell;
      const int *nodes = &g.block->nodes[std::size_t(e) * k];
      for (int s = 1; s <= sides; ++s) {
        const ExodusSide side = exodus_side(g.block->type, dim, s);
        const int n = side.type == std::string("line")   ? 2
                      : side.type == std::string("quad") ? 4
                                                         : 3;
        Entry entry{{INT_MAX, INT_MAX, INT_MAX, INT_MAX}, cell, s};
        for (int a = 0; a < n; ++a)
          entry.key[a] = nodes[side.nodes[a]];
        std::sort(entry.key, entry.key + 4);
        entries_.push_back(entry);
      }
    }
  }
  std::sort(entries_.begin(), entries_.end(), [](const Entry &a, const Entry &b) {
    return std::lexicographical_compare(a.key, a.key + 4, b.key, b.key + 4);
  });
}

std::pair<long long, int> SideIndex::side_of(const int *nodes, int count) const {
  Entry probe{{INT_MAX, INT_MAX, INT_MAX, INT_MAX}, 0, 0};
  std::copy(nodes, nodes + count, probe.key);
  std::sort(probe.key, probe.key + 4);
  const auto less = [](const Entry &a, const Entry &b) {
    return std::lexicographical_compare(a.key, a.key + 4, b.key, b.key + 4);
  };
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), probe, less);
  if (it == entries_.end() || !std::equal(it->key, it->key + 4, probe.key))
    return {0, 0};
  return {it->cell, it->side};
}

} // namespace umesh::detail
