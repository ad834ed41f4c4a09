#ifndef UMESH_SRC_MESH_ASSEMBLY_HPP
#define UMESH_SRC_MESH_ASSEMBLY_HPP

// Library-internal: what an Exodus II or CGNS file holds, as its library
// hands it over (numbers as the file writes them, 1-based, nothing checked
// yet), and the one function that turns it into a GmshMesh. The readers only
// call their library; everything a bad file can get wrong is refused here,
// where the fuzz targets reach it without the libraries.

#include <umesh/gmsh.hpp>

#include <string>
#include <vector>

namespace umesh::detail {

struct RawMesh {
  std::string format;  ///< "exodus" or "cgns": names the file in errors
  std::string version; ///< the format's version, as the library says
  int dim = 3;         ///< the cells' dimension: 2 or 3
  /// CGNS: elements one dimension below the cells are the faces its
  /// boundary conditions name; a face in no condition is kept with tag 0.
  /// Exodus II: every block's elements are cells (shells too).
  bool faces_from_sets = false;
  std::vector<double> coords; ///< [node][3]

  /// Elements of one type numbered `first`, `first` + 1, ... in the file
  /// (Exodus II numbers them across blocks; CGNS per section).
  struct Block {
    std::string type;      ///< umesh's name ("hex"), or empty for a type umesh does not read
    std::string file_type; ///< the file's name for it ("HEX8", "HEXA_20"), for messages
    long long id = 0;      ///< Exodus II: the block id; CGNS: the section's number
    std::string name;
    long long first = 1;
    int nodes_per_element = 0;
    std::vector<long long> nodes; ///< [element][nodes_per_element], 1-based
    /// CGNS MIXED sections split by type: each element's number (else
    /// first, first + 1, ...).
    std::vector<long long> numbers;
    long long count() const {
      return nodes_per_element > 0 ? (long long)(nodes.size()) / nodes_per_element : 0;
    }
  };
  /// Faces: Exodus II's (element, side) pairs, sides numbered from 1 as
  /// Exodus II numbers them; CGNS lists face elements (no sides).
  struct SideSet {
    long long id = 0;
    std::string name;
    std::vector<long long> elements, sides;
  };
  struct NodeSet {
    long long id = 0;
    std::string name;
    std::vector<long long> nodes; ///< 1-based
  };
  std::vector<Block> blocks;
  std::vector<SideSet> side_sets;
  std::vector<NodeSet> node_sets;
};

/// The mesh `raw` describes, checked (check_gmsh) unless `options` says not:
/// cells per block type with the block's id as physical tag, side-set faces
/// and node-set points with the set's id. Throws umesh::Error naming the
/// format, `source` and what is wrong: a node or element number out of range,
/// a side number the element does not have, an id past 32 bits, an element
/// type umesh does not read, non-finite coordinates.
GmshMesh assemble_mesh(const RawMesh &raw, const std::string &source,
                       const GmshOptions &options = {});

/// Exodus II's element type names (TETRA, HEX8, SHELL4, ...) and the nodes
/// per element as umesh's type name, or "" for a type umesh does not read.
std::string exodus_type(const std::string &file_type, long long nodes_per_element);

} // namespace umesh::detail

#endif
