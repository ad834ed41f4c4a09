#ifndef UMESH_DIST_ID_INDEX_HPP
#define UMESH_DIST_ID_INDEX_HPP

// Where each of a list of global ids sits in it: the lookup a rank's own
// part (dist::OwnPart) needs for every map entry and every value, where no
// array the size of the whole set may be held. A dense table over the ids'
// range when they fill a good part of it (the blocks of a generated box
// do), else a hash table: a hash lookup per map entry made the setup of a
// rank's own part slower than the setup from global data.

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
    const auto [lo, hi] = std::minmax_element(ids.begin(), ids.end());
    first_ = *lo;
    const std::int64_t range = std::int64_t(*hi) - *lo + 1;
    if (range <= 8 * std::int64_t(ids.size())) { // at least 1 in 8 of the range: dense
      dense_.assign(std::size_t(range), -1);
      for (std::size_t i = 0; i < ids.size(); ++i)
        dense_[std::size_t(ids[i] - first_)] = int(i);
    } else {
      sparse_.reserve(ids.size());
      for (std::size_t i = 0; i < ids.size(); ++i)
        sparse_.emplace(ids[i], int(i));
    }
  }
  /// The position of `id` in the list, or -1.
  int operator()(int id) const {
    if (!dense_.empty()) {
      const std::int64_t k = std::int64_t(id) - first_;
      return k >= 0 && k < std::int64_t(dense_.size()) ? dense_[std::size_t(k)] : -1;
    }
    const auto it = sparse_.find(id);
    return it == sparse_.end() ? -1 : it->second;
  }

private:
  int first_ = 0;
  std::vector<int> dense_;
  std::unordered_map<int, int> sparse_;
};

} // namespace umesh::detail

#endif
