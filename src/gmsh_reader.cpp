#include <umesh/error.hpp>
#include <umesh/gmsh.hpp>

#include "gmsh_tokens.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_map>

namespace umesh {
namespace {

using detail::Tokens;

struct ElementType {
  const char *name;
  const char *set_name;
  int nodes;
};

// Gmsh element type codes we read; the others are rejected.
const ElementType *element_type(int code) {
  static const ElementType line{"line", "lines", 2}, tri{"triangle", "triangles", 3},
      quad{"quad", "quads", 4}, tet{"tet", "tets", 4}, hex{"hex", "hexes", 8},
      wedge{"wedge", "wedges", 6}, point{"point", "points", 1};
  switch (code) {
  case 1:
    return &line;
  case 2:
    return &tri;
  case 3:
    return &quad;
  case 4:
    return &tet;
  case 5:
    return &hex;
  case 6: // Gmsh's prism
    return &wedge;
  case 15:
    return &point;
  default:
    return nullptr;
  }
}

struct Reader {
  Tokens tok;
  GmshMesh mesh;
  std::unordered_map<long long, int> node_index;      // gmsh tag -> 0-based
  std::map<std::pair<int, int>, int> entity_physical; // (dim, tag) -> physical
  std::map<std::string, std::size_t> block_of;

  GmshMesh::Block &block(const ElementType &t) {
    auto it = block_of.find(t.name);
    if (it != block_of.end())
      return mesh.blocks[it->second];
    block_of[t.name] = mesh.blocks.size();
    mesh.blocks.push_back({t.name, t.nodes, Set(t.set_name, 0), {}, {}, {}});
    return mesh.blocks.back();
  }

  void add_node(long long tag, double x, double y, double z) {
    // Gmsh numbers from 1: a tag 0 or below is a corrupt or hand-made file
    // whose elements would name nodes by accident.
    if (tag <= 0)
      tok.error("node tag " + std::to_string(tag) + " is not positive (Gmsh tags start at 1)");
    if (node_index.size() >= std::size_t(INT_MAX)) // indices are ints
      tok.error("more than 2^31-1 nodes");
    if (!node_index.emplace(tag, int(node_index.size())).second)
      tok.error("node tag " + std::to_string(tag) + " appears twice");
    mesh.coords.insert(mesh.coords.end(), {x, y, z});
  }

  void add_element(int code, long long tag, int physical, const std::vector<long long> &nodes) {
    if (tag <= 0)
      tok.error("element tag " + std::to_string(tag) + " is not positive (Gmsh tags start at 1)");
    GmshMesh::Block &b = block(*element_type(code));
    if (b.physical.size() >= std::size_t(INT_MAX)) // a Set's size and map rows are ints
      tok.error(std::string("more than 2^31-1 ") + b.set.name());
    for (long long n : nodes) {
      auto it = node_index.find(n);
      if (it == node_index.end())
        tok.error("element " + std::to_string(tag) + " uses node " + std::to_string(n) +
                  ", which the $Nodes section does not define");
      b.nodes.push_back(it->second);
    }
    b.physical.push_back(physical);
    b.tags.push_back(tag);
  }

  const ElementType &checked_type(long long code) {
    const ElementType *t = code < INT_MIN || code > INT_MAX ? nullptr : element_type(int(code));
    if (!t)
      tok.error("unsupported element type " + std::to_string(code) +
                " (supported: 1 line, 2 triangle, 3 quad, 4 tet, 5 hex, 6 prism, 15 point)");
    return *t;
  }

  void mesh_format() {
    const std::string version = tok.word("the format version");
    const long long file_type = tok.integer("the file type");
    tok.integer("the data size");
    if (file_type != 0)
      tok.error("binary .msh files are not supported; write ASCII (gmsh -format msh22 or msh41)");
    if (version != "2.2" && version != "4.1")
      tok.error("unsupported .msh version " + version + " (supported: 2.2 and 4.1)");
    mesh.format_version = version;
    tok.expect("$EndMeshFormat");
  }

  void physical_names() {
    const int n = tok.count("the number of physical names");
    for (int i = 0; i < n; ++i) {
      tok.integer("a physical dimension");
      const int tag = tok.int32("a physical tag");
      mesh.physical_names[tag] = tok.word("a physical name");
    }
    tok.expect("$EndPhysicalNames");
  }

  void entities() {
    int counts[4];
    for (int &c : counts)
      c = tok.count("an entity count");
    for (int dim = 0; dim < 4; ++dim)
      for (int i = 0; i < counts[dim]; ++i) {
        const int tag = tok.int32("an entity tag");
        for (int k = 0; k < (dim == 0 ? 3 : 6); ++k)
          tok.real("an entity bounding box coordinate");
        const int nphys = tok.count("the number of physical tags");
        int physical = 0;
        for (int p = 0; p < nphys; ++p) {
          const int t = tok.int32("a physical tag");
          if (p == 0)
            physical = t;
        }
        entity_physical[{dim, tag}] = physical;
        if (dim > 0) {
          const int nb = tok.count("the number of bounding entities");
          for (int b = 0; b < nb; ++b)
            tok.integer("a bounding entity tag");
        }
      }
    tok.expect("$EndEntities");
  }

  void nodes_v2() {
    const int n = tok.count("the number of nodes");
    for (int i = 0; i < n; ++i) {
      const long long tag = tok.integer("a node tag");
      const double x = tok.real("x"), y = tok.real("y"), z = tok.real("z");
      add_node(tag, x, y, z);
    }
    tok.expect("$EndNodes");
  }

  void nodes_v4() {
    const int nblocks = tok.count("the number of node blocks");
    const int n = tok.count("the number of nodes");
    tok.integer("the minimum node tag");
    tok.integer("the maximum node tag");
    long long seen = 0;
    for (int b = 0; b < nblocks; ++b) {
      tok.integer("an entity dimension");
      tok.integer("an entity tag");
      const long long parametric = tok.integer("the parametric flag");
      if (parametric != 0)
        tok.error("parametric node coordinates are not supported");
      // Tags grow as they are read, never from the count alone: a file that
      // declares two billion nodes in a few lines ends at its end, not in
      // an allocation of 16 GB.
      const int nb = tok.count("the number of nodes in a block");
      std::vector<long long> tags;
      for (int i = 0; i < nb; ++i)
        tags.push_back(tok.integer("a node tag"));
      for (int i = 0; i < nb; ++i) {
        const double x = tok.real("x"), y = tok.real("y"), z = tok.real("z");
        add_node(tags[i], x, y, z);
      }
      seen += nb;
    }
    if (seen != n)
      tok.error("the node blocks hold " + std::to_string(seen) + " nodes, the header says " +
                std::to_string(n));
    tok.expect("$EndNodes");
  }

  void elements_v2() {
    const int n = tok.count("the number of elements");
    std::vector<long long> nodes;
    for (int i = 0; i < n; ++i) {
      const long long tag = tok.integer("an element tag");
      const ElementType &t = checked_type(tok.integer("an element type"));
      const int ntags = tok.count("the number of element tags");
      int physical = 0;
      for (int k = 0; k < ntags; ++k) {
        const long long v = tok.integer("an element tag value");
        if (k == 0 && (v < INT_MIN || v > INT_MAX))
          tok.error("a physical tag " + std::to_string(v) + " is out of range (32-bit)");
        if (k == 0)
          physical = int(v);
      }
      nodes.resize(t.nodes);
      for (auto &v : nodes)
        v = tok.integer("an element node");
      add_element(type_code(t), tag, physical, nodes);
    }
    tok.expect("$EndElements");
  }

  void elements_v4() {
    const int nblocks = tok.count("the number of element blocks");
    const int n = tok.count("the number of elements");
    tok.integer("the minimum element tag");
    tok.integer("the maximum element tag");
    long long seen = 0;
    std::vector<long long> nodes;
    for (int b = 0; b < nblocks; ++b) {
      const int dim = tok.int32("an entity dimension");
      const int etag = tok.int32("an entity tag");
      const ElementType &t = checked_type(tok.integer("an element type"));
      const int nb = tok.count("the number of elements in a block");
      auto it = entity_physical.find({dim, etag});
      const int physical = it == entity_physical.end() ? 0 : it->second;
      nodes.resize(t.nodes);
      for (int i = 0; i < nb; ++i) {
        const long long tag = tok.integer("an element tag");
        for (auto &v : nodes)
          v = tok.integer("an element node");
        add_element(type_code(t), tag, physical, nodes);
      }
      seen += nb;
    }
    if (seen != n)
      tok.error("the element blocks hold " + std::to_string(seen) + " elements, the header says " +
                std::to_string(n));
    tok.expect("$EndElements");
  }

  static int type_code(const ElementType &t) {
    for (int code : {1, 2, 3, 4, 5, 6, 15})
      if (element_type(code) == &t)
        return code;
    return 0;
  }

  void read() {
    std::string section;
    bool have_nodes = false, have_elements = false, have_names = false, have_entities = false;
    // One of each section that defines the mesh: a second $Nodes would
    // renumber nodes the elements before it already point at, a second
    // $MeshFormat could change the version between sections, a second
    // $Entities or $PhysicalNames would silently replace physical groups.
    auto once = [&](bool seen) {
      if (seen)
        tok.error("a second " + section + " section (a .msh file has one)");
    };
    while (tok.next(section)) {
      if (section == "$MeshFormat") {
        once(!mesh.format_version.empty());
        mesh_format();
      } else if (mesh.format_version.empty())
        tok.error("expected $MeshFormat first, found '" + section + "' (not a .msh file?)");
      else if (section == "$PhysicalNames") {
        once(have_names);
        physical_names();
        have_names = true;
      } else if (section == "$Entities") {
        once(have_entities);
        entities();
        have_entities = true;
      } else if (section == "$Nodes") {
        once(have_nodes);
        mesh.format_version == "2.2" ? nodes_v2() : nodes_v4();
        have_nodes = true;
      } else if (section == "$Elements") {
        once(have_elements);
        if (!have_nodes)
          tok.error("$Elements before $Nodes");
        mesh.format_version == "2.2" ? elements_v2() : elements_v4();
        have_elements = true;
      } else if (section.size() > 1 && section[0] == '$')
        tok.skip_section(section); // sections we do not use
      else
        tok.error("unexpected '" + section + "' between sections");
    }
    if (mesh.format_version.empty())
      tok.error("empty file: no $MeshFormat section");
    if (!have_nodes || !have_elements)
      tok.error(std::string("file ends without a ") + (have_nodes ? "$Elements" : "$Nodes") +
                " section (truncated?)");
    mesh.nodes = Set("nodes", std::int64_t(node_index.size()));
    for (auto &b : mesh.blocks)
      b.set = Set(b.set.name(), std::int64_t(b.physical.size()));
  }
};

} // namespace

bool GmshMesh::has(const std::string &type) const {
  for (const auto &b : blocks)
    if (b.type == type)
      return true;
  return false;
}

const GmshMesh::Block &GmshMesh::block(const std::string &type) const {
  std::string present;
  for (const auto &b : blocks) {
    if (b.type == type)
      return b;
    present += (present.empty() ? "" : ", ") + b.type;
  }
  detail::fail("gmsh mesh has no ", type, " elements (it has: ", present.empty() ? "none" : present,
               ")");
}

GmshMesh::Block elements_once(const GmshMesh::Block &block, const std::string &format_version) {
  if (format_version != "2.2")
    return block;
  const std::size_t k = std::size_t(block.nodes_per_element);
  GmshMesh::Block out{block.type, block.nodes_per_element, block.set, {}, {}, {}};
  out.nodes.reserve(block.nodes.size());
  for (std::size_t e = 0; e < block.physical.size(); ++e) {
    const auto element = block.nodes.begin() + std::ptrdiff_t(e * k);
    if (e > 0 && std::equal(element, element + std::ptrdiff_t(k), element - std::ptrdiff_t(k)))
      continue; // the copy of the one before, for another physical group
    out.nodes.insert(out.nodes.end(), element, element + std::ptrdiff_t(k));
    out.physical.push_back(block.physical[e]);
    if (e < block.tags.size())
      out.tags.push_back(block.tags[e]);
  }
  out.set = Set(block.set.name(), std::int64_t(out.physical.size()));
  return out;
}

GmshMesh parse_gmsh(std::istream &in, const std::string &source, const GmshOptions &options) {
  Reader r{Tokens(in, source), {}, {}, {}, {}};
  r.read();
  if (options.check)
    check_gmsh(r.mesh, source);
  return std::move(r.mesh);
}

GmshMesh read_gmsh(const std::string &path, const GmshOptions &options) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    detail::fail("gmsh file '", path, "' is a folder, not a file");
  std::ifstream in(path);
  if (!in)
    detail::fail("cannot open gmsh file '", path, "': ", std::strerror(errno));
  return parse_gmsh(in, path, options);
}

} // namespace umesh
