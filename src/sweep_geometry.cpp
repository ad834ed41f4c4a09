// The sweep schedule's inputs checked and made ready (sweep_tables.hpp): a
// mesh or direction set that is wrong is an Error naming the cell, slot or
// direction and the value, before any graph is built.
#include "sweep_tables.hpp"

#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>

#include <climits>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace umesh::detail {

namespace {

double norm3(const double *v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

std::string vec_text(const double *v) {
  std::ostringstream os;
  os.precision(6);
  os << "(" << v[0] << ", " << v[1] << ", " << v[2] << ")";
  return os.str();
}

void check_directions(const std::vector<double> &dirs) {
  if (dirs.empty())
    fail("sweep plan: no directions (a sweep needs at least one unit vector)");
  if (dirs.size() % 3 != 0)
    fail("sweep plan: ", dirs.size(), " direction components, not three per direction");
  if (dirs.size() / 3 > 65535)
    fail("sweep plan: ", dirs.size() / 3, " directions; at most 65535");
  for (std::size_t d = 0; d < dirs.size() / 3; ++d) {
    const double *v = &dirs[d * 3];
    const double len = norm3(v);
    if (!std::isfinite(len))
      fail("sweep plan: direction ", d, " ", vec_text(v), " is not finite");
    if (len < 1e-12)
      fail("sweep plan: direction ", d, " ", vec_text(v), " has length ", len,
           ": directions are unit vectors");
    if (std::abs(len - 1) > 1e-6)
      fail("sweep plan: direction ", d, " ", vec_text(v), " has length ", len,
           ", not 1: directions are unit vectors");
  }
}

// Every neighbour in range and not the cell itself; every used slot's
// normal finite and not zero (relative to the cell's largest).
void check_cells(const SweepMesh &m) {
  const int n = m.cells.size(), f = m.faces_per_cell;
  for (int c = 0; c < n; ++c) {
    double largest = 0;
    for (int s = 0; s < f; ++s) {
      const std::size_t at = std::size_t(c) * f + s;
      const int nb = m.neighbours[at];
      if (nb == sweep_no_face)
        continue;
      if (nb < sweep_boundary || nb >= n)
        fail("sweep mesh: cell ", c, " slot ", s, " names neighbour ", nb, ", outside set '",
             m.cells.name(), "' of ", n, " (or sweep_boundary -1, sweep_no_face -2)");
      if (nb == c)
        fail("sweep mesh: cell ", c, " slot ", s, " names the cell itself as its neighbour");
      const double len = norm3(&m.normals[at * 3]);
      if (!std::isfinite(len))
        fail("sweep mesh: cell ", c, " slot ", s, ": normal ", vec_text(&m.normals[at * 3]),
             " is not finite");
      largest = std::max(largest, len);
    }
    for (int s = 0; s < f; ++s) {
      const std::size_t at = std::size_t(c) * f + s;
      if (m.neighbours[at] != sweep_no_face && !(norm3(&m.normals[at * 3]) > 1e-12 * largest))
        fail("sweep mesh: cell ", c, " slot ", s, ": normal ", vec_text(&m.normals[at * 3]),
             " is zero (a face of no area, or a normal not given)");
    }
  }
}

// Each face's second side: the slot of the neighbour that names the cell
// back, the nearest to opposite where it names it more than once; its two
// normals made exactly opposite (their mean), so that no rounding makes a
// face an inflow face of both its cells.
void pair_faces(const SweepMesh &m, double tolerance, SweepTables &t) {
  const int f = m.faces_per_cell;
  t.partner.assign(m.neighbours.size(), -1);
  t.normals.assign(m.normals.size(), 0.0);
  for (int c = 0; c < m.cells.size(); ++c)
    for (int s = 0; s < f; ++s) {
      const std::size_t a = std::size_t(c) * f + s;
      const int nb = m.neighbours[a];
      if (nb < 0 || nb < c)
        continue;
      const double *na = &m.normals[a * 3];
      int best = -1;
      double best_gap = 0;
      for (int j = 0; j < f; ++j) {
        const std::size_t b = std::size_t(nb) * f + j;
        if (m.neighbours[b] != c || t.partner[b] >= 0)
          continue;
        const double *nbv = &m.normals[b * 3];
        const double sum[3] = {na[0] + nbv[0], na[1] + nbv[1], na[2] + nbv[2]};
        const double gap = norm3(sum);
        if (best < 0 || gap < best_gap)
          best = j, best_gap = gap;
      }
      if (best < 0)
        fail("sweep mesh: cell ", c, " slot ", s, " names neighbour ", nb, ", but cell ", nb,
             " does not name ", c, " back (in a slot not already paired)");
      const std::size_t b = std::size_t(nb) * f + best;
      const double *nbv = &m.normals[b * 3];
      const double scale = std::max(norm3(na), norm3(nbv));
      if (!(best_gap <= tolerance * scale))
        fail("sweep mesh: the face of cells ", c, " (slot ", s, ") and ", nb, " (slot ", best,
             ") has normals ", vec_text(na), " and ", vec_text(nbv),
             ", which are not opposite: they differ from opposite by ", best_gap / scale,
             " of their length, more than the tolerance ", tolerance);
      t.partner[a] = best;
      t.partner[b] = s;
      for (int k = 0; k < 3; ++k) {
        const double mean = 0.5 * (na[k] - nbv[k]);
        t.normals[a * 3 + k] = mean;
        t.normals[b * 3 + k] = -mean;
      }
    }
  for (int c = 0; c < m.cells.size(); ++c)
    for (int s = 0; s < f; ++s) {
      const std::size_t a = std::size_t(c) * f + s;
      if (m.neighbours[a] >= 0 && t.partner[a] < 0)
        fail("sweep mesh: cell ", c, " slot ", s, " names neighbour ", m.neighbours[a],
             ", but cell ", m.neighbours[a], " does not name ", c,
             " back (in a slot not already paired)");
      if (m.neighbours[a] == sweep_boundary)
        for (int k = 0; k < 3; ++k)
          t.normals[a * 3 + k] = m.normals[a * 3 + k];
    }
}

} // namespace

SweepTables sweep_geometry(const SweepMesh &m, const std::vector<double> &dirs,
                           const SweepOptions &o) {
  if (m.faces_per_cell < 1 || m.faces_per_cell > 8)
    fail("sweep mesh: ", m.faces_per_cell, " faces per cell; a sweep plan takes 1 to 8");
  const std::size_t slots = std::size_t(m.cells.size()) * m.faces_per_cell;
  if (slots > std::size_t(INT_MAX))
    fail("sweep mesh: ", slots, " cell faces; at most ", INT_MAX);
  if (m.neighbours.size() != slots)
    fail("sweep mesh: ", m.neighbours.size(), " neighbours for ", m.cells.size(), " cells of '",
         m.cells.name(), "' with ", m.faces_per_cell, " slots (", slots, " expected)");
  if (m.normals.size() != slots * 3)
    fail("sweep mesh: ", m.normals.size(), " normal components for ", slots,
         " cell faces (three each)");
  if (!(o.normal_tolerance >= 0 && o.normal_tolerance < 1))
    fail("sweep plan: normal tolerance ", o.normal_tolerance, " is outside [0, 1)");
  check_directions(dirs);
  const std::size_t d = dirs.size() / 3;
  if (d * std::size_t(m.cells.size()) > std::size_t(INT_MAX))
    fail("sweep plan: ", d, " directions of ", m.cells.size(), " cells make ",
         d * std::size_t(m.cells.size()), " (cell, direction) pairs; at most ", INT_MAX);
  check_cells(m);
  SweepTables t;
  t.cells = m.cells.size();
  t.faces = m.faces_per_cell;
  t.directions = int(d);
  t.neighbours = m.neighbours;
  t.dirs = dirs;
  pair_faces(m, o.normal_tolerance, t);
  return t;
}

std::uint64_t sweep_fingerprint(const SweepTables &t) {
  std::uint64_t h = 1469598103934665603ull;
  const auto add = [&](const void *p, std::size_t n) {
    const auto *b = static_cast<const unsigned char *>(p);
    for (std::size_t i = 0; i < n; ++i)
      h = (h ^ b[i]) * 1099511628211ull;
  };
  for (int v : {t.cells, t.faces, t.directions})
    add(&v, sizeof v);
  add(t.neighbours.data(), t.neighbours.size() * sizeof(int));
  add(t.normals.data(), t.normals.size() * sizeof(double));
  add(t.dirs.data(), t.dirs.size() * sizeof(double));
  return h;
}

std::string sweep_options_text(const SweepOptions &o) {
  char tol[64];
  std::snprintf(tol, sizeof tol, "%.17g", o.normal_tolerance);
  return std::string("cycles=") + (o.cycles == SweepCycles::lag ? "lag" : "fail") +
         " normal_tolerance=" + tol;
}

void sweep_inflow(const SweepTables &t, int d, std::uint16_t *flags) {
  const double *w = &t.dirs[std::size_t(d) * 3];
  for (int c = 0; c < t.cells; ++c) {
    std::uint16_t bits = 0;
    for (int s = 0; s < t.faces; ++s) {
      const std::size_t at = std::size_t(c) * t.faces + s;
      if (t.neighbours[at] == sweep_no_face)
        continue;
      const double *n = &t.normals[at * 3];
      if (w[0] * n[0] + w[1] * n[1] + w[2] * n[2] < 0)
        bits = std::uint16_t(bits | 1u << s);
    }
    flags[c] = bits;
  }
}

std::string sweep_direction_text(const SweepTables &t, int d) {
  return vec_text(&t.dirs[std::size_t(d) * 3]);
}

void for_each_direction(int directions, const std::function<void(int)> &f) {
  std::vector<std::string> errors(static_cast<std::size_t>(directions));
  Kokkos::parallel_for("umesh::sweep_schedule",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, directions),
                       [&](int d) {
                         try {
                           f(d);
                         } catch (const Error &e) {
                           errors[d] = e.what();
                         } catch (const std::exception &e) {
                           errors[d] = std::string("umesh: ") + e.what();
                         }
                       });
  for (const std::string &e : errors)
    if (!e.empty())
      throw Error(e);
}

void sweep_level_report(const SweepTables &t, int d, SweepDirectionReport &r) {
  const int first = t.dir_levels[d], levels = t.dir_levels[d + 1] - first - 1;
  r.levels = levels;
  r.widest_level = 0;
  for (int l = 0; l < levels; ++l)
    r.widest_level =
        std::max(r.widest_level, t.level_offsets[first + l + 1] - t.level_offsets[first + l]);
  r.lagged_faces = t.lag_offsets[d + 1] - t.lag_offsets[d];
}

} // namespace umesh::detail
