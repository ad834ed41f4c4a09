#include <umesh/block_plan.hpp>
#include <umesh/error.hpp>

#include <umesh/partition.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <sstream>

namespace umesh {

namespace {

// Written points of element e in one index space over all written maps.
template <class F>
void for_written_points(const std::vector<BlockPlanMap> &maps, const std::vector<int> &base, int e,
                        F &&f) {
  for (std::size_t m = 0; m < maps.size(); ++m) {
    if (!maps[m].written)
      continue;
    const auto &c = maps[m].conn;
    for (int s = 0; s < c.arity; ++s)
      f(base[m] + c.indices[std::size_t(e) * c.arity + s]);
  }
}

} // namespace

BlockPlan build_block_plan(int n, const std::vector<BlockPlanMap> &maps, int block_size,
                           const std::vector<int> &part, bool stage) {
  const auto t0 = std::chrono::steady_clock::now();
  if (block_size < 1)
    detail::fail("hierarchical plan: block size ", block_size, " (must be >= 1)");
  if (!part.empty() && int(part.size()) != n)
    detail::fail("hierarchical plan: ", part.size(), " part ids for ", n, " elements");
  BlockPlan plan;
  plan.block_size = block_size;
  detail::PhaseClock clock("hierarchical plan", n >= detail::progress_threshold, plan.phases);
  clock.start("blocks");

  // Elements in block order: contiguous chunks, or parts (stable by element)
  // cut into chunks of at most block_size; empty parts vanish.
  std::vector<int> seq(n);
  std::vector<int> starts{0};
  if (part.empty()) {
    for (int e = 0; e < n; ++e)
      seq[e] = e;
    for (int b = block_size; b < n; b += block_size)
      starts.push_back(b);
  } else {
    const int nparts = n ? *std::max_element(part.begin(), part.end()) + 1 : 0;
    std::vector<int> count(std::size_t(nparts) + 1, 0);
    for (int p : part) {
      if (p < 0)
        detail::fail("hierarchical plan: negative part id ", p);
      ++count[p + 1];
    }
    for (int p = 0; p < nparts; ++p)
      count[p + 1] += count[p];
    std::vector<int> fill(count.begin(), count.end() - 1);
    for (int e = 0; e < n; ++e)
      seq[fill[part[e]]++] = e;
    for (int p = 0; p < nparts; ++p)
      for (int b = count[p]; b < count[p + 1]; b += block_size)
        if (b > 0)
          starts.push_back(b);
  }
  if (n == 0)
    starts.clear();
  starts.push_back(n);
  const int nblocks = int(starts.size()) - 1;

  // Written points of all maps in one index space; maps to one set share it.
  std::vector<HostConnectivity> conn;
  for (const auto &m : maps)
    conn.push_back(m.conn);
  int total_points = 0;
  const std::vector<int> base = point_bases(conn, total_points);

  // Block colouring over the union of the points each block writes.
  clock.start("block colouring");
  std::vector<int> boff(nblocks + 1, 0), bpts;
  {
    std::vector<int> stamp(stage ? total_points : 0, -1);
    for (int b = 0; b < nblocks && stage; ++b) {
      for (int j = starts[b]; j < starts[b + 1]; ++j)
        for_written_points(maps, base, seq[j], [&](int p) {
          if (stamp[p] != b) {
            stamp[p] = b;
            bpts.push_back(p);
          }
        });
      boff[b + 1] = int(bpts.size());
    }
  }
  // Without `stage` (a renumbering that only needs the element order), one
  // block colour stands in.
  const Colouring bc = stage ? colour_items(nblocks, boff, bpts, total_points, true)
                             : Colouring{std::vector<int>(nblocks, 0), {nblocks}};
  plan.block_colour = bc.colour;
  plan.block_colour_offsets.assign(bc.num_colours() + 1, 0);
  for (int c = 0; c < bc.num_colours(); ++c)
    plan.block_colour_offsets[c + 1] = plan.block_colour_offsets[c] + bc.colour_sizes[c];
  plan.block_order.resize(nblocks);
  {
    std::vector<int> fill(plan.block_colour_offsets.begin(), plan.block_colour_offsets.end() - 1);
    for (int b = 0; b < nblocks; ++b)
      plan.block_order[fill[bc.colour[b]]++] = b;
  }

  // Thread colouring inside each block (smallest free colour), then threads
  // sorted by colour. Points are renumbered locally per block.
  clock.start("thread colouring");
  plan.elem.resize(n);
  plan.thread_colour.resize(n);
  plan.block_start.resize(nblocks + 1);
  plan.thread_colour_offsets.assign(nblocks + 1, 0);
  std::vector<int> local_of(total_points, -1);
  long long colour_sum = 0;
  for (int b = 0; b < nblocks; ++b) {
    const int begin = starts[b], end = starts[b + 1];
    plan.block_start[b] = begin;
    std::vector<int> off{0}, pts, touched;
    for (int j = begin; j < end; ++j) {
      for_written_points(maps, base, seq[j], [&](int p) {
        if (local_of[p] < 0) {
          local_of[p] = int(touched.size());
          touched.push_back(p);
        }
        pts.push_back(local_of[p]);
      });
      off.push_back(int(pts.size()));
    }
    const Colouring tc = colour_items(end - begin, off, pts, int(touched.size()), false);
    for (int p : touched)
      local_of[p] = -1;
    std::vector<int> fill(tc.num_colours() + 1, 0);
    for (int c = 0; c < tc.num_colours(); ++c)
      fill[c + 1] = fill[c] + tc.colour_sizes[c];
    plan.thread_colour_offsets[b] = int(plan.colour_start.size());
    for (int c = 0; c <= tc.num_colours(); ++c)
      plan.colour_start.push_back(begin + fill[c]);
    for (int j = begin; j < end; ++j) {
      const int c = tc.colour[j - begin];
      const int i = begin + fill[c]++;
      plan.elem[i] = seq[j];
      plan.thread_colour[i] = c;
    }
    colour_sum += tc.num_colours();
    plan.max_thread_colours = std::max(plan.max_thread_colours, tc.num_colours());
  }
  plan.block_start[nblocks] = n;
  plan.thread_colour_offsets[nblocks] = int(plan.colour_start.size());
  plan.mean_thread_colours = nblocks ? double(colour_sum) / nblocks : 0;

  // Staged points and local maps, per map. A block's list holds first the
  // points no other (block, written map) list holds -- its own, which a
  // one-launch writeback adds without atomics -- then the shared ones, each
  // part ascending.
  clock.start("staging lists");
  long long accesses = 0, staged_total = 0, lines_total = 0;
  std::vector<int> lists_holding(stage ? total_points : 0, 0);
  for (std::size_t m = 0; m < maps.size() && stage; ++m) {
    BlockPlan::Staged st;
    st.arity = maps[m].conn.arity;
    st.point_offsets.assign(nblocks + 1, 0);
    std::vector<char> seen(maps[m].conn.target_size, 0);
    for (int b = 0; b < nblocks; ++b) {
      const int first = int(st.points.size());
      for (int i = plan.block_start[b]; i < plan.block_start[b + 1]; ++i)
        for (int s = 0; s < st.arity; ++s) {
          const int p = maps[m].conn.indices[std::size_t(plan.elem[i]) * st.arity + s];
          if (!seen[p]) {
            seen[p] = 1;
            st.points.push_back(p);
          }
        }
      std::sort(st.points.begin() + first, st.points.end());
      int prev_line = -1;
      for (int j = first; j < int(st.points.size()); ++j) {
        const int p = st.points[j];
        seen[p] = 0;
        if (maps[m].written)
          ++lists_holding[base[m] + p];
        lines_total += p / 4 != prev_line;
        prev_line = p / 4;
      }
      st.point_offsets[b + 1] = int(st.points.size());
      st.max_points = std::max(st.max_points, int(st.points.size()) - first);
    }
    plan.staged.push_back(std::move(st));
  }
  for (std::size_t m = 0; m < plan.staged.size(); ++m) {
    auto &st = plan.staged[m];
    const auto &c = maps[m].conn;
    st.owned.assign(nblocks, 0);
    st.local.resize(std::size_t(n) * st.arity);
    std::vector<int> local(c.target_size, -1);
    for (int b = 0; b < nblocks; ++b) {
      const auto first = st.points.begin() + st.point_offsets[b];
      const auto last = st.points.begin() + st.point_offsets[b + 1];
      // Read-only maps are never written back: their points count as owned.
      const auto shared = std::stable_partition(
          first, last, [&](int p) { return !maps[m].written || lists_holding[base[m] + p] == 1; });
      st.owned[b] = int(shared - first);
      for (auto it = first; it != last; ++it)
        local[*it] = int(it - first);
      for (int i = plan.block_start[b]; i < plan.block_start[b + 1]; ++i)
        for (int s = 0; s < st.arity; ++s)
          st.local[std::size_t(i) * st.arity + s] =
              local[c.indices[std::size_t(plan.elem[i]) * st.arity + s]];
      for (auto it = first; it != last; ++it)
        local[*it] = -1;
    }
    accesses += std::int64_t(n) * st.arity;
    staged_total += std::int64_t(st.points.size());
  }
  plan.reuse = staged_total ? double(accesses) / staged_total : 0;
  plan.mean_staged_points = nblocks ? double(staged_total) / nblocks : 0;
  plan.mean_cache_lines = nblocks ? double(lines_total) / nblocks : 0;
  clock.stop();
  plan.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return plan;
}

std::vector<int> metis_block_parts(int n, const std::vector<BlockPlanMap> &maps, int block_size,
                                   double margin) {
  if (!(margin >= 0 && margin < 0.9))
    detail::fail("METIS blocks: margin ", margin, " (must be in [0, 0.9))");
  if (n == 0)
    return {};
  std::vector<HostConnectivity> conn;
  for (const auto &m : maps)
    conn.push_back({m.conn.indices, m.conn.arity, 0, m.conn.target_size});
  const double target = std::max(1.0, std::floor(block_size * (1 - margin)));
  const int parts = std::max(1, int(std::ceil(n / target)));
  return partition_kway(element_graph(n, conn), parts, 1.0 / (1 - margin));
}

std::vector<int> builtin_block_parts(int n, const std::vector<BlockPlanMap> &maps, int block_size) {
  // Grown over the written maps: as good as over all maps on the meshes we
  // measured (res_calc: reuse 3.456 against 3.462) at half the time. Plans
  // that only read fall back to all maps.
  std::vector<HostConnectivity> conn;
  for (const auto &m : maps)
    if (m.written)
      conn.push_back(m.conn);
  if (conn.empty())
    for (const auto &m : maps)
      conn.push_back(m.conn);
  return grow_block_parts(n, conn, block_size);
}

std::string summary(const BlockPlan &p) {
  std::ostringstream os;
  os << "block size " << p.block_size << ", " << p.num_blocks() << " " << p.blocks_from
     << " blocks, " << p.num_block_colours() << " block colours, thread colours mean "
     << p.mean_thread_colours << " max " << p.max_thread_colours << ", reuse " << p.reuse
     << ", staged points/block " << p.mean_staged_points << ", 32B lines/block "
     << p.mean_cache_lines << ", planned in " << p.build_seconds << " s (" << format(p.phases)
     << ")";
  return os.str();
}

} // namespace umesh
