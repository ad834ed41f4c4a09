#ifndef UMESH_DIST_DIRECTORY_HPP
#define UMESH_DIST_DIRECTORY_HPP

// Who owns which point, when each rank knows only its own (a Partition built
// from each rank's part, dist/partition.hpp): a directory spread over the
// ranks, rank d holding the owners of the d-th contiguous block of ids, so
// that no rank holds anything the size of the whole set.

#include <umesh/error.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace umesh::detail {

/// Every rank sends `send[r]` to rank r; returns, per rank r, what r sent
/// here (MPI_Alltoallv of ints).
inline std::vector<std::vector<int>> exchange_lists(MPI_Comm comm,
                                                    const std::vector<std::vector<int>> &send) {
  const int size = int(send.size());
  std::vector<int> send_counts(size), recv_counts(size), send_offsets(size + 1, 0),
      recv_offsets(size + 1, 0);
  for (int r = 0; r < size; ++r)
    send_counts[r] = int(send[r].size());
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  for (int r = 0; r < size; ++r) {
    send_offsets[r + 1] = send_offsets[r] + send_counts[r];
    recv_offsets[r + 1] = recv_offsets[r] + recv_counts[r];
  }
  std::vector<int> out(send_offsets[size]), in(recv_offsets[size]);
  for (int r = 0; r < size; ++r)
    std::copy(send[r].begin(), send[r].end(), out.begin() + send_offsets[r]);
  MPI_Alltoallv(out.data(), send_counts.data(), send_offsets.data(), MPI_INT, in.data(),
                recv_counts.data(), recv_offsets.data(), MPI_INT, comm);
  std::vector<std::vector<int>> got(size);
  for (int r = 0; r < size; ++r)
    got[r].assign(in.begin() + recv_offsets[r], in.begin() + recv_offsets[r + 1]);
  return got;
}

/// Fails on every rank when `problem` is non-empty on any (collective: a
/// rank that failed alone would leave the others waiting in the next
/// collective call). Each rank's message is its own, or names the rank that
/// found one.
inline void fail_together(MPI_Comm comm, const std::string &problem) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int first = problem.empty() ? -1 : rank, worst = -1;
  MPI_Allreduce(&first, &worst, 1, MPI_INT, MPI_MAX, comm);
  if (worst < 0)
    return;
  if (!problem.empty())
    fail(problem);
  fail("rank ", worst,
       " found a problem in the parts of a distributed mesh (its message says what)");
}

/// find_owners when every rank owns one block of consecutive ids (a
/// generated mesh's slabs, a rank's own block): the blocks, gathered, are
/// the directory, so no table over the set and no message per point. False
/// (and no owners) when some rank's ids are not such a block.
inline bool block_owners(MPI_Comm comm, const std::string &name, const std::vector<int> &owned,
                         const std::vector<int> &wanted, std::vector<int> &owners) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const bool block = std::adjacent_find(owned.begin(), owned.end(),
                                        [](int a, int b) { return b != a + 1; }) == owned.end();
  const int mine[2] = {block ? (owned.empty() ? 0 : owned.front()) : -1, int(owned.size())};
  std::vector<int> all(2 * std::size_t(size));
  MPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, comm);
  std::vector<int> ranks; // the ranks that own points, by their first id
  for (int r = 0; r < size; ++r)
    if (all[2 * r] < 0)
      return false;
    else if (all[2 * r + 1] > 0)
      ranks.push_back(r);
  auto first = [&](int r) { return all[2 * std::size_t(r)]; };
  auto end = [&](int r) { return all[2 * std::size_t(r)] + all[2 * std::size_t(r) + 1]; };
  std::sort(ranks.begin(), ranks.end(), [&](int a, int b) { return first(a) < first(b); });
  std::string problem; // (the same on every rank: all hold the blocks)
  for (std::size_t i = 1; i < ranks.size() && problem.empty(); ++i)
    if (first(ranks[i]) < end(ranks[i - 1]))
      problem = "set '" + name + "': point " + std::to_string(first(ranks[i])) +
                " is owned by ranks " + std::to_string(std::min(ranks[i - 1], ranks[i])) + " and " +
                std::to_string(std::max(ranks[i - 1], ranks[i]));
  fail_together(comm, problem);
  owners.clear();
  owners.reserve(wanted.size());
  std::size_t b = 0; // wanted ascends: the blocks are walked once
  for (int p : wanted) {
    while (b < ranks.size() && end(ranks[b]) <= p)
      ++b;
    if (b == ranks.size() || first(ranks[b]) > p) {
      problem = "set '" + name + "': point " + std::to_string(p) + ", which rank " +
                std::to_string(rank) + "'s elements reach, is owned by no rank";
      break;
    }
    owners.push_back(ranks[b]);
  }
  fail_together(comm, problem);
  return true;
}

/// The owner of each point in `wanted` (ascending), for a set of `n` points
/// (`name` for messages) of which this rank owns `owned`: every point must
/// be owned by exactly one rank, every wanted one by some rank. Collective.
inline std::vector<int> find_owners(MPI_Comm comm, const std::string &name, int n,
                                    const std::vector<int> &owned, const std::vector<int> &wanted) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Point p's directory rank as contiguous_owners deals it (p * size / n),
  // and the first point of rank d's block.
  auto directory_of = [&](int p) { return int(std::int64_t(p) * size / n); };
  auto first_of = [&](int d) { return int((std::int64_t(d) * n + size - 1) / size); };
  std::string problem;
  const auto bad = std::find_if(owned.begin(), owned.end(), [&](int p) { return p < 0 || p >= n; });
  if (bad != owned.end())
    problem = "set '" + name + "': rank " + std::to_string(rank) + " owns point " +
              std::to_string(*bad) + ", not in [0, " + std::to_string(n) + ")";
  fail_together(comm, problem);
  if (std::vector<int> owners; block_owners(comm, name, owned, wanted, owners))
    return owners;
  // Registered with the directory in one message per directory rank, each
  // in the order of `owned` (which names a double first): when `owned`
  // ascends (a block usually does) it is already laid out so, and each
  // rank's share is found by bisection.
  std::vector<int> send_counts(size, 0), recv_counts(size), send_offsets(size + 1, 0),
      recv_offsets(size + 1, 0), laid_out;
  const bool ascending = std::is_sorted(owned.begin(), owned.end());
  if (ascending)
    for (int d = 0; d < size; ++d)
      send_offsets[d + 1] =
          int(std::lower_bound(owned.begin(), owned.end(), first_of(d + 1)) - owned.begin());
  else {
    for (int p : owned)
      ++send_offsets[directory_of(p) + 1];
    for (int d = 0; d < size; ++d)
      send_offsets[d + 1] += send_offsets[d];
    laid_out.resize(owned.size());
    std::vector<int> at(send_offsets.begin(), send_offsets.end() - 1);
    for (int p : owned)
      laid_out[std::size_t(at[directory_of(p)]++)] = p;
  }
  for (int d = 0; d < size; ++d)
    send_counts[d] = send_offsets[d + 1] - send_offsets[d];
  const std::vector<int> &out = ascending ? owned : laid_out;
  // This rank's share goes straight from `out`, not through MPI (at one
  // rank, all of it).
  const int self = send_counts[rank];
  send_counts[rank] = 0;
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  for (int r = 0; r < size; ++r)
    recv_offsets[r + 1] = recv_offsets[r] + recv_counts[r];
  std::vector<int> registered(static_cast<std::size_t>(recv_offsets[size]));
  MPI_Alltoallv(out.data(), send_counts.data(), send_offsets.data(), MPI_INT, registered.data(),
                recv_counts.data(), recv_offsets.data(), MPI_INT, comm);
  // This rank's block of the directory: the owner of each of its points.
  const int first = first_of(rank);
  std::vector<int> owner_of(std::size_t(first_of(rank + 1) - first), -1);
  for (int r = 0; r < size && problem.empty(); ++r) {
    const int *from =
        r == rank ? out.data() + send_offsets[rank] : registered.data() + recv_offsets[r];
    const int count = r == rank ? self : recv_counts[r];
    for (int i = 0; i < count; ++i) {
      const int p = from[i];
      int &o = owner_of[std::size_t(p - first)];
      if (o >= 0) {
        problem = "set '" + name + "': point " + std::to_string(p) + " is owned by ranks " +
                  std::to_string(o) + " and " + std::to_string(r);
        break;
      }
      o = r;
    }
  }
  fail_together(comm, problem);
  std::vector<std::vector<int>> asked(size);
  for (int p : wanted)
    asked[directory_of(p)].push_back(p);
  const auto questions = exchange_lists(comm, asked);
  std::vector<std::vector<int>> answers(size);
  for (int r = 0; r < size; ++r)
    for (int p : questions[r]) {
      const int o = owner_of[std::size_t(p - first)];
      if (o < 0 && problem.empty())
        problem = "set '" + name + "': point " + std::to_string(p) + ", which rank " +
                  std::to_string(r) + "'s elements reach, is owned by no rank";
      answers[r].push_back(o);
    }
  fail_together(comm, problem);
  const auto replies = exchange_lists(comm, answers);
  // Replies come per directory rank, in the order asked; wanted ascends and
  // directory blocks ascend with rank, so concatenating them restores it.
  std::vector<int> owners;
  owners.reserve(wanted.size());
  for (int d = 0; d < size; ++d)
    owners.insert(owners.end(), replies[d].begin(), replies[d].end());
  return owners;
}

} // namespace umesh::detail

#endif
