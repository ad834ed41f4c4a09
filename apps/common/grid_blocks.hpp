#ifndef UMESH_APPS_COMMON_GRID_BLOCKS_HPP
#define UMESH_APPS_COMMON_GRID_BLOCKS_HPP

// A box of nx x ny x nz cells dealt to ranks in px x py x pz blocks, the
// grid chosen to cut the fewest cell faces: what a rank needs to build only
// its own part of a structured mesh (no rank holds the whole mesh, nor runs
// a partitioner over it).

#include <array>
#include <cstdint>
#include <limits>
#include <string>

namespace umesh::apps {

struct GridBlocks {
  std::array<int, 3> cells{1, 1, 1};  ///< nx, ny, nz
  std::array<int, 3> blocks{1, 1, 1}; ///< px, py, pz

  /// The first cell index of block b along direction d (b = blocks[d]: the end).
  int first(int d, int b) const { return int(std::int64_t(cells[d]) * b / blocks[d]); }
  /// The block along direction d that holds cell index i.
  int block_of(int d, int i) const {
    int b = int(std::int64_t(i) * blocks[d] / cells[d]);
    while (b + 1 < blocks[d] && first(d, b + 1) <= i)
      ++b;
    while (b > 0 && first(d, b) > i)
      --b;
    return b;
  }
  /// The rank of the block that holds cell (i, j, k); ranks number the
  /// blocks with the last direction fastest, as the cells are numbered.
  int owner(int i, int j, int k) const {
    return (block_of(0, i) * blocks[1] + block_of(1, j)) * blocks[2] + block_of(2, k);
  }
  /// Rank r's block: [lo[d], hi[d]) along each direction.
  void range(int r, std::array<int, 3> &lo, std::array<int, 3> &hi) const {
    const int b[3] = {r / (blocks[1] * blocks[2]), (r / blocks[2]) % blocks[1], r % blocks[2]};
    for (int d = 0; d < 3; ++d)
      lo[d] = first(d, b[d]), hi[d] = first(d, b[d] + 1);
  }
  std::string describe() const {
    return std::to_string(blocks[0]) + " x " + std::to_string(blocks[1]) + " x " +
           std::to_string(blocks[2]) + " blocks";
  }
};

/// The grid of `ranks` blocks (px * py * pz == ranks, none longer than its
/// direction's cells) that cuts the fewest faces between blocks; ties go to
/// more blocks along x (whole planes of cells: contiguous runs of cell
/// numbers, which number x slowest).
/// Fails (returns blocks of 0) when no grid fits, i.e. more ranks than cells.
inline GridBlocks grid_blocks(int nx, int ny, int nz, int ranks) {
  GridBlocks best;
  best.cells = {nx, ny, nz};
  best.blocks = {0, 0, 0};
  std::int64_t best_cut = std::numeric_limits<std::int64_t>::max();
  for (int px = 1; px <= ranks; ++px) {
    if (ranks % px != 0 || px > nx)
      continue;
    for (int py = 1; py <= ranks / px; ++py) {
      const int pz = ranks / px / py;
      if ((ranks / px) % py != 0 || py > ny || pz > nz)
        continue;
      const std::int64_t cut = std::int64_t(px - 1) * ny * nz + std::int64_t(py - 1) * nx * nz +
                               std::int64_t(pz - 1) * nx * ny;
      if (cut <= best_cut) // px ascending: ties go to the larger px
        best_cut = cut, best.blocks = {px, py, pz};
    }
  }
  return best;
}

} // namespace umesh::apps

#endif
