#ifndef UMESH_DETAIL_SET_MISMATCH_HPP
#define UMESH_DETAIL_SET_MISMATCH_HPP

// The part of a loop's error that says why an object (a dat, a map) on one
// set is not on the set the loop needs. One set in two numberings (what
// umesh::reorder makes: a new set of the same name) gets a sentence that
// says what to do; other sets of one name are told apart by identity.

#include <umesh/set.hpp>

#include <string>

namespace umesh::detail {

/// `what` ("dat 'q'", "map 'pecell'") on set `have`, where `needed` ("the
/// loop runs over", "map 'pecell' maps to") set `want`; `fix` is how the
/// object is moved into the new numbering ("r.apply(q)").
inline std::string set_mismatch(const std::string &what, const Set &have, const std::string &needed,
                                const Set &want, const std::string &fix) {
  const std::string have_name = "'" + have.name() + "'";
  if (want.renumbers(have))
    return what + " belongs to set " + have_name + " before renumbering, but " + needed + " set " +
           have_name + " as renumbered: pass " + fix +
           ", its copy in the new numbering, or make it on r.set(" + have.name() +
           ") (r: the umesh::Renumbering)";
  if (have.renumbers(want))
    return what + " belongs to set " + have_name + " as renumbered, but " + needed + " set " +
           have_name + " before renumbering: run the loop in the new numbering (a plan over " +
           "r.set(...) and maps from r.apply(map)), or bring the dat back with r.to_original(...)" +
           " (r: the umesh::Renumbering)";
  if (have.name() == want.name())
    return what + " is on a set named " + have_name + ", but " + needed +
           " another set of that name (sets are told apart by identity, not by name)";
  return what + " is on set " + have_name + ", but " + needed + " set '" + want.name() + "'";
}

} // namespace umesh::detail

#endif
