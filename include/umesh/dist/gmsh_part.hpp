#ifndef UMESH_DIST_GMSH_PART_HPP
#define UMESH_DIST_GMSH_PART_HPP

// A Gmsh mesh over MPI ranks without every rank holding it: rank 0 reads the
// file and deals one type of element to the ranks; each rank receives only
// its elements, their rows and the nodes it owns, ready for a Partition built
// from its own part (OwnPart). Only rank 0 ever holds the whole mesh.

#include <umesh/dist/owners.hpp>
#include <umesh/dist/set_part.hpp>
#include <umesh/gmsh.hpp>
#include <umesh/partition.hpp>

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <exception>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace umesh::dist {

/// One rank's part of a Gmsh mesh (read_gmsh_part).
struct GmshPart {
  std::string type;            ///< the element type dealt ("hex", "tet", "triangle", ...)
  Set elements{"elements", 0}; ///< the whole mesh's elements of that type, each once
                               ///< (elements_once), in file order
  Set nodes{"nodes", 0};       ///< the whole mesh's nodes
  int nodes_per_element = 0;
  std::vector<int> element_ids;   ///< this rank's elements, ascending
  std::vector<int> element_nodes; ///< [this rank's element][nodes_per_element], global nodes
  std::vector<int> physical;      ///< physical group tag per element of this rank (0: none)
  /// The nodes this rank owns, ascending: those whose lowest-numbered
  /// element of the type is here (nodes no such element reaches are dealt
  /// in contiguous blocks), as a Partition from global data deals them.
  std::vector<int> node_ids;
  std::vector<double> coords;                ///< [owned node][3]
  std::map<int, std::string> physical_names; ///< tag -> name, the whole file's

  /// What a Partition takes (Partition(comm, OwnPart)): the elements, one
  /// map `map_name` from them to the nodes, the nodes owned. The second
  /// form moves the part's arrays instead of copying them.
  OwnPart own_part(const std::string &map_name) const & {
    return GmshPart(*this).own_part(map_name);
  }
  OwnPart own_part(const std::string &map_name) && {
    OwnPart own{elements, std::move(element_ids), {}, {}};
    own.maps.push_back({map_name, nodes, nodes_per_element, std::move(element_nodes)});
    own.owned.push_back({nodes, std::move(node_ids)});
    return own;
  }
};

namespace detail {

// Rank 0 sends, every other rank receives, one array of rank `to`'s part.
template <class T> MPI_Datatype mpi_type();
template <> inline MPI_Datatype mpi_type<int>() {
  return MPI_INT;
}
template <> inline MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}

template <class T> void send_part(MPI_Comm comm, int to, const std::vector<T> &v) {
  const std::int64_t n = std::int64_t(v.size());
  MPI_Send(&n, 1, MPI_INT64_T, to, 711, comm);
  MPI_Send(v.data(), int(n), mpi_type<T>(), to, 712, comm);
}
template <class T> std::vector<T> receive_part(MPI_Comm comm) {
  std::int64_t n = 0;
  MPI_Recv(&n, 1, MPI_INT64_T, 0, 711, comm, MPI_STATUS_IGNORE);
  std::vector<T> v(static_cast<std::size_t>(n));
  MPI_Recv(v.data(), int(n), mpi_type<T>(), 0, 712, comm, MPI_STATUS_IGNORE);
  return v;
}

} // namespace detail

/// Rank 0 reads `path` (read_gmsh; checked unless `options` say not) and
/// deals its elements of `type`, each once (elements_once), to the ranks of `comm`: `how` is slabs
/// (contiguous runs of the file's order) or METIS k-way over the elements
/// sharing nodes (on rank 0); each rank receives only its part
/// (GmshPart). Collective. A file rank 0 cannot read, a bad mesh, a type
/// the file lacks or an array too large for one message throws
/// umesh::Error on every rank; PT-Scotch, which needs the graph spread
/// over the ranks, is refused.
inline GmshPart read_gmsh_part(MPI_Comm comm, const std::string &path, const std::string &type,
                               Owners how = Owners::slabs, const GmshOptions &options = {}) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::string what = "dist::read_gmsh_part('" + path + "', '" + type + "')";
  if (how == Owners::ptscotch)
    umesh::detail::fail(what, ": PT-Scotch partitions a graph spread over the ranks; here rank 0 "
                              "holds the mesh: use slabs or metis");
  if (how == Owners::metis && !has_metis())
    umesh::detail::fail(what, ": METIS k-way asked for, but umesh was built without METIS");
  GmshPart part;
  part.type = type;
  // Rank 0: the mesh and the owners of its elements and nodes; what every
  // rank learns: the sizes, the block's set name and the physical names.
  GmshMesh mesh;
  std::vector<int> element_owner, node_owner;
  std::int64_t header[3] = {0, 0, 0}; // elements, nodes, nodes per element
  std::string names;                  // the set's name, then "tag name" a line
  std::string error;
  if (rank == 0) {
    try {
      mesh = read_gmsh(path, options);
      // A 2.2 file's copies of an element (one per physical group) dealt
      // once: every cell twice, the one-process readers' cells once.
      for (auto &block : mesh.blocks)
        if (block.type == type)
          block = elements_once(block, mesh.format_version);
      const GmshMesh::Block &b = mesh.block(type);
      const int n = b.set.size(), a = b.nodes_per_element, nodes = mesh.nodes.size();
      if (std::size_t(n) * std::size_t(a) > std::size_t(INT_MAX) ||
          3 * std::size_t(nodes) > std::size_t(INT_MAX))
        umesh::detail::fail("more than ", INT_MAX,
                            " values in one array, too many for one message");
      element_owner = how == Owners::metis && size > 1
                          ? partition_kway(element_graph(n, b.nodes.data(), a, nodes), size)
                          : contiguous_owners(n, size);
      node_owner.assign(std::size_t(nodes), -1);
      for (std::size_t i = 0; i < b.nodes.size(); ++i) {
        int &o = node_owner[std::size_t(b.nodes[i])];
        if (o < 0)
          o = element_owner[i / std::size_t(a)];
      }
      for (int p = 0; p < nodes; ++p)
        if (node_owner[std::size_t(p)] < 0)
          node_owner[std::size_t(p)] = int(std::int64_t(p) * size / nodes);
      header[0] = n, header[1] = nodes, header[2] = a;
      std::ostringstream out;
      out << b.set.name() << '\n';
      for (const auto &[tag, name] : mesh.physical_names)
        out << tag << ' ' << name << '\n';
      names = out.str();
    } catch (const std::exception &e) {
      error = e.what();
    }
  }
  detail::fail_together_as(comm, what.c_str(), error); // rank 0's error, on every rank
  MPI_Bcast(header, 3, MPI_INT64_T, 0, comm);
  std::int64_t name_bytes = std::int64_t(names.size());
  MPI_Bcast(&name_bytes, 1, MPI_INT64_T, 0, comm);
  names.resize(std::size_t(name_bytes));
  MPI_Bcast(names.data(), int(name_bytes), MPI_CHAR, 0, comm);
  std::istringstream lines(names);
  std::string set_name;
  std::getline(lines, set_name);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t space = line.find(' ');
    part.physical_names[std::stoi(line.substr(0, space))] = line.substr(space + 1);
  }
  part.elements = Set(set_name, int(header[0]));
  part.nodes = Set("nodes", int(header[1]));
  part.nodes_per_element = int(header[2]);
  if (rank != 0) {
    part.element_ids = detail::receive_part<int>(comm);
    part.element_nodes = detail::receive_part<int>(comm);
    part.physical = detail::receive_part<int>(comm);
    part.node_ids = detail::receive_part<int>(comm);
    part.coords = detail::receive_part<double>(comm);
    return part;
  }
  // Each rank's elements and nodes, ascending, from one pass over each.
  const GmshMesh::Block &b = mesh.block(type);
  const std::size_t a = std::size_t(part.nodes_per_element);
  std::vector<std::vector<int>> elements_of(static_cast<std::size_t>(size)),
      nodes_of(static_cast<std::size_t>(size));
  for (int e = 0; e < b.set.size(); ++e)
    elements_of[std::size_t(element_owner[std::size_t(e)])].push_back(e);
  for (int n = 0; n < mesh.nodes.size(); ++n)
    nodes_of[std::size_t(node_owner[std::size_t(n)])].push_back(n);
  for (int to = size - 1; to >= 0; --to) { // rank 0's own part last, kept
    GmshPart p;
    p.element_ids = std::move(elements_of[std::size_t(to)]);
    p.node_ids = std::move(nodes_of[std::size_t(to)]);
    for (int e : p.element_ids) {
      p.element_nodes.insert(p.element_nodes.end(), b.nodes.begin() + std::ptrdiff_t(e * a),
                             b.nodes.begin() + std::ptrdiff_t((e + 1) * a));
      p.physical.push_back(b.physical[std::size_t(e)]);
    }
    for (int n : p.node_ids)
      p.coords.insert(p.coords.end(), mesh.coords.begin() + 3 * std::ptrdiff_t(n),
                      mesh.coords.begin() + 3 * std::ptrdiff_t(n + 1));
    if (to == 0) {
      part.element_ids = std::move(p.element_ids);
      part.element_nodes = std::move(p.element_nodes);
      part.physical = std::move(p.physical);
      part.node_ids = std::move(p.node_ids);
      part.coords = std::move(p.coords);
      break;
    }
    detail::send_part(comm, to, p.element_ids);
    detail::send_part(comm, to, p.element_nodes);
    detail::send_part(comm, to, p.physical);
    detail::send_part(comm, to, p.node_ids);
    detail::send_part(comm, to, p.coords);
  }
  return part;
}

} // namespace umesh::dist

#endif
