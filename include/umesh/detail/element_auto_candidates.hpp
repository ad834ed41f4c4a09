#ifndef UMESH_DETAIL_ELEMENT_AUTO_CANDIDATES_HPP
#define UMESH_DETAIL_ELEMENT_AUTO_CANDIDATES_HPP

// exec::ElementAutoOf's candidates: each strategy of its list at each team
// shape the options allow, named "<strategy>/e<elements per team>/l<lanes>"
// (compiled once, in src/element_auto.cpp).

#include <umesh/detail/auto_candidates.hpp>
#include <umesh/element_exec.hpp>

#include <string>
#include <vector>

namespace umesh::detail {

/// The strategies an ElementAutoOf list may hold.
enum class ElementStrategy { atomic, colour, gather };

struct ElementCandidate {
  int strategy = 0;       // position of its strategy in the plan's list
  bool one_launch = true; // colour: all colours in one launch
  int per_team = 1, lanes = 1;
  std::string name;
};

/// Every candidate of `strategies` (the list's, in order) under options `o`;
/// `host`: a host backend (lanes run in turn there: one lane each). Fails
/// (umesh::Error) on bad options: elements per team outside [1, 1024], lanes
/// not a power of two in [1, 32], work below 1, the tuner's options (the
/// tuner checks the names in o.tuning.candidates), or no candidate left.
std::vector<ElementCandidate>
element_auto_candidates(const exec::ElementAutoOptions &o,
                        const std::vector<ElementStrategy> &strategies, bool host);

/// The tuner's view of them: a name each, `slot` their position in `c`.
std::vector<AutoCandidate> as_auto_candidates(const std::vector<ElementCandidate> &c);

/// A loop's signature for the tuner: the kernel's and arguments' type names
/// and the strategy list, hashed, marked as an element loop's.
std::string element_signature(const std::vector<const char *> &type_names,
                              const std::vector<ElementStrategy> &strategies);

} // namespace umesh::detail

#endif
