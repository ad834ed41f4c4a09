#ifndef UMESH_MINIAERO_BACKEND_HPP
#define UMESH_MINIAERO_BACKEND_HPP

// Where the solver's mesh and data live: in one process (LocalBackend) or
// spread over MPI ranks (DistBackend, umesh::dist). The solver's loops are
// the same under both; a backend says how sets, maps and dats are made from
// the global mesh, how a loop runs and how the solution comes back.

#include "cell_stencil.hpp"
#include "problem.hpp"

#include "common/backend_loops.hpp"
#include "common/exchange_tally.hpp"

#include <umesh/umesh.hpp>
#if defined(UMESH_APP_MPI)
#include <umesh/dist.hpp>
#endif

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace miniaero {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using MapT = umesh::Map<Mem>;

using umesh::apps::ExchangeTally;

/// The solver's sets and maps: interior faces to their two cells, and per
/// boundary condition its faces to their cell.
struct BoundarySet {
  Bc bc;
  umesh::Set set;
  MapT cell;
};

/// One process: the whole mesh.
struct LocalBackend : umesh::apps::LocalLoops {
  template <int D, class L> using Dat = umesh::Dat<double, D, L, Mem>;

  struct Parts {
    umesh::Set cells, faces;
    MapT face_cells;
    std::vector<BoundarySet> boundaries;
  };
  static std::shared_ptr<Parts> parts(const Mesh &m) {
    if (m.part)
      umesh::fail("miniAero: a rank's own part of the mesh runs over MPI ranks only");
    const umesh::Set cells("cells", m.num_cells), faces("faces", m.faces.size());
    auto p = std::make_shared<Parts>(
        Parts{cells, faces, MapT("face_cells", faces, cells, 2, m.face_cells), {}});
    for (const auto &b : m.boundaries) {
      umesh::Set s(std::string("bc_") + bc_name(b.bc), int(b.cell.size()));
      p->boundaries.push_back(
          {b.bc, s, MapT(std::string("bc_") + bc_name(b.bc) + "_cell", s, p->cells, 1, b.cell)});
    }
    return p;
  }
  /// A dat on the cells, the interior faces, or boundary set `b` (-1: cells,
  /// -2: faces), set from global values `[item][D]` when given.
  template <int D, class L>
  static Dat<D, L> make(const Parts &p, int where, const std::string &name,
                        const std::vector<double> *values = nullptr) {
    const umesh::Set &s = where == -1 ? p.cells : where == -2 ? p.faces : p.boundaries[where].set;
    Dat<D, L> d(s, name);
    if (values)
      umesh::copy_from_host(d, *values);
    return d;
  }
  /// [cell][5] on the host.
  template <class DatT> static std::vector<double> gather(const Parts &, const DatT &u) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u.view());
    std::vector<double> out(std::size_t(u.size()) * 5);
    for (int c = 0; c < u.size(); ++c)
      for (int k = 0; k < 5; ++k)
        out[std::size_t(c) * 5 + k] = h(c, k);
    return out;
  }
};

#if defined(UMESH_APP_MPI)
/// MPI ranks (umesh::dist): cells dealt by METIS k-way over their face
/// graph or in contiguous slabs of the generated order (x-slabs of
/// miniAero's box), each interior face on the rank of its first cell, each
/// boundary face on the rank of its cell; halos of cells exchanged by the
/// loops as their accesses need.
struct DistBackend : umesh::apps::DistLoops {
  template <int D, class L> using Dat = umesh::dist::Dat<double, D, L, Mem>;
  using PartitionT = umesh::dist::Partition<Mem>;

  struct Parts {
    umesh::Set cells, faces; // this rank's: owned cells then halo; owned faces
    MapT face_cells;
    std::vector<BoundarySet> boundaries;
    std::unique_ptr<PartitionT> interior;
    std::vector<std::unique_ptr<PartitionT>> boundary;
    MPI_Comm comm = MPI_COMM_WORLD;
    std::string layout; // how the mesh was dealt: method, cut, each rank's share
    // Built from each rank's own part: the global numbers of the items the
    // part's values are for: cells, faces, then each boundary set's faces.
    std::vector<std::vector<int>> own_ids;
  };
  /// `nccl`: the halos go GPU to GPU through NCCL (Partition::use_nccl).
  /// `timed`: exchanges fence the device (Partition::time_exchanges_on_device).
  /// `local_order`: each rank renumbers its faces and owned cells for
  /// locality (Partition's local order; the boundary faces follow).
  /// `owners`: how the cells are dealt (dist::Owners).
  static std::shared_ptr<Parts> parts(const Mesh &m, bool nccl = false, bool timed = false,
                                      const umesh::ReorderOptions &local_order = {},
                                      umesh::dist::Owners owners = umesh::dist::Owners::slabs,
                                      MPI_Comm comm = MPI_COMM_WORLD) {
    if (m.part)
      return own_parts(m, nccl, timed, local_order, comm);
    const umesh::Set cells("cells", m.num_cells), faces("faces", m.faces.size());
    const umesh::HostConnectivity face_graph{m.face_cells.data(), 2, 0, m.num_cells};
    const std::vector<int> cell_owner =
        umesh::dist::point_owners(comm, owners, m.num_cells, faces.size(), {face_graph});
    std::vector<int> face_owner(faces.size());
    for (int f = 0; f < faces.size(); ++f)
      face_owner[f] = cell_owner[m.face_cells[2 * std::size_t(f)]];
    auto interior = std::make_unique<PartitionT>(
        comm, faces, face_owner,
        std::vector<umesh::dist::MapSpec>{{"face_cells", cells, 2, m.face_cells}},
        std::vector<umesh::dist::PointOwners>{{cells, cell_owner}},
        umesh::dist::ElementOrder::global, local_order);
    auto p = from_interior(std::move(interior), cells, comm);
    for (const auto &b : m.boundaries) {
      const std::string name = std::string("bc_") + bc_name(b.bc);
      const umesh::Set s(name, int(b.cell.size()));
      std::vector<int> owner(b.cell.size());
      for (std::size_t f = 0; f < b.cell.size(); ++f)
        owner[f] = cell_owner[b.cell[f]];
      p->boundary.push_back(std::make_unique<PartitionT>(
          comm, s, owner, std::vector<umesh::dist::MapSpec>{{name + "_cell", cells, 1, b.cell}},
          p->interior->targets()));
      const PartitionT &bp = *p->boundary.back();
      p->boundaries.push_back({b.bc, bp.elements()->local, bp.map(name + "_cell")});
    }
    use_transport(*p, nccl, timed);
    p->layout = std::string("cells dealt by ") + umesh::dist::owners_label(owners, comm) + ", " +
                std::to_string(umesh::dist::cut_elements(face_graph, faces.size(), cell_owner)) +
                " of " + std::to_string(faces.size()) + " interior faces between ranks\n" +
                umesh::dist::describe(umesh::dist::rank_shares(*p->interior), "faces");
    return p;
  }
  /// From each rank's own part of the mesh (make_mesh_part): the cells of
  /// its block, the interior faces they create and their boundary faces; no
  /// rank holds the whole mesh. Dats are set from the part's own values.
  static std::shared_ptr<Parts> own_parts(const Mesh &m, bool nccl, bool timed,
                                          const umesh::ReorderOptions &local_order, MPI_Comm comm) {
    const MeshPart &part = *m.part;
    const umesh::Set cells("cells", part.cells), faces("faces", part.faces);
    // Each array copied once, here and for the boundaries (a braced list of
    // maps would copy each twice).
    umesh::dist::OwnPart own{faces, part.face_ids, {}, {}};
    own.maps.push_back({"face_cells", cells, 2, m.face_cells});
    own.owned.push_back({cells, part.cell_ids, part.stencil_halo});
    auto interior = std::make_unique<PartitionT>(comm, std::move(own),
                                                 umesh::dist::ElementOrder::global, local_order);
    auto p = from_interior(std::move(interior), cells, comm);
    p->own_ids.push_back(part.cell_ids);
    p->own_ids.push_back(part.face_ids);
    for (std::size_t b = 0; b < m.boundaries.size(); ++b) {
      const std::string name = std::string("bc_") + bc_name(m.boundaries[b].bc);
      const umesh::Set s(name, part.boundary_sizes[b]);
      umesh::dist::OwnPart own_boundary{s, part.boundary_ids[b], {}, {}};
      own_boundary.maps.push_back({name + "_cell", cells, 1, m.boundaries[b].cell});
      p->boundary.push_back(std::make_unique<PartitionT>(
          comm, std::move(own_boundary), umesh::dist::ElementOrder::global, umesh::ReorderOptions{},
          p->interior->targets()));
      const PartitionT &bp = *p->boundary.back();
      p->boundaries.push_back({m.boundaries[b].bc, bp.elements()->local, bp.map(name + "_cell")});
      p->own_ids.push_back(part.boundary_ids[b]);
    }
    use_transport(*p, nccl, timed);
    // Faces between ranks: those whose second cell another rank owns.
    long long cut = 0, total_cut = 0;
    for (std::size_t f = 0; f < m.face_cells.size() / 2; ++f)
      cut +=
          !std::binary_search(part.cell_ids.begin(), part.cell_ids.end(), m.face_cells[2 * f + 1]);
    MPI_Allreduce(&cut, &total_cut, 1, MPI_LONG_LONG, MPI_SUM, comm);
    p->layout = "cells dealt by blocks of the box, each rank building only its own, " +
                std::to_string(total_cut) + " of " + std::to_string(part.faces) +
                " interior faces between ranks\n" +
                umesh::dist::describe(umesh::dist::rank_shares(*p->interior), "faces");
    return p;
  }
  /// The limiter's cell-to-cell map (--stencil cells) on this rank's local
  /// cells: each owned cell's face neighbours, owned or halo (the part's
  /// stencil halo holds those across faces other ranks own); a halo cell
  /// maps to itself (its values are refreshed from its owner before anyone
  /// reads them).
  static MapT cell_neighbours(const Parts &p, const Mesh &m) {
    if (!m.part || m.part->cell_neighbours.empty())
      umesh::fail("miniAero over MPI ranks: the cell stencil needs each rank's own block "
                  "(--partition blocks)");
    const MeshPart &part = *m.part;
    const umesh::dist::SetPart &cells = *p.interior->targets().front();
    const std::vector<int> neighbour = cells.local_ids(part.cell_neighbours);
    const std::vector<int> local = cells.local_ids(part.cell_ids);
    std::vector<int> rows(std::size_t(cells.local.size()) * kCellFaces);
    for (int c = 0; c < cells.local.size(); ++c)
      std::fill_n(rows.begin() + std::size_t(c) * kCellFaces, kCellFaces, c);
    for (std::size_t r = 0; r < local.size(); ++r)
      for (int s = 0; s < kCellFaces; ++s) {
        const int n = neighbour[r * kCellFaces + s];
        if (n < 0)
          umesh::fail("miniAero: cell ", part.cell_ids[r], "'s neighbour ",
                      part.cell_neighbours[r * kCellFaces + s], " is not on its rank");
        rows[std::size_t(local[r]) * kCellFaces + s] = n;
      }
    return MapT("cell_neighbours", p.cells, p.cells, kCellFaces, rows);
  }
  /// Parts holding the interior faces' partition: this rank's cells, faces
  /// and face-to-cell map (the boundary sets come after).
  static std::shared_ptr<Parts> from_interior(std::unique_ptr<PartitionT> interior,
                                              const umesh::Set &cells, MPI_Comm comm) {
    const umesh::Set local_cells = interior->part(cells)->local;
    const umesh::Set local_faces = interior->elements()->local;
    const MapT local_map = interior->map("face_cells");
    return std::make_shared<Parts>(
        Parts{local_cells, local_faces, local_map, {}, std::move(interior), {}, comm, {}, {}});
  }
  /// NCCL for every partition (one communicator: they share the cells), and
  /// exchanges timed on the device or not.
  static void use_transport(Parts &p, bool nccl, bool timed) {
    if (nccl) {
      const auto nc = p.interior->use_nccl();
      for (const auto &bp : p.boundary)
        bp->use_nccl(nc);
    }
    // The boundary partitions share the interior's cells and their halo.
    p.interior->time_exchanges_on_device(timed);
  }
  /// This rank's exchanges of the cells' halo (the only halo: faces live on
  /// their first cell's rank), and their seconds as the host sees them.
  static ExchangeTally exchanges(const Parts &p) {
    return umesh::apps::exchange_tally(*p.interior);
  }
  template <int D, class L>
  static Dat<D, L> make(const Parts &p, int where, const std::string &name,
                        const std::vector<double> *values = nullptr) {
    const auto &part = where == -1   ? p.interior->targets().front()
                       : where == -2 ? p.interior->elements()
                                     : p.boundary[where]->elements();
    Dat<D, L> d(part, name);
    if (values && !p.own_ids.empty()) // this rank's own values, not the whole mesh's
      d.set_owned(p.own_ids[std::size_t(where == -1 ? 0 : where == -2 ? 1 : 2 + where)], *values);
    else if (values)
      d.set_global(*values);
    return d;
  }
  /// Whether `ok` holds on every rank (collective).
  static bool on_every_rank(const Parts &p, bool ok) {
    int all = ok;
    MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, p.comm);
    return all != 0;
  }
  /// [cell][5] of the whole mesh, on every rank.
  template <class DatT> static std::vector<double> gather(const Parts &p, const DatT &u) {
    return u.gather_global(p.comm);
  }
};
#endif

} // namespace miniaero

#endif
