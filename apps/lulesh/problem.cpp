#include "problem.hpp"

#include <algorithm>
#include <cmath>
#include <random>

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
std::vector<int> region_of_elements(const Params &p, int num_elems) {
  std::vector<int> region(num_elems, 0);
  if (p.regions == 1)
    return region;
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
    for (int end = std::min(num_elems, next + run); next < end; ++next)
      region[next] = r;
    last = r;
  }
  return region;
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

Mesh make_mesh(const Params &p) {
  Mesh m;
  const int s = p.size, e = s + 1;
  m.size = s;
  m.num_elems = s * s * s;
  m.num_nodes = e * e * e;
  m.coords.resize(3 * std::size_t(m.num_nodes));
  m.node_symmetry.resize(m.num_nodes);
  for (int k = 0; k < e; ++k)
    for (int j = 0; j < e; ++j)
      for (int i = 0; i < e; ++i) {
        const std::size_t n = (std::size_t(k) * e + j) * e + i;
        m.coords[3 * n + 0] = 1.125 * i / s;
        m.coords[3 * n + 1] = 1.125 * j / s;
        m.coords[3 * n + 2] = 1.125 * k / s;
        m.node_symmetry[n] = (i == 0 ? 1 : 0) | (j == 0 ? 2 : 0) | (k == 0 ? 4 : 0);
      }
  m.elem_nodes.resize(8 * std::size_t(m.num_elems));
  m.neighbours.resize(6 * std::size_t(m.num_elems));
  m.elem_bc.assign(m.num_elems, 0);
  for (int k = 0; k < s; ++k)
    for (int j = 0; j < s; ++j)
      for (int i = 0; i < s; ++i) {
        const int el = (k * s + j) * s + i;
        const int base = (k * e + j) * e + i;
        const int nodes[8] = {
            base,         base + 1,         base + e + 1,         base + e,
            base + e * e, base + e * e + 1, base + e * e + e + 1, base + e * e + e};
        for (int c = 0; c < 8; ++c)
          m.elem_nodes[8 * std::size_t(el) + c] = nodes[c];
        // Across each face: the neighbour, or at the mesh's faces the
        // element itself (then its flags decide what is read).
        const int nb[6] = {i > 0 ? el - 1 : el,     i < s - 1 ? el + 1 : el,
                           j > 0 ? el - s : el,     j < s - 1 ? el + s : el,
                           k > 0 ? el - s * s : el, k < s - 1 ? el + s * s : el};
        for (int f = 0; f < 6; ++f)
          m.neighbours[6 * std::size_t(el) + f] = nb[f];
        int bc = 0;
        // Symmetry planes through the origin, free surfaces opposite.
        bc |= i == 0 ? symmetry_flag(xi_minus) : 0;
        bc |= i == s - 1 ? free_flag(xi_plus) : 0;
        bc |= j == 0 ? symmetry_flag(eta_minus) : 0;
        bc |= j == s - 1 ? free_flag(eta_plus) : 0;
        bc |= k == 0 ? symmetry_flag(zeta_minus) : 0;
        bc |= k == s - 1 ? free_flag(zeta_plus) : 0;
        m.elem_bc[el] = bc;
      }
  const std::vector<int> region = region_of_elements(p, m.num_elems);
  std::vector<std::vector<int>> lists(p.regions);
  for (int el = 0; el < m.num_elems; ++el)
    lists[region[el]].push_back(el);
  for (int r = 0; r < p.regions; ++r) {
    if (lists[r].empty())
      continue;
    // Half the regions cheap, most of the rest 1 + cost, the last ~5%
    // ten times that (LULESH's imbalance model).
    const int reps = r < p.regions / 2                       ? 1
                     : r < p.regions - (p.regions + 15) / 20 ? 1 + p.cost
                                                             : 10 * (1 + p.cost);
    m.regions.push_back(std::move(lists[r]));
    m.region_reps.push_back(reps);
  }
  return m;
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
