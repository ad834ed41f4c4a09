#ifndef UMESH_DECIMAL_HPP
#define UMESH_DECIMAL_HPP

// The one spelling of a real number every umesh input takes (command lines,
// Gmsh files, miniaero.inp, reference results), for programs that read
// inputs of their own the same way. strtod alone also reads hexadecimal
// floats ("0x1p3"), "inf", "infinity" and "nan" in any case, and skips
// leading blanks: spellings nobody means in a mesh or an expected energy,
// which would pass silently as some value.

#include <cstddef>
#include <string_view>

namespace umesh {

/// True when `t` is, whole, a decimal number: an optional sign, digits with
/// at most one '.' (at least one digit in all), then optionally 'e' or 'E',
/// an optional sign and digits. "1", "-2.5", ".5", "5.", "1e-3" are;
/// "0x1p3", "inf", "nan", " 1", "1,5", "1e", "" are not.
inline bool is_decimal_real(std::string_view t) {
  std::size_t i = 0, digits = 0;
  auto sign = [&] {
    if (i < t.size() && (t[i] == '+' || t[i] == '-'))
      ++i;
  };
  auto run_of_digits = [&] {
    const std::size_t start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9')
      ++i;
    return i - start;
  };
  sign();
  digits += run_of_digits();
  if (i < t.size() && t[i] == '.') {
    ++i;
    digits += run_of_digits();
  }
  if (digits == 0)
    return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    sign();
    if (run_of_digits() == 0)
      return false;
  }
  return i == t.size();
}

} // namespace umesh

#endif
