#ifndef UMESH_SRC_MESH_SIDES_HPP
#define UMESH_SRC_MESH_SIDES_HPP

// Library-internal: what the mesh writers share. The cells of a GmshMesh
// grouped as a file's blocks (one per type and tag), and the side of a cell
// each boundary face is (Exodus II's side sets name faces that way).

#include <umesh/gmsh.hpp>

#include <string>
#include <vector>

namespace umesh::detail {

/// 0 for points, 1 lines, 2 triangles and quads, 3 solids.
int type_dimension(const std::string &type);

/// A side of an element in Exodus II's numbering (from 1): its type
/// ("triangle", "quad", "line"; nullptr: the element has no such side) and
/// its nodes as places in the element, listed so that a solid's face points
/// out of it. In 2D (`dim` 2) a triangle's or quad's sides are its edges; a
/// shell's (`dim` 3) are its two faces (1 as written, 2 reversed), then its
/// edges.
struct ExodusSide {
  const char *type = nullptr;
  int nodes[4] = {};
};
ExodusSide exodus_side(const std::string &type, int dim, long long side);
/// How many sides exodus_side numbers for `type` in `dim`.
int exodus_side_count(const std::string &type, int dim);

/// Elements of one type and tag, as a writer's block.
struct TagGroup {
  const GmshMesh::Block *block = nullptr;
  int tag = 0;
  std::vector<int> elements; ///< places in `block`, in file order
};
/// The elements of the blocks of dimension `dim`, a group per type and tag
/// (types in the mesh's order, tags as they first appear).
std::vector<TagGroup> groups_of(const GmshMesh &mesh, int dim);

/// The name a tag has in `mesh` (side sets' and node sets' names first for
/// faces and points of Exodus II and CGNS files), or "".
std::string tag_name(const GmshMesh &mesh, int tag, int dim, int cell_dim);

/// Every side of the cells of `groups` (numbered 1, 2, ... across them, as
/// a file numbers them) by its nodes: side_of() of a face gives the cell's
/// number and the face's side number in Exodus II's numbering, or {0, 0}.
class SideIndex {
public:
  SideIndex(const std::vector<TagGroup> &groups, int dim);
  std::pair<long long, int> side_of(const int *nodes, int count) const;

private:
  struct Entry {
    int key[4];
    long long cell;
    int side;
  };
  std::vector<Entry> entries_; // sorted by key
};

} // namespace umesh::detail

#endif
