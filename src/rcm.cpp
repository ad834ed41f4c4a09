// Reverse Cuthill-McKee, level by level: each breadth-first level is built
// in parallel (OpenMP where built) when it is wide, and the order is exactly
// that of the one-queue sweep, so plans do not depend on the thread count.
#include <umesh/partition.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "thread_ranges.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace umesh {

namespace {

// Levels narrower than this are built by one thread (a parallel region
// costs more than they do), and so is every level with fewer than
// `parallel_threads` threads: the parallel build reads each level's
// adjacency twice, so two threads only break even (one mesh's RCM ran
// faster on two threads, another's slower: docs/performance-notes.md).
constexpr int parallel_width = 4096;
constexpr int parallel_threads = 3;

class LevelBfs {
public:
  explicit LevelBfs(const Graph &g)
      : g_(g), mark_(std::size_t(g.num_vertices()), -1),
        parent_(std::size_t(g.num_vertices()), INT_MAX) {
#ifdef _OPENMP
    threads_ = omp_get_max_threads();
#endif
  }

  int degree(int v) const {
    return int(g_.offsets[v + 1] - g_.offsets[v]);
  }
  /// Whether v was reached by a sweep with this stamp.
  bool marked(int v, int stamp) const {
    return mark_[v] == stamp;
  }

  struct Levels {
    int depth;              ///< levels after the root's
    std::size_t last_start; ///< where the last level starts in `out`
  };
  /// Appends to `out` the vertices of root's component in the order of a
  /// one-queue breadth-first sweep: each vertex reached by the first vertex
  /// of the queue adjacent to it, each vertex's new neighbours in adjacency
  /// order, stably sorted by increasing degree when `by_degree`. Marks them
  /// with `stamp` (vertices already carrying it are not reached again).
  Levels sweep(int root, int stamp, bool by_degree, std::vector<int> &out) {
    std::size_t begin = out.size();
    out.push_back(root);
    mark_[root] = stamp;
    for (int depth = 0;; ++depth) {
      const std::size_t end = out.size();
      if (end - begin < std::size_t(parallel_width) || threads_ < parallel_threads)
        next_level_serial(begin, end, stamp, by_degree, out);
      else
        next_level_parallel(begin, end, stamp, by_degree, out);
      if (out.size() == end)
        return {depth, begin};
      begin = end;
    }
  }

private:
  void sort_group(std::vector<int>::iterator first, std::vector<int>::iterator last,
                  bool by_degree) const {
    if (by_degree)
      std::stable_sort(first, last, [&](int a, int b) { return degree(a) < degree(b); });
  }

  // Level [begin, end) of `out` -> the next level, appended.
  void next_level_serial(std::size_t begin, std::size_t end, int stamp, bool by_degree,
                         std::vector<int> &out) {
    for (std::size_t h = begin; h < end; ++h) {
      const int u = out[h];
      const std::size_t first = out.size();
      for (std::int64_t j = g_.offsets[u]; j < g_.offsets[u + 1]; ++j) {
        const int w = g_.adjacency[j];
        if (mark_[w] != stamp) {
          mark_[w] = stamp;
          out.push_back(w);
        }
      }
      sort_group(out.begin() + first, out.end(), by_degree);
    }
  }

  // The same, in parallel: every new vertex takes as parent the earliest
  // level vertex adjacent to it; then each thread lists the children of a
  // contiguous range of the level (each vertex's in adjacency order, then
  // sorted) and copies them into place after the ranges before it.
  void next_level_parallel(std::size_t begin, std::size_t end, int stamp, bool by_degree,
                           std::vector<int> &out) {
    const int width = int(end - begin);
    std::vector<std::size_t> sizes;
#ifdef _OPENMP
#pragma omp parallel
#endif
    {
      const detail::ThreadRange r = detail::thread_range(width);
      const int *level = out.data() + begin; // `out` grows only in the join below
      for (int i = r.lo; i < r.hi; ++i) {
        const int u = level[i];
        for (std::int64_t j = g_.offsets[u]; j < g_.offsets[u + 1]; ++j) {
          const int w = g_.adjacency[j];
          if (mark_[w] == stamp)
            continue;
          int seen = __atomic_load_n(&parent_[w], __ATOMIC_RELAXED);
          while (i < seen && !__atomic_compare_exchange_n(&parent_[w], &seen, i, true,
                                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
          }
        }
      }
#ifdef _OPENMP
#pragma omp barrier
#endif
      // Children of level vertex i (u): new, i their parent, each listed
      // once (a graph may repeat a neighbour).
      std::vector<int> mine;
      for (int i = r.lo; i < r.hi; ++i) {
        const int u = level[i];
        const std::size_t first = mine.size();
        for (std::int64_t j = g_.offsets[u]; j < g_.offsets[u + 1]; ++j) {
          const int w = g_.adjacency[j];
          if (mark_[w] != stamp && parent_[w] == i &&
              std::find(mine.begin() + std::ptrdiff_t(first), mine.end(), w) == mine.end())
            mine.push_back(w);
        }
        sort_group(mine.begin() + std::ptrdiff_t(first), mine.end(), by_degree);
      }
      detail::append_in_thread_order(r, mine, out, sizes); // every thread's checks are done
      for (int w : mine) {
        mark_[w] = stamp;
        parent_[w] = INT_MAX;
      }
    }
  }

  const Graph &g_;
  std::vector<int> mark_;   // stamp of the last sweep that reached a vertex
  std::vector<int> parent_; // during a parallel level: earliest parent's index in it
  int threads_ = 1;
};

} // namespace

std::vector<int> order_rcm(const Graph &g) {
  const int n = g.num_vertices();
  LevelBfs bfs(g);
  // Stamps: placed (the Cuthill-McKee order) and 0, 1, ... for the root search.
  constexpr int placed = -2;
  std::vector<int> sequence; // Cuthill-McKee order, reversed at the end
  sequence.reserve(n);
  std::vector<int> visit;
  int stamp = 0;
  for (int start = 0; start < n; ++start) {
    if (bfs.marked(start, placed))
      continue;
    // Pseudo-peripheral root: move to a least-degree vertex of the deepest
    // level (the last such in sweep order) while the eccentricity grows.
    int root = start, depth = -1;
    for (int it = 0; it < 8; ++it) {
      visit.clear();
      const auto levels = bfs.sweep(root, stamp++, false, visit);
      if (levels.depth <= depth)
        break;
      depth = levels.depth;
      int best = visit.back();
      for (std::size_t v = visit.size(); v-- > levels.last_start;)
        if (bfs.degree(visit[v]) < bfs.degree(best))
          best = visit[v];
      root = best;
    }
    // Cuthill-McKee: breadth first, neighbours by increasing degree.
    bfs.sweep(root, placed, true, sequence);
  }
  std::vector<int> new_of_old(n);
  for (int i = 0; i < n; ++i)
    new_of_old[sequence[i]] = n - 1 - i;
  return new_of_old;
}

} // namespace umesh
