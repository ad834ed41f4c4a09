#ifndef UMESH_MESH_FILE_HPP
#define UMESH_MESH_FILE_HPP

// Mesh files by their name: Gmsh (.msh), Exodus II (.exo, .e, .g, .ex2,
// .gen) and CGNS (.cgns). Every reader returns a GmshMesh, checked as a Gmsh
// file is (check_gmsh), so that a program reads any of them the same way.
// Exodus II and CGNS need their libraries at build time (UMESH_ENABLE_EXODUS,
// UMESH_ENABLE_CGNS); a format left out is refused with a sentence saying so.

#include <umesh/gmsh.hpp>

#include <string>

namespace umesh {

enum class MeshFormat { gmsh, exodus, cgns };

/// The format a file name says (its extension); throws umesh::Error naming
/// the extensions umesh reads for any other name.
MeshFormat mesh_format_of(const std::string &path);
/// "gmsh", "exodus", "cgns".
const char *mesh_format_name(MeshFormat format);
/// Whether this build reads (and writes) `format`: Gmsh always.
bool mesh_format_built(MeshFormat format);
/// Empty where `format` is built, else why not and how to build it.
std::string mesh_format_missing(MeshFormat format);

/// Reads `path` in the format its name says.
GmshMesh read_mesh_file(const std::string &path, const GmshOptions &options = {});

/// Exodus II: element blocks of triangles, quads (shells in 3D), tets,
/// hexes and wedges (and bars and spheres as lines and points) become cells
/// whose physical tag is the block's id; side sets become faces (triangles
/// and quads, or lines in 2D) whose tag is the set's id, node sets points
/// whose tag is the set's id (GmshMesh::side_set_names, node_set_names).
/// An element's tag is its number in the file (1, 2, ... across blocks);
/// a side's, its element's.
GmshMesh read_exodus(const std::string &path, const GmshOptions &options = {});

/// CGNS: the one unstructured zone of the file's one base. Sections of the
/// cells' dimension are cells, their tag the section's number (1, 2, ... in
/// the file) and their name its name; the faces one dimension below are
/// what the boundary conditions name: each condition is a side set of those
/// faces (a condition on vertices a node set), tagged with its number among
/// the zone's conditions; faces in no condition are kept with tag 0.
/// Elements keep the file's numbers as tags. MIXED sections are read.
GmshMesh read_cgns(const std::string &path, const GmshOptions &options = {});

/// Writes `mesh` as an Exodus II file (replacing `path` whole once written):
/// a block per cell type and tag, side sets from the faces below the cells'
/// dimension (each face must be a side of a cell), node sets from the points.
/// Cells are written block by block: in the file's order where each type
/// has one tag.
void write_exodus_mesh(const std::string &path, const GmshMesh &mesh);

/// Writes `mesh` as a CGNS file (replacing `path` whole once written): one
/// base, one unstructured zone, a section per type and tag (named after the
/// tag's name, else "<type>s <tag>"), a boundary condition per face tag
/// (a face list) and per point tag (a vertex list).
void write_cgns_mesh(const std::string &path, const GmshMesh &mesh);

} // namespace umesh

#endif
