// write_cgns_mesh (mesh_file.hpp): a GmshMesh as one base and one
// unstructured zone of the CGNS mid-level library, through a temporary
// beside the target.
#include <umesh/error.hpp>
#include <umesh/mesh_file.hpp>

#include "mesh_sides.hpp"

#if defined(UMESH_HAS_CGNS)
#include "cgns_file.hpp"
#include "temp_beside.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace umesh {

using detail::CgnsFile;

namespace {

CGNS_ENUMT(ElementType_t) cgns_type(const std::string &t) {
  return t == "point"      ? CGNS_ENUMV(NODE)
         : t == "line"     ? CGNS_ENUMV(BAR_2)
         : t == "triangle" ? CGNS_ENUMV(TRI_3)
         : t == "quad"     ? CGNS_ENUMV(QUAD_4)
         : t == "tet"      ? CGNS_ENUMV(TETRA_4)
         : t == "wedge"    ? CGNS_ENUMV(PENTA_6)
                           : CGNS_ENUMV(HEXA_8);
}

// A name of at most 32 characters that no other node of its parent has.
std::string unique_name(std::string name, std::set<std::string> &taken) {
  name = name.substr(0, 32);
  for (int i = 2; !taken.insert(name).second; ++i) {
    const std::string suffix = " " + std::to_string(i);
    name = name.substr(0, std::min(name.size(), 32 - suffix.size())) + suffix;
  }
  return name;
}

// Sections of the elements of dimension `dim`, one per tag (named after it:
// section names must differ, so a tag whose elements have several types is
// one MIXED section); each tag's element numbers.
void write_sections(CgnsFile &f, const GmshMesh &mesh, int dim, int cell_dim, cgsize_t &next,
                    std::set<std::string> &taken, std::map<int, std::vector<cgsize_t>> *numbers) {
  std::vector<int> order;
  std::map<int, std::vector<const detail::TagGroup *>> of_tag;
  const auto groups = detail::groups_of(mesh, dim);
  for (const auto &g : groups) {
    if (!of_tag.count(g.tag))
      order.push_back(g.tag);
    of_tag[g.tag].push_back(&g);
  }
  for (int tag : order) {
    const auto &parts = of_tag.at(tag);
    const bool mixed = parts.size() > 1;
    const std::string region = detail::tag_name(mesh, tag, dim, cell_dim);
    const std::string name = unique_name(
        region.empty() ? (mixed ? std::string("elements") : parts[0]->block->set.name()) + " " +
                             std::to_string(tag)
                       : region,
        taken);
    std::vector<cgsize_t> conn, offsets{0};
    for (const auto *g : parts) {
      const int k = g->block->nodes_per_element;
      for (int e : g->elements) {
        if (mixed)
          conn.push_back(cgsize_t(cgns_type(g->block->type)));
        for (int a = 0; a < k; ++a)
          conn.push_back(cgsize_t(g->block->nodes[std::size_t(e) * k + a]) + 1);
        offsets.push_back(cgsize_t(conn.size()));
      }
    }
    const cgsize_t first = next, last = next + cgsize_t(offsets.size()) - 2;
    int S = 0;
#if CGNS_VERSION >= 3400
    if (mixed)
      f.check(cg_poly_section_write(f.fn(), 1, 1, name.c_str(), CGNS_ENUMV(MIXED), first, last, 0,
                                    conn.data(), offsets.data(), &S),
              "writing section '" + name + "'");
    else
#endif
      f.check(cg_section_write(f.fn(), 1, 1, name.c_str(),
                               mixed ? CGNS_ENUMV(MIXED) : cgns_type(parts[0]->block->type), first,
                               last, 0, conn.data(), &S),
              "writing section '" + name + "'");
    if (numbers && tag > 0)
      for (cgsize_t e = first; e <= last; ++e)
        (*numbers)[tag].push_back(e);
    next = last + 1;
  }
}

} // namespace

void write_cgns_mesh(const std::string &path, const GmshMesh &mesh) {
  int cell_dim = 0;
  for (const auto &b : mesh.blocks)
    if (!b.physical.empty())
      cell_dim = std::max(cell_dim, detail::type_dimension(b.type));
  if (cell_dim < 2)
    fail("cgns file '", path, "': the mesh has no triangles, quads or solids to write");
  detail::TempBeside temp(path, "cgns file '" + path + "'");
  CgnsFile f(temp.path(), path, CG_MODE_WRITE);
  int B = 0, Z = 0, C = 0;
  f.check(cg_base_write(f.fn(), "umesh", cell_dim, 3, &B), "writing its base");
  const auto cells = detail::groups_of(mesh, cell_dim);
  cgsize_t count = 0;
  for (const auto &g : cells)
    count += cgsize_t(g.elements.size());
  cgsize_t size[3] = {cgsize_t(mesh.nodes.size()), count, 0};
  f.check(cg_zone_write(f.fn(), B, "mesh", size, CGNS_ENUMV(Unstructured), &Z), "writing its zone");
  const std::size_t n = std::size_t(mesh.nodes.size());
  std::vector<double> c(n);
  const char *axes[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
  for (int d = 0; d < 3; ++d) {
    for (std::size_t i = 0; i < n; ++i)
      c[i] = mesh.coords[3 * i + std::size_t(d)];
    f.check(cg_coord_write(f.fn(), B, Z, CGNS_ENUMV(RealDouble), axes[d], c.data(), &C),
            std::string("writing its ") + axes[d]);
  }
  cgsize_t next = 1;
  std::set<std::string> sections, conditions; // unique among their siblings
  write_sections(f, mesh, cell_dim, cell_dim, next, sections, nullptr);
  std::map<int, std::vector<cgsize_t>> faces; // tag -> face element numbers
  write_sections(f, mesh, cell_dim - 1, cell_dim, next, sections, &faces);
  // A condition per face tag (its faces) and per point tag (its vertices).
  const auto condition = [&](int tag, int dim, const std::vector<cgsize_t> &items,
                             CGNS_ENUMT(GridLocation_t) location) {
    const std::string region = detail::tag_name(mesh, tag, dim, cell_dim);
    const std::string name =
        unique_name(region.empty() ? "tag " + std::to_string(tag) : region, conditions);
    int BC = 0;
    f.check(cg_boco_write(f.fn(), B, Z, name.c_str(), CGNS_ENUMV(BCTypeUserDefined),
                          CGNS_ENUMV(PointList), cgsize_t(items.size()), items.data(), &BC),
            "writing boundary condition '" + name + "'");
    f.check(cg_boco_gridlocation_write(f.fn(), B, Z, BC, location),
            "writing boundary condition '" + name + "'");
  };
  for (const auto &[tag, items] : faces)
    condition(tag, cell_dim - 1, items,
              cell_dim == 3 ? CGNS_ENUMV(FaceCenter) : CGNS_ENUMV(EdgeCenter));
  std::map<int, std::vector<cgsize_t>> points;
  for (const auto &g : detail::groups_of(mesh, 0))
    for (int e : g.elements)
      if (g.tag > 0)
        points[g.tag].push_back(cgsize_t(g.block->nodes[std::size_t(e)]) + 1);
  for (const auto &[tag, items] : points)
    condition(tag, 0, items, CGNS_ENUMV(Vertex));
  f.close();
  temp.commit();
}

} // namespace umesh

#else // built without CGNS

namespace umesh {
void write_cgns_mesh(const std::string &path, const GmshMesh &) {
  fail("cgns file '", path, "': ", mesh_format_missing(MeshFormat::cgns));
}
} // namespace umesh

#endif
