// check_gmsh: what a parsed .msh file must be to be a mesh. The parser
// already refused what is not a .msh file (bad numbers, non-finite
// coordinates, tags past their range, nodes that are not defined); this
// file refuses cells that are not cells: repeated nodes, duplicates,
// inverted or degenerate shapes, and sizes a double cannot hold.
//
// Shapes are judged by scaled Jacobians, the determinant of a corner's unit
// edge vectors: independent of the mesh's units and of overflow (the
// vectors are scaled before they multiply), and within [-1, 1], so one
// threshold tells "zero up to rounding" for any mesh.
#include <umesh/error.hpp>
#include <umesh/gmsh.hpp>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>

namespace umesh {
namespace {

using Vec = std::array<double, 3>;

// Below this a scaled Jacobian is zero: rounding alone leaves ~1e-16.
constexpr double kDegenerate = 1e-12;

Vec sub(const Vec &a, const Vec &b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
double dot(const Vec &a, const Vec &b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Vec cross(const Vec &a, const Vec &b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// A vector as a unit vector and its length, without overflow on the way:
// the length is inf only when the true length is.
struct Edge {
  Vec unit{};
  double length = 0;
};
Edge edge(const Vec &v) {
  const double m = std::max({std::fabs(v[0]), std::fabs(v[1]), std::fabs(v[2])});
  if (!(m > 0) || !std::isfinite(m))
    return {{}, m};
  const double inv = 1 / m; // inf for the smallest subnormals: no length a double resolves
  if (!std::isfinite(inv))
    return {{}, 0};
  const Vec w{v[0] * inv, v[1] * inv, v[2] * inv};
  const double n = std::sqrt(dot(w, w)), r = 1 / n; // n in [1, sqrt(3)]
  return {{w[0] * r, w[1] * r, w[2] * r}, m * n};
}

std::string ordinal(std::int64_t i) {
  const std::int64_t n = i + 1;
  const char *suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                       : n % 10 == 1                    ? "st"
                       : n % 10 == 2                    ? "nd"
                       : n % 10 == 3                    ? "rd"
                                                        : "th";
  return std::to_string(n) + suffix;
}

// "hex 12 (the 4th hex)": the file's tag, and the place, as tags need not
// be unique in a file.
std::string element_name(const GmshMesh::Block &b, std::int64_t e) {
  return b.type + " " + std::to_string(b.tags[e]) + " (the " + ordinal(e) + " " + b.type + ")";
}

class BlockChecker {
public:
  BlockChecker(const GmshMesh &m, const GmshMesh::Block &b, const std::string &source, bool sets)
      : m_(m), b_(b), source_(source), k_(b.nodes_per_element),
        solid_(b.type == "tet" || b.type == "hex" || b.type == "wedge"), sets_(sets) {}

  void run() {
    const std::int64_t n = std::int64_t(b_.physical.size());
    for (std::int64_t e = 0; e < n; ++e) {
      repeated_node(e);
      shape(e);
    }
    duplicates();
  }

private:
  const GmshMesh &m_;
  const GmshMesh::Block &b_;
  const std::string &source_;
  const int k_;      // nodes per element
  const bool solid_; // tets, hexes and wedges; else (k_ > 2) triangles and quads
  const bool sets_;  // side or node sets of an Exodus II or CGNS file: overlap allowed

  std::string name(std::int64_t e) const { return element_name(b_, e); }
  template <class... Parts> [[noreturn]] void fail(std::int64_t e, Parts &&...parts) const {
    detail::fail(m_.format, " file '", source_, "': ", name(e), " ", std::forward<Parts>(parts)...);
  }

  int node(std::int64_t e, int i) const { return b_.nodes[std::size_t(e) * k_ + i]; }
  Vec point(std::int64_t e, int i) const {
    const double *c = &m_.coords[3 * std::size_t(node(e, i))];
    return {c[0], c[1], c[2]};
  }

  void repeated_node(std::int64_t e) const {
    for (int i = 0; i < k_; ++i)
      for (int j = i + 1; j < k_; ++j)
        if (node(e, i) == node(e, j))
          fail(e, "lists one node twice (its nodes ", i + 1, " and ", j + 1,
               "): a degenerate cell");
  }

  // The edge from node i to node j of element e, refused when it has no
  // length or one a double cannot hold.
  Edge edge_of(std::int64_t e, int i, int j) const {
    const Edge d = edge(sub(point(e, j), point(e, i)));
    if (!(d.length > 0))
      fail(e, "has its nodes ", i + 1, " and ", j + 1, " at the same point: a degenerate cell");
    if (!std::isfinite(d.length))
      fail(e, "has its nodes ", i + 1, " and ", j + 1,
           " so far apart that their distance overflows a double");
    return d;
  }

  // A corner's size (length, area or volume: the product of its edges'
  // lengths times its scaled Jacobian) must be a normal double.
  void size_fits(std::int64_t e, int corner, double size) const {
    if (!std::isfinite(size))
      fail(e, "is so large that its size at its corner ", corner + 1, " overflows a double");
    if (size < DBL_MIN)
      fail(e, "is so small that its size at its corner ", corner + 1, " (", size,
           ") underflows a double");
  }

  [[noreturn]] void bad_corner(std::int64_t e, int corner, double scaled,
                               const char *measure) const {
    if (scaled > -kDegenerate)
      fail(e, "has a zero ", measure, " at its corner ", corner + 1, " (scaled Jacobian ", scaled,
           "): a degenerate cell");
    fail(e, "has a negative Jacobian at its corner ", corner + 1, " (scaled Jacobian ", scaled,
         "): inverted or tangled, or its nodes are not in Gmsh's order");
  }

  // Corners as (corner, next, previous[, above]) node places: the edges to
  // them form a right-handed frame in a valid cell of Gmsh's node order.
  void solid(std::int64_t e, const int (*corners)[4], int count) const {
    // Each edge meets two corners: measured once (a hex has 12 edges and 24
    // corner edges), then turned around for the other corner.
    Edge memo[8][8];
    bool have[8][8] = {};
    const auto directed = [&](int i, int j) {
      if (!have[i][j]) {
        memo[i][j] = edge_of(e, i, j);
        memo[j][i] = {{-memo[i][j].unit[0], -memo[i][j].unit[1], -memo[i][j].unit[2]},
                      memo[i][j].length};
        have[i][j] = have[j][i] = true;
      }
      return memo[i][j];
    };
    for (int c = 0; c < count; ++c) {
      const int *q = corners[c];
      const Edge a = directed(q[0], q[1]), b = directed(q[0], q[2]), h = directed(q[0], q[3]);
      const double scaled = dot(cross(a.unit, b.unit), h.unit);
      if (!(scaled > kDegenerate))
        bad_corner(e, q[0], scaled, "volume");
      size_fits(e, q[0], scaled * a.length * b.length * h.length);
    }
  }

  // Surface cells in 3D have no sign of their own (Gmsh orients a surface
  // as its geometry says), so a quad's corners are judged against the quad's
  // own normal, the cross product of its diagonals: all must turn the same
  // way (not bow-tied, not concave) and none be flat.
  void surface(std::int64_t e) const {
    Vec normal{0, 0, 1};
    if (k_ == 4) {
      const Edge d1 = edge_of(e, 0, 2), d2 = edge_of(e, 1, 3);
      const Edge n = edge(cross(d1.unit, d2.unit));
      if (!(n.length > kDegenerate))
        fail(e, "has a zero area (scaled ", n.length,
             "): its diagonals are parallel, a degenerate or bow-tied quad");
      normal = n.unit;
    }
    for (int c = 0; c < (k_ == 4 ? 4 : 1); ++c) {
      const Edge a = edge_of(e, c, (c + 1) % k_), b = edge_of(e, c, (c + k_ - 1) % k_);
      const Vec turn = cross(a.unit, b.unit);
      const double scaled = k_ == 4 ? dot(turn, normal) : std::sqrt(dot(turn, turn));
      if (!(scaled > kDegenerate))
        bad_corner(e, c, scaled, "area");
      size_fits(e, c, scaled * a.length * b.length);
    }
  }

  void shape(std::int64_t e) const {
    // Gmsh's node orders (gmsh.info, "Node ordering"): a tet's nodes 1-2-3
    // turn counter-clockwise seen from node 4; a hex's bottom face 1-2-3-4
    // likewise seen from its top face 5-6-7-8.
    static const int tet[4][4] = {{0, 1, 2, 3}, {1, 2, 0, 3}, {2, 0, 1, 3}, {3, 0, 2, 1}};
    static const int hex[8][4] = {{0, 1, 3, 4}, {1, 2, 0, 5}, {2, 3, 1, 6}, {3, 0, 2, 7},
                                  {4, 7, 5, 0}, {5, 4, 6, 1}, {6, 5, 7, 2}, {7, 6, 4, 3}};
    // A wedge's (prism's) triangle 1-2-3 turns counter-clockwise seen from 4-5-6.
    static const int wedge[6][4] = {{0, 1, 2, 3}, {1, 2, 0, 4}, {2, 0, 1, 5},
                                    {3, 5, 4, 0}, {4, 3, 5, 1}, {5, 4, 3, 2}};
    if (k_ == 1) // a point has no shape
      return;
    if (k_ == 2) {
      const Edge a = edge_of(e, 0, 1);
      size_fits(e, 0, a.length);
    } else if (!solid_)
      surface(e);
    else if (k_ == 4)
      solid(e, tet, 4);
    else if (k_ == 6)
      solid(e, wedge, 6);
    else
      solid(e, hex, 8);
  }

  // Two elements with the same nodes in any order are one cell twice: sort
  // each element's nodes, then the elements by them (O(n log n)), as arrays
  // of their nodes and place: sorting places by indirect keys took longer
  // than the shapes.
  void duplicates() const {
    switch (k_) {
    case 1:
      return duplicates<1>();
    case 2:
      return duplicates<2>();
    case 3:
      return duplicates<3>();
    case 4:
      return duplicates<4>();
    case 6:
      return duplicates<6>();
    default:
      return duplicates<8>();
    }
  }
  template <int K> void duplicates() const {
    const std::int64_t n = std::int64_t(b_.physical.size());
    std::vector<std::array<int, K + 1>> keys(n); // sorted nodes, then the place
    for (std::int64_t e = 0; e < n; ++e) {
      std::copy_n(b_.nodes.begin() + e * K, K, keys[e].begin());
      std::sort(keys[e].begin(), keys[e].begin() + K);
      keys[e][K] = int(e); // a block holds at most 2^31-1 elements
    }
    std::sort(keys.begin(), keys.end());
    const auto same = [&](std::int64_t i, std::int64_t j) {
      return std::equal(keys[i].begin(), keys[i].begin() + K, keys[j].begin());
    };
    std::vector<std::int64_t> group;
    for (std::int64_t i = 0; i + 1 < n;) {
      std::int64_t j = i + 1;
      while (j < n && same(i, j))
        ++j;
      if (j - i > 1) {
        group.clear();
        for (std::int64_t g = i; g < j; ++g)
          group.push_back(keys[g][K]);
        duplicate_group(group.begin(), group.end());
      }
      i = j;
    }
  }

  // A group of elements with one node set, in file order. A 2.2 file
  // writes an element once per physical group it belongs to, the copies one
  // after the other: the same node list right after it with another
  // physical tag is that, anything else a duplicate. Side and node sets of
  // Exodus II and CGNS files list a face or node once per set, anywhere.
  void duplicate_group(std::vector<std::int64_t>::iterator first,
                       std::vector<std::int64_t>::iterator last) const {
    const auto nodes = [&](std::int64_t e) { return b_.nodes.begin() + e * k_; };
    const bool v22 = m_.format == "gmsh" && m_.format_version == "2.2";
    for (auto it = first + 1; it != last && !sets_; ++it)
      if (!v22 || *it != it[-1] + 1 || !std::equal(nodes(*first), nodes(*first) + k_, nodes(*it)))
        duplicate(it[-1], *it);
    std::vector<std::pair<int, std::int64_t>> physical; // (tag, element)
    for (auto it = first; it != last; ++it)
      physical.emplace_back(b_.physical[*it], *it);
    std::sort(physical.begin(), physical.end());
    for (std::size_t i = 0; i + 1 < physical.size(); ++i)
      if (physical[i].first == physical[i + 1].first)
        duplicate(physical[i].second, physical[i + 1].second);
  }

  [[noreturn]] void duplicate(std::int64_t a, std::int64_t b) const {
    const bool same_order = std::equal(b_.nodes.begin() + a * k_, b_.nodes.begin() + (a + 1) * k_,
                                       b_.nodes.begin() + b * k_);
    fail(b, "has the nodes of ", name(a), same_order ? "" : " in another order",
         ": a duplicate cell");
  }
};

// A planar mesh (triangles and quads, no tets or hexes, every node of them
// at one z) is a 2D mesh: its cells must all turn one way, as a cell that
// turns the other way is folded over its neighbours (its Jacobian is
// negative), and the sides derived from it would point into it. Surfaces
// in 3D have no such rule: Gmsh orients each as its geometry says.
void check_planar_orientation(const GmshMesh &mesh, const std::string &source) {
  std::vector<const GmshMesh::Block *> surfaces;
  for (const auto &b : mesh.blocks) {
    if (b.type == "tet" || b.type == "hex" || b.type == "wedge")
      return;
    if ((b.type == "triangle" || b.type == "quad") && !b.physical.empty())
      surfaces.push_back(&b);
  }
  if (surfaces.empty())
    return;
  const double z = mesh.coords[3 * std::size_t(surfaces[0]->nodes[0]) + 2];
  for (const auto *b : surfaces)
    for (int v : b->nodes)
      if (mesh.coords[3 * std::size_t(v) + 2] != z)
        return;
  const auto xy = [&](int v) {
    const double *c = &mesh.coords[3 * std::size_t(v)];
    return std::array<double, 2>{c[0], c[1]};
  };
  // The sign of the z component of (p2 - p0) x (p3 - p1) for a quad,
  // (p1 - p0) x (p2 - p0) for a triangle: BlockChecker has made sure that it
  // is not zero, and (a quad's corners turning alike) that it is the
  // cell's turn; its size fits a double, so these products do not overflow.
  const auto turn = [&](const GmshMesh::Block &b, std::int64_t e) {
    const int *n = &b.nodes[std::size_t(e) * b.nodes_per_element];
    const bool quad = b.nodes_per_element == 4;
    const auto p0 = xy(n[0]), p1 = xy(n[1]), p2 = xy(n[2]), p3 = xy(n[quad ? 3 : 2]);
    const std::array<double, 2> u{p2[0] - p0[0], p2[1] - p0[1]};
    const std::array<double, 2> v = quad ? std::array<double, 2>{p3[0] - p1[0], p3[1] - p1[1]}
                                         : std::array<double, 2>{p1[0] - p0[0], p1[1] - p0[1]};
    // quad: u x v; triangle: (p1 - p0) x (p2 - p0) = v x u
    const double a = u[0] * v[1], c = u[1] * v[0];
    return (quad ? a > c : c > a) ? 1 : -1;
  };
  const GmshMesh::Block &first = *surfaces[0];
  const int sign = turn(first, 0);
  const char *way[] = {"clockwise", "counter-clockwise"};
  for (const auto *b : surfaces)
    for (std::int64_t e = 0; e < std::int64_t(b->physical.size()); ++e)
      if (turn(*b, e) != sign)
        detail::fail(mesh.format, " file '", source, "': ", element_name(*b, e), " turns ",
                     way[sign < 0], " in the plane z = ", z, " where ", element_name(first, 0),
                     " turns ", way[sign > 0],
                     ": an inverted cell (a planar mesh's cells all turn one way; in a .geo, "
                     "a surface whose curve loop runs the other way)");
}

int dimension(const std::string &type) {
  return type == "point" ? 0 : type == "line" ? 1 : type == "triangle" || type == "quad" ? 2 : 3;
}

} // namespace

void check_gmsh(const GmshMesh &mesh, const std::string &source) {
  // Exodus II and CGNS sets live below the cells' dimension.
  int cell_dim = 0;
  for (const auto &b : mesh.blocks)
    if (!b.physical.empty())
      cell_dim = std::max(cell_dim, dimension(b.type));
  const bool has_sets = mesh.format != "gmsh";
  for (const auto &b : mesh.blocks) {
    const int arity = b.type == "point"                     ? 1
                      : b.type == "line"                    ? 2
                      : b.type == "triangle"                ? 3
                      : b.type == "quad" || b.type == "tet" ? 4
                      : b.type == "wedge"                   ? 6
                      : b.type == "hex"                     ? 8
                                                            : 0;
    if (arity == 0 || b.nodes_per_element != arity)
      detail::fail(mesh.format, " file '", source, "': a block of ", b.nodes_per_element, "-node '",
                   b.type,
                   "' elements (check_gmsh knows point 1, line 2, triangle 3, quad 4, tet 4, "
                   "wedge 6, hex 8)");
    if (b.nodes.size() != b.physical.size() * std::size_t(arity) ||
        b.tags.size() != b.physical.size())
      detail::fail(mesh.format, " file '", source, "': the ", b.type,
                   " block's arrays disagree in size");
    for (int v : b.nodes)
      if (v < 0 || std::size_t(v) >= mesh.coords.size() / 3)
        detail::fail(mesh.format, " file '", source, "': a ", b.type, " uses node ", v, " of ",
                     mesh.coords.size() / 3);
    BlockChecker(mesh, b, source, has_sets && dimension(b.type) < cell_dim).run();
  }
  check_planar_orientation(mesh, source);
}

} // namespace umesh
