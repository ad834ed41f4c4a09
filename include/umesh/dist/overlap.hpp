#ifndef UMESH_DIST_OVERLAP_HPP
#define UMESH_DIST_OVERLAP_HPP

// dist::par_loop that hides halo exchange behind computation, as OP2 does
// with its core and boundary elements. The loop runs in three pieces of the
// rank's elements (Partition with ElementOrder::overlap):
//   start imports of stale halos     | run core, first half
//   finish imports                   | run boundary elements
//   start exports of halo increments | run core, second half
//   finish exports
// Core elements reach no halo point, so they neither read an imported value
// nor increment a halo copy: each half runs on the device while MPI moves
// the halos (the host waits in MPI meanwhile). The results equal the plain
// dist::par_loop's; only the order of the elements' increments differs.

#include <umesh/dist/par_loop.hpp>
#include <umesh/dist/partition.hpp>
#include <umesh/dist/pieces.hpp>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace umesh::dist {

/// One plan per nonempty piece of a Partition built with
/// ElementOrder::overlap; loops over its elements take it in place of a
/// plan over the whole local set.
template <class Exec, class Space> class OverlapPlan {
public:
  using memory_space = typename Space::memory_space;
  using plan_type = Plan<exec::plan_tag_t<Exec>, Space>; // serves every kernel set (exec::plan_tag)

  const std::vector<Piece<memory_space>> &pieces() const { return pieces_; }
  /// The plan of piece p, or nullptr when the piece is empty.
  plan_type *plan(int p) const { return plans_[p].get(); }
  /// The elements' part (direct arguments must be on it).
  const SetPart *elements() const { return elements_; }

  /// Empty plans over `pieces`; make_overlap_plan builds and sets them.
  OverlapPlan(std::vector<Piece<memory_space>> pieces, const SetPart *elements)
      : pieces_(std::move(pieces)), elements_(elements), plans_(pieces_.size()) {}
  void set_plan(int p, plan_type *plan) { plans_[p].reset(plan); }

private:
  std::vector<Piece<memory_space>> pieces_;
  const SetPart *elements_;
  std::vector<std::unique_ptr<plan_type>> plans_;
};

} // namespace umesh::dist

namespace umesh {
template <class Exec, class Space> struct plan_executor<dist::OverlapPlan<Exec, Space>> {
  using type = Exec;
};
} // namespace umesh

namespace umesh::dist {

namespace detail {

template <class M> const Map<M> &piece_map(const Piece<M> &p, const Map<M> &whole) {
  return p.map_for(whole, "dist::make_overlap_plan");
}
template <class M> ReadOnlyMap<M> piece_map(const Piece<M> &p, const ReadOnlyMap<M> &whole) {
  return read_only(p.map_for(whole.map, "dist::make_overlap_plan"));
}

// Each argument as umesh::par_loop takes it over one piece: maps restricted
// to the piece, direct reads of element data through the piece's rows.
template <Access A, class DD, class M>
auto piece_arg(const DirectArg<A, DD> &a, const Piece<M> &p, const std::string &) {
  static_assert(A == Access::read,
                "umesh::dist::par_loop with an OverlapPlan: direct arguments are read only (each "
                "piece reads them through its rows); write them in a loop with a plain plan");
  return umesh::IndirectArg<Access::read, typename DD::local_type, Map<M>>{a.dat.local(), p.rows,
                                                                           0};
}
template <Access A, class DD, class MM, class M>
auto piece_arg(const IndirectArg<A, DD, MM> &a, const Piece<M> &p, const std::string &loop) {
  return umesh::IndirectArg<A, typename DD::local_type, MM>{
      a.dat.local(), p.map_for(a.map, "dist::par_loop", loop), a.slot};
}
// The pieces fold into the identity that before_global leaves.
template <Reduction R, class T, int D, class M>
auto piece_arg(const GlobalArg<R, T, D> &g, const Piece<M> &, const std::string &) {
  return local(g);
}
template <Reduction R, class T, int D, class S, class M>
auto piece_arg(const DeviceGlobalArg<R, T, D, S> &g, const Piece<M> &, const std::string &) {
  return g;
}

// Direct arguments must be the loop's elements' data.
template <Access A, class DD>
void check_direct(const DirectArg<A, DD> &a, const SetPart *elements, const std::string &loop) {
  if (&a.dat.part() != elements)
    umesh::detail::fail("dist::par_loop '", loop, "': dat '", a.dat.name(),
                        "' is direct but not on the loop's elements");
}
template <class A> void check_direct(const A &, const SetPart *, const std::string &) {}

// Before the first piece: imports of stale halos start (start_import, one
// group per set) and the halo copies of combined dats take the
// combination's identity.
template <class A> void start_imports(const A &, ExchangeGroups &, Seen &) {}
template <Access A, class DD, class MM>
void start_imports(const IndirectArg<A, DD, MM> &a, ExchangeGroups &groups, Seen &filled) {
  start_import(a, groups);
  before(a, filled); // zero or fill the halo (reads: already under way)
}

// After the boundary piece: exports of the combined halos start (once per
// dat); they finish after the last piece.
template <class A> void start_exports(const A &, ExchangeGroups &, Seen &) {}
template <Access A, class DD, class MM>
void start_exports(const IndirectArg<A, DD, MM> &a, ExchangeGroups &groups, Seen &seen) {
  if constexpr (is_combining(A))
    if (export_due(a, seen))
      groups.of(*a.dat.part().halo).start(a.dat.local(), /*to_owners=*/true, combine_of<A>());
}

} // namespace detail

/// Builds an OverlapPlan: one plan per nonempty piece of `partition` (built
/// with ElementOrder::overlap), each over the piece's restrictions of
/// `maps` (the Partition's local maps, read_only() allowed).
template <class Space, class Exec, class M, class... Maps>
OverlapPlan<Exec, Space> make_overlap_plan(const Space &space, const Exec &exec,
                                           const Partition<M> &partition, const Maps &...maps) {
  OverlapPlan<Exec, Space> plan(partition.pieces(), partition.elements().get());
  for (int p = 0; p < int(plan.pieces().size()); ++p) {
    const Piece<M> &piece = plan.pieces()[p];
    // The rows map (direct arguments) stays out of the plan: executors read
    // through maps they do not know from global memory, as direct data is.
    if (piece.set.size() > 0)
      plan.set_plan(p, new typename OverlapPlan<Exec, Space>::plan_type(
                           make_plan(space, exec, piece.set, detail::piece_map(piece, maps)...)));
  }
  return plan;
}

/// dist::par_loop over the pieces of an OverlapPlan (see the top of this
/// file): the same results as with a plan over the whole local set, with
/// the halo exchanges under way while core elements run.
template <class Exec, class Space, class Loop, class Kernel, class... Args,
          std::enable_if_t<exec::is_loop_options_v<Loop>, int> = 0>
void par_loop(OverlapPlan<Exec, Space> &plan, const Loop &loop, const std::string &name,
              const Kernel &kernel, const Args &...args) {
  const MPI_Comm comm = detail::loop_comm(name, args...);
  (detail::check_direct(args, plan.elements(), name), ...);
  // Each piece's arguments, made once and checked before any exchange
  // starts: an error must not leave messages under way.
  const auto &pieces = plan.pieces();
  const std::array<decltype(std::make_tuple(detail::piece_arg(args, pieces[0], name)...)), 3>
      piece_args{std::make_tuple(detail::piece_arg(args, pieces[0], name)...),
                 std::make_tuple(detail::piece_arg(args, pieces[1], name)...),
                 std::make_tuple(detail::piece_arg(args, pieces[2], name)...)};
  for (int p = 0; p < 3; ++p)
    if (plan.plan(p))
      std::apply(
          [&](const auto &...a) {
            umesh::detail::validate_all({name, pieces[p].set}, a...);
          },
          piece_args[p]);
  auto run = [&](int p) {
    if (auto *piece_plan = plan.plan(p))
      std::apply([&](const auto &...a) { umesh::par_loop(*piece_plan, loop, name, kernel, a...); },
                 piece_args[p]);
  };
  auto saved = std::make_tuple(detail::before_global(args)...);
  detail::ExchangeGroups imports, exports;
  detail::Seen filled, exported;
  (detail::start_imports(args, imports, filled), ...);
  imports.post(); // under way while the first core half runs
  run(0);
  imports.finish();
  run(1);
  (detail::start_exports(args, exports, exported), ...);
  exports.post();
  run(2);
  exports.finish();
  std::apply([&](const auto &...s) { (detail::after_global(args, s, comm), ...); }, saved);
}

/// dist::par_loop over an OverlapPlan with its executor's default loop
/// options. (Declared here, beside the overload it calls: the generic
/// default-options dist::par_loop names only the overloads declared before
/// it, which this file's are not.)
template <class Exec, class Space, class Kernel, class... Args>
void par_loop(OverlapPlan<Exec, Space> &plan, const std::string &name, const Kernel &kernel,
              const Args &...args) {
  dist::par_loop(plan, typename Exec::Loop{}, name, kernel, args...);
}

} // namespace umesh::dist

#endif
