#ifndef UMESH_DETAIL_OFFSETS_HPP
#define UMESH_DETAIL_OFFSETS_HPP

// Offsets of lists whose total can pass 2^31 (an element graph's adjacency,
// a plan's per-block lists: sums over elements x arity): prefix sums in 64
// bits, and the check that a total still fits a table that keeps 32-bit
// offsets or indices (METIS's idx_t and Scotch's SCOTCH_Num in Debian's
// builds, the device plan tables), failing with the limit named before
// anything is narrowed.

#include <umesh/error.hpp>

#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace umesh::detail {

/// The largest total a table of `int` offsets or indices holds (2^31 - 1).
inline constexpr std::int64_t int_limit = std::numeric_limits<int>::max();

/// In place: each v[i + 1], a count, becomes v[0] + ... + v[i + 1] (v[0] is
/// 0): the offsets of lists of those counts, in 64 bits.
inline void counts_to_offsets(std::vector<std::int64_t> &v) {
  std::partial_sum(v.begin(), v.end(), v.begin());
}

/// The offsets of lists of `counts[i]` entries each: counts.size() + 1
/// values from 0, the last the total, in 64 bits whatever the counts' type.
template <class Count>
std::vector<std::int64_t> offsets_from_counts(const std::vector<Count> &counts) {
  std::vector<std::int64_t> out(counts.size() + 1, 0);
  for (std::size_t i = 0; i < counts.size(); ++i)
    out[i + 1] = std::int64_t(counts[i]);
  counts_to_offsets(out);
  return out;
}

/// `total` when it is at most `limit`, the largest value of the index type
/// of `table`; otherwise fails: "<what>: <total> entries, more than the
/// <limit> that <table> holds: <remedy>".
inline std::int64_t check_fits(std::int64_t total, std::int64_t limit, const std::string &what,
                               const std::string &table, const std::string &remedy) {
  if (total > limit)
    fail(what, ": ", total, " entries, more than the ", limit, " that ", table, " holds",
         remedy.empty() ? "" : ": ", remedy);
  return total;
}

/// 64-bit offsets as `int`, for a table that keeps them so: check_fits on
/// the total first.
inline std::vector<int> narrow_offsets(const std::vector<std::int64_t> &offsets,
                                       const std::string &what, const std::string &table,
                                       const std::string &remedy) {
  check_fits(offsets.empty() ? 0 : offsets.back(), int_limit, what, table, remedy);
  return std::vector<int>(offsets.begin(), offsets.end());
}

} // namespace umesh::detail

#endif
