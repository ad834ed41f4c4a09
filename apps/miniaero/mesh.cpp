// miniAero's structured hex mesh in unstructured form (make_mesh in
// problem.hpp): cells, interior faces with their geometry, boundary faces
// per condition, built in slabs of planes on several host threads.
#include "problem.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <numeric>
#include <random>
#include <system_error>
#include <thread>
#include <vector>

namespace miniaero {

namespace {

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

// fn(first, last) over [0, n) cut into up to `threads` pieces, each on a
// thread of its own (the calling thread takes the first). An exception in
// any piece (out of memory) reaches the caller, not std::terminate.
template <class Fn> void in_chunks(int n, int threads, Fn fn) {
  const int pieces = std::max(1, std::min(threads, n));
  auto bound = [&](int t) { return int(std::int64_t(n) * t / pieces); };
  std::vector<std::exception_ptr> failed(pieces);
  auto piece = [&](int t) {
    try {
      fn(bound(t), bound(t + 1));
    } catch (...) {
      failed[t] = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < pieces; ++t) {
    try {
      workers.emplace_back(piece, t);
    } catch (const std::system_error &) { // no thread to be had: this one does it
      piece(t);
    }
  }
  piece(0);
  for (auto &w : workers)
    w.join();
  for (const auto &e : failed)
    if (e)
      std::rethrow_exception(e);
}

} // namespace

void FaceGeometry::append(const Vec (&p)[4]) {
  Vec c{};
  for (const auto &q : p)
    for (int d = 0; d < 3; ++d)
      c[d] += 0.25 * q[d];
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

Mesh make_mesh(const Input &in, std::uint64_t shuffle_seed, int threads) {
  const int nx = in.nx, ny = in.ny, nz = in.nz;
  const double pi = 3.14159265; // miniAero's value, for identical ramp nodes
  auto node = [&](int i, int j, int k) {
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
  };
  auto cell_id = [&](int i, int j, int k) { return (i * ny + j) * nz + k; };

  Mesh m;
  m.num_cells = nx * ny * nz;
  // Sides in miniAero's order (bottom, top, front, back, right, left) and
  // the condition each problem puts there.
  enum Side { bottom, top, front, back, right, left };
  const Bc side_bc[6] = {in.problem == 1 ? Bc::noslip : Bc::tangent,
                         in.problem == 1 ? Bc::extrapolate : Bc::tangent,
                         Bc::tangent,
                         Bc::tangent,
                         Bc::extrapolate,
                         in.problem == 0 ? Bc::extrapolate : Bc::inflow};
  struct SideFaces {
    std::vector<int> cell;
    FaceGeometry geometry;
  };
  // What the cells of planes [i0, i1) create, in cell order: the whole
  // mesh's lists are the planes' lists one after the other, so building
  // slabs of planes on several threads gives the same mesh as one thread.
  struct Slab {
    std::vector<double> centroid, volume;
    std::vector<int> face_cells, face_slots;
    FaceGeometry faces;
    SideFaces sides[6];
  };
  auto build_slab = [&](int i0, int i1, Slab &out) {
    for (int i = i0; i < i1; ++i)
      for (int j = 0; j < ny; ++j)
        for (int k = 0; k < nz; ++k) {
          const int c = cell_id(i, j, k);
          const Vec x[8] = {node(i, j, k),
                            node(i + 1, j, k),
                            node(i + 1, j + 1, k),
                            node(i, j + 1, k),
                            node(i, j, k + 1),
                            node(i + 1, j, k + 1),
                            node(i + 1, j + 1, k + 1),
                            node(i, j + 1, k + 1)};
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
          for (int f = 0; f < 6; ++f) {
            if (nb[f] >= 0 && nb[f] < c)
              continue; // created by the neighbour, which comes first
            const Vec p[4] = {x[kFaceCorners[f][0]], x[kFaceCorners[f][1]], x[kFaceCorners[f][2]],
                              x[kFaceCorners[f][3]]};
            if (nb[f] < 0) {
              SideFaces &side = out.sides[-1 - nb[f]];
              side.cell.push_back(c);
              side.geometry.append(p);
            } else {
              // The neighbour's local number of this face: the opposite one.
              static const int opposite[6] = {2, 3, 0, 1, 5, 4};
              out.face_cells.insert(out.face_cells.end(), {c, nb[f]});
              out.face_slots.insert(out.face_slots.end(), {f, opposite[f]});
              out.faces.append(p);
            }
          }
        }
  };
  const int slabs = std::max(1, std::min(threads, nx));
  std::vector<Slab> slab(slabs);
  in_chunks(slabs, slabs, [&](int first, int last) {
    for (int t = first; t < last; ++t)
      build_slab(int(std::int64_t(nx) * t / slabs), int(std::int64_t(nx) * (t + 1) / slabs),
                 slab[t]);
  });
  auto append = [](auto &to, const auto &from) { to.insert(to.end(), from.begin(), from.end()); };
  auto append_geometry = [&](FaceGeometry &to, const FaceGeometry &from) {
    append(to.centroid, from.centroid);
    append(to.normal, from.normal);
    append(to.tangent, from.tangent);
    append(to.binormal, from.binormal);
  };
  m.cell_centroid.reserve(3 * std::size_t(m.num_cells));
  m.cell_volume.reserve(m.num_cells);
  SideFaces sides[6];
  for (Slab &sl : slab) {
    append(m.cell_centroid, sl.centroid);
    append(m.cell_volume, sl.volume);
    append(m.face_cells, sl.face_cells);
    append(m.face_slots, sl.face_slots);
    append_geometry(m.faces, sl.faces);
    for (int side = 0; side < 6; ++side) {
      append(sides[side].cell, sl.sides[side].cell);
      append_geometry(sides[side].geometry, sl.sides[side].geometry);
    }
    sl = Slab{}; // its memory back before the next slab's copy
  }

  if (shuffle_seed != 0) {
    const int nf = m.faces.size();
    std::vector<int> order(nf);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937_64(shuffle_seed));
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

  for (Bc bc : {Bc::extrapolate, Bc::tangent, Bc::inflow, Bc::noslip}) {
    BoundaryFaces b{bc, {}, {}};
    for (int s = 0; s < 6; ++s) {
      if (side_bc[s] != bc)
        continue;
      append(b.cell, sides[s].cell);
      append_geometry(b.geometry, sides[s].geometry);
    }
    if (!b.cell.empty())
      m.boundaries.push_back(std::move(b));
  }
  return m;
}

} // namespace miniaero
