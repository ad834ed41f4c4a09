// CGNS meshes through the CGNS mid-level library (Debian: libcgns-dev):
// read_cgns hands the zone's sections and boundary conditions to
// assemble_mesh, which checks them (the writer: cgns_writer.cpp).
#include <umesh/detail/isolated_read.hpp>
#include <umesh/error.hpp>
#include <umesh/mesh_file.hpp>

#include "mesh_assembly.hpp"
#include "mesh_sides.hpp"

#if defined(UMESH_HAS_CGNS)
#include "cgns_file.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace umesh {
namespace {

using detail::CgnsFile;

std::string umesh_type(CGNS_ENUMT(ElementType_t) t) {
  switch (t) {
  case CGNS_ENUMV(NODE):
    return "point";
  case CGNS_ENUMV(BAR_2):
    return "line";
  case CGNS_ENUMV(TRI_3):
    return "triangle";
  case CGNS_ENUMV(QUAD_4):
    return "quad";
  case CGNS_ENUMV(TETRA_4):
    return "tet";
  case CGNS_ENUMV(PENTA_6):
    return "wedge";
  case CGNS_ENUMV(HEXA_8):
    return "hex";
  default:
    return "";
  }
}

const char *type_name(int t) {
  return t >= 0 && t < NofValidElementTypes ? cg_ElementTypeName(CGNS_ENUMT(ElementType_t)(t))
                                            : "an unknown type";
}

// The family the node cg_goto reached names, else `name`: the conditions of
// one region may share a family (names of conditions must differ).
std::string family_or(const char *name) {
  char family[40] = {};
  return cg_famname_read(family) == CG_OK && family[0] ? std::string(family) : std::string(name);
}

// One section as blocks of one type each (a MIXED section splits by type).
void read_section(CgnsFile &f, int S, std::vector<detail::RawMesh::Block> &blocks) {
  char name[33] = {};
  CGNS_ENUMT(ElementType_t) type;
  cgsize_t start = 0, end = 0;
  int nbndry = 0, parent = 0;
  const std::string what = "section " + std::to_string(S);
  f.check(cg_section_read(f.fn(), 1, 1, S, name, &type, &start, &end, &nbndry, &parent),
          "reading " + what);
  cgsize_t size = 0;
  f.check(cg_ElementDataSize(f.fn(), 1, 1, S, &size), "reading " + what + "'s size");
  const std::string region = name;
  if (end < start || size < 0)
    f.bad(what + " '" + name + "' numbers its elements " + std::to_string(start) + " to " +
          std::to_string(end));
  std::vector<cgsize_t> conn(static_cast<std::size_t>(size));
  const bool mixed = type == CGNS_ENUMV(MIXED);
  int npe = 0;
  if (!mixed && (cg_npe(type, &npe) != CG_OK || npe <= 0)) {
    detail::RawMesh::Block b; // refused by the assembly, naming the type
    b.file_type = type_name(type), b.id = S, b.name = region;
    blocks.push_back(b);
    return;
  }
  if (size > 0) {
#if CGNS_VERSION >= 3400
    // From 3.4 a MIXED section carries its elements' offsets too.
    std::vector<cgsize_t> offsets(mixed ? static_cast<std::size_t>(end - start + 2) : 0);
    if (mixed)
      f.check(cg_poly_elements_read(f.fn(), 1, 1, S, conn.data(), offsets.data(), nullptr),
              "reading " + what + "'s elements");
    else
#endif
      f.check(cg_elements_read(f.fn(), 1, 1, S, conn.data(), nullptr),
              "reading " + what + "'s elements");
  }
  std::map<int, std::size_t> block_of; // element type -> place in blocks
  std::size_t at = 0;
  for (cgsize_t e = start; e <= end; ++e) {
    int t = int(type), k = npe;
    if (mixed) {
      if (at >= conn.size())
        f.bad(what + " '" + name + "' ends before its element " + std::to_string(e));
      t = int(conn[at++]);
      if (cg_npe(CGNS_ENUMT(ElementType_t)(t), &k) != CG_OK || k <= 0)
        k = -1;
    }
    auto it = block_of.find(t);
    if (it == block_of.end()) {
      it = block_of.emplace(t, blocks.size()).first;
      detail::RawMesh::Block b;
      b.file_type = type_name(t);
      b.type = umesh_type(CGNS_ENUMT(ElementType_t)(t));
      b.id = S, b.name = region, b.first = start, b.nodes_per_element = k;
      blocks.push_back(b);
    }
    detail::RawMesh::Block &b = blocks[it->second];
    if (b.type.empty()) // refused by the assembly, naming the type
      return;
    if (at + std::size_t(k) > conn.size())
      f.bad(what + " '" + name + "' ends within its element " + std::to_string(e));
    b.nodes.insert(b.nodes.end(), conn.begin() + long(at), conn.begin() + long(at + k));
    at += std::size_t(k);
    if (mixed)
      b.numbers.push_back(e);
  }
}

// Boundary condition BC: a side set of faces, or a node set of vertices.
void read_condition(CgnsFile &f, int BC, detail::RawMesh &raw) {
  char name[33] = {};
  CGNS_ENUMT(BCType_t) bctype;
  CGNS_ENUMT(PointSetType_t) ptset;
  CGNS_ENUMT(DataType_t) normal_type;
  cgsize_t npnts = 0, normal_size = 0;
  int normal_index[3] = {}, ndataset = 0;
  const std::string what = "boundary condition " + std::to_string(BC);
  f.check(cg_boco_info(f.fn(), 1, 1, BC, name, &bctype, &ptset, &npnts, normal_index, &normal_size,
                       &normal_type, &ndataset),
          "reading " + what);
  CGNS_ENUMT(GridLocation_t) location = CGNS_ENUMV(Vertex);
  f.check(cg_boco_gridlocation_read(f.fn(), 1, 1, BC, &location), "reading " + what);
  const bool range = ptset == CGNS_ENUMV(PointRange) || ptset == CGNS_ENUMV(ElementRange);
  const bool list = ptset == CGNS_ENUMV(PointList) || ptset == CGNS_ENUMV(ElementList);
  if ((!range && !list) || npnts < 0 || (range && npnts != 2))
    f.bad(what + " '" + name + "' lists its points in a way umesh does not read (" +
          std::to_string(int(ptset)) + ", " + std::to_string(npnts) + " points)");
  std::vector<cgsize_t> points(static_cast<std::size_t>(npnts));
  if (npnts > 0)
    f.check(cg_boco_read(f.fn(), 1, 1, BC, points.data(), nullptr), "reading " + what);
  std::vector<long long> items;
  if (range) {
    if (points[1] < points[0] || points[1] - points[0] > (1 << 30))
      f.bad(what + " '" + name + "' has the range " + std::to_string(points[0]) + " to " +
            std::to_string(points[1]));
    for (cgsize_t p = points[0]; p <= points[1]; ++p)
      items.push_back(p);
  } else {
    items.assign(points.begin(), points.end());
  }
  f.check(cg_goto(f.fn(), 1, "Zone_t", 1, "ZoneBC_t", 1, "BC_t", BC, "end"), "reading " + what);
  const std::string region = family_or(name);
  const bool faces = ptset == CGNS_ENUMV(ElementRange) || ptset == CGNS_ENUMV(ElementList) ||
                     location != CGNS_ENUMV(Vertex);
  if (faces)
    raw.side_sets.push_back({BC, region, std::move(items), {}});
  else
    raw.node_sets.push_back({BC, region, std::move(items)});
}

} // namespace

namespace {

// What the file holds, as its library reads it.
detail::RawMesh raw_cgns(const std::string &path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    fail("cgns file '", path, "' is a folder, not a file");
  if (!std::ifstream(path))
    fail("cannot open cgns file '", path, "': ", std::strerror(errno));
  CgnsFile f(path, path, CG_MODE_READ);
  detail::RawMesh raw;
  raw.format = "cgns";
  raw.faces_from_sets = true;
  float version = 0;
  if (cg_version(f.fn(), &version) == CG_OK)
    raw.version = std::to_string(version).substr(0, 4);
  int bases = 0, zones = 0, cell_dim = 0, phys_dim = 0;
  char base[33] = {}, zone[33] = {};
  f.check(cg_nbases(f.fn(), &bases), "reading its bases");
  if (bases != 1)
    f.bad("it has " + std::to_string(bases) + " bases; umesh reads a file of one base");
  f.check(cg_base_read(f.fn(), 1, base, &cell_dim, &phys_dim), "reading its base");
  f.check(cg_nzones(f.fn(), 1, &zones), "reading its zones");
  if (zones != 1)
    f.bad("its base '" + std::string(base) + "' has " + std::to_string(zones) +
          " zones; umesh reads one unstructured zone");
  CGNS_ENUMT(ZoneType_t) zone_type;
  f.check(cg_zone_type(f.fn(), 1, 1, &zone_type), "reading its zone");
  if (zone_type != CGNS_ENUMV(Unstructured))
    f.bad("its zone is not unstructured; umesh reads unstructured zones");
  cgsize_t size[3] = {};
  f.check(cg_zone_read(f.fn(), 1, 1, zone, size), "reading its zone");
  raw.dim = cell_dim;
  if (size[0] < 0 || phys_dim < 1 || phys_dim > 3)
    f.bad("its zone has " + std::to_string(size[0]) + " vertices in " + std::to_string(phys_dim) +
          " dimensions");
  const std::size_t n = std::size_t(size[0]);
  raw.coords.assign(3 * n, 0.0);
  const char *axes[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
  std::vector<double> c(n);
  for (int d = 0; d < phys_dim && n > 0; ++d) {
    cgsize_t lo = 1, hi = size[0];
    f.check(cg_coord_read(f.fn(), 1, 1, axes[d], CGNS_ENUMV(RealDouble), &lo, &hi, c.data()),
            std::string("reading its ") + axes[d]);
    for (std::size_t i = 0; i < n; ++i)
      raw.coords[3 * i + std::size_t(d)] = c[i];
  }
  int sections = 0, conditions = 0;
  f.check(cg_nsections(f.fn(), 1, 1, &sections), "reading its sections");
  for (int S = 1; S <= sections; ++S)
    read_section(f, S, raw.blocks);
  f.check(cg_nbocos(f.fn(), 1, 1, &conditions), "reading its boundary conditions");
  for (int BC = 1; BC <= conditions; ++BC)
    read_condition(f, BC, raw);
  f.close();
  return raw;
}

} // namespace

GmshMesh read_cgns(const std::string &path, const GmshOptions &options) {
  // The library's read first in a process of its own (detail/isolated_read.hpp).
  detail::read_in_child_first(path, "cgns file '" + path + "'", "CGNS", [&] { raw_cgns(path); });
  return detail::assemble_mesh(raw_cgns(path), path, options);
}

} // namespace umesh

#else // built without CGNS

namespace umesh {
GmshMesh read_cgns(const std::string &path, const GmshOptions &) {
  fail("cgns file '", path, "': ", mesh_format_missing(MeshFormat::cgns));
}
} // namespace umesh

#endif
