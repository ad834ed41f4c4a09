#include <umesh/connectivity.hpp>
#include <umesh/error.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <string>

namespace umesh {
namespace {

// A cell type's sides as local node slots, each listed so that its normal
// (right-hand rule) points out of the cell, for Gmsh's node ordering.
struct SideTable {
  const char *cell_type;
  int nodes_per_side;
  std::vector<std::array<int, 4>> sides;
};

const SideTable &side_table(int nodes_per_cell, bool faces) {
  static const SideTable tri{"triangle", 2, {{0, 1}, {1, 2}, {2, 0}}};
  static const SideTable quad{"quad", 2, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}};
  static const SideTable tet{"tet", 3, {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}};
  static const SideTable hex{
      "hex",
      4,
      {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}};
  if (!faces && nodes_per_cell == 3)
    return tri;
  if (!faces && nodes_per_cell == 4)
    return quad;
  if (faces && nodes_per_cell == 4)
    return tet;
  if (faces && nodes_per_cell == 8)
    return hex;
  detail::fail(faces ? "derive_faces" : "derive_edges", ": cells of ", nodes_per_cell,
               " nodes are not supported (",
               faces ? "tets have 4, hexes 8" : "triangles have 3, quads 4", ")");
}

// One side as seen from one cell: its nodes sorted (unused places INT_MAX),
// and where it came from (cell * sides per cell + local side).
struct SideKey {
  std::array<int, 4> nodes;
  std::int64_t slot;
  bool operator<(const SideKey &o) const {
    return nodes != o.nodes ? nodes < o.nodes : slot < o.slot;
  }
};

CellSides derive(const Set &cells, const std::vector<CellBlock> &blocks, const Set &nodes,
                 bool faces) {
  const char *who = faces ? "derive_faces" : "derive_edges";
  // Each side records its block in a byte.
  if (blocks.size() > 255)
    detail::fail(who, ": ", blocks.size(),
                 " blocks of cells; at most 255 (one per cell type is enough)");
  std::vector<const SideTable *> tables;
  std::int64_t nc = 0, nslots = 0;
  int nps = 0;
  for (const auto &blk : blocks) {
    tables.push_back(&side_table(blk.nodes_per_cell, faces));
    if (blk.cell_nodes.size() % blk.nodes_per_cell != 0)
      detail::fail(who, ": a block of ", tables.back()->cell_type, "s has ", blk.cell_nodes.size(),
                   " node indices, not a multiple of ", blk.nodes_per_cell);
    const std::int64_t n = std::int64_t(blk.cell_nodes.size()) / blk.nodes_per_cell;
    nc += n;
    nslots += n * std::int64_t(tables.back()->sides.size());
    nps = std::max(nps, tables.back()->nodes_per_side);
  }
  if (nc != cells.size())
    detail::fail(who, ": set '", cells.name(), "' has ", cells.size(), " cells but the blocks ", nc,
                 " (", blocks.size(), " block(s); each cell has its nodes_per_cell indices)");
  if (nslots > INT_MAX)
    detail::fail(who, ": ", nslots, " cell sides are more than this build indexes");

  // Every side of every cell, in cell order: its sorted nodes (unused places
  // INT_MAX, so triangles never match quads), cell and local side.
  std::vector<SideKey> keys;
  keys.reserve(std::size_t(nslots));
  std::vector<int> slot_cell;
  std::vector<std::uint8_t> slot_local, slot_block;
  slot_cell.reserve(std::size_t(nslots));
  slot_local.reserve(std::size_t(nslots));
  slot_block.reserve(std::size_t(nslots));
  std::int64_t cell = 0;
  for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
    const SideTable &table = *tables[bi];
    const int npc = blocks[bi].nodes_per_cell;
    const std::int64_t n = std::int64_t(blocks[bi].cell_nodes.size()) / npc;
    for (std::int64_t c = 0; c < n; ++c, ++cell) {
      const int *cn = blocks[bi].cell_nodes.data() + c * npc;
      for (int k = 0; k < npc; ++k) {
        if (cn[k] < 0 || cn[k] >= nodes.size())
          detail::fail(who, ": ", table.cell_type, " ", cell, " of '", cells.name(), "' has node ",
                       cn[k], ", outside set '", nodes.name(), "' of ", nodes.size());
        for (int j = 0; j < k; ++j)
          if (cn[j] == cn[k])
            detail::fail(who, ": ", table.cell_type, " ", cell, " of '", cells.name(),
                         "' repeats node ", cn[k], " (degenerate cells are not supported)");
      }
      for (std::size_t s = 0; s < table.sides.size(); ++s) {
        SideKey k;
        k.nodes.fill(INT_MAX);
        for (int j = 0; j < table.nodes_per_side; ++j)
          k.nodes[j] = cn[table.sides[s][j]];
        std::sort(k.nodes.begin(), k.nodes.end()); // the INT_MAX places stay last
        k.slot = std::int64_t(keys.size());
        keys.push_back(k);
        slot_cell.push_back(int(cell));
        slot_local.push_back(std::uint8_t(s));
        slot_block.push_back(std::uint8_t(bi));
      }
    }
  }
  std::sort(keys.begin(), keys.end());

  // partner[slot]: the other slot of an interior side, -1 on the boundary,
  // -2 when the side is emitted from its first cell's slot.
  std::vector<int> partner(keys.size(), -1);
  std::int64_t interior = 0;
  for (std::size_t i = 0; i < keys.size();) {
    std::size_t j = i + 1;
    while (j < keys.size() && keys[j].nodes == keys[i].nodes)
      ++j;
    if (j - i > 2)
      detail::fail(who, ": a side of '", cells.name(), "' with nodes ", keys[i].nodes[0], ", ",
                   keys[i].nodes[1], "... belongs to ", j - i, " cells (", slot_cell[keys[i].slot],
                   ", ", slot_cell[keys[i + 1].slot], ", ", slot_cell[keys[i + 2].slot],
                   "...): a side joins at most two cells");
    if (j - i == 2) {
      const int a = int(keys[i].slot), b = int(keys[i + 1].slot);
      if (slot_cell[a] == slot_cell[b])
        detail::fail(who, ": ", tables[slot_block[a]]->cell_type, " ", slot_cell[a], " of '",
                     cells.name(), "' has two sides with the same nodes");
      partner[a] = b;
      partner[b] = -2;
      ++interior;
    }
    i = j;
  }

  const std::string kind = faces ? "faces" : "edges";
  const std::int64_t boundary = std::int64_t(keys.size()) - 2 * interior;
  CellSides out;
  out.sides = Set(cells.name() + "_" + kind, interior);
  out.boundary = Set(cells.name() + "_boundary_" + kind, boundary);
  out.nodes_per_side = nps;
  out.side_nodes.reserve(std::size_t(interior) * nps);
  out.side_cells.reserve(std::size_t(interior) * 2);
  out.boundary_nodes.reserve(std::size_t(boundary) * nps);
  out.boundary_cells.reserve(std::size_t(boundary));
  std::vector<std::int64_t> block_first(blocks.size(), 0); // first cell of each block
  for (std::size_t bi = 1; bi < blocks.size(); ++bi)
    block_first[bi] = block_first[bi - 1] + std::int64_t(blocks[bi - 1].cell_nodes.size()) /
                                                blocks[bi - 1].nodes_per_cell;
  for (std::size_t slot = 0; slot < partner.size(); ++slot) {
    if (partner[slot] == -2)
      continue;
    const int bi = slot_block[slot];
    const SideTable &table = *tables[bi];
    const int c = slot_cell[slot];
    const int *cn =
        blocks[bi].cell_nodes.data() + (c - block_first[bi]) * blocks[bi].nodes_per_cell;
    auto &nodes_out = partner[slot] < 0 ? out.boundary_nodes : out.side_nodes;
    for (int j = 0; j < nps; ++j)
      nodes_out.push_back(j < table.nodes_per_side ? cn[table.sides[slot_local[slot]][j]] : -1);
    if (partner[slot] < 0) {
      out.boundary_cells.push_back(c);
    } else {
      out.side_cells.push_back(c);
      out.side_cells.push_back(slot_cell[partner[slot]]);
    }
  }
  return out;
}

} // namespace

CellSides derive_edges(const Set &cells, const std::vector<CellBlock> &blocks, const Set &nodes) {
  return derive(cells, blocks, nodes, false);
}

CellSides derive_edges(const Set &cells, int nodes_per_cell, const std::vector<int> &cell_nodes,
                       const Set &nodes) {
  return derive(cells, {{nodes_per_cell, cell_nodes}}, nodes, false);
}

CellSides derive_faces(const Set &cells, const std::vector<CellBlock> &blocks, const Set &nodes) {
  return derive(cells, blocks, nodes, true);
}

CellSides derive_faces(const Set &cells, int nodes_per_cell, const std::vector<int> &cell_nodes,
                       const Set &nodes) {
  return derive(cells, {{nodes_per_cell, cell_nodes}}, nodes, true);
}

std::vector<double> side_normals(const CellSides &s, const std::vector<double> &coords,
                                 bool boundary) {
  if (s.nodes_per_side != 3 && s.nodes_per_side != 4)
    detail::fail("side_normals: sides of ", s.nodes_per_side,
                 " nodes (normals are computed for 3D faces: triangles and quads)");
  const auto &sn = boundary ? s.boundary_nodes : s.side_nodes;
  const int n = s.nodes_per_side;
  const std::size_t count = sn.size() / n;
  for (std::size_t i = 0; i < sn.size(); ++i) {
    const int v = sn[i];
    if (v == -1 && n == 4 && i % 4 == 3)
      continue; // a triangle among quads
    if (v < 0 || std::size_t(v) * 3 + 2 >= coords.size())
      detail::fail("side_normals: node ", v, " has no coordinates (", coords.size() / 3,
                   " nodes given)");
  }
  auto p = [&](std::size_t side, int j, int k) {
    return coords[std::size_t(sn[side * n + j]) * 3 + k];
  };
  std::vector<double> out(count * 3);
  for (std::size_t f = 0; f < count; ++f) {
    // Half the cross product of the diagonals (quads) or of two edges
    // (triangles): the area-weighted normal, by the right-hand rule.
    const bool quad = n == 4 && sn[f * 4 + 3] != -1;
    double a[3], b[3];
    for (int k = 0; k < 3; ++k) {
      a[k] = quad ? p(f, 2, k) - p(f, 0, k) : p(f, 1, k) - p(f, 0, k);
      b[k] = quad ? p(f, 3, k) - p(f, 1, k) : p(f, 2, k) - p(f, 0, k);
    }
    out[f * 3 + 0] = 0.5 * (a[1] * b[2] - a[2] * b[1]);
    out[f * 3 + 1] = 0.5 * (a[2] * b[0] - a[0] * b[2]);
    out[f * 3 + 2] = 0.5 * (a[0] * b[1] - a[1] * b[0]);
  }
  return out;
}

} // namespace umesh
