#ifndef UMESH_PLAN_FILE_HPP
#define UMESH_PLAN_FILE_HPP

// Plan files (exec::Hierarchical::with_plan_file,
// ReorderOptions::with_plan_file), for programs that check, inspect or write
// them: a saved hierarchical plan or renumbering read back after the checks
// make_plan and reorder make before using one, or one written in the format
// they load. A file is tied to its maps and options: it is read only for
// the same set, maps (in the same order, read_only alike) and plan options
// it was written for, and anything else is an Error naming the file and the
// reason (docs/reordering.md).

#include <umesh/block_plan.hpp>
#include <umesh/detail/hierarchical_builder.hpp>
#include <umesh/error.hpp>
#include <umesh/exec.hpp>
#include <umesh/plan.hpp>
#include <umesh/renumber.hpp>
#include <umesh/set.hpp>

#include <string>

namespace umesh {

namespace detail {
template <class... Maps>
HostMaps plan_file_maps(const char *what, const Set &set, const Maps &...maps) {
  auto check = [&](const auto &wrapped) {
    const auto &map = unwrap(wrapped);
    if (map.from() != set)
      fail(what, ": map '", map.name(), "' maps from set '", map.from().name(), "', not from '",
           set.name(), "'");
  };
  (check(maps), ...);
  return host_maps(maps...);
}
} // namespace detail

/// The hierarchical plan `path` holds for loops over `set` through `maps`
/// (as given to make_plan) with the plan options of `options`. An Error
/// naming the file unless it is a plan file for them, undamaged, and holds a
/// valid plan (a permutation of the elements, blocks and colours that cover
/// it, staged points the maps give, no two blocks of one colour nor threads
/// of one colour in a block writing one point): what make_plan checks
/// before it uses a plan file.
template <class... Maps>
BlockPlan read_plan_file(const std::string &path, const exec::HierarchicalPlanOptions &options,
                         const Set &set, const Maps &...maps) {
  const detail::HostMaps host = detail::plan_file_maps("read_plan_file", set, maps...);
  return detail::read_hierarchical_plan_file(path, set.size(), host.maps, options);
}

/// Writes `plan` to `path` as the hierarchical plan of loops over `set`
/// through `maps` with the plan options of `options`, so that make_plan with
/// options.with_plan_file(path) loads it. Through a temporary of its own,
/// renamed into place (runs may save one file at once). The plan is not
/// checked here: make_plan and read_plan_file check it when they read it.
template <class... Maps>
void write_plan_file(const std::string &path, const BlockPlan &plan,
                     const exec::HierarchicalPlanOptions &options, const Set &set,
                     const Maps &...maps) {
  const detail::HostMaps host = detail::plan_file_maps("write_plan_file", set, maps...);
  detail::write_hierarchical_plan_file(path, plan, set.size(), host.maps, options);
}

/// The renumbering `path` holds for reorder(options, set, maps...). An Error
/// naming the file unless it is a renumbering file for them, undamaged, each
/// numbering a permutation and the blocks numbered from 0 in order, each
/// contiguous: what reorder checks before it uses a plan file.
template <class... Maps>
Numberings read_renumbering_file(const std::string &path, const ReorderOptions &options,
                                 const Set &set, const Maps &...maps) {
  const detail::HostMaps host = detail::plan_file_maps("read_renumbering_file", set, maps...);
  return detail::read_renumbering_file(path, set.size(), host.maps, options);
}

/// Writes `numbers` to `path` as the renumbering of reorder(options, set,
/// maps...), which then loads it. Through a temporary of its own, renamed
/// into place; not checked here: reorder and read_renumbering_file check it.
template <class... Maps>
void write_renumbering_file(const std::string &path, const Numberings &numbers,
                            const ReorderOptions &options, const Set &set, const Maps &...maps) {
  const detail::HostMaps host = detail::plan_file_maps("write_renumbering_file", set, maps...);
  detail::write_renumbering_file(path, numbers, set.size(), host.maps, options);
}

} // namespace umesh

#endif
