#include <umesh/detail/segment_table.hpp>

#include <algorithm>

namespace umesh::detail {

namespace {
struct Run {
  int first, count;
};
} // namespace

SegmentTable build_segment_table(int n, const HostConnectivity &map, int block_size,
                                 int max_segments) {
  SegmentTable t;
  t.block_size = block_size;
  t.max_segments = max_segments;
  t.num_blocks = (n + block_size - 1) / block_size;
  const int S = max_segments, nb = t.num_blocks, arity = map.arity;
  t.first.assign(std::size_t(nb) * S, 0);
  t.offset.assign(std::size_t(nb) * (S + 1), 0);
  std::int64_t staged = 0, segments = 0;
  int max_points = 0, max_runs = 0, max_refs = 0;
  std::vector<int> max_refs_per_slot(arity, 0);
#pragma omp parallel reduction(+ : staged, segments) reduction(max : max_points, max_runs, max_refs)
  {
    std::vector<int> points, refs, slot_refs;
    std::vector<int> my_slot_max(arity, 0);
    std::vector<Run> runs;
#pragma omp for schedule(static)
    for (int b = 0; b < nb; ++b) {
      const int e0 = b * block_size, e1 = std::min(n, e0 + block_size);
      points.assign(map.indices + std::size_t(e0) * arity, map.indices + std::size_t(e1) * arity);
      std::sort(points.begin(), points.end());
      points.erase(std::unique(points.begin(), points.end()), points.end());
      runs.clear();
      for (std::size_t i = 0; i < points.size(); ++i) {
        if (i == 0 || points[i] != points[i - 1] + 1)
          runs.push_back({points[i], 0});
        ++runs.back().count;
      }
      max_runs = std::max(max_runs, int(runs.size()));
      // Keep the longest runs, then order them by point for the write-back.
      std::stable_sort(runs.begin(), runs.end(),
                       [](const Run &a, const Run &c) { return a.count > c.count; });
      if (int(runs.size()) > S)
        runs.resize(S);
      std::sort(runs.begin(), runs.end(),
                [](const Run &a, const Run &c) { return a.first < c.first; });
      int *first = t.first.data() + std::size_t(b) * S;
      int *offset = t.offset.data() + std::size_t(b) * (S + 1);
      int total = 0;
      for (int r = 0; r < S; ++r) {
        offset[r] = total;
        if (r < int(runs.size())) {
          first[r] = runs[r].first;
          total += runs[r].count;
        }
      }
      offset[S] = total;
      segments += int(runs.size());
      max_points = std::max(max_points, total);
      // References per staged point (its place in the block's buffer).
      refs.assign(total, 0);
      slot_refs.assign(std::size_t(total) * arity, 0);
      for (std::size_t i = std::size_t(e0) * arity; i < std::size_t(e1) * arity; ++i) {
        const int p = map.indices[i];
        for (int r = 0; r < int(runs.size()); ++r)
          if (p >= runs[r].first && p < runs[r].first + runs[r].count) {
            ++staged;
            const int local = offset[r] + p - runs[r].first, slot = int(i % arity);
            max_refs = std::max(max_refs, ++refs[local]);
            int &c = slot_refs[std::size_t(local) * arity + slot];
            my_slot_max[slot] = std::max(my_slot_max[slot], ++c);
            break;
          }
      }
    }
#pragma omp critical
    for (int s = 0; s < arity; ++s)
      max_refs_per_slot[s] = std::max(max_refs_per_slot[s], my_slot_max[s]);
  }
  t.references = std::int64_t(n) * arity;
  t.staged_references = staged;
  t.segments = segments;
  t.max_points = max_points;
  t.max_runs = max_runs;
  t.max_refs = max_refs;
  t.max_refs_per_slot = std::move(max_refs_per_slot);
  return t;
}

} // namespace umesh::detail
