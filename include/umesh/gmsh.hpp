#ifndef UMESH_GMSH_HPP
#define UMESH_GMSH_HPP

// Gmsh .msh reader (ASCII, versions 2.2 and 4.1). Points, lines, triangles,
// quads, tets, hexes and prisms (wedges); any other element type, a binary
// file, or a malformed or truncated file throws umesh::Error with the line
// number. What it reads is then checked as a mesh (check_gmsh) unless the
// caller trusts the file and says so (GmshOptions). GmshMesh is also what the
// Exodus II and CGNS readers return (umesh/mesh_file.hpp).

#include <umesh/set.hpp>

#include <istream>
#include <map>
#include <string>
#include <vector>

namespace umesh {

struct GmshMesh {
  /// Elements of one type, in file order.
  struct Block {
    std::string type;            ///< "point", "line", "triangle", "quad", "tet", "hex", "wedge"
    int nodes_per_element;       ///< map arity
    Set set;                     ///< named after the type: "triangles", "hexes"...
    std::vector<int> nodes;      ///< [element][nodes_per_element], 0-based
    std::vector<int> physical;   ///< physical group tag per element (0: none)
    std::vector<long long> tags; ///< the file's element tag per element
  };
  std::string format = "gmsh"; ///< the file's format: "gmsh", "exodus" or "cgns"
  std::string format_version;  ///< "2.2" or "4.1"; the library's version for the others
  Set nodes{"nodes", 0};
  std::vector<double> coords; ///< [node][3]
  std::vector<Block> blocks;
  std::map<int, std::string> physical_names; ///< tag -> name (Exodus II: element blocks)
  /// Exodus II and CGNS: the side sets (boundary conditions on faces), whose
  /// faces are elements of the blocks one dimension below the cells
  /// (triangles and quads, or lines in 2D) with the set's tag, and the node
  /// sets, whose nodes are "point" elements with the set's tag: tag -> name.
  /// A face or node in several sets is there once per set.
  std::map<int, std::string> side_set_names, node_set_names;

  bool has(const std::string &type) const;
  /// The block of `type`; throws naming the types present if there is none.
  const Block &block(const std::string &type) const;
};

/// How read_gmsh and parse_gmsh treat what they read.
struct GmshOptions {
  /// Check the mesh once read (check_gmsh). The checks cost O(n log n) in
  /// the elements, a fraction of the parse; turn them off only for files you
  /// trust, e.g. ones your own pipeline wrote and checked before.
  bool check = true;
  GmshOptions &checks(bool on) {
    check = on;
    return *this;
  }
};

/// Reads a .msh file; `options.check` then runs check_gmsh on it.
GmshMesh read_gmsh(const std::string &path, const GmshOptions &options = {});
/// The same from a stream; `source` names it in error messages.
GmshMesh parse_gmsh(std::istream &in, const std::string &source, const GmshOptions &options = {});

/// The elements of `block`, each once: a 2.2 file (`format_version`) writes
/// an element once per physical group it belongs to, each copy right after
/// the one before (check_gmsh allows exactly that); the first copy is kept,
/// with its physical group and tag. A 4.1 file's block comes back as it is.
/// What a program that runs over cells reads (every reader of umesh's:
/// dist::read_gmsh_part, umesh_main's --mesh).
GmshMesh::Block elements_once(const GmshMesh::Block &block, const std::string &format_version);

/// Throws umesh::Error, naming the format and `source`, the element (its type, tag and
/// place in its block) and the value, unless every element is a valid cell:
/// - no element repeats a node, and no two elements of one type have the
///   same nodes, in any order or orientation. Two exceptions: a 2.2 file
///   writes an element once per physical group it belongs to, one copy
///   after the other, so the same node list right after it with another
///   physical tag is allowed there; and in an Exodus II or CGNS file a face
///   or node in several side or node sets is there once per set (another
///   tag, below the cells' dimension);
/// - lines have a positive length; triangles a positive area; quads a
///   positive Jacobian at every corner (not zero-area, not bow-tied, not
///   concave; either orientation, as Gmsh writes surfaces); tets a positive
///   volume and hexes and wedges a positive Jacobian at every corner in
///   Gmsh's node order, which Exodus II and CGNS share (an inverted or
///   tangled cell is refused);
/// - every length, area and volume is a finite, nonzero double (coordinates
///   so far apart or so close that it overflows or underflows are refused).
/// "Zero" allows for rounding: a corner whose scaled Jacobian (the
/// determinant of its unit edge vectors) is below 1e-12 is degenerate.
/// Coordinates are finite and tags in range already: the reader refuses them.
void check_gmsh(const GmshMesh &mesh, const std::string &source);

} // namespace umesh

#endif
