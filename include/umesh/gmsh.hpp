#ifndef UMESH_GMSH_HPP
#define UMESH_GMSH_HPP

// Gmsh .msh reader (ASCII, versions 2.2 and 4.1). Points, lines, triangles,
// quads, tets and hexes; any other element type, a binary file, or a
// malformed or truncated file throws umesh::Error with the line number.

#include <umesh/set.hpp>

#include <istream>
#include <map>
#include <string>
#include <vector>

namespace umesh {

struct GmshMesh {
  /// Elements of one type, in file order.
  struct Block {
    std::string type;          ///< "point", "line", "triangle", "quad", "tet", "hex"
    int nodes_per_element;     ///< map arity
    Set set;                   ///< named after the type: "triangles", "hexes"...
    std::vector<int> nodes;    ///< [element][nodes_per_element], 0-based
    std::vector<int> physical; ///< physical group tag per element (0: none)
  };
  std::string format_version; ///< "2.2" or "4.1"
  Set nodes{"nodes", 0};
  std::vector<double> coords; ///< [node][3]
  std::vector<Block> blocks;
  std::map<int, std::string> physical_names; ///< tag -> name

  bool has(const std::string &type) const;
  /// The block of `type`; throws naming the types present if there is none.
  const Block &block(const std::string &type) const;
};

GmshMesh read_gmsh(const std::string &path);
/// `source` names the stream in error messages.
GmshMesh parse_gmsh(std::istream &in, const std::string &source);

} // namespace umesh

#endif
