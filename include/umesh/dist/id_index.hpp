#ifndef UMESH_DIST_ID_INDEX_HPP
#define UMESH_DIST_ID_INDEX_HPP

// Where each of a list of global ids sits in it: the lookup a rank's own
// part (dist::OwnPart) needs for every map entry and every value, where no
// array the size of the whole set may be held. A part's ids usually start
// with a run of consecutive ids (its owned block of a generated box), found
// by arithmetic alone; the rest (its halo) go in a dense table over their
// range when they fill a good part of it, else in a hash table: a hash
// lookup per map entry made the setup of a rank's own part slower than the
// setup from global data, and a dense table over a whole block cost a pass
// over memory the size of the block.

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace umesh::detail {

class IdIndex {
public:
  /// ids[i] -> i; ids need not be sorted, and must not repeat.
  explicit IdIndex(const std::vector<int> &ids) {
    if (ids.empty())
      return;
    first_ = ids[0];
    std::size_t run = 1;
    while (run < ids.size() && std::int64_t(ids[run]) == std::int64_t(first_) + std::int64_t(run))
      ++run;
    run_ = int(run);
    if (run == ids.size())
      return;
    const auto [lo, hi] = std::minmax_element(ids.begin() + run, ids.end());
    rest_first_ = *lo;
    const std::size_t rest = ids.size() - run;
    const std::int64_t range = std::int64_t(*hi) - *lo + 1;
    if (range <= 8 * std::int64_t(rest)) { // at least 1 in 8 of the range: dense
      dense_.assign(std::size_t(range), -1);
      for (std::size_t i = run; i < ids.size(); ++i)
        dense_[std::size_t(ids[i] - rest_first_)] = int(i);
    } else {
      sparse_.reserve(rest);
      for (std::size_t i = run; i < ids.size(); ++i)
        sparse_.emplace(ids[i], int(i));
    }
  }
  /// The position of `id` in the list, or -1.
  int operator()(int id) const {
    const std::int64_t k = std::int64_t(id) - first_;
    if (k >= 0 && k < run_) // (ids do not repeat: none of the rest lies in the run)
      return int(k);
    if (!dense_.empty()) {
      const std::int64_t d = std::int64_t(id) - rest_first_;
      return d >= 0 && d < std::int64_t(dense_.size()) ? dense_[std::size_t(d)] : -1;
    }
    if (sparse_.empty())
      return -1;
    const auto it = sparse_.find(id);
    return it == sparse_.end() ? -1 : it->second;
  }
  /// Whether the ids are first, first + 1, ... (a block: no table at all).
  bool contiguous() const { return dense_.empty() && sparse_.empty(); }

private:
  int first_ = 0, run_ = 0, rest_first_ = 0;
  std::vector<int> dense_;
  std::unordered_map<int, int> sparse_;
};

} // namespace umesh::detail

#endif
