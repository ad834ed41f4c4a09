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

namespace detail {
template <class... Parts> [[noreturn]] void fail(Parts &&...parts) {
  std::ostringstream os;
  os << "umesh: ";
  (os << ... << std::forward<Parts>(parts));
  throw Error(os.str());
}
} // namespace detail

} // namespace umesh

#endif
