#ifndef UMESH_RENUMBER_HPP
#define UMESH_RENUMBER_HPP

// Mesh reordering: new numberings of a loop's element set and of the sets its
// maps point to, chosen so that the elements of a thread block share points
// and points used together share cache lines. The user moves maps and dats
// into the new numbering with Renumbering::apply and results back with
// to_original; the renumbered sets are new sets, so data left in the old
// numbering cannot be mixed in by mistake (par_loop rejects it).

#include <umesh/dat.hpp>
#include <umesh/detail/plan_file.hpp>
#include <umesh/error.hpp>
#include <umesh/map.hpp>
#include <umesh/permutation.hpp>
#include <umesh/plan.hpp>
#include <umesh/set.hpp>
#include <umesh/timing.hpp>

#include <Kokkos_Core.hpp>

#include <memory>
#include <string>
#include <vector>

namespace umesh {

enum class Reorder {
  none,   ///< keep the numbering
  gps,    ///< points by Gibbs-Poole-Stockmeyer (Scotch), elements sorted by their points
  rcm,    ///< the same with umesh's reverse Cuthill-McKee (no library)
  metis,  ///< elements by METIS k-way blocks, points by the blocks that use them
  builtin ///< the same with umesh's own block partitioner (grow_block_parts)
};

const char *reorder_name(Reorder r);
/// "none", "gps", "rcm", "metis" or "builtin"; anything else is an Error.
Reorder parse_reorder(const std::string &name);
/// False for gps without Scotch and metis without METIS.
bool reorder_available(Reorder r);

/// gps, rcm: how the sets reached through maps other than the first are
/// numbered.
enum class OtherPoints {
  own_graph,  ///< each over its own point graph, like the first (default)
  first_touch ///< in the order the renumbered elements first reach them (cuda_fot's GPS)
};

struct ReorderOptions {
  Reorder method = Reorder::none;
  /// gps, rcm: with first_touch only the first map's set is ordered over its
  /// point graph and the elements are sorted by its points alone; every other
  /// set follows the elements, so a block's points of it are adjacent.
  OtherPoints other_points = OtherPoints::own_graph;
  /// metis, builtin: elements per block (use the hierarchical plan's).
  int block_size = 256;
  /// metis: parts aim at block_size * (1 - margin) elements.
  double metis_margin = 0.1;
  /// When set: load the renumbering from this file if it exists (an Error
  /// if it does not match the maps and options), else compute and save it.
  std::string plan_file;

  ReorderOptions &with_method(Reorder m) { return method = m, *this; }
  ReorderOptions &with_other_points(OtherPoints p) { return other_points = p, *this; }
  ReorderOptions &with_block_size(int b) { return block_size = b, *this; }
  ReorderOptions &with_metis_margin(double m) { return metis_margin = m, *this; }
  ReorderOptions &with_plan_file(std::string p) { return plan_file = std::move(p), *this; }
};

/// A reordering by name: a method (parse_reorder), for gps and rcm
/// optionally followed by "/first-touch" (OtherPoints::first_touch), as in
/// "rcm/first-touch"; anything else is an Error.
ReorderOptions parse_reorder_options(const std::string &name);

/// A renumbering as numbers (what reorder computes and its plan file holds):
/// the new number of every element (`elements[old]`), then of every point of
/// each set the maps reach, in the order the maps first reach them
/// (`targets[set][old]`; maps to one set share one); `blocks` (metis,
/// builtin; else empty) the block of every element in the new numbering,
/// numbered from 0 in order, each contiguous; the time of each phase.
struct Numberings {
  std::vector<int> elements;
  std::vector<std::vector<int>> targets;
  std::vector<int> blocks;
  PhaseTimes phases;
};

namespace detail {

using RenumberResult = Numberings;
/// Options that contradict each other are an Error.
void check_reorder_options(const ReorderOptions &options);
RenumberResult compute_renumbering(const ReorderOptions &options, int num_elements,
                                   const std::vector<BlockPlanMap> &maps,
                                   const std::string &set_name);
std::string reorder_options_text(const ReorderOptions &options);
/// The renumbering in the plan file `path` for `num_elements` elements over
/// `maps` with `options`: an Error naming the file unless it matches them
/// (format, checksum, maps, options) and every numbering is a permutation
/// and the blocks are as reorder writes them.
RenumberResult read_renumbering_file(const std::string &path, int num_elements,
                                     const std::vector<BlockPlanMap> &maps,
                                     const ReorderOptions &options);
/// Writes `r` as read_renumbering_file reads it (through a temporary of its
/// own, renamed into place); not checked: readers check it.
void write_renumbering_file(const std::string &path, const RenumberResult &r, int num_elements,
                            const std::vector<BlockPlanMap> &maps, const ReorderOptions &options);

} // namespace detail

/// The result of reorder(): a Permutation per renumbered set.
class Renumbering {
public:
  const ReorderOptions &options() const { return options_; }
  Reorder method() const { return options_.method; }

  /// The set standing for `original` in the new numbering (a new set of the
  /// same name and size), or `original` itself when it was not renumbered.
  const Set &set(const Set &original) const {
    const Entry *e = find(original);
    return e && e->original == original ? e->renumbered : original;
  }
  /// The permutation of a set, given as original or renumbered (identity
  /// for a set this renumbering does not touch).
  Permutation permutation(const Set &s) const {
    const Entry *e = find(s);
    return e ? e->perm : Permutation::identity(s.size());
  }

  /// The map in the new numbering: rows of a renumbered from-set move, and
  /// entries pointing into a renumbered to-set are renumbered ("no
  /// neighbour" entries stay as they are).
  template <class M> Map<M> apply(const Map<M> &map) const {
    const Entry *rows = original_entry(map.from(), "map '" + map.name() + "'");
    const Entry *cols = original_entry(map.to(), "map '" + map.name() + "'");
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), map.entries());
    const int a = map.arity();
    const bool missing = map.allows_missing();
    std::vector<int> out(h.size());
    for (int e = 0; e < int(h.extent(0)); ++e) {
      const int row = rows ? rows->perm.new_index(e) : e;
      for (int s = 0; s < a; ++s) {
        const int v = h(e, s);
        const bool point = !(missing && v == map.missing_value());
        out[std::size_t(row) * a + s] = cols && point ? cols->perm.new_index(v) : v;
      }
    }
    if (missing)
      return Map<M>(map.name(), set(map.from()), set(map.to()), a, out,
                    MapMissing{map.missing_value()});
    return Map<M>(map.name(), set(map.from()), set(map.to()), a, out);
  }

  /// The dat in the new numbering (always a copy; a dat on a set this
  /// renumbering does not touch keeps its set).
  template <class T, int D, class L, class M>
  Dat<T, D, L, M> apply(const Dat<T, D, L, M> &dat) const {
    const Entry *e = original_entry(dat.set(), "dat '" + dat.name() + "'");
    if (!e)
      return clone_to<M>(dat);
    return Dat<T, D, L, M>(e->renumbered, dat.name(), e->perm.from_original(dat.view()));
  }

  /// A dat of the new numbering back in the original one (always a copy).
  template <class T, int D, class L, class M>
  Dat<T, D, L, M> to_original(const Dat<T, D, L, M> &dat) const {
    const Entry *e = find(dat.set());
    if (!e)
      return clone_to<M>(dat);
    if (e->original == dat.set())
      detail::fail("to_original: dat '", dat.name(),
                   "' is already in the original numbering of set '", dat.set().name(), "'");
    return Dat<T, D, L, M>(e->original, dat.name(), e->perm.to_original(dat.view()));
  }

  /// Block id of every element in the new numbering (metis, builtin; empty
  /// otherwise): hand it to Hierarchical::with_blocks so the plan's blocks are
  /// the ones the renumbering was built for.
  std::shared_ptr<const std::vector<int>> blocks() const { return blocks_; }

  /// Time per phase; a renumbering loaded from a file has its build phases
  /// plus "load".
  const PhaseTimes &phases() const { return phases_; }
  double seconds() const {
    double s = 0;
    for (const auto &p : phases_)
      s += p.seconds;
    return s;
  }
  /// "loaded from F", "saved to F" or empty.
  const std::string &file_note() const { return file_note_; }

  template <class... Maps>
  friend Renumbering reorder(const ReorderOptions &options, const Set &elements,
                             const Maps &...maps);

private:
  struct Entry {
    Set original, renumbered;
    Permutation perm;
  };

  // The entry of a set given as original or renumbered; null if untouched.
  const Entry *find(const Set &s) const {
    for (const auto &e : entries_)
      if (e.original == s || e.renumbered == s)
        return &e;
    return nullptr;
  }
  // The entry of an original set (null if untouched); `what` on a set that
  // is already renumbered is an Error.
  const Entry *original_entry(const Set &s, const std::string &what) const {
    const Entry *e = find(s);
    if (e && e->renumbered == s)
      detail::fail("Renumbering::apply: ", what, " is already in the new numbering of set '",
                   s.name(), "'");
    return e;
  }

  ReorderOptions options_;
  std::vector<Entry> entries_;
  std::shared_ptr<const std::vector<int>> blocks_;
  PhaseTimes phases_;
  std::string file_note_;
};

/// Computes the renumbering `options.method` asks for, from the loop over
/// `elements` and the maps its plan uses (read_only(map) allowed: those
/// maps' sets are renumbered too, but only written maps constrain colours).
/// Every set the maps touch is renumbered; a map from `elements` to itself
/// is an Error.
template <class... Maps>
Renumbering reorder(const ReorderOptions &options, const Set &elements, const Maps &...maps) {
  detail::check_reorder_options(options); // a wrong option is wrong in every build
  if (!reorder_available(options.method))
    detail::fail("reorder '", reorder_name(options.method), "': umesh was built without ",
                 options.method == Reorder::gps ? "Scotch" : "METIS");
  auto check = [&](const auto &wrapped) {
    const auto &map = detail::unwrap(wrapped);
    if (map.from() != elements)
      detail::fail("reorder: map '", map.name(), "' maps from set '", map.from().name(),
                   "', not from the element set '", elements.name(), "'");
    if (map.to() == elements)
      detail::fail("reorder: map '", map.name(), "' maps set '", elements.name(),
                   "' to itself, which one renumbering of elements and points cannot serve");
  };
  (check(maps), ...);
  Renumbering r;
  r.options_ = options;
  if (options.method == Reorder::none)
    return r;
  const detail::HostMaps host = detail::host_maps(maps...);
  const int n = elements.size();
  detail::RenumberResult result;
  const bool file = !options.plan_file.empty();
  if (file && detail::file_exists(options.plan_file)) {
    Kokkos::Timer t;
    result = detail::read_renumbering_file(options.plan_file, n, host.maps, options);
    result.phases.push_back({"load", t.seconds()});
    r.file_note_ = "loaded from " + options.plan_file;
  } else {
    result = detail::compute_renumbering(options, n, host.maps, elements.name());
    if (file) {
      detail::write_renumbering_file(options.plan_file, result, n, host.maps, options);
      r.file_note_ = "saved to " + options.plan_file;
    }
  }
  r.entries_.push_back(
      {elements, Set::renumbering_of(elements), Permutation(std::move(result.elements))});
  for (std::size_t t = 0; t < host.targets.size(); ++t)
    r.entries_.push_back({host.targets[t], Set::renumbering_of(host.targets[t]),
                          Permutation(std::move(result.targets[t]))});
  if (!result.blocks.empty())
    r.blocks_ = std::make_shared<const std::vector<int>>(std::move(result.blocks));
  r.phases_ = std::move(result.phases);
  return r;
}

} // namespace umesh

#endif
