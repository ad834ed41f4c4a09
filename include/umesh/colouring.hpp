#ifndef UMESH_COLOURING_HPP
#define UMESH_COLOURING_HPP

// Host-side graph algorithms on raw connectivity: element colouring and
// inverse maps. Built on the host once per plan.

#include <vector>

namespace umesh {

/// Connectivity of one map on the host: `indices[e * arity + s]`. Maps with
/// the same `target` id write the same points (they share a to-set).
struct HostConnectivity {
  const int *indices;
  int arity;
  int target;
  int target_size;
};

struct Colouring {
  std::vector<int> colour;       ///< colour of every element
  std::vector<int> colour_sizes; ///< elements per colour
  int num_colours() const { return int(colour_sizes.size()); }
};

/// Greedy colouring: no two elements of one colour share a point of any map.
/// Each element takes the least-used admissible colour among those opened so
/// far (balancing colour sizes) and opens a new one only when none is
/// admissible.
Colouring greedy_colour(int num_elements, const std::vector<HostConnectivity> &maps);

/// First index of each map's points in one index space over all maps, in
/// which maps with the same `target` share a range; `total` gets its size.
std::vector<int> point_bases(const std::vector<HostConnectivity> &maps, int &total);

/// Colours the items of a CSR list of points (`points[offsets[i]..offsets[i+1])`)
/// so that no two items of one colour share a point. `balanced`: least-used
/// admissible colour among those opened so far; otherwise smallest free colour.
Colouring colour_items(int num_items, const std::vector<int> &offsets,
                       const std::vector<int> &points, int num_points, bool balanced);

/// For every point p of the to-set, the (element * arity + slot) entries that
/// reference it: `entries[offsets[p] .. offsets[p+1])`, in element order.
/// Entries are ints: elements x arity past 2^31 - 1 is an Error naming the
/// limit (so is greedy_colour's elements x every map's arity).
struct InverseMap {
  std::vector<int> offsets;
  std::vector<int> entries;
};
InverseMap invert_map(int num_elements, const int *indices, int arity, int to_size);

} // namespace umesh

#endif
