// Unit tests of miniAero's generated mesh: volumes and closed cells, the
// same mesh on any number of threads, each rank's own block a piece of the
// whole mesh (its cell stencil too), and the grid of blocks.
#include "problem.hpp"

#include "common/grid_blocks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using namespace miniaero;

// The ramp problem (nodes bent past lx / 2, every boundary condition) on a
// 2 x 2 x 1 domain with nx x ny x nz cells.
Input ramp(int nx, int ny, int nz) {
  Input in;
  in.problem = 2;
  in.lx = 2;
  in.ly = 2;
  in.lz = 1;
  in.ramp_angle = 30;
  in.nx = nx;
  in.ny = ny;
  in.nz = nz;
  return in;
}
TEST(Mesh, VolumesAndClosedCells) {
  const Input in = ramp(8, 4, 2);
  const Mesh m = make_mesh(in, 3);
  // Volumes add up to the domain (a box with a 30 degree wedge cut away).
  double total = 0;
  for (double v : m.cell_volume)
    total += v;
  const double wedge = 0.5 * 1.0 * std::tan(30 * 3.14159265 / 180) * 1.0;
  EXPECT_NEAR(total, 2 * 2 * 1 - wedge, 1e-12);
  // Every cell is closed: its outward area vectors sum to zero.
  std::vector<double> sum(3 * std::size_t(m.num_cells), 0.0);
  for (int f = 0; f < m.faces.size(); ++f)
    for (int d = 0; d < 3; ++d) {
      sum[3 * m.face_cells[2 * f] + d] += m.faces.normal[3 * f + d];
      sum[3 * m.face_cells[2 * f + 1] + d] -= m.faces.normal[3 * f + d];
    }
  for (const auto &b : m.boundaries)
    for (std::size_t f = 0; f < b.cell.size(); ++f)
      for (int d = 0; d < 3; ++d)
        sum[3 * b.cell[f] + d] += b.geometry.normal[3 * f + d];
  for (double s : sum)
    EXPECT_NEAR(s, 0.0, 1e-14);
  EXPECT_EQ(m.faces.size(), 7 * 4 * 2 + 8 * 3 * 2 + 8 * 4 * 1);
}

TEST(Mesh, SameOnAnyNumberOfThreads) {
  const Input in = ramp(7, 3, 2); // nx: not a multiple of the thread counts below
  for (const std::uint64_t seed : {std::uint64_t(0), std::uint64_t(5)}) {
    const Mesh one = make_mesh(in, seed, 1);
    for (const int threads : {2, 3, 7, 16}) {
      const Mesh m = make_mesh(in, seed, threads);
      EXPECT_EQ(m.num_cells, one.num_cells);
      EXPECT_EQ(m.cell_centroid, one.cell_centroid) << threads << " threads";
      EXPECT_EQ(m.cell_volume, one.cell_volume) << threads << " threads";
      EXPECT_EQ(m.face_cells, one.face_cells) << threads << " threads";
      EXPECT_EQ(m.face_slots, one.face_slots) << threads << " threads";
      EXPECT_EQ(m.faces.normal, one.faces.normal) << threads << " threads";
      EXPECT_EQ(m.faces.binormal, one.faces.binormal) << threads << " threads";
      ASSERT_EQ(m.boundaries.size(), one.boundaries.size());
      for (std::size_t b = 0; b < m.boundaries.size(); ++b) {
        EXPECT_EQ(m.boundaries[b].cell, one.boundaries[b].cell);
        EXPECT_EQ(m.boundaries[b].geometry.centroid, one.boundaries[b].geometry.centroid);
      }
    }
  }
}

// A rank's own block (make_mesh_part) is the whole mesh's piece: over the
// blocks of any grid, every cell, interior face and boundary face exactly
// once, each with the whole mesh's number, cells, slots and geometry.
TEST(Mesh, BlocksArePiecesOfTheWholeMesh) {
  const Input in = ramp(7, 5, 4);
  for (const std::uint64_t seed : {std::uint64_t(0), std::uint64_t(9)})
    for (const int ranks : {1, 2, 3, 4, 6, 12}) {
      const Mesh whole = make_mesh(in, seed, 1);
      const auto grid = umesh::apps::grid_blocks(in.nx, in.ny, in.nz, ranks);
      ASSERT_GT(grid.blocks[0], 0) << ranks;
      ASSERT_EQ(grid.blocks[0] * grid.blocks[1] * grid.blocks[2], ranks);
      std::vector<int> cell_seen(whole.num_cells, 0), face_seen(whole.faces.size(), 0);
      std::vector<std::vector<int>> side_seen;
      for (const auto &b : whole.boundaries)
        side_seen.emplace_back(b.cell.size(), 0);
      for (int r = 0; r < ranks; ++r) {
        std::array<int, 3> lo{}, hi{};
        grid.range(r, lo, hi);
        const Mesh m = make_mesh_part(in, seed, 1 + r % 3, lo, hi);
        ASSERT_TRUE(m.part);
        const MeshPart &p = *m.part;
        EXPECT_EQ(p.cells, whole.num_cells);
        EXPECT_EQ(p.faces, whole.faces.size());
        ASSERT_EQ(p.cell_ids.size(), std::size_t(m.num_cells));
        for (int c = 0; c < m.num_cells; ++c) {
          const int g = p.cell_ids[c];
          ++cell_seen[g];
          EXPECT_EQ(m.cell_volume[c], whole.cell_volume[g]);
          for (int d = 0; d < 3; ++d)
            EXPECT_EQ(m.cell_centroid[3 * c + d], whole.cell_centroid[3 * std::size_t(g) + d]);
          int i = 0, j = 0, k = 0; // the cell is in the block
          i = g / (in.ny * in.nz), j = g / in.nz % in.ny, k = g % in.nz;
          EXPECT_TRUE(i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] &&
                      k < hi[2]);
          EXPECT_EQ(grid.owner(i, j, k), r);
        }
        ASSERT_EQ(p.face_ids.size(), std::size_t(m.faces.size()));
        for (int f = 0; f < m.faces.size(); ++f) {
          const int g = p.face_ids[f];
          ++face_seen[g];
          for (int a = 0; a < 2; ++a) {
            EXPECT_EQ(m.face_cells[2 * f + a], whole.face_cells[2 * std::size_t(g) + a]);
            EXPECT_EQ(m.face_slots[2 * f + a], whole.face_slots[2 * std::size_t(g) + a]);
          }
          for (int d = 0; d < 3; ++d) {
            EXPECT_EQ(m.faces.centroid[3 * f + d], whole.faces.centroid[3 * std::size_t(g) + d]);
            EXPECT_EQ(m.faces.normal[3 * f + d], whole.faces.normal[3 * std::size_t(g) + d]);
            EXPECT_EQ(m.faces.tangent[3 * f + d], whole.faces.tangent[3 * std::size_t(g) + d]);
          }
        }
        ASSERT_EQ(m.boundaries.size(), whole.boundaries.size());
        ASSERT_EQ(p.boundary_ids.size(), whole.boundaries.size());
        for (std::size_t b = 0; b < m.boundaries.size(); ++b) {
          EXPECT_EQ(m.boundaries[b].bc, whole.boundaries[b].bc);
          EXPECT_EQ(p.boundary_sizes[b], int(whole.boundaries[b].cell.size()));
          ASSERT_EQ(p.boundary_ids[b].size(), m.boundaries[b].cell.size());
          for (std::size_t f = 0; f < p.boundary_ids[b].size(); ++f) {
            const int g = p.boundary_ids[b][f];
            ++side_seen[b][g];
            EXPECT_EQ(m.boundaries[b].cell[f], whole.boundaries[b].cell[g]);
            for (int d = 0; d < 3; ++d)
              EXPECT_EQ(m.boundaries[b].geometry.normal[3 * f + d],
                        whole.boundaries[b].geometry.normal[3 * std::size_t(g) + d]);
          }
        }
      }
      auto once = [](const std::vector<int> &seen) {
        return std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; });
      };
      EXPECT_TRUE(once(cell_seen)) << ranks << " ranks, seed " << seed;
      EXPECT_TRUE(once(face_seen)) << ranks << " ranks, seed " << seed;
      for (const auto &seen : side_seen)
        EXPECT_TRUE(once(seen)) << ranks << " ranks, seed " << seed;
    }
}

// What a block brings for the limiter's stencil over cells is the whole
// mesh's: each cell's face neighbours (itself across a boundary face), its
// six face centroids bit for bit, and as halo exactly the neighbours outside
// the block.
TEST(Mesh, BlockStencilIsTheWholeMeshs) {
  const Input in = ramp(6, 5, 4);
  const Mesh whole = make_mesh(in, 3, 1);
  std::vector<std::vector<int>> nb(whole.num_cells);
  std::vector<std::vector<std::array<double, 3>>> xf(whole.num_cells);
  auto centroid = [](const FaceGeometry &g, std::size_t f) {
    return std::array<double, 3>{g.centroid[3 * f], g.centroid[3 * f + 1], g.centroid[3 * f + 2]};
  };
  for (int f = 0; f < whole.faces.size(); ++f)
    for (int a = 0; a < 2; ++a) {
      const int c = whole.face_cells[2 * f + a];
      nb[c].push_back(whole.face_cells[2 * f + 1 - a]);
      xf[c].push_back(centroid(whole.faces, std::size_t(f)));
    }
  for (const auto &b : whole.boundaries)
    for (std::size_t f = 0; f < b.cell.size(); ++f) {
      nb[b.cell[f]].push_back(b.cell[f]);
      xf[b.cell[f]].push_back(centroid(b.geometry, f));
    }
  for (const int ranks : {1, 4, 6}) {
    const auto grid = umesh::apps::grid_blocks(in.nx, in.ny, in.nz, ranks);
    for (int r = 0; r < ranks; ++r) {
      std::array<int, 3> lo{}, hi{};
      grid.range(r, lo, hi);
      const Mesh m = make_mesh_part(in, 3, 2, lo, hi, true);
      const MeshPart &p = *m.part;
      ASSERT_EQ(p.cell_neighbours.size(), p.cell_ids.size() * 6);
      ASSERT_EQ(p.cell_face_centroids.size(), p.cell_ids.size() * 18);
      std::vector<int> outside;
      for (std::size_t c = 0; c < p.cell_ids.size(); ++c) {
        const int g = p.cell_ids[c];
        std::vector<int> mine(p.cell_neighbours.begin() + 6 * c,
                              p.cell_neighbours.begin() + 6 * (c + 1));
        std::vector<int> theirs = nb[g];
        std::vector<std::array<double, 3>> x, y = xf[g];
        for (int s = 0; s < 6; ++s)
          x.push_back({p.cell_face_centroids[18 * c + 3 * s],
                       p.cell_face_centroids[18 * c + 3 * s + 1],
                       p.cell_face_centroids[18 * c + 3 * s + 2]});
        std::sort(mine.begin(), mine.end());
        std::sort(theirs.begin(), theirs.end());
        std::sort(x.begin(), x.end());
        std::sort(y.begin(), y.end());
        EXPECT_EQ(mine, theirs) << "cell " << g;
        EXPECT_EQ(x, y) << "cell " << g; // exact: the same arithmetic
        for (int n : mine)
          if (!std::binary_search(p.cell_ids.begin(), p.cell_ids.end(), n))
            outside.push_back(n);
      }
      std::vector<int> halo = p.stencil_halo;
      std::sort(halo.begin(), halo.end());
      std::sort(outside.begin(), outside.end());
      EXPECT_EQ(halo, outside) << ranks << " ranks, block " << r;
      EXPECT_TRUE(std::adjacent_find(halo.begin(), halo.end()) == halo.end());
      if (ranks == 1)
        EXPECT_TRUE(halo.empty());
      else
        EXPECT_FALSE(halo.empty());
    }
  }
  // Without the stencil, nothing of it.
  const Mesh plain = make_mesh_part(in, 3, 1, {0, 0, 0}, {3, 5, 4});
  EXPECT_TRUE(plain.part->cell_neighbours.empty() && plain.part->stencil_halo.empty() &&
              plain.part->cell_face_centroids.empty());
}

// The grid that cuts the fewest faces, within each direction's cells.
TEST(Mesh, GridBlocksCutTheFewestFaces) {
  EXPECT_EQ(umesh::apps::grid_blocks(64, 64, 64, 4).blocks, (std::array<int, 3>{2, 2, 1}));
  EXPECT_EQ(umesh::apps::grid_blocks(64, 64, 64, 2).blocks, (std::array<int, 3>{2, 1, 1}));
  EXPECT_EQ(umesh::apps::grid_blocks(64, 64, 64, 8).blocks, (std::array<int, 3>{2, 2, 2}));
  EXPECT_EQ(umesh::apps::grid_blocks(256, 16, 16, 4).blocks, (std::array<int, 3>{4, 1, 1}));
  EXPECT_EQ(umesh::apps::grid_blocks(2, 1, 1, 4).blocks[0], 0); // more ranks than cells
  const auto g = umesh::apps::grid_blocks(7, 5, 3, 6);
  for (int r = 0; r < 6; ++r) {
    std::array<int, 3> lo{}, hi{};
    g.range(r, lo, hi);
    EXPECT_EQ(g.owner(lo[0], lo[1], lo[2]), r);
    EXPECT_EQ(g.owner(hi[0] - 1, hi[1] - 1, hi[2] - 1), r);
  }
}

} // namespace
