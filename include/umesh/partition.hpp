#ifndef UMESH_PARTITION_HPP
#define UMESH_PARTITION_HPP

// Graph partitioning and ordering through optional libraries. Calling one
// that was not built in throws umesh::Error saying so.

#include <umesh/colouring.hpp>

#include <cstdint>
#include <vector>

namespace umesh {

/// True when umesh was built with METIS / Scotch.
bool has_metis();
bool has_scotch();

/// Undirected graph in CSR form: the neighbours of v are
/// `adjacency[offsets[v] .. offsets[v+1])`; no self loops. The offsets are
/// 64-bit: an element graph's adjacency passes 2^31 entries well before its
/// vertices do (a hex mesh's 26 neighbours per element: LULESH above -s 436).
struct Graph {
  std::vector<std::int64_t> offsets;
  std::vector<int> adjacency;
  int num_vertices() const { return int(offsets.size()) - 1; }
};

/// Graph of the elements of a map: two elements are adjacent when they
/// share a point.
Graph element_graph(int num_elements, const int *indices, int arity, int to_size);
/// The same over several maps (adjacent when they share a point of any).
Graph element_graph(int num_elements, const std::vector<HostConnectivity> &maps);

/// Graph of the points of one set: two points are adjacent when one element
/// references both through any of `maps`, which must all map to that set.
Graph point_graph(int num_elements, const std::vector<HostConnectivity> &maps);

/// METIS k-way partition into `parts` parts; returns the part of each vertex.
/// A graph of more adjacency entries than METIS's idx_t holds (2^31 - 1 in
/// Debian's 32-bit build) is an Error naming that limit.
std::vector<int> partition_kway(const Graph &graph, int parts, double imbalance = 1.03);

/// Gibbs-Poole-Stockmeyer ordering (Scotch); returns the new index of each
/// vertex. A graph of more adjacency entries than SCOTCH_Num holds is an
/// Error naming that limit.
std::vector<int> order_gps(const Graph &graph);

/// Reverse Cuthill-McKee ordering (built in); returns the new index of each
/// vertex. Each connected component starts from a pseudo-peripheral vertex.
std::vector<int> order_rcm(const Graph &graph);

/// Built-in block partitioner: part ids of at most `block_size` elements
/// each, grown one at a time. A part starts from the oldest unassigned
/// element left on an earlier part's frontier and repeatedly takes the
/// frontier element with the most points already in the part (ties: first
/// reached), so parts stay compact and sweep the mesh front by front.
/// Linear in the connectivity; no element graph is built.
std::vector<int> grow_block_parts(int num_elements, const std::vector<HostConnectivity> &maps,
                                  int block_size);

} // namespace umesh

#endif
