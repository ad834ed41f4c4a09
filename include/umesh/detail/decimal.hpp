#ifndef UMESH_DETAIL_DECIMAL_HPP
#define UMESH_DETAIL_DECIMAL_HPP

// Library-internal spelling of umesh/decimal.hpp's check.

#include <umesh/decimal.hpp>

namespace umesh::detail {

using umesh::is_decimal_real;

} // namespace umesh::detail

#endif
