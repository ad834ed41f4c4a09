#ifndef UMESH_DETAIL_AUTO_CANDIDATES_HPP
#define UMESH_DETAIL_AUTO_CANDIDATES_HPP

// exec::Auto's candidates: each executor tag of the list contributes its
// variants (named as umesh_main names its rows: umesh/exec_names.hpp), and
// the options' `candidates` must name some of them.

#include <umesh/exec.hpp>
#include <umesh/exec_auto.hpp>
#include <umesh/exec_names.hpp>

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::detail {

struct AutoCandidate {
  /// Its executor's position among exec::AutoAll's candidates (AutoKinds).
  using Kind = int;
  Kind kind = 0;
  exec::HierarchicalLoopOptions loop_options; // hierarchical: staging, combine, writeback
  int block_size = 0;
  std::string name;
  bool scratch_atomics = false; // segmented
  int max_registers = 0;        // warp
  bool compact_maps = false;    // warp
  int slot = 0;                 // position of its executor in the candidate list
  bool reproducible = false;    // its executor's trait under its loop options, on this backend
};

/// Every executor exec::Auto can choose, in the registry's order (the
/// tuning files' keys list a candidate list's names in this order).
using AutoKinds = exec::candidates_of<exec::AutoAll>::type;

/// The kind of candidates executor tag E gives exec::Auto.
template <class E> constexpr AutoCandidate::Kind auto_kind() {
  constexpr std::size_t i = exec::index_of<exec::registered_t<E>>(AutoKinds{});
  static_assert(i < exec::index_of<void>(AutoKinds{}),
                "exec::AutoOf: a candidate is an executor the registry marks 'candidate' "
                "(umesh/exec_registry.hpp)");
  return AutoCandidate::Kind(i);
}

/// Appends every candidate one executor of the list gives (kind), in the
/// order the summary lists them, marked with its position `slot` in the
/// list and whether it is reproducible; `c`: the backend's concurrency (host
/// backends run one kernel per executor: no register budgets, blocks per
/// team or scratch atomics); `hier_kernels`: the hierarchical kernels the
/// list's tag compiles (exec::HierarchicalKernels flags), whose variants are
/// the only hierarchical candidates. Under the options' `reproducible`, only
/// reproducible candidates are appended.
void add_auto_candidates(AutoCandidate::Kind kind, int slot, const exec::AutoOptions &o,
                         exec::Concurrency c, unsigned hier_kernels,
                         std::vector<AutoCandidate> &out);

/// Fails when the options ask for reproducible candidates and `kinds` (the
/// list's executors) gave none on a backend of concurrency `c`.
void check_reproducible_left(const exec::AutoOptions &o, const std::vector<AutoCandidate> &all,
                             const std::vector<AutoCandidate::Kind> &kinds, exec::Concurrency c);

/// The hierarchical kernels executor tag E compiles (0: not hierarchical).
template <class E> constexpr unsigned hierarchical_kernels() {
  if constexpr (exec::is_hierarchical_v<E>)
    return E::kernels;
  else
    return 0;
}

/// Fails (umesh::Error) on the options' errors that do not depend on the
/// candidates.
void check_auto_options(const exec::AutoOptions &o);

/// Keeps the candidates `only` names (all when empty); a name that is none
/// of them is an Error listing what the plan has.
void keep_only(std::vector<AutoCandidate> &all, const std::vector<std::string> &only);

} // namespace umesh::detail

#endif
