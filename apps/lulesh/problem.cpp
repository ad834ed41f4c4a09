#include "problem.hpp"

#include "common/chunks.hpp"

#include <umesh/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>

namespace lulesh {

namespace {

// Largest -s: [elem][8] indices stay below 2^31.
constexpr int kMaxSize = 600;

// Sum of the region weights (i+1)^balance, as a double so that a too large
// -b is seen rather than overflowing.
double weight_sum(int regions, int balance) {
  double s = 0;
  for (int i = 0; i < regions; ++i)
    s += std::pow(double(i + 1), double(balance));
  return s;
}

// LULESH's region sizes: runs of consecutive elements of one region, never
// the same region twice in a row, run lengths drawn from a fixed table of
// ranges, regions chosen with probability proportional to (i+1)^balance.
// fn(first, end, region) for each run over [0, num_elems), in order.
template <class Fn> void region_runs(const Params &p, int num_elems, Fn fn) {
  if (p.regions == 1) {
    fn(0, num_elems, 0);
    return;
  }
  std::vector<long long> bin_end(p.regions);
  long long total = 0;
  for (int i = 0; i < p.regions; ++i)
    bin_end[i] = total += std::llround(std::pow(double(i + 1), double(p.balance)));
  std::mt19937_64 rng(0);
  // The first bin that ends past x (LULESH scans them in order; a binary
  // search picks the same one, so many regions do not cost a scan a pick).
  auto pick = [&] {
    const long long x = static_cast<long long>(rng() % std::uint64_t(total));
    return int(std::upper_bound(bin_end.begin(), bin_end.end(), x) - bin_end.begin());
  };
  int last = -1;
  for (int next = 0; next < num_elems;) {
    int r = pick();
    while (r == last)
      r = pick();
    const int bin = int(rng() % 1000);
    auto draw = [&](int lo, int n) { return lo + int(rng() % std::uint64_t(n)); };
    const int run = bin < 773   ? draw(1, 15)
                    : bin < 937 ? draw(16, 16)
                    : bin < 970 ? draw(32, 32)
                    : bin < 974 ? draw(64, 64)
                    : bin < 978 ? draw(128, 128)
                    : bin < 981 ? draw(256, 256)
                                : draw(512, 1537);
    const int end = int(std::min<long long>(num_elems, (long long)next + run));
    fn(next, end, r);
    next = end;
    last = r;
  }
}

// Whether m holds a list of elements (make_mesh_elements) rather than a range.
bool holds_ids(const Mesh &m) {
  return m.part && m.elem_lo == m.elem_hi && m.plane_lo == m.plane_hi;
}

// The ids a mesh's arrays hold: its list, or the range [lo, hi).
std::vector<int> held(const Mesh &m, const std::vector<int> &ids, int lo, int hi) {
  if (holds_ids(m))
    return ids;
  std::vector<int> range(std::size_t(hi - lo));
  std::iota(range.begin(), range.end(), lo);
  return range;
}

// m.regions and m.region_reps: each region's elements in [elem_lo,
// elem_hi). The whole sequence is drawn on every rank (a few draws per run
// of elements, no array the size of the mesh), so that every rank keeps the
// regions that are non-empty anywhere, in the same order.
void add_regions(Mesh &m, const Params &p) {
  std::vector<std::vector<int>> lists(p.regions);
  std::vector<char> used(p.regions, 0);
  std::size_t at = 0; // into m.elem_ids (ascending; the runs come in order)
  region_runs(p, m.num_elems, [&](int first, int end, int r) {
    used[r] = 1;
    if (!holds_ids(m))
      for (int e = std::max(first, m.elem_lo); e < std::min(end, m.elem_hi); ++e)
        lists[r].push_back(e);
    for (; at < m.elem_ids.size() && m.elem_ids[at] < end; ++at)
      lists[r].push_back(m.elem_ids[at]);
  });
  for (int r = 0; r < p.regions; ++r) {
    if (!used[r])
      continue;
    // Half the regions cheap, most of the rest 1 + cost, the last ~5%
    // ten times that (LULESH's imbalance model).
    const int reps = r < p.regions / 2                       ? 1
                     : r < p.regions - (p.regions + 15) / 20 ? 1 + p.cost
                                                             : 10 * (1 + p.cost);
    m.regions.push_back(std::move(lists[r]));
    m.region_reps.push_back(reps);
  }
}

// Element `el`'s nodes, its neighbour across each face and its flags, into
// row `at` of m's per-element arrays.
void element_rows(Mesh &m, int el, std::size_t at) {
  const int s = m.size, e = s + 1;
  const int i = el % s, j = el / s % s, k = el / (s * s);
  const int base = (k * e + j) * e + i;
  const int nodes[8] = {base,         base + 1,         base + e + 1,         base + e,
                        base + e * e, base + e * e + 1, base + e * e + e + 1, base + e * e + e};
  for (int c = 0; c < 8; ++c)
    m.elem_nodes[8 * at + c] = nodes[c];
  // Across each face: the neighbour, or at the mesh's faces the element
  // itself (then its flags decide what is read).
  const int nb[6] = {i > 0 ? el - 1 : el,     i < s - 1 ? el + 1 : el, j > 0 ? el - s : el,
                     j < s - 1 ? el + s : el, k > 0 ? el - s * s : el, k < s - 1 ? el + s * s : el};
  for (int f = 0; f < 6; ++f)
    m.neighbours[6 * at + f] = nb[f];
  int bc = 0;
  // Symmetry planes through the origin, free surfaces opposite.
  bc |= i == 0 ? symmetry_flag(xi_minus) : 0;
  bc |= i == s - 1 ? free_flag(xi_plus) : 0;
  bc |= j == 0 ? symmetry_flag(eta_minus) : 0;
  bc |= j == s - 1 ? free_flag(eta_plus) : 0;
  bc |= k == 0 ? symmetry_flag(zeta_minus) : 0;
  bc |= k == s - 1 ? free_flag(zeta_plus) : 0;
  m.elem_bc[at] = bc;
}

// Node `n`'s coordinates and symmetry bits, into row `at` of m's per-node
// arrays.
void node_values(Mesh &m, int n, std::size_t at) {
  const int s = m.size, e = s + 1;
  const int i = n % e, j = n / e % e, k = n / (e * e);
  m.coords[3 * at + 0] = 1.125 * i / s;
  m.coords[3 * at + 1] = 1.125 * j / s;
  m.coords[3 * at + 2] = 1.125 * k / s;
  m.node_symmetry[at] = (i == 0 ? 1 : 0) | (j == 0 ? 2 : 0) | (k == 0 ? 4 : 0);
}

// The lowest-numbered element that reaches node `n` (the one below, behind
// and left of it where there is one): its owner owns the node.
int lowest_element(int s, int n) {
  const int e = s + 1;
  const int i = n % e, j = n / e % e, k = n / (e * e);
  return (std::max(k - 1, 0) * s + std::max(j - 1, 0)) * s + std::max(i - 1, 0);
}

// The elements of z-planes [m.plane_lo, m.plane_hi) and the nodes [node_lo,
// node_hi) (whole node planes), each in slabs of planes on up to `threads`
// threads; indices global.
void build(Mesh &m, const Params &p, int threads) {
  const int s = m.size, e = s + 1;
  const std::size_t plane = std::size_t(s) * s, node_plane = std::size_t(e) * e;
  const int nk_lo = int(m.node_lo / node_plane), nk_hi = int(m.node_hi / node_plane);
  m.coords.resize(3 * std::size_t(m.node_hi - m.node_lo));
  m.node_symmetry.resize(std::size_t(m.node_hi - m.node_lo));
  umesh::apps::in_chunks(nk_hi - nk_lo, threads, [&](int first, int last) {
    for (int k = nk_lo + first; k < nk_lo + last; ++k)
      for (int j = 0; j < e; ++j)
        for (int i = 0; i < e; ++i) {
          const int n = (k * e + j) * e + i;
          node_values(m, n, std::size_t(n - m.node_lo));
        }
  });
  const std::size_t elems = std::size_t(m.elem_hi - m.elem_lo);
  m.elem_nodes.resize(8 * elems);
  m.neighbours.resize(6 * elems);
  m.elem_bc.assign(elems, 0);
  umesh::apps::in_chunks(m.plane_hi - m.plane_lo, threads, [&](int first, int last) {
    for (int k = m.plane_lo + first; k < m.plane_lo + last; ++k)
      for (int j = 0; j < s; ++j)
        for (int i = 0; i < s; ++i) {
          const int el = (k * s + j) * s + i;
          element_rows(m, el, std::size_t(el) - std::size_t(m.plane_lo) * plane);
        }
  });
  add_regions(m, p);
}

// The sizes of a mesh of -s `s`, holding nothing yet.
Mesh sized(int s) {
  Mesh m;
  m.size = s;
  m.num_elems = s * s * s;
  m.num_nodes = (s + 1) * (s + 1) * (s + 1);
  return m;
}

} // namespace

std::string params_problem(const Params &p) {
  if (p.size < 1 || p.size > kMaxSize)
    return "-s: " + std::to_string(p.size) + " elements per side; 1 to " +
           std::to_string(kMaxSize) + " are supported";
  if (p.iterations < 0)
    return "-i: " + std::to_string(p.iterations) + " iterations; give 0 or more";
  if (p.regions < 1)
    return "-r: " + std::to_string(p.regions) + " regions; give 1 or more";
  // More regions than elements leaves regions empty, and the region table
  // grows with -r, not the mesh: -r 200000000 took gigabytes for nothing.
  // LULESH's default of 11 stays valid on the smallest meshes.
  if (const long long elems = (long long)p.size * p.size * p.size;
      p.regions > elems && p.regions > Params{}.regions)
    return "-r: " + std::to_string(p.regions) + " regions for " + std::to_string(elems) +
           " elements (-s " + std::to_string(p.size) + "); at most one region per element (or " +
           std::to_string(Params{}.regions) + ", the default)";
  if (p.balance < 0)
    return "-b: balance " + std::to_string(p.balance) + "; give 0 or more";
  if (p.cost < 0)
    return "-c: cost " + std::to_string(p.cost) + "; give 0 or more";
  if (weight_sum(p.regions, p.balance) > 1e15)
    return "-b: balance " + std::to_string(p.balance) + " with " + std::to_string(p.regions) +
           " regions gives region weights too large to draw from";
  if (10.0 * (1.0 + p.cost) > 1e6)
    return "-c: cost " + std::to_string(p.cost) + " is too large (at most 99999)";
  return {};
}

Mesh make_mesh(const Params &p, int threads) {
  Mesh m = sized(p.size);
  m.elem_hi = m.num_elems;
  m.node_hi = m.num_nodes;
  m.plane_hi = p.size;
  build(m, p, threads);
  return m;
}

void slab_planes(int size, int rank, int ranks, int &lo, int &hi) {
  if (ranks > size)
    throw umesh::Error("--partition slabs: " + std::to_string(ranks) + " ranks cannot share the " +
                       std::to_string(size) + " z-planes of elements of -s " +
                       std::to_string(size) + " (at least one plane each); use at most " +
                       std::to_string(size) + " ranks, a larger -s, or --partition metis");
  lo = int(std::int64_t(size) * rank / ranks);
  hi = int(std::int64_t(size) * (rank + 1) / ranks);
}

Mesh make_mesh_part(const Params &p, int rank, int ranks, int threads) {
  Mesh m = sized(p.size);
  m.part = true;
  slab_planes(p.size, rank, ranks, m.plane_lo, m.plane_hi);
  const int s = p.size, node_plane = (s + 1) * (s + 1);
  m.elem_lo = m.plane_lo * s * s;
  m.elem_hi = m.plane_hi * s * s;
  // A node's lowest-numbered element lies in element plane max(k - 1, 0)
  // of its node plane k: its owner under the dealing from global data.
  m.node_lo = m.plane_lo == 0 ? 0 : (m.plane_lo + 1) * node_plane;
  m.node_hi = (m.plane_hi + 1) * node_plane;
  build(m, p, threads);
  return m;
}

Mesh make_mesh_elements(const Params &p, std::vector<int> elem_ids, int threads) {
  Mesh m = sized(p.size);
  m.part = true;
  std::sort(elem_ids.begin(), elem_ids.end());
  elem_ids.erase(std::unique(elem_ids.begin(), elem_ids.end()), elem_ids.end());
  if (!elem_ids.empty() && (elem_ids.front() < 0 || elem_ids.back() >= m.num_elems))
    throw umesh::Error("LULESH: element " +
                       std::to_string(elem_ids.front() < 0 ? elem_ids.front() : elem_ids.back()) +
                       " is not in the mesh of " + std::to_string(m.num_elems) + " elements");
  m.elem_ids = std::move(elem_ids);
  const std::size_t elems = m.elem_ids.size();
  m.elem_nodes.resize(8 * elems);
  m.neighbours.resize(6 * elems);
  m.elem_bc.assign(elems, 0);
  umesh::apps::in_chunks(int(elems), threads, [&](int first, int last) {
    for (int r = first; r < last; ++r)
      element_rows(m, m.elem_ids[std::size_t(r)], std::size_t(r));
  });
  // The nodes whose lowest element is one of these: each met once, from it.
  for (std::size_t r = 0; r < elems; ++r)
    for (int c = 0; c < 8; ++c) {
      const int n = m.elem_nodes[8 * r + c];
      if (lowest_element(m.size, n) == m.elem_ids[r])
        m.node_ids.push_back(n);
    }
  std::sort(m.node_ids.begin(), m.node_ids.end());
  m.coords.resize(3 * m.node_ids.size());
  m.node_symmetry.resize(m.node_ids.size());
  for (std::size_t r = 0; r < m.node_ids.size(); ++r)
    node_values(m, m.node_ids[r], r);
  add_regions(m, p);
  return m;
}

umesh::Graph element_graph_rows(int size, int first, int last) {
  const int s = size;
  umesh::Graph g;
  g.offsets.reserve(std::size_t(last - first) + 1);
  g.offsets.push_back(0);
  g.adjacency.reserve(26 * std::size_t(last - first));
  for (int el = first; el < last; ++el) {
    const int i = el % s, j = el / s % s, k = el / (s * s);
    // (ascending: k, then j, then i, as the ids run)
    for (int kk = std::max(k - 1, 0); kk <= std::min(k + 1, s - 1); ++kk)
      for (int jj = std::max(j - 1, 0); jj <= std::min(j + 1, s - 1); ++jj)
        for (int ii = std::max(i - 1, 0); ii <= std::min(i + 1, s - 1); ++ii)
          if (kk != k || jj != j || ii != i)
            g.adjacency.push_back((kk * s + jj) * s + ii);
    g.offsets.push_back(std::int64_t(g.adjacency.size()));
  }
  return g;
}

std::vector<int> element_ids(const Mesh &m) {
  return held(m, m.elem_ids, m.elem_lo, m.elem_hi);
}

std::vector<int> node_ids(const Mesh &m) {
  return held(m, m.node_ids, m.node_lo, m.node_hi);
}

int element_row(const Mesh &m, int e) {
  if (!holds_ids(m))
    return e >= m.elem_lo && e < m.elem_hi ? e - m.elem_lo : -1;
  const auto at = std::lower_bound(m.elem_ids.begin(), m.elem_ids.end(), e);
  return at != m.elem_ids.end() && *at == e ? int(at - m.elem_ids.begin()) : -1;
}

std::string slab_summary(const Mesh &m) {
  if (holds_ids(m))
    return "part: " + std::to_string(m.elem_ids.size()) + " elements, " +
           std::to_string(m.node_ids.size()) + " owned nodes; built";
  return "slab: z-planes " + std::to_string(m.plane_lo) + " to " + std::to_string(m.plane_hi - 1) +
         " of " + std::to_string(m.size) + ", " + std::to_string(m.elem_hi - m.elem_lo) +
         " elements, " + std::to_string(m.node_hi - m.node_lo) + " owned nodes; built";
}

double initial_energy(int size) {
  // 3.948746e7 is right for 45 elements per side; scaled by the volume.
  const double scale = size / 45.0;
  return 3.948746e7 * scale * scale * scale;
}

void advance(Clock &c) {
  double target = c.stoptime - c.time;
  if (c.dtfixed <= 0.0 && c.cycle != 0) {
    const double old = c.deltatime;
    double next = 1.0e20;
    if (c.dtcourant < next)
      next = c.dtcourant / 2.0;
    if (c.dthydro < next)
      next = c.dthydro * 2.0 / 3.0;
    const double ratio = next / old;
    if (ratio >= 1.0) {
      if (ratio < c.multlb)
        next = old;
      else if (ratio > c.multub)
        next = old * c.multub;
    }
    c.deltatime = next > c.dtmax ? c.dtmax : next;
  }
  // Avoid a very small last step: split the remainder when it is between
  // one and 4/3 steps.
  if (target > c.deltatime && target < 4.0 * c.deltatime / 3.0)
    target = 2.0 * c.deltatime / 3.0;
  if (target < c.deltatime)
    c.deltatime = target;
  c.time += c.deltatime;
  ++c.cycle;
}

} // namespace lulesh
