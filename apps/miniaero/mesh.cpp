// miniAero's structured hex mesh in unstructured form (make_mesh in
// problem.hpp): cells, interior faces with their geometry, boundary faces
// per condition, built in slabs of planes on several host threads.
#include "problem.hpp"

#include "common/chunks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

namespace miniaero {

namespace {

using umesh::apps::in_chunks;
using Vec = std::array<double, 3>;
Vec sub(const Vec &a, const Vec &b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec cross(const Vec &a, const Vec &b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// Volume of a trilinear hex: the Jacobian determinant integrated with 2x2x2
// Gauss points (exact for this element). Corners in miniAero's order.
double hex_volume(const Vec (&x)[8]) {
  static const int sx[8] = {-1, 1, 1, -1, -1, 1, 1, -1};
  static const int sy[8] = {-1, -1, 1, 1, -1, -1, 1, 1};
  static const int sz[8] = {-1, -1, -1, -1, 1, 1, 1, 1};
  const double g = 1.0 / std::sqrt(3.0);
  double volume = 0;
  for (int q = 0; q < 8; ++q) {
    const double xi = g * sx[q], eta = g * sy[q], zeta = g * sz[q];
    double J[3][3] = {};
    for (int a = 0; a < 8; ++a) {
      const double d[3] = {0.125 * sx[a] * (1 + sy[a] * eta) * (1 + sz[a] * zeta),
                           0.125 * sy[a] * (1 + sx[a] * xi) * (1 + sz[a] * zeta),
                           0.125 * sz[a] * (1 + sx[a] * xi) * (1 + sy[a] * eta)};
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
          J[r][c] += d[r] * x[a][c];
    }
    volume += J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) +
              J[0][1] * (J[1][2] * J[2][0] - J[1][0] * J[2][2]) +
              J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
  }
  return volume;
}

// Local faces of a hex in miniAero's corner order, each listed so that its
// normal points out of the cell: y-, x+, y+, x-, z-, z+.
constexpr int kFaceCorners[6][4] = {{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6},
                                    {3, 0, 4, 7}, {0, 3, 2, 1}, {4, 5, 6, 7}};

} // namespace

namespace {
// A quad face's centroid from its corners (the one arithmetic every caller
// shares, so that a centroid computed twice is the same bit for bit).
Vec face_centroid(const Vec (&p)[4]) {
  Vec c{};
  for (const auto &q : p)
    for (int d = 0; d < 3; ++d)
      c[d] += 0.25 * q[d];
  return c;
}
} // namespace

void FaceGeometry::append(const Vec (&p)[4]) {
  const Vec c = face_centroid(p);
  // Area vector: the two triangles (0, 1, 2) and (0, 2, 3).
  const Vec a1 = cross(sub(p[1], p[0]), sub(p[2], p[0]));
  const Vec a2 = cross(sub(p[2], p[0]), sub(p[3], p[0]));
  const Vec a{0.5 * (a1[0] + a2[0]), 0.5 * (a1[1] + a2[1]), 0.5 * (a1[2] + a2[2])};
  // Tangent in the plane of the largest normal component and the one two
  // after it; binormal completes the frame (miniAero's construction).
  int i1 = 0;
  for (int d = 1; d < 3; ++d)
    if (std::fabs(a[d]) > std::fabs(a[i1]))
      i1 = d;
  const int i2 = (i1 + 1) % 3, i3 = (i1 + 2) % 3;
  const double den = std::sqrt(a[i1] * a[i1] + a[i3] * a[i3]);
  Vec t{};
  t[i2] = 0.0;
  t[i1] = a[i3] / den;
  t[i3] = -a[i1] / den;
  const Vec b = cross(a, t);
  centroid.insert(centroid.end(), c.begin(), c.end());
  normal.insert(normal.end(), a.begin(), a.end());
  tangent.insert(tangent.end(), t.begin(), t.end());
  binormal.insert(binormal.end(), b.begin(), b.end());
}

namespace {

// miniAero's box: its nodes, cells and sides, and what a box of its cells
// creates, with the global number of each item the whole mesh gives it.
struct Box {
  const Input &in;
  int nx, ny, nz;
  enum Side { bottom, top, front, back, right, left };
  Bc side_bc[6];

  explicit Box(const Input &input)
      : in(input), nx(input.nx), ny(input.ny), nz(input.nz),
        // Sides in miniAero's order and the condition each problem puts there.
        side_bc{in.problem == 1 ? Bc::noslip : Bc::tangent,
                in.problem == 1 ? Bc::extrapolate : Bc::tangent,
                Bc::tangent,
                Bc::tangent,
                Bc::extrapolate,
                in.problem == 0 ? Bc::extrapolate : Bc::inflow} {}

  Vec node(int i, int j, int k) const {
    const double pi = 3.14159265; // miniAero's value, for identical ramp nodes
    Vec x;
    x[0] = double(i) / nx * in.lx;
    x[2] = double(k) / nz * in.lz;
    if (x[0] < in.lx / 2.0) {
      x[1] = double(j) / ny * in.ly;
    } else {
      const double ramp = (x[0] - in.lx / 2.0) * std::tan(in.ramp_angle * pi / 180.0);
      x[1] = ramp + double(j) * (in.ly - ramp) / ny;
    }
    return x;
  }
  int cell_id(int i, int j, int k) const { return (i * ny + j) * nz + k; }
  std::int64_t interior_faces() const {
    return std::int64_t(nx - 1) * ny * nz + std::int64_t(ny - 1) * nx * nz +
           std::int64_t(nz - 1) * nx * ny;
  }
  // The number, in creation order, of the first interior face cell (i, j, k)
  // creates: cells create their x+, y+ and z+ faces, in that order, where
  // they are interior, one cell after the other in cell order.
  std::int64_t first_face(int i, int j, int k) const {
    const std::int64_t ax = i < nx - 1, ay = j < ny - 1;
    return std::int64_t(ny) * nz * std::min(i, nx - 1) +
           std::int64_t(i) * (std::int64_t(nz) * (ny - 1) + std::int64_t(ny) * (nz - 1)) +
           std::int64_t(j) * nz * ax + std::int64_t(nz) * std::min(j, ny - 1) +
           std::int64_t(j) * (nz - 1) + std::int64_t(k) * (ax + ay) + std::min(k, nz - 1);
  }
  int side_size(int side) const { return side <= top ? nx * nz : side <= back ? nx * ny : ny * nz; }
  // A side face's place among its side's faces (in cell order).
  int side_index(int side, int i, int j, int k) const {
    return side <= top ? i * nz + k : side <= back ? i * ny + j : j * nz + k;
  }

  struct SideFaces {
    std::vector<int> cell, index; // index: side_index (ids only)
    FaceGeometry geometry;
  };
  // What the cells of a box create, in cell order: the whole mesh's lists
  // are its planes' lists one after the other, so building slabs of planes
  // on several threads gives the same mesh as one thread. With `ids`, the
  // creation number of each interior face and the side index of each side
  // face too.
  // With `stencil`, each cell's face neighbours and face centroids in its
  // local face order (MeshPart::cell_neighbours, cell_face_centroids).
  struct Part {
    std::vector<double> centroid, volume;
    std::vector<int> face_cells, face_slots;
    std::vector<std::int64_t> face_created;
    FaceGeometry faces;
    SideFaces sides[6];
    std::vector<int> cell_neighbours;
    std::vector<double> cell_face_centroids;
  };
  // Corner c of cell (i, j, k), and all eight.
  Vec corner(int i, int j, int k, int c) const {
    static const int offset[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                     {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    return node(i + offset[c][0], j + offset[c][1], k + offset[c][2]);
  }
  void corners(int i, int j, int k, Vec (&x)[8]) const {
    for (int c = 0; c < 8; ++c)
      x[c] = corner(i, j, k, c);
  }
  void build(const std::array<int, 3> &lo, const std::array<int, 3> &hi, bool ids, bool stencil,
             Part &out) const {
    for (int i = lo[0]; i < hi[0]; ++i)
      for (int j = lo[1]; j < hi[1]; ++j)
        for (int k = lo[2]; k < hi[2]; ++k) {
          const int c = cell_id(i, j, k);
          Vec x[8];
          corners(i, j, k, x);
          Vec centre{};
          for (const auto &p : x)
            for (int d = 0; d < 3; ++d)
              centre[d] += p[d] / 8.0;
          out.centroid.insert(out.centroid.end(), centre.begin(), centre.end());
          out.volume.push_back(hex_volume(x));
          // Neighbour across each local face, or the side it lies on.
          const int nb[6] = {j > 0 ? cell_id(i, j - 1, k) : -1 - bottom,
                             i + 1 < nx ? cell_id(i + 1, j, k) : -1 - right,
                             j + 1 < ny ? cell_id(i, j + 1, k) : -1 - top,
                             i > 0 ? cell_id(i - 1, j, k) : -1 - left,
                             k > 0 ? cell_id(i, j, k - 1) : -1 - front,
                             k + 1 < nz ? cell_id(i, j, k + 1) : -1 - back};
          // The neighbour's local number of a face: the opposite one.
          static const int opposite[6] = {2, 3, 0, 1, 5, 4};
          if (stencil)
            for (int f = 0; f < 6; ++f) {
              out.cell_neighbours.push_back(nb[f] >= 0 ? nb[f] : c);
              // The centroid as the cell that creates the face computes it
              // (the lower-numbered one): its corners in its order.
              const bool theirs = nb[f] >= 0 && nb[f] < c;
              const int g = theirs ? opposite[f] : f;
              Vec p[4];
              for (int q = 0; q < 4; ++q)
                p[q] = theirs ? corner(i + (f == 1) - (f == 3), j + (f == 2) - (f == 0),
                                       k + (f == 5) - (f == 4), kFaceCorners[g][q])
                              : x[kFaceCorners[f][q]];
              const Vec centre = face_centroid(p);
              out.cell_face_centroids.insert(out.cell_face_centroids.end(), centre.begin(),
                                             centre.end());
            }
          std::int64_t created = ids ? first_face(i, j, k) : 0;
          for (int f = 0; f < 6; ++f) {
            if (nb[f] >= 0 && nb[f] < c)
              continue; // created by the neighbour, which comes first
            const Vec p[4] = {x[kFaceCorners[f][0]], x[kFaceCorners[f][1]], x[kFaceCorners[f][2]],
                              x[kFaceCorners[f][3]]};
            if (nb[f] < 0) {
              SideFaces &side = out.sides[-1 - nb[f]];
              side.cell.push_back(c);
              if (ids)
                side.index.push_back(side_index(-1 - nb[f], i, j, k));
              side.geometry.append(p);
            } else {
              out.face_cells.insert(out.face_cells.end(), {c, nb[f]});
              out.face_slots.insert(out.face_slots.end(), {f, opposite[f]});
              if (ids)
                out.face_created.push_back(created++);
              out.faces.append(p);
            }
          }
        }
  }
  // The box [lo, hi) built in slabs of its x planes on up to `threads`
  // threads, the slabs' lists joined in order.
  Part build_in_slabs(const std::array<int, 3> &lo, const std::array<int, 3> &hi, bool ids,
                      int threads, bool stencil = false) const {
    const int planes = std::max(0, hi[0] - lo[0]);
    const int slabs = std::max(1, std::min(threads, planes));
    std::vector<Part> slab(slabs);
    in_chunks(slabs, slabs, [&](int first, int last) {
      for (int t = first; t < last; ++t) {
        std::array<int, 3> a = lo, b = hi;
        a[0] = lo[0] + int(std::int64_t(planes) * t / slabs);
        b[0] = lo[0] + int(std::int64_t(planes) * (t + 1) / slabs);
        build(a, b, ids, stencil, slab[t]);
      }
    });
    Part all;
    for (Part &sl : slab) {
      append(all.centroid, sl.centroid);
      append(all.volume, sl.volume);
      append(all.face_cells, sl.face_cells);
      append(all.face_slots, sl.face_slots);
      append(all.face_created, sl.face_created);
      append_geometry(all.faces, sl.faces);
      append(all.cell_neighbours, sl.cell_neighbours);
      append(all.cell_face_centroids, sl.cell_face_centroids);
      for (int side = 0; side < 6; ++side) {
        append(all.sides[side].cell, sl.sides[side].cell);
        append(all.sides[side].index, sl.sides[side].index);
        append_geometry(all.sides[side].geometry, sl.sides[side].geometry);
      }
      sl = Part{}; // its memory back before the next slab's copy
    }
    return all;
  }
  // The face order miniAero's shuffle gives: order[f] is the creation
  // number of face f (empty for seed 0: creation order).
  std::vector<int> shuffled_order(std::uint64_t seed) const {
    std::vector<int> order;
    if (seed == 0)
      return order;
    order.resize(std::size_t(interior_faces()));
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));
    return order;
  }
  // The boundary sets: per condition that some side uses, its sides' faces
  // one side after the other in side order; `keep_empty` keeps a condition
  // whose sides gave this part no face (a rank's part: every rank must list
  // the same sets), with the whole mesh's offset of each side.
  template <class Fn> void each_condition(Fn fn) const {
    for (Bc bc : {Bc::extrapolate, Bc::tangent, Bc::inflow, Bc::noslip}) {
      int offset[6] = {}, total = 0;
      bool used = false;
      for (int s = 0; s < 6; ++s)
        if (side_bc[s] == bc)
          offset[s] = total, total += side_size(s), used = true;
      if (used)
        fn(bc, offset, total);
    }
  }

  template <class V> static void append(V &to, const V &from) {
    to.insert(to.end(), from.begin(), from.end());
  }
  static void append_geometry(FaceGeometry &to, const FaceGeometry &from) {
    append(to.centroid, from.centroid);
    append(to.normal, from.normal);
    append(to.tangent, from.tangent);
    append(to.binormal, from.binormal);
  }
};

} // namespace

Mesh make_mesh(const Input &in, std::uint64_t shuffle_seed, int threads) {
  const Box box(in);
  Box::Part all = box.build_in_slabs({0, 0, 0}, {in.nx, in.ny, in.nz}, false, threads);
  Mesh m;
  m.num_cells = in.nx * in.ny * in.nz;
  m.cell_centroid = std::move(all.centroid);
  m.cell_volume = std::move(all.volume);
  m.face_cells = std::move(all.face_cells);
  m.face_slots = std::move(all.face_slots);
  m.faces = std::move(all.faces);
  const std::vector<int> order = box.shuffled_order(shuffle_seed);
  if (!order.empty()) {
    const int nf = m.faces.size();
    Mesh s = m;
    in_chunks(nf, threads, [&](int first, int last) {
      for (int f = first; f < last; ++f) {
        const int g = order[f];
        for (int a = 0; a < 2; ++a) {
          s.face_cells[2 * f + a] = m.face_cells[2 * g + a];
          s.face_slots[2 * f + a] = m.face_slots[2 * g + a];
        }
        for (int d = 0; d < 3; ++d) {
          s.faces.centroid[3 * f + d] = m.faces.centroid[3 * g + d];
          s.faces.normal[3 * f + d] = m.faces.normal[3 * g + d];
          s.faces.tangent[3 * f + d] = m.faces.tangent[3 * g + d];
          s.faces.binormal[3 * f + d] = m.faces.binormal[3 * g + d];
        }
      }
    });
    m = std::move(s);
  }
  box.each_condition([&](Bc bc, const int(&)[6], int) {
    BoundaryFaces b{bc, {}, {}};
    for (int s = 0; s < 6; ++s) {
      if (box.side_bc[s] != bc)
        continue;
      Box::append(b.cell, all.sides[s].cell);
      Box::append_geometry(b.geometry, all.sides[s].geometry);
    }
    m.boundaries.push_back(std::move(b));
  });
  return m;
}

Mesh make_mesh_part(const Input &in, std::uint64_t shuffle_seed, int threads,
                    const std::array<int, 3> &lo, const std::array<int, 3> &hi, bool cell_stencil) {
  const Box box(in);
  Box::Part own = box.build_in_slabs(lo, hi, true, threads, cell_stencil);
  auto part = std::make_shared<MeshPart>();
  part->cells = in.nx * in.ny * in.nz;
  part->faces = int(box.interior_faces());
  part->cell_ids.reserve(own.volume.size());
  for (int i = lo[0]; i < hi[0]; ++i)
    for (int j = lo[1]; j < hi[1]; ++j)
      for (int k = lo[2]; k < hi[2]; ++k)
        part->cell_ids.push_back(box.cell_id(i, j, k));
  if (cell_stencil) {
    // The cells outside the block beside its cells: the block's halo for
    // the stencil (each meets the block across one face).
    for (int c : own.cell_neighbours) {
      const int i = c / (in.ny * in.nz), j = c / in.nz % in.ny, k = c % in.nz;
      if (i < lo[0] || i >= hi[0] || j < lo[1] || j >= hi[1] || k < lo[2] || k >= hi[2])
        part->stencil_halo.push_back(c);
    }
    part->cell_neighbours = std::move(own.cell_neighbours);
    part->cell_face_centroids = std::move(own.cell_face_centroids);
  }
  {
    // Each face's number in the whole mesh: its place after the shuffle.
    std::vector<int> order = box.shuffled_order(shuffle_seed);
    std::vector<int> place;
    if (!order.empty()) {
      place.resize(order.size());
      for (std::size_t f = 0; f < order.size(); ++f)
        place[std::size_t(order[f])] = int(f);
    }
    part->face_ids.reserve(own.face_created.size());
    for (const std::int64_t g : own.face_created)
      part->face_ids.push_back(place.empty() ? int(g) : place[std::size_t(g)]);
  }
  Mesh m;
  m.num_cells = int(part->cell_ids.size());
  m.cell_centroid = std::move(own.centroid);
  m.cell_volume = std::move(own.volume);
  m.face_cells = std::move(own.face_cells);
  m.face_slots = std::move(own.face_slots);
  m.faces = std::move(own.faces);
  box.each_condition([&](Bc bc, const int(&offset)[6], int total) {
    BoundaryFaces b{bc, {}, {}};
    std::vector<int> ids;
    for (int s = 0; s < 6; ++s) {
      if (box.side_bc[s] != bc)
        continue;
      Box::append(b.cell, own.sides[s].cell);
      Box::append_geometry(b.geometry, own.sides[s].geometry);
      for (int i : own.sides[s].index)
        ids.push_back(offset[s] + i);
    }
    m.boundaries.push_back(std::move(b));
    part->boundary_ids.push_back(std::move(ids));
    part->boundary_sizes.push_back(total);
  });
  m.part = std::move(part);
  return m;
}

std::array<double, 3> mesh_node(const Input &in, int i, int j, int k) {
  return Box(in).node(i, j, k);
}

} // namespace miniaero
