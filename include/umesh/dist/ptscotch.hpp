#ifndef UMESH_DIST_PTSCOTCH_HPP
#define UMESH_DIST_PTSCOTCH_HPP

// PT-Scotch, Scotch's parallel partitioner: a graph spread over the ranks,
// each passing only its own vertices and their edges, dealt into parts
// without any rank holding the whole graph. Built when UMESH_HAS_PTSCOTCH is
// defined (CMake option UMESH_ENABLE_PTSCOTCH: MPI builds that find
// libptscotch; Debian's libptscotch-dev).

#include <umesh/error.hpp>
#include <umesh/partition.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#if defined(UMESH_HAS_PTSCOTCH)
#include <cstdio> // ptscotch.h needs FILE
#include <ptscotch.h>
#endif

namespace umesh::dist {

/// Whether this build partitions through PT-Scotch.
constexpr bool has_ptscotch() {
#if defined(UMESH_HAS_PTSCOTCH)
  return true;
#else
  return false;
#endif
}

namespace detail {
// Fails on every rank when any rank has a problem (collective): each throws
// "<what> (on rank r): <r's problem>", r the first rank that had one.
inline void fail_together_as(MPI_Comm comm, const char *what, std::string problem) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int first = problem.empty() ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size)
    return;
  int length = int(problem.size());
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  problem.resize(std::size_t(length));
  MPI_Bcast(problem.data(), length, MPI_CHAR, first, comm);
  umesh::detail::fail(what, " (on rank ", first, "): ", problem);
}

#if defined(UMESH_HAS_PTSCOTCH)
// PT-Scotch's objects, released in reverse order whatever happens.
struct PtScotchRun {
  SCOTCH_Context context;
  SCOTCH_Dgraph graph, bound;
  SCOTCH_Strat strategy;
  bool has_context = false, has_graph = false, has_bound = false, has_strategy = false;
  PtScotchRun() = default;
  PtScotchRun(const PtScotchRun &) = delete;
  PtScotchRun &operator=(const PtScotchRun &) = delete;
  ~PtScotchRun() {
    if (has_strategy)
      SCOTCH_stratExit(&strategy);
    if (has_bound)
      SCOTCH_dgraphExit(&bound);
    if (has_graph)
      SCOTCH_dgraphExit(&graph);
    if (has_context)
      SCOTCH_contextExit(&context);
  }
};

inline std::string ptscotch_call(int status, const char *call) {
  return status == 0 ? std::string()
                     : std::string(call) + " failed (PT-Scotch's message is on stderr)";
}
#endif
} // namespace detail

/// PT-Scotch k-way partition of a graph spread over the ranks of `comm`
/// (collective). This rank passes its own vertices only, in CSR form
/// (`mine.offsets`, `mine.adjacency`), their neighbours as global vertex
/// ids: rank r holds the vertices that follow those of ranks 0 .. r-1, so
/// rank 0 holds 0 .. n0-1, rank 1 n0 .. n0+n1-1, and so on. Edges go both
/// ways (a neighbour on another rank lists this vertex too); no self loops.
/// Returns the part, in [0, parts), of each of this rank's vertices, with
/// at most `imbalance` times the mean weight per part (as partition_kway).
/// The same graph on the same number of ranks gives the same parts: one
/// thread per rank and a fixed random seed. Any problem, in the graph or in
/// PT-Scotch, throws umesh::Error on every rank, naming the rank that
/// found it.
inline std::vector<int> ptscotch_parts(MPI_Comm comm, const Graph &mine, int parts,
                                       double imbalance = 1.03) {
  const int n = std::max(0, mine.num_vertices());
  std::string problem;
  if (!has_ptscotch())
    problem = "umesh was built without PT-Scotch (install libptscotch-dev and reconfigure with "
              "MPI; CMake option UMESH_ENABLE_PTSCOTCH)";
  else if (parts < 1)
    problem = std::to_string(parts) + " parts asked for";
  else if (!(imbalance >= 1.0 && imbalance <= 2.0))
    problem = "imbalance " + std::to_string(imbalance) + " is not within [1, 2]";
  else if (mine.offsets.empty() || mine.offsets[0] != 0 ||
           std::size_t(mine.offsets.back()) != mine.adjacency.size())
    problem = "the graph's offsets do not span its adjacency";
  for (int v = 0; problem.empty() && v < n; ++v)
    if (mine.offsets[v + 1] < mine.offsets[v])
      problem = "the offsets of vertex " + std::to_string(v) + " decrease";
#if defined(UMESH_HAS_PTSCOTCH)
  // Checked before the offsets are copied into PT-Scotch's index type.
  if (problem.empty() && mine.offsets.back() > std::numeric_limits<SCOTCH_Num>::max())
    problem = "this rank's part of the graph has " + std::to_string(mine.offsets.back()) +
              " adjacency entries, more than the " +
              std::to_string(std::numeric_limits<SCOTCH_Num>::max()) +
              " that PT-Scotch's SCOTCH_Num holds: use more ranks";
#endif
  // This rank's first vertex, and the graph's size.
  std::int64_t count = n, first = 0, total = 0;
  MPI_Exscan(&count, &first, 1, MPI_INT64_T, MPI_SUM, comm);
  MPI_Allreduce(&count, &total, 1, MPI_INT64_T, MPI_SUM, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    first = 0; // (MPI_Exscan leaves rank 0's undefined)
  if (problem.empty() && total > 2147483647)
    problem = std::to_string(total) + " vertices, more than 2^31-1";
  for (std::size_t i = 0; problem.empty() && i < mine.adjacency.size(); ++i) {
    const int w = mine.adjacency[i];
    if (w < 0 || w >= total)
      problem = "a neighbour " + std::to_string(w) + ", not a vertex in [0, " +
                std::to_string(total) + ")";
  }
  for (int v = 0; problem.empty() && v < n; ++v)
    for (std::int64_t i = mine.offsets[v]; i < mine.offsets[v + 1]; ++i)
      if (mine.adjacency[std::size_t(i)] == first + v) {
        problem = "vertex " + std::to_string(first + v) + " is its own neighbour";
        break;
      }
  detail::fail_together_as(comm, "dist PT-Scotch partition", problem);
  std::vector<int> part(std::size_t(n), 0);
  if (total == 0) // nothing to deal: PT-Scotch is not called
    return part;
#if defined(UMESH_HAS_PTSCOTCH)
  // SCOTCH_Num is the width libptscotch was built with (int on Debian).
  std::vector<SCOTCH_Num> offsets(mine.offsets.begin(), mine.offsets.end());
  std::vector<SCOTCH_Num> adjacency(mine.adjacency.begin(), mine.adjacency.end());
  adjacency.reserve(1); // a rank without edges still passes an array
  const SCOTCH_Num edges = SCOTCH_Num(mine.adjacency.size());
  std::vector<SCOTCH_Num> result(std::size_t(n) + 1);
  detail::PtScotchRun run;
  // The same answer every time: one thread per rank (PT-Scotch's threads
  // call MPI, and the ranks' MPI need not allow that; with several threads
  // the 4-rank test mesh failed in MPI_Alltoallv or hung), and this run's
  // own random state, seeded the same every call.
  problem = detail::ptscotch_call(SCOTCH_contextInit(&run.context), "SCOTCH_contextInit");
  run.has_context = problem.empty();
  if (problem.empty())
    problem = detail::ptscotch_call(
        SCOTCH_contextRandomClone(&run.context) ||
            SCOTCH_contextOptionSetNum(&run.context, SCOTCH_OPTIONNUMDETERMINISTIC, 1) ||
            SCOTCH_contextOptionSetNum(&run.context, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1) ||
            SCOTCH_contextThreadSpawn(&run.context, 1, nullptr),
        "setting up a one-thread Scotch context");
  if (problem.empty()) {
    SCOTCH_contextRandomSeed(&run.context, 1);
    SCOTCH_contextRandomReset(&run.context);
    problem = detail::ptscotch_call(SCOTCH_dgraphInit(&run.graph, comm), "SCOTCH_dgraphInit");
    run.has_graph = problem.empty();
  }
  if (problem.empty()) {
    problem = detail::ptscotch_call(SCOTCH_dgraphInit(&run.bound, comm), "SCOTCH_dgraphInit");
    run.has_bound = problem.empty();
  }
  if (problem.empty()) {
    problem = detail::ptscotch_call(SCOTCH_stratInit(&run.strategy), "SCOTCH_stratInit");
    run.has_strategy = problem.empty();
  }
  if (problem.empty())
    problem = detail::ptscotch_call(SCOTCH_stratDgraphMapBuild(&run.strategy, SCOTCH_STRATQUALITY,
                                                               SCOTCH_Num(parts), SCOTCH_Num(parts),
                                                               imbalance - 1.0),
                                    "SCOTCH_stratDgraphMapBuild");
  detail::fail_together_as(comm, "dist PT-Scotch partition", problem);
  // Collective calls: every rank learns whether any failed before the next.
  problem =
      detail::ptscotch_call(SCOTCH_dgraphBuild(&run.graph, 0, SCOTCH_Num(n), SCOTCH_Num(n),
                                               offsets.data(), offsets.data() + 1, nullptr, nullptr,
                                               edges, edges, adjacency.data(), nullptr, nullptr),
                            "SCOTCH_dgraphBuild");
  detail::fail_together_as(comm, "dist PT-Scotch partition", problem);
  // (Catches edges that do not go both ways, over the ranks.)
  problem = detail::ptscotch_call(SCOTCH_dgraphCheck(&run.graph), "SCOTCH_dgraphCheck");
  detail::fail_together_as(comm, "dist PT-Scotch partition", problem);
  problem = detail::ptscotch_call(SCOTCH_contextBindDgraph(&run.context, &run.graph, &run.bound),
                                  "SCOTCH_contextBindDgraph");
  detail::fail_together_as(comm, "dist PT-Scotch partition", problem);
  problem = detail::ptscotch_call(
      SCOTCH_dgraphPart(&run.bound, SCOTCH_Num(parts), &run.strategy, result.data()),
      "SCOTCH_dgraphPart");
  for (int v = 0; problem.empty() && v < n; ++v) {
    if (result[std::size_t(v)] < 0 || result[std::size_t(v)] >= parts)
      problem = "SCOTCH_dgraphPart put vertex " + std::to_string(first + v) + " in part " +
                std::to_string(result[std::size_t(v)]) + " of " + std::to_string(parts);
    part[std::size_t(v)] = int(result[std::size_t(v)]);
  }
  detail::fail_together_as(comm, "dist PT-Scotch partition", problem);
#endif
  return part;
}

namespace detail {
// The owners of the `n` vertices of `graph()`, a graph every rank can build
// whole, by PT-Scotch over the ranks: each rank passes the slice of vertices
// contiguous_owners deals it, and the parts are gathered on every rank.
template <class MakeGraph>
std::vector<int> ptscotch_owners(MPI_Comm comm, int n, MakeGraph &&graph) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Rank r's slice, [first(r), first(r + 1)), as contiguous_owners deals it.
  auto first_of = [&](int r) { return int((std::int64_t(r) * n + size - 1) / size); };
  const int first = first_of(rank), last = first_of(rank + 1);
  Graph mine;
  std::string problem;
  try {
    const Graph whole = graph();
    if (whole.num_vertices() != n)
      problem = "a graph of " + std::to_string(whole.num_vertices()) + " vertices for " +
                std::to_string(n) + " items";
    else {
      const std::int64_t from = whole.offsets[std::size_t(first)];
      for (int v = first; v <= last; ++v)
        mine.offsets.push_back(whole.offsets[std::size_t(v)] - from);
      mine.adjacency.assign(whole.adjacency.begin() + from,
                            whole.adjacency.begin() + whole.offsets[std::size_t(last)]);
      // Each vertex's neighbours ascending, as element_graph_slice gives
      // them: a rank building only its slice gets these same owners.
      for (std::size_t v = 0; v + 1 < mine.offsets.size(); ++v)
        std::sort(mine.adjacency.begin() + mine.offsets[v],
                  mine.adjacency.begin() + mine.offsets[v + 1]);
    }
  } catch (const std::exception &e) {
    problem = e.what();
  }
  fail_together_as(comm, "dist PT-Scotch partition", problem);
  const std::vector<int> part = ptscotch_parts(comm, mine, size);
  std::vector<int> counts(std::size_t(size), 0), starts(std::size_t(size), 0);
  for (int r = 0; r < size; ++r) {
    starts[std::size_t(r)] = first_of(r);
    counts[std::size_t(r)] = first_of(r + 1) - first_of(r);
  }
  std::vector<int> owner(std::size_t(n), 0);
  MPI_Allgatherv(part.data(), int(part.size()), MPI_INT, owner.data(), counts.data(), starts.data(),
                 MPI_INT, comm);
  return owner;
}
} // namespace detail

} // namespace umesh::dist

#endif
