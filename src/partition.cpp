#include <umesh/colouring.hpp>
#include <umesh/error.hpp>
#include <umesh/partition.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>

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

Graph element_graph(int num_elements, const std::vector<HostConnectivity> &maps) {
  std::vector<InverseMap> inv;
  for (const auto &m : maps)
    inv.push_back(invert_map(num_elements, m.indices, m.arity, m.target_size));
  Graph g;
  g.offsets.assign(std::size_t(num_elements) + 1, 0);
  std::vector<int> mark(num_elements, -1);
  // Two passes: count neighbours, then fill.
  for (int pass = 0; pass < 2; ++pass) {
    std::fill(mark.begin(), mark.end(), -1);
    for (int e = 0; e < num_elements; ++e) {
      int count = 0;
      for (std::size_t m = 0; m < maps.size(); ++m) {
        const int arity = maps[m].arity;
        for (int s = 0; s < arity; ++s) {
          const int p = maps[m].indices[std::size_t(e) * arity + s];
          for (int j = inv[m].offsets[p]; j < inv[m].offsets[p + 1]; ++j) {
            const int f = inv[m].entries[j] / arity;
            if (f == e || mark[f] == e)
              continue;
            mark[f] = e;
            if (pass == 1)
              g.adjacency[g.offsets[e] + count] = f;
            ++count;
          }
        }
      }
      if (pass == 0)
        g.offsets[e + 1] = g.offsets[e] + count;
    }
    if (pass == 0)
      g.adjacency.resize(g.offsets.back());
  }
  return g;
}

std::vector<int> partition_kway(const Graph &graph, int parts, double imbalance) {
#ifdef UMESH_HAS_METIS
  static_assert(sizeof(idx_t) == sizeof(int), "umesh expects METIS with 32-bit idx_t");
  if (parts < 1)
    detail::fail("partition_kway: ", parts, " parts (must be >= 1)");
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
