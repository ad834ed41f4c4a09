#ifndef UMESH_ERROR_HPP
#define UMESH_ERROR_HPP

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace umesh {

/// Every invalid input umesh detects is reported with this exception; the
/// message names the object and the offending value.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Throws umesh::Error with "umesh: " and `parts` streamed one after the
/// other: how umesh reports invalid input, for applications built on it to
/// report theirs the same way (their command-line front ends print the
/// message and exit with the bad-input status).
template <class... Parts> [[noreturn]] void fail(Parts &&...parts) {
  std::ostringstream os;
  os << "umesh: ";
  (os << ... << std::forward<Parts>(parts));
  throw Error(os.str());
}

namespace detail {
using umesh::fail; // (the library's own code calls it detail::fail)
} // namespace detail

} // namespace umesh

#endif
