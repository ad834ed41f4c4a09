#include <umesh/renumber.hpp>

#include <umesh/detail/offsets.hpp>
#include <umesh/detail/plan_file.hpp>
#include <umesh/partition.hpp>

#include "thread_ranges.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>

namespace umesh {

namespace detail {

namespace {

// The maps grouped by target set; host_maps numbers targets densely.
struct Targets {
  std::vector<int> of_map;
  std::vector<std::vector<HostConnectivity>> maps;
  std::vector<int> size;
};

Targets group_targets(const std::vector<BlockPlanMap> &maps) {
  Targets t;
  for (const auto &m : maps) {
    const int d = m.conn.target;
    if (d >= int(t.maps.size())) {
      t.maps.resize(d + 1);
      t.size.resize(d + 1, 0);
    }
    t.size[d] = m.conn.target_size;
    t.of_map.push_back(d);
    t.maps[d].push_back(m.conn);
  }
  return t;
}

std::vector<int> invert(const std::vector<int> &order) {
  std::vector<int> new_of_old(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    new_of_old[order[i]] = int(i);
  return new_of_old;
}

// Stable sort of `order` by column `col` of the n x width `key` table
// (values in [0, values)): radix passes of 11 bits over the column gathered
// in order. Each pass is parallel: every thread counts its contiguous share,
// then scatters it after the shares of the threads before it, so the result
// is the stable order on any thread count (plans must not depend on it). The
// single counting sort over all values it replaces took a large share of
// RCM's time at 100M edges on many cores (docs/performance-notes.md).
// `kc` and `kn` are the column's keys in order, scratch of n entries kept by
// the caller across columns.
void stable_sort_by_column(std::vector<int> &order, std::vector<int> &next, std::vector<int> &kc,
                           std::vector<int> &kn, const std::vector<int> &key, int width, int col,
                           int values) {
  const int n = int(order.size());
  if (detail::one_thread()) { // one counting pass over all values: the same order, faster alone
    std::vector<int> count(std::size_t(values) + 1, 0);
    for (int e = 0; e < n; ++e)
      ++count[key[std::size_t(e) * width + col] + 1];
    std::partial_sum(count.begin(), count.end(), count.begin());
    for (int e : order)
      next[count[key[std::size_t(e) * width + col]]++] = e;
    order.swap(next);
    return;
  }
  kc.resize(std::size_t(n));
  kn.resize(std::size_t(n));
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
  for (int i = 0; i < n; ++i)
    kc[i] = key[std::size_t(order[i]) * width + col];
  constexpr int bits = 11, radix = 1 << bits;
  std::vector<std::size_t> start; // [thread][digit]: where the thread's next entry of it goes
  for (int shift = 0; shift == 0 || (shift < 31 && ((values - 1) >> shift) > 0); shift += bits) {
#ifdef _OPENMP
#pragma omp parallel
#endif
    {
      const detail::ThreadRange r = detail::thread_range(n);
#ifdef _OPENMP
#pragma omp single
#endif
      start.assign(std::size_t(r.threads) * radix, 0);
      std::size_t *mine = start.data() + std::size_t(r.thread) * radix;
      for (int i = r.lo; i < r.hi; ++i)
        ++mine[(unsigned(kc[i]) >> shift) & (radix - 1)];
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
      {
        std::size_t at = 0;
        for (int d = 0; d < radix; ++d)
          for (int th = 0; th < r.threads; ++th) {
            const std::size_t c = start[std::size_t(th) * radix + d];
            start[std::size_t(th) * radix + d] = at;
            at += c;
          }
      }
      for (int i = r.lo; i < r.hi; ++i) {
        const std::size_t at = mine[(unsigned(kc[i]) >> shift) & (radix - 1)]++;
        next[at] = order[i];
        kn[at] = kc[i];
      }
    }
    order.swap(next);
    kc.swap(kn);
  }
}

// first_touch: every set but `ordered` numbered in the order the elements,
// taken in `order`, first reach its points (untouched points last, in their
// old order).
void number_by_first_touch(int n, const std::vector<BlockPlanMap> &maps, const Targets &t,
                           int ordered, const std::vector<int> &order, RenumberResult &r) {
  for (std::size_t k = 0; k < t.maps.size(); ++k) {
    if (int(k) == ordered)
      continue;
    std::vector<int> &perm = r.targets[k];
    perm.assign(std::size_t(t.size[k]), -1);
    int next_id = 0;
    for (int i = 0; i < n; ++i)
      for (const auto &m : maps) {
        if (m.conn.target != int(k))
          continue;
        const int a = m.conn.arity;
        for (int s = 0; s < a; ++s) {
          int &p = perm[std::size_t(m.conn.indices[std::size_t(order[i]) * a + s])];
          if (p < 0)
            p = next_id++;
        }
      }
    for (int &p : perm)
      if (p < 0)
        p = next_id++;
  }
}

// gps, rcm: each target set ordered over its point graph, then elements
// sorted lexicographically by their renumbered points (map by map, each
// map's points ascending). With first_touch, only the first map's set is
// ordered so and sorts the elements; the others follow (number_by_first_touch).
void order_by_points(const ReorderOptions &o, int n, const std::vector<BlockPlanMap> &maps,
                     const Targets &t, RenumberResult &r, PhaseClock &clock) {
  const bool touch = o.other_points == OtherPoints::first_touch;
  const int first = t.of_map[0];
  for (std::size_t k = 0; k < t.maps.size(); ++k) {
    if (touch && int(k) != first) {
      r.targets.emplace_back(); // numbered after the elements
      continue;
    }
    clock.start("point graph " + std::to_string(k));
    const Graph g = point_graph(n, t.maps[k]);
    clock.start(std::string(o.method == Reorder::gps ? "GPS (Scotch) " : "RCM ") +
                std::to_string(k));
    r.targets.push_back(o.method == Reorder::gps ? order_gps(g) : order_rcm(g));
  }
  clock.start("element sort");
  // The maps whose points key the sort: every map, or with first_touch
  // those to the first set (the others are numbered after the sort).
  std::vector<std::size_t> keyed;
  int width = 0;
  for (std::size_t m = 0; m < maps.size(); ++m)
    if (!touch || t.of_map[m] == first) {
      keyed.push_back(m);
      width += maps[m].conn.arity;
    }
  std::vector<int> key(std::size_t(n) * width);
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
  for (int e = 0; e < n; ++e) {
    int *k = key.data() + std::size_t(e) * width;
    for (std::size_t m : keyed) {
      const auto &c = maps[m].conn;
      const auto &perm = r.targets[t.of_map[m]];
      for (int s = 0; s < c.arity; ++s)
        k[s] = perm[c.indices[std::size_t(e) * c.arity + s]];
      std::sort(k, k + c.arity);
      k += c.arity;
    }
  }
  // Stable lexicographic order of the keys as stable sorts by one column at
  // a time, last column first (least-significant-digit radix sort): where a
  // comparison sort took about ten times as long at 10M elements.
  std::vector<int> order(n), next(n), kc, kn;
  std::iota(order.begin(), order.end(), 0);
  int col = width;
  for (std::size_t i = keyed.size(); i-- > 0;) {
    const std::size_t m = keyed[i];
    const int values = int(r.targets[t.of_map[m]].size());
    for (int s = maps[m].conn.arity; s-- > 0;)
      stable_sort_by_column(order, next, kc, kn, key, width, --col, values);
  }
  r.elements = invert(order);
  if (touch) {
    clock.start("first-touch numbering");
    number_by_first_touch(n, maps, t, first, order, r);
  }
}

// metis, builtin: blocks, elements in block order (threads sorted by colour
// inside a block, as the plan will run them), then every target set's
// points sorted by the list of blocks that use them: shorter lists first,
// then lexicographically, so points used by the same blocks are adjacent.
void order_by_blocks(const ReorderOptions &o, int n, const std::vector<BlockPlanMap> &maps,
                     const Targets &t, RenumberResult &r, PhaseClock &clock) {
  std::vector<int> part;
  if (o.method == Reorder::metis) {
    clock.start("partition (METIS)");
    part = metis_block_parts(n, maps, o.block_size, o.metis_margin);
  } else {
    clock.start("partition (built-in)");
    part = builtin_block_parts(n, maps, o.block_size);
  }
  clock.start("blocks and thread colours");
  const BlockPlan blocks = build_block_plan(n, maps, o.block_size, part, false);
  if (blocks.num_blocks() >= (1 << 30))
    fail("reorder: ", blocks.num_blocks(), " blocks; at most 2^30 are supported");
  r.elements = invert(blocks.elem);
  r.blocks.resize(n);
  for (int b = 0; b < blocks.num_blocks(); ++b)
    for (int i = blocks.block_start[b]; i < blocks.block_start[b + 1]; ++i)
      r.blocks[i] = b;
  for (std::size_t k = 0; k < t.maps.size(); ++k) {
    clock.start("point renumbering " + std::to_string(k));
    const int np = t.size[k];
    // CSR lists of blocks per point, ascending: one pass over the elements
    // in block order collects (point, block) pairs, a counting sort by point
    // keeps them in block order.
    std::vector<int> stamp(np, -1);
    std::vector<std::pair<int, int>> pairs;
    pairs.reserve(std::size_t(n) * 2);
    for (int b = 0; b < blocks.num_blocks(); ++b)
      for (int i = blocks.block_start[b]; i < blocks.block_start[b + 1]; ++i)
        for (const auto &c : t.maps[k])
          for (int s = 0; s < c.arity; ++s) {
            const int p = c.indices[std::size_t(blocks.elem[i]) * c.arity + s];
            if (stamp[p] != b) {
              stamp[p] = b;
              pairs.emplace_back(p, b);
            }
          }
    // (point, block) pairs: up to elements x arity, so 64-bit offsets.
    std::vector<std::int64_t> off(std::size_t(np) + 1, 0);
    std::vector<int> list(pairs.size());
    for (const auto &pb : pairs)
      ++off[std::size_t(pb.first) + 1];
    detail::counts_to_offsets(off);
    {
      std::vector<std::int64_t> fill(off.begin(), off.end() - 1);
      for (const auto &pb : pairs)
        list[std::size_t(fill[pb.first]++)] = pb.second;
    }
    // Sort (key, point) pairs; the key holds the list length and its first
    // two blocks, so only lists longer than two that tie need the full
    // comparison.
    std::vector<std::pair<std::uint64_t, int>> keyed(np);
    for (int p = 0; p < np; ++p) {
      const int len = int(off[p + 1] - off[p]);
      const std::uint64_t b0 = len > 0 ? std::uint64_t(list[std::size_t(off[p])]) : 0,
                          b1 = len > 1 ? std::uint64_t(list[std::size_t(off[p]) + 1]) : 0;
      keyed[p] = {std::uint64_t(std::min(len, 15)) << 60 | b0 << 30 | b1, p};
    }
    std::sort(keyed.begin(), keyed.end(), [&](const auto &x, const auto &y) {
      if (x.first != y.first)
        return x.first < y.first;
      const int a = x.second, b = y.second;
      const std::int64_t la = off[a + 1] - off[a], lb = off[b + 1] - off[b];
      if (la != lb) // both 15 or more
        return la < lb;
      if (la > 2 &&
          !std::equal(list.begin() + off[a], list.begin() + off[a + 1], list.begin() + off[b]))
        return std::lexicographical_compare(list.begin() + off[a], list.begin() + off[a + 1],
                                            list.begin() + off[b], list.begin() + off[b + 1]);
      return a < b;
    });
    std::vector<int> order(np);
    for (int i = 0; i < np; ++i)
      order[i] = keyed[i].second;
    r.targets.push_back(invert(order));
  }
}

} // namespace

RenumberResult compute_renumbering(const ReorderOptions &o, int n,
                                   const std::vector<BlockPlanMap> &maps,
                                   const std::string &set_name) {
  RenumberResult r;
  const Targets t = group_targets(maps);
  {
    PhaseClock clock(std::string("reorder ") + reorder_name(o.method) + " of '" + set_name + "'",
                     n >= progress_threshold, r.phases);
    switch (o.method) {
    case Reorder::none:
      break;
    case Reorder::gps:
    case Reorder::rcm:
      order_by_points(o, n, maps, t, r, clock);
      break;
    case Reorder::metis:
    case Reorder::builtin:
      order_by_blocks(o, n, maps, t, r, clock);
      break;
    }
  }
  if (o.method == Reorder::none) {
    r.elements.resize(n);
    std::iota(r.elements.begin(), r.elements.end(), 0);
    for (int size : t.size) {
      r.targets.emplace_back(size);
      std::iota(r.targets.back().begin(), r.targets.back().end(), 0);
    }
  }
  return r;
}

namespace {

void write_renumbering(PlanWriter &w, const RenumberResult &r) {
  w.ints({int(r.targets.size()), int(r.phases.size())});
  w.ints(r.elements);
  for (const auto &t : r.targets)
    w.ints(t);
  w.ints(r.blocks);
  for (const auto &p : r.phases) {
    w.text(p.name);
    w.real(p.seconds);
  }
}

RenumberResult read_renumbering(PlanReader &reader, int n, const std::vector<BlockPlanMap> &maps) {
  const Targets t = group_targets(maps);
  RenumberResult r;
  // Each numbering a permutation, checked here to name the file (the
  // Permutations made of them would refuse them too, without saying where
  // they came from).
  const auto permutation = [&](const std::vector<int> &p, const char *what) {
    std::vector<char> seen(p.size(), 0);
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (p[i] < 0 || std::size_t(p[i]) >= p.size() || seen[p[i]])
        fail("plan file '", reader.path(), "': the renumbering of the ", what, " gives ", i,
             " the number ", p[i], ", ",
             p[i] < 0 || std::size_t(p[i]) >= p.size() ? "out of range" : "given twice",
             " (not a permutation of ", p.size(), ")");
      seen[p[i]] = 1;
    }
  };
  const auto head = reader.ints();
  if (head.size() != 2 || head[0] != int(t.maps.size()) || head[1] < 0)
    fail("plan file '", reader.path(), "': corrupted renumbering header");
  r.elements = reader.ints();
  if (int(r.elements.size()) != n)
    fail("plan file '", reader.path(), "': renumbering of ", r.elements.size(),
         " elements, the set has ", n);
  permutation(r.elements, "elements");
  for (std::size_t k = 0; k < t.maps.size(); ++k) {
    r.targets.push_back(reader.ints());
    if (int(r.targets.back().size()) != t.size[k])
      fail("plan file '", reader.path(), "': renumbering of ", r.targets.back().size(),
           " points, the set has ", t.size[k]);
    permutation(r.targets.back(), "points");
  }
  r.blocks = reader.ints();
  if (!r.blocks.empty() && int(r.blocks.size()) != n)
    fail("plan file '", reader.path(), "': ", r.blocks.size(), " block ids for ", n, " elements");
  // Blocks as order_by_blocks writes them: element i of the new numbering
  // in block blocks[i], the blocks in order from 0, each one contiguous. A
  // file past its checksum is untrusted: an id of 2^31-1 would size the
  // plan's per-part counts by it, a negative one index before them.
  for (std::size_t i = 0; i < r.blocks.size(); ++i) {
    const int b = r.blocks[i];
    if (i == 0 ? b != 0 : b != r.blocks[i - 1] && b != r.blocks[i - 1] + 1)
      fail("plan file '", reader.path(), "': element ", i, " of the renumbering is in block ", b,
           i == 0 ? std::string() : " after block " + std::to_string(r.blocks[i - 1]),
           " (blocks are numbered from 0, in order, each contiguous)");
  }
  for (int i = 0; i < head[1]; ++i) {
    const std::string name = reader.text();
    r.phases.push_back({name, reader.real()});
  }
  reader.finish();
  return r;
}

} // namespace

RenumberResult read_renumbering_file(const std::string &path, int n,
                                     const std::vector<BlockPlanMap> &maps,
                                     const ReorderOptions &options) {
  PlanReader reader(path, "renumbering", fingerprint(n, maps), reorder_options_text(options));
  return read_renumbering(reader, n, maps);
}

void write_renumbering_file(const std::string &path, const RenumberResult &r, int n,
                            const std::vector<BlockPlanMap> &maps, const ReorderOptions &options) {
  PlanWriter writer("renumbering", fingerprint(n, maps), reorder_options_text(options));
  write_renumbering(writer, r);
  writer.save(path);
}

} // namespace detail
} // namespace umesh
