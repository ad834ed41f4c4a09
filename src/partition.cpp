#include <umesh/colouring.hpp>
#include <umesh/detail/offsets.hpp>
#include <umesh/error.hpp>
#include <umesh/partition.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>

#ifdef UMESH_HAS_METIS
#include <metis.h>
#endif
#ifdef UMESH_HAS_SCOTCH
#include <scotch.h>
#endif

namespace umesh {

Graph element_graph(int num_elements, const int *indices, int arity, int to_size) {
  return element_graph(num_elements, {{indices, arity, 0, to_size}});
}

namespace {

// CSR graph of `n` vertices from `visit(v, emit)`, which calls emit(w) for
// every candidate neighbour of v, repeats and v itself allowed: both are
// dropped here, each neighbour kept where it first appears. Two passes,
// count then fill, each over the vertices in parallel (OpenMP where built):
// a vertex's distinct neighbours are found in a short list of its own, not
// in a table over all vertices, so threads share nothing.
template <class Visit> Graph csr_graph(int n, Visit &&visit) {
  // f(v, v's distinct neighbours) for every vertex, in parallel, each thread
  // with a list of its own.
  const auto for_vertices = [&](auto &&f) {
#ifdef _OPENMP
#pragma omp parallel
#endif
    {
      std::vector<int> list;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1024)
#endif
      for (int v = 0; v < n; ++v) {
        list.clear();
        visit(v, [&](int w) {
          if (w != v && std::find(list.begin(), list.end(), w) == list.end())
            list.push_back(w);
        });
        f(v, list);
      }
    }
  };
  Graph g;
  g.offsets.assign(std::size_t(n) + 1, 0);
  for_vertices([&](int v, const std::vector<int> &list) {
    g.offsets[std::size_t(v) + 1] = std::int64_t(list.size());
  });
  detail::counts_to_offsets(g.offsets);
  g.adjacency.resize(std::size_t(g.offsets.back()));
  for_vertices([&](int v, const std::vector<int> &list) {
    std::copy(list.begin(), list.end(), g.adjacency.begin() + g.offsets[v]);
  });
  return g;
}

} // namespace

Graph element_graph(int num_elements, const std::vector<HostConnectivity> &maps) {
  std::vector<InverseMap> inv;
  for (const auto &m : maps)
    inv.push_back(invert_map(num_elements, m.indices, m.arity, m.target_size));
  return csr_graph(num_elements, [&](int e, auto &&emit) {
    for (std::size_t m = 0; m < maps.size(); ++m) {
      const int arity = maps[m].arity;
      for (int s = 0; s < arity; ++s) {
        const int p = maps[m].indices[std::size_t(e) * arity + s];
        for (int j = inv[m].offsets[p]; j < inv[m].offsets[p + 1]; ++j)
          emit(inv[m].entries[j] / arity);
      }
    }
  });
}

Graph point_graph(int num_elements, const std::vector<HostConnectivity> &maps) {
  const int np = maps.empty() ? 0 : maps[0].target_size;
  for (const auto &m : maps)
    if (m.target_size != np)
      detail::fail("point_graph: maps to sets of ", np, " and ", m.target_size, " points");
  std::vector<InverseMap> inv;
  for (const auto &m : maps)
    inv.push_back(invert_map(num_elements, m.indices, m.arity, np));
  return csr_graph(np, [&](int p, auto &&emit) {
    for (std::size_t m = 0; m < maps.size(); ++m)
      for (int j = inv[m].offsets[p]; j < inv[m].offsets[p + 1]; ++j) {
        const int e = inv[m].entries[j] / maps[m].arity;
        for (const auto &other : maps)
          for (int s = 0; s < other.arity; ++s)
            emit(other.indices[std::size_t(e) * other.arity + s]);
      }
  });
}

std::vector<int> grow_block_parts(int n, const std::vector<HostConnectivity> &maps,
                                  int block_size) {
  if (block_size < 1)
    detail::fail("built-in partitioner: block size ", block_size, " (must be >= 1)");
  int num_points = 0;
  const std::vector<int> base = point_bases(maps, num_points);
  int max_gain = 0;
  for (const auto &m : maps)
    max_gain += m.arity;
  auto for_points = [&](int e, auto &&f) {
    for (std::size_t m = 0; m < maps.size(); ++m)
      for (int s = 0; s < maps[m].arity; ++s)
        f(base[m] + maps[m].indices[std::size_t(e) * maps[m].arity + s]);
  };
  // Elements of each point (one index space over all maps); 64-bit
  // offsets: elements x arity may pass 2^31.
  std::vector<std::int64_t> pe_off(std::size_t(num_points) + 1, 0);
  std::vector<int> pe;
  for (int e = 0; e < n; ++e)
    for_points(e, [&](int p) { ++pe_off[std::size_t(p) + 1]; });
  detail::counts_to_offsets(pe_off);
  pe.resize(std::size_t(pe_off.back()));
  {
    std::vector<std::int64_t> fill(pe_off.begin(), pe_off.end() - 1);
    for (int e = 0; e < n; ++e)
      for_points(e, [&](int p) {
        if (pe_off[p] == fill[p] || pe[std::size_t(fill[p] - 1)] != e) // a point once an element
          pe[std::size_t(fill[p]++)] = e;
      });
    // Close the gaps repeated points left.
    std::int64_t w = 0;
    for (int p = 0; p < num_points; ++p) {
      const std::int64_t begin = pe_off[p];
      pe_off[p] = w;
      for (std::int64_t j = begin; j < fill[p]; ++j)
        pe[std::size_t(w++)] = pe[std::size_t(j)];
    }
    pe_off[num_points] = w;
    pe.resize(std::size_t(w));
  }

  // Per-element state in one record: one cache miss per neighbour visited
  // on meshes in random order.
  struct State {
    int part = -1, touched = -1, gain = 0;
  };
  std::vector<State> st(n);
  std::vector<int> point_in(num_points, -1);
  // Frontier buckets by gain; FIFO inside a bucket (first reached first).
  std::vector<std::vector<int>> bucket(max_gain + 1);
  std::vector<std::size_t> head(max_gain + 1, 0);
  std::vector<int> seeds, frontier; // seeds: left on earlier frontiers, oldest first
  std::size_t seed_head = 0;
  int scan = 0, nparts = 0, assigned = 0;
  while (assigned < n) {
    const int b = nparts++;
    for (auto &v : bucket)
      v.clear();
    std::fill(head.begin(), head.end(), 0);
    frontier.clear();
    int size = 0;
    auto take = [&](int e) {
      st[e].part = b;
      ++size;
      ++assigned;
      for_points(e, [&](int p) {
        if (point_in[p] == b)
          return;
        point_in[p] = b;
        for (std::int64_t j = pe_off[p]; j < pe_off[p + 1]; ++j) {
          const int f = pe[std::size_t(j)];
          State &s = st[f];
          if (s.part >= 0)
            continue;
          if (s.touched != b) {
            s.touched = b;
            s.gain = 0;
            frontier.push_back(f);
          }
          ++s.gain;
          bucket[std::min(s.gain, max_gain)].push_back(f);
        }
      });
    };
    auto next_seed = [&]() {
      while (seed_head < seeds.size())
        if (st[seeds[seed_head++]].part < 0)
          return seeds[seed_head - 1];
      while (st[scan].part >= 0)
        ++scan;
      return scan;
    };
    while (size < block_size && assigned < n) {
      int pick = -1;
      for (int g = max_gain; g >= 1 && pick < 0; --g)
        while (head[g] < bucket[g].size()) {
          const int f = bucket[g][head[g]++];
          if (st[f].part < 0 && std::min(st[f].gain, max_gain) == g) {
            pick = f;
            break;
          }
        }
      take(pick >= 0 ? pick : next_seed());
    }
    for (int f : frontier)
      if (st[f].part < 0)
        seeds.push_back(f);
    if (seed_head > seeds.size() / 2 && seed_head > 4096) { // keep the queue small
      seeds.erase(seeds.begin(), seeds.begin() + std::ptrdiff_t(seed_head));
      seed_head = 0;
    }
  }
  std::vector<int> part(n);
  for (int e = 0; e < n; ++e)
    part[e] = st[e].part;
  return part;
}

namespace {

// The graph's adjacency count, checked against a library's index type
// before anything is copied into it, and that the offsets span the
// adjacency.
[[maybe_unused]] void check_graph(const Graph &graph, std::int64_t limit, const char *who,
                                  const std::string &table, const char *remedy) {
  if (graph.offsets.empty())
    return;
  const std::int64_t entries = graph.offsets.back();
  detail::check_fits(entries, limit, std::string(who) + ": the graph's adjacency", table, remedy);
  if (graph.offsets[0] != 0 || std::size_t(entries) != graph.adjacency.size())
    detail::fail(who, ": the graph's offsets (first ", graph.offsets[0], ", last ", entries,
                 ") do not span its adjacency of ", graph.adjacency.size(), " entries");
}

} // namespace

std::vector<int> partition_kway(const Graph &graph, int parts, double imbalance) {
#ifdef UMESH_HAS_METIS
  if (parts < 1)
    detail::fail("partition_kway: ", parts, " parts (must be >= 1)");
  check_graph(graph, std::numeric_limits<idx_t>::max(), "partition_kway",
              "METIS's idx_t (IDXTYPEWIDTH " + std::to_string(IDXTYPEWIDTH) + " in this build)",
              "partition with the built-in partitioner (Partition::builtin, --reorder "
              "builtin), or build umesh against a METIS of 64-bit idx_t");
  idx_t n = graph.num_vertices(), ncon = 1, nparts = parts, objval = 0;
  std::vector<idx_t> part(std::max<idx_t>(n, 1), 0);
  if (n == 0 || parts == 1)
    return std::vector<int>(n, 0);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  real_t ubvec = real_t(imbalance);
  std::vector<idx_t> xadj(graph.offsets.begin(), graph.offsets.end()),
      adj(graph.adjacency.begin(), graph.adjacency.end());
  const int status =
      METIS_PartGraphKway(&n, &ncon, xadj.data(), adj.data(), nullptr, nullptr, nullptr, &nparts,
                          nullptr, &ubvec, options, &objval, part.data());
  if (status != METIS_OK)
    detail::fail("partition_kway: METIS_PartGraphKway failed with status ", status);
  return std::vector<int>(part.begin(), part.begin() + n);
#else
  (void)graph, (void)parts, (void)imbalance;
  detail::fail("partition_kway: umesh was built without METIS (install libmetis-dev and "
               "reconfigure with -DUMESH_ENABLE_METIS=ON)");
#endif
}

std::vector<int> order_gps(const Graph &graph) {
#ifdef UMESH_HAS_SCOTCH
  check_graph(graph, std::numeric_limits<SCOTCH_Num>::max(), "order_gps",
              "Scotch's SCOTCH_Num (" + std::to_string(8 * sizeof(SCOTCH_Num)) +
                  " bits in this build)",
              "renumber with RCM (Reorder::rcm, --reorder rcm), or build umesh against a "
              "Scotch of 64-bit SCOTCH_Num");
  const SCOTCH_Num n = graph.num_vertices();
  if (n == 0)
    return {};
  std::vector<SCOTCH_Num> verttab(graph.offsets.begin(), graph.offsets.end()),
      edgetab(graph.adjacency.begin(), graph.adjacency.end()), permtab(n), peritab(n);
  if (edgetab.empty())
    edgetab.push_back(0); // Scotch wants a valid pointer
  SCOTCH_Graph g;
  SCOTCH_Strat strat;
  if (SCOTCH_graphInit(&g) != 0)
    detail::fail("order_gps: SCOTCH_graphInit failed");
  SCOTCH_stratInit(&strat);
  int status = SCOTCH_graphBuild(&g, 0, n, verttab.data(), verttab.data() + 1, nullptr, nullptr,
                                 SCOTCH_Num(graph.adjacency.size()), edgetab.data(), nullptr);
  if (status == 0)
    status = SCOTCH_stratGraphOrder(&strat, "g");
  if (status == 0)
    status =
        SCOTCH_graphOrder(&g, &strat, permtab.data(), peritab.data(), nullptr, nullptr, nullptr);
  SCOTCH_stratExit(&strat);
  SCOTCH_graphExit(&g);
  if (status != 0)
    detail::fail("order_gps: Scotch ordering failed with status ", status);
  return std::vector<int>(permtab.begin(), permtab.end());
#else
  (void)graph;
  detail::fail("order_gps: umesh was built without Scotch (install libscotch-dev and "
               "reconfigure with -DUMESH_ENABLE_SCOTCH=ON)");
#endif
}

} // namespace umesh
