#ifndef UMESH_DIST_PAR_LOOP_HPP
#define UMESH_DIST_PAR_LOOP_HPP

// par_loop over distributed data: the same kernel, executor and plan (built
// on this rank's local sets) as umesh::par_loop; around it, the halo
// exchanges the accesses need, and only when needed:
// - an indirect read of a dat whose halo is stale imports the owners' values;
// - an indirect increment zeroes the halo copies first, then adds them into
//   their owners afterwards (the halo is then stale); an indirect min or max
//   likewise, from the operation's identity, folded in with min or max;
// - a direct write, rw or increment leaves the dat's halo stale;
// - global reductions combine over the ranks (MPI_Allreduce).

#include <umesh/access.hpp>
#include <umesh/dist/dat.hpp>
#include <umesh/dist/exchange_group.hpp>
#include <umesh/par_loop.hpp>

#include <mpi.h>

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

namespace umesh::dist {

template <Access A, class DistDat> struct DirectArg { DistDat dat; };
template <Access A, class DistDat, class MapT> struct IndirectArg {
  DistDat dat;
  MapT map;
  int slot;
};

/// Access descriptors, as umesh's (access.hpp), on distributed dats; maps
/// are a Partition's local maps.
template <class T, int D, class L, class M> auto read(const Dat<T, D, L, M> &d) {
  return DirectArg<Access::read, Dat<T, D, L, M>>{d};
}
template <class T, int D, class L, class M> auto write(const Dat<T, D, L, M> &d) {
  return DirectArg<Access::write, Dat<T, D, L, M>>{d};
}
template <class T, int D, class L, class M> auto rw(const Dat<T, D, L, M> &d) {
  return DirectArg<Access::rw, Dat<T, D, L, M>>{d};
}
template <class T, int D, class L, class M> auto inc(const Dat<T, D, L, M> &d) {
  return DirectArg<Access::inc, Dat<T, D, L, M>>{d};
}
template <class T, int D, class L, class M, class MM>
auto read(const Dat<T, D, L, M> &d, const Map<MM> &map, int slot) {
  return IndirectArg<Access::read, Dat<T, D, L, M>, Map<MM>>{d, map, slot};
}
template <class T, int D, class L, class M, class MM>
auto inc(const Dat<T, D, L, M> &d, const Map<MM> &map, int slot) {
  return IndirectArg<Access::inc, Dat<T, D, L, M>, Map<MM>>{d, map, slot};
}
template <class T, int D, class L, class M, class MM>
auto min(const Dat<T, D, L, M> &d, const Map<MM> &map, int slot) {
  return IndirectArg<Access::min, Dat<T, D, L, M>, Map<MM>>{d, map, slot};
}
template <class T, int D, class L, class M, class MM>
auto max(const Dat<T, D, L, M> &d, const Map<MM> &map, int slot) {
  return IndirectArg<Access::max, Dat<T, D, L, M>, Map<MM>>{d, map, slot};
}
using umesh::reduce_max;
using umesh::reduce_min;
using umesh::reduce_sum;

namespace detail {

struct Nothing {};

// Dats already handled in this loop (a dat reached through several map
// slots is zeroed, filled or exported once).
using Seen = std::vector<const void *>;
inline bool first_time(Seen &seen, const void *key) {
  if (std::find(seen.begin(), seen.end(), key) != seen.end())
    return false;
  seen.push_back(key);
  return true;
}

// A loop's exchanges, one ExchangeGroup per set exchanged (a loop's dats may
// live on several sets).
class ExchangeGroups {
public:
  ExchangeGroup &of(const Exchange &ex) {
    for (auto &g : groups_)
      if (&g->exchange() == &ex)
        return *g;
    groups_.push_back(std::make_unique<ExchangeGroup>(ex));
    return *groups_.back();
  }
  void post() {
    for (auto &g : groups_)
      g->post();
  }
  void finish() {
    for (auto &g : groups_)
      g->finish();
  }

private:
  std::vector<std::unique_ptr<ExchangeGroup>> groups_;
};

// Whether a loop through this argument's map may touch a halo copy on some
// rank. One that reaches none (every rank agrees: Partition) needs no
// import, no zeroing and no export.
template <Access A, class DD, class MM> bool through_halo(const IndirectArg<A, DD, MM> &a) {
  return a.dat.part().reaches_halo(a.map);
}

// A combining argument after its loop: its dat's halo is stale; true when
// the halo copies go to their owners now: once per dat, through a map that
// reaches them (another map of the same loop may still combine into them).
template <Access A, class DD, class MM>
bool export_due(const IndirectArg<A, DD, MM> &a, Seen &exported) {
  a.dat.mark_halo_stale();
  return through_halo(a) && first_time(exported, a.dat.local().view().data());
}
template <Access A> constexpr Exchange::Combine combine_of() {
  static_assert(is_combining(A), "umesh::dist: only inc, min and max combine");
  return A == Access::inc   ? Exchange::Combine::add
         : A == Access::min ? Exchange::Combine::min
                            : Exchange::Combine::max;
}

// Before the loop: the imports of stale halos start, one group per set
// (each dat once: the first marks its halo fresh).
template <class A> void start_import(const A &, ExchangeGroups &) {}
template <Access A, class DD, class MM>
void start_import(const IndirectArg<A, DD, MM> &a, ExchangeGroups &groups) {
  if constexpr (A == Access::read) {
    if (!a.dat.halo_stale() || !through_halo(a))
      return;
    groups.of(*a.dat.part().halo).start(a.dat.local(), /*to_owners=*/false, Exchange::Combine::add);
    a.dat.mark_halo_fresh();
  }
}

// Before the loop: halo imports (those start_import left) and zeroing (each once per dat, and only
// through maps that reach a halo); a global's values before the loop are
// kept and it holds the reduction's identity, which this rank's loop (or
// its pieces, dist/overlap.hpp) folds into.
template <Access A, class DD> Nothing before(const DirectArg<A, DD> &, Seen &) {
  return {};
}
template <Access A, class DD, class MM>
Nothing before(const IndirectArg<A, DD, MM> &a, Seen &filled) {
  using T = typename DD::local_type::value_type;
  if constexpr (A == Access::read) {
    if (through_halo(a))
      a.dat.refresh_halo(); // once: the import clears the stale flag
  } else if (!through_halo(a) || !first_time(filled, a.dat.local().view().data()))
    return {};
  else if constexpr (A == Access::inc)
    a.dat.zero_halo();
  else if constexpr (A == Access::min)
    a.dat.fill_halo(std::numeric_limits<T>::max());
  else if constexpr (A == Access::max)
    a.dat.fill_halo(std::numeric_limits<T>::lowest());
  else
    static_assert(A == Access::read, "umesh::dist::par_loop: through a map: read, inc, min, max");
  return {};
}
template <Reduction R, class T, int D>
std::array<T, D> before(const GlobalArg<R, T, D> &g, Seen &) {
  std::array<T, D> saved;
  for (int k = 0; k < D; ++k)
    saved[k] = (*g.global)[k];
  g.global->fill(umesh::detail::reduction_identity<R, T>());
  return saved;
}

// Device globals: each rank folds its own elements into its values; the
// ranks combine them when they fetch (umesh::dist::fetch), not per loop.
template <Reduction R, class T, int D, class S>
Nothing before(const DeviceGlobalArg<R, T, D, S> &, Seen &) {
  return {};
}

template <Access A, class DD> auto local(const DirectArg<A, DD> &a) {
  return umesh::DirectArg<A, typename DD::local_type>{a.dat.local()};
}
template <Access A, class DD, class MM> auto local(const IndirectArg<A, DD, MM> &a) {
  return umesh::IndirectArg<A, typename DD::local_type, MM>{a.dat.local(), a.map, a.slot};
}
template <Reduction R, class T, int D> auto local(const GlobalArg<R, T, D> &g) {
  return GlobalArg<R, T, D>{g.global, /*combine_held=*/true}; // into the identity
}
template <Reduction R, class T, int D, class S> auto local(const DeviceGlobalArg<R, T, D, S> &g) {
  return g;
}

// After the loop: exports start (once per dat, however many slots
// increment it; one group per set, finished after them all), stale halos,
// reductions over the ranks (their result replaces the values held before
// the loop, or folds into them: combine_with_held).
template <Access A, class DD>
void after(const DirectArg<A, DD> &a, Nothing, MPI_Comm, Seen &, ExchangeGroups &) {
  if constexpr (A != Access::read)
    a.dat.mark_halo_stale();
}
template <Access A, class DD, class MM>
void after(const IndirectArg<A, DD, MM> &a, Nothing, MPI_Comm, Seen &exported,
           ExchangeGroups &groups) {
  if constexpr (is_combining(A))
    if (export_due(a, exported))
      groups.of(*a.dat.part().halo).start(a.dat.local(), /*to_owners=*/true, combine_of<A>());
}
template <Reduction R, class T, int D, class Saved>
void after(const GlobalArg<R, T, D> &g, const Saved &saved, MPI_Comm comm, Seen &,
           ExchangeGroups &) {
  std::array<T, D> mine, all;
  for (int k = 0; k < D; ++k)
    mine[k] = (*g.global)[k];
  const MPI_Op op = R == Reduction::sum ? MPI_SUM : R == Reduction::min ? MPI_MIN : MPI_MAX;
  MPI_Allreduce(mine.data(), all.data(), D, mpi_type<T>(), op, comm);
  for (int k = 0; k < D; ++k)
    (*g.global)[k] = g.combine_held ? umesh::detail::reduction_fold<R>(saved[k], all[k]) : all[k];
}

template <Reduction R, class T, int D, class S>
void after(const DeviceGlobalArg<R, T, D, S> &, Nothing, MPI_Comm, Seen &, ExchangeGroups &) {}

// The global reductions' part of before() and after(), for loops that
// handle their other arguments themselves (dist/overlap.hpp).
template <class A> Nothing before_global(const A &) {
  return {};
}
template <Reduction R, class T, int D> auto before_global(const GlobalArg<R, T, D> &g) {
  Seen unused;
  return before(g, unused);
}
template <class A> void after_global(const A &, Nothing, MPI_Comm) {}
template <Reduction R, class T, int D, class Saved>
void after_global(const GlobalArg<R, T, D> &g, const Saved &saved, MPI_Comm comm) {
  Seen unused;
  ExchangeGroups none;
  after(g, saved, comm, unused, none);
}

template <Access A, class DD> MPI_Comm comm_of(const DirectArg<A, DD> &a) {
  return a.dat.part().comm;
}
template <Access A, class DD, class MM> MPI_Comm comm_of(const IndirectArg<A, DD, MM> &a) {
  return a.dat.part().comm;
}
template <Reduction R, class T, int D> MPI_Comm comm_of(const GlobalArg<R, T, D> &) {
  return MPI_COMM_NULL;
}
template <Reduction R, class T, int D, class S>
MPI_Comm comm_of(const DeviceGlobalArg<R, T, D, S> &) {
  return MPI_COMM_NULL;
}

// Whether an argument is a direct one on a set with halo points, and
// whether it is a global reduction.
template <Access A, class DD> bool direct_on_halo(const DirectArg<A, DD> &a) {
  return a.dat.part().owned != a.dat.part().local.size();
}
template <class A> bool direct_on_halo(const A &) {
  return false;
}
template <class A> constexpr bool is_global(const A &) {
  return false;
}
template <Reduction R, class T, int D> constexpr bool is_global(const GlobalArg<R, T, D> &) {
  return true;
}
template <Reduction R, class T, int D, class S>
constexpr bool is_global(const DeviceGlobalArg<R, T, D, S> &) {
  return true;
}

// The communicator of a loop's distributed dats (one of them at least).
template <class... Args> MPI_Comm loop_comm(const std::string &loop, const Args &...args) {
  MPI_Comm comm = MPI_COMM_NULL;
  for (MPI_Comm c : {comm_of(args)...})
    if (c != MPI_COMM_NULL)
      comm = c;
  if (comm == MPI_COMM_NULL)
    umesh::detail::fail("dist::par_loop '", loop, "': no distributed dat among the arguments");
  return comm;
}

} // namespace detail

/// Every global of `g` back to its initial value on this rank's device, as
/// this rank's share (a sum starts from its initial value on rank 0 of
/// `comm` and from zero on the others). Every rank resets before the loops
/// that fold into the store; fetch() combines the shares.
template <class T, class S> void reset(DeviceGlobalStore<T, S> &g, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  umesh::detail::DeviceGlobalAccess::reset_share(g, rank == 0);
}

/// Fetches `g` on every rank (each waits for its device once) and combines
/// the ranks' shares (MPI_Allreduce per kind of reduction): afterwards every
/// rank reads the values over all ranks. Collective over `comm`. A store
/// with sums must have been reset with reset(g, comm) (a store reset on
/// each rank alone would count each sum's initial value once per rank).
template <class T, class S> void fetch(DeviceGlobalStore<T, S> &g, MPI_Comm comm) {
  using Access = umesh::detail::DeviceGlobalAccess;
  const std::vector<Reduction> kinds = Access::reductions(g);
  if (!Access::reset_as_shares(g) &&
      std::find(kinds.begin(), kinds.end(), Reduction::sum) != kinds.end())
    umesh::detail::fail("dist::fetch: device global store '", g.name(),
                        "' holds sums but was not reset with umesh::dist::reset since it was "
                        "made or last reset alone: each rank would add the initial values");
  g.fetch();
  T *host = Access::host(g);
  const int n = int(kinds.size());
  for (Reduction r : {Reduction::sum, Reduction::min, Reduction::max}) {
    std::vector<T> mine;
    for (int i = 0; i < n; ++i)
      if (kinds[i] == r)
        mine.push_back(host[i]);
    if (mine.empty())
      continue;
    std::vector<T> all(mine.size());
    const MPI_Op op = r == Reduction::sum ? MPI_SUM : r == Reduction::min ? MPI_MIN : MPI_MAX;
    MPI_Allreduce(mine.data(), all.data(), int(mine.size()), mpi_type<T>(), op, comm);
    for (int i = 0, j = 0; i < n; ++i)
      if (kinds[i] == r)
        host[i] = all[j++];
  }
}

/// umesh::par_loop over this rank's part of a distributed mesh (see the
/// top of this file for the exchanges), with the plan's executor under loop
/// options `loop`. `plan` is built on the local loop set with the
/// Partition's local maps.
template <class Plan, class Loop, class Kernel, class... Args,
          std::enable_if_t<exec::is_loop_options_v<Loop>, int> = 0>
void par_loop(Plan &plan, const Loop &loop, const std::string &name, const Kernel &kernel,
              const Args &...args) {
  const MPI_Comm comm = detail::loop_comm(name, args...);
  // A loop over a set with halo points runs over them too (their values
  // are refreshed before anyone reads them); a reduction would count them
  // twice.
  if ((detail::direct_on_halo(args) || ...) && (detail::is_global(args) || ...))
    umesh::detail::fail("dist::par_loop '", name,
                        "': global reductions over a set with halo points are not supported; "
                        "reduce in a loop over the partitioned element set");
  detail::Seen filled, exported;
  {
    detail::ExchangeGroups imports;
    (detail::start_import(args, imports), ...);
    imports.finish();
  }
  auto saved = std::make_tuple(detail::before(args, filled)...);
  umesh::par_loop(plan, loop, name, kernel, detail::local(args)...);
  detail::ExchangeGroups exports;
  std::apply([&](const auto &...s) { (detail::after(args, s, comm, exported, exports), ...); },
             saved);
  exports.finish();
}

/// dist::par_loop with the plan's default loop options.
template <class Plan, class Kernel, class... Args>
void par_loop(Plan &plan, const std::string &name, const Kernel &kernel, const Args &...args) {
  dist::par_loop(plan, typename umesh::plan_executor_t<Plan>::Loop{}, name, kernel, args...);
}

} // namespace umesh::dist

#endif
