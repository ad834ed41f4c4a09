// assemble_mesh: an Exodus II or CGNS file's blocks and sets (RawMesh) as a
// GmshMesh. Every number the file gives is checked before it is used.
#include "mesh_assembly.hpp"
#include "mesh_sides.hpp"

#include <umesh/error.hpp>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <map>
#include <tuple>

namespace umesh::detail {
namespace {

struct TypeInfo {
  const char *name, *set_name;
  int nodes, dim;
};
const TypeInfo kTypes[] = {{"point", "points", 1, 0},       {"line", "lines", 2, 1},
                           {"triangle", "triangles", 3, 2}, {"quad", "quads", 4, 2},
                           {"tet", "tets", 4, 3},           {"hex", "hexes", 8, 3},
                           {"wedge", "wedges", 6, 3}};
const TypeInfo *type_info(const std::string &type) {
  for (const auto &t : kTypes)
    if (type == t.name)
      return &t;
  return nullptr;
}

class Assembler {
public:
  Assembler(const RawMesh &raw, const std::string &source) : raw_(raw), source_(source) {}

  GmshMesh run() {
    mesh_.format = raw_.format;
    mesh_.format_version = raw_.version;
    if (raw_.dim != 2 && raw_.dim != 3)
      fail_here("its cells are ", raw_.dim, "-dimensional; umesh reads 2D and 3D meshes");
    nodes();
    for (std::size_t b = 0; b < raw_.blocks.size(); ++b)
      block(b);
    if (!raw_.side_sets.empty())
      number_elements();
    face_used_.assign(raw_.blocks.size(), {});
    for (const auto &s : raw_.side_sets)
      side_set(s);
    unnamed_faces();
    for (const auto &s : raw_.node_sets)
      node_set(s);
    for (auto &b : mesh_.blocks)
      b.set = Set(b.set.name(), std::int64_t(b.physical.size()));
    return std::move(mesh_);
  }

private:
  const RawMesh &raw_;
  const std::string &source_;
  GmshMesh mesh_;
  std::map<std::string, std::size_t> block_of_;
  // Every element's (number, block, place) by number: side sets name elements.
  std::vector<std::tuple<long long, std::size_t, long long>> numbered_;
  std::vector<std::vector<bool>> face_used_; // faces_from_sets: faces some set names
  int node_count_ = 0;

  template <class... Parts> [[noreturn]] void fail_here(Parts &&...parts) const {
    detail::fail(raw_.format, " file '", source_, "': ", std::forward<Parts>(parts)...);
  }

  GmshMesh::Block &out_block(const TypeInfo &t) {
    auto it = block_of_.find(t.name);
    if (it != block_of_.end())
      return mesh_.blocks[it->second];
    block_of_[t.name] = mesh_.blocks.size();
    mesh_.blocks.push_back({t.name, t.nodes, Set(t.set_name, 0), {}, {}, {}});
    return mesh_.blocks.back();
  }
  void add(GmshMesh::Block &b, const char *what, const int *nodes, int tag, long long number) {
    if (b.physical.size() >= std::size_t(INT_MAX)) // a Set's size and map rows are ints
      fail_here("more than 2^31-1 ", b.set.name(), " (", what, ")");
    b.nodes.insert(b.nodes.end(), nodes, nodes + b.nodes_per_element);
    b.physical.push_back(tag);
    b.tags.push_back(number);
  }

  int tag_of(long long id, const char *what, const std::string &name) const {
    if (id < INT_MIN || id > INT_MAX)
      fail_here(what, " '", name, "' has the id ", id, ", past the 32-bit tags umesh keeps");
    return int(id);
  }

  int node(long long n, const char *what, long long id, long long number) const {
    if (n < 1 || n > node_count_)
      fail_here(what, " ", id, "'s element ", number, " uses node ", n,
                "; the file has nodes 1 to ", node_count_);
    return int(n - 1);
  }

  void nodes() {
    if (raw_.coords.size() % 3 != 0)
      fail_here("its coordinates do not come in threes");
    if (raw_.coords.size() / 3 > std::size_t(INT_MAX))
      fail_here("more than 2^31-1 nodes");
    node_count_ = int(raw_.coords.size() / 3);
    for (std::size_t i = 0; i < raw_.coords.size(); ++i)
      if (!std::isfinite(raw_.coords[i]))
        fail_here("node ", i / 3 + 1, " has the coordinate ", raw_.coords[i],
                  " (not a finite number)");
    mesh_.nodes = Set("nodes", node_count_);
    mesh_.coords = raw_.coords;
  }

  bool is_face_storage(const TypeInfo &t) const {
    return raw_.faces_from_sets && t.dim == raw_.dim - 1;
  }

  long long number(const RawMesh::Block &b, long long e) const {
    return b.numbers.empty() ? b.first + e : b.numbers[std::size_t(e)];
  }

  void block(std::size_t index) {
    const RawMesh::Block &b = raw_.blocks[index];
    const char *what = raw_.format == "cgns" ? "section" : "element block";
    const TypeInfo *t = type_info(b.type);
    if (!t)
      fail_here(what, " ", b.id, (b.name.empty() ? "" : " '" + b.name + "'"), " holds ",
                b.file_type, " elements with ", b.nodes_per_element,
                " nodes; umesh reads points, lines, triangles, quads, tets, hexes and wedges "
                "(linear: corner nodes only)");
    if (b.nodes_per_element != t->nodes || b.nodes.size() % std::size_t(t->nodes) != 0)
      fail_here(what, " ", b.id, ": ", b.nodes.size(), " node numbers for ", t->name,
                " elements of ", t->nodes, " nodes each");
    if (!b.numbers.empty() && b.numbers.size() != std::size_t(b.count()))
      fail_here(what, " ", b.id, ": ", b.numbers.size(), " element numbers for ", b.count(),
                " elements");
    if (t->dim > raw_.dim)
      fail_here(what, " ", b.id, " holds ", t->name, "s in a ", raw_.dim, "D mesh");
    const int tag = tag_of(b.id, what, b.name);
    if (!is_face_storage(*t) && !b.name.empty())
      mesh_.physical_names[tag] = b.name;
    int nodes[8];
    for (long long e = 0; e < b.count(); ++e)
      for (int a = 0; a < t->nodes; ++a)
        nodes[a] = node(b.nodes[std::size_t(e * t->nodes + a)], what, b.id, number(b, e));
    if (is_face_storage(*t)) // kept for the side sets that name them
      return;
    GmshMesh::Block &out = out_block(*t);
    for (long long e = 0; e < b.count(); ++e) {
      for (int a = 0; a < t->nodes; ++a)
        nodes[a] = int(b.nodes[std::size_t(e * t->nodes + a)] - 1);
      add(out, what, nodes, tag, number(b, e));
    }
  }

  void number_elements() {
    for (std::size_t b = 0; b < raw_.blocks.size(); ++b)
      for (long long e = 0; e < raw_.blocks[b].count(); ++e)
        numbered_.emplace_back(number(raw_.blocks[b], e), b, e);
    std::sort(numbered_.begin(), numbered_.end());
    for (std::size_t i = 1; i < numbered_.size(); ++i)
      if (std::get<0>(numbered_[i]) == std::get<0>(numbered_[i - 1]))
        fail_here("two elements are numbered ", std::get<0>(numbered_[i]), " (in blocks ",
                  raw_.blocks[std::get<1>(numbered_[i - 1])].id, " and ",
                  raw_.blocks[std::get<1>(numbered_[i])].id, ")");
  }

  // The block and place of element `number`, or a failure naming the set.
  std::pair<std::size_t, long long> element(long long number, const RawMesh::SideSet &s) const {
    const auto it = std::lower_bound(numbered_.begin(), numbered_.end(),
                                     std::make_tuple(number, std::size_t(0), 0LL));
    if (it == numbered_.end() || std::get<0>(*it) != number)
      fail_here("side set ", s.id, (s.name.empty() ? "" : " '" + s.name + "'"), " names element ",
                number, ", which the file does not have");
    return {std::get<1>(*it), std::get<2>(*it)};
  }

  void side_set(const RawMesh::SideSet &s) {
    const int tag = tag_of(s.id, "side set", s.name);
    mesh_.side_set_names[tag] = s.name;
    const bool with_sides = !raw_.faces_from_sets;
    if (with_sides && s.sides.size() != s.elements.size())
      fail_here("side set ", s.id, " lists ", s.elements.size(), " elements and ", s.sides.size(),
                " sides");
    int nodes[4];
    for (std::size_t i = 0; i < s.elements.size(); ++i) {
      const auto [b, e] = element(s.elements[i], s);
      const RawMesh::Block &from = raw_.blocks[b];
      const long long *corner = &from.nodes[std::size_t(e * from.nodes_per_element)];
      if (!with_sides) {
        const TypeInfo &t = *type_info(from.type);
        if (!is_face_storage(t))
          fail_here("boundary condition ", s.id, " '", s.name, "' names element ", s.elements[i],
                    ", a ", t.name, ", not a face of the ", raw_.dim, "D cells");
        face_used_[b].resize(std::size_t(from.count()));
        face_used_[b][std::size_t(e)] = true;
        for (int a = 0; a < t.nodes; ++a)
          nodes[a] = int(corner[a] - 1);
        add(out_block(t), "side-set faces", nodes, tag, s.elements[i]);
        continue;
      }
      const ExodusSide side = exodus_side(from.type, raw_.dim, s.sides[i]);
      if (!side.type)
        fail_here("side set ", s.id, (s.name.empty() ? "" : " '" + s.name + "'"), " names side ",
                  s.sides[i], " of element ", s.elements[i], ", a ", from.type,
                  ", which has no such side");
      const TypeInfo &t = *type_info(side.type);
      for (int a = 0; a < t.nodes; ++a)
        nodes[a] = int(corner[side.nodes[a]] - 1);
      add(out_block(t), "side-set faces", nodes, tag, s.elements[i]);
    }
  }

  // CGNS faces that no boundary condition names: kept, with no tag.
  void unnamed_faces() {
    for (std::size_t b = 0; b < raw_.blocks.size(); ++b) {
      const RawMesh::Block &from = raw_.blocks[b];
      const TypeInfo &t = *type_info(from.type);
      if (!is_face_storage(t))
        continue;
      int nodes[4];
      for (long long e = 0; e < from.count(); ++e) {
        if (std::size_t(e) < face_used_[b].size() && face_used_[b][std::size_t(e)])
          continue;
        for (int a = 0; a < t.nodes; ++a)
          nodes[a] = int(from.nodes[std::size_t(e * t.nodes + a)] - 1);
        add(out_block(t), "faces", nodes, 0, number(from, e));
      }
    }
  }

  void node_set(const RawMesh::NodeSet &s) {
    const int tag = tag_of(s.id, "node set", s.name);
    mesh_.node_set_names[tag] = s.name;
    GmshMesh::Block &out = out_block(kTypes[0]);
    for (long long n : s.nodes) {
      if (n < 1 || n > node_count_)
        fail_here("node set ", s.id, (s.name.empty() ? "" : " '" + s.name + "'"), " names node ", n,
                  "; the file has nodes 1 to ", node_count_);
      const int v = int(n - 1);
      add(out, "node-set points", &v, tag, n);
    }
  }
};

} // namespace

GmshMesh assemble_mesh(const RawMesh &raw, const std::string &source, const GmshOptions &options) {
  GmshMesh m = Assembler(raw, source).run();
  if (options.check)
    check_gmsh(m, source);
  return m;
}

std::string exodus_type(const std::string &file_type, long long nodes_per_element) {
  std::string t;
  for (char c : file_type)
    if (std::isalpha(static_cast<unsigned char>(c)))
      t += char(std::toupper(static_cast<unsigned char>(c)));
  const auto is = [&](std::initializer_list<const char *> names) {
    for (const char *n : names)
      if (t == n)
        return true;
    return false;
  };
  // Linear elements only: HEX20 is "HEX" with 20 nodes.
  const long long k = nodes_per_element;
  if (is({"TETRA", "TET"}) && k == 4)
    return "tet";
  if (is({"HEX", "HEXAHEDRON"}) && k == 8)
    return "hex";
  if (is({"WEDGE"}) && k == 6)
    return "wedge";
  if (is({"TRI", "TRIANGLE", "TRISHELL", "SHELLTRI"}) && k == 3)
    return "triangle";
  if (is({"QUAD", "SHELL", "QUADSHELL", "SHELLQUAD"}) && k == 4)
    return "quad";
  if (is({"BAR", "BEAM", "TRUSS", "EDGE"}) && k == 2)
    return "line";
  if (is({"SPHERE", "CIRCLE", "POINT", "NODE"}) && k == 1)
    return "point";
  return "";
}

} // namespace umesh::detail
