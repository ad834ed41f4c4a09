#ifndef UMESH_APPS_COMMON_BITS_HASH_HPP
#define UMESH_APPS_COMMON_BITS_HASH_HPP

// A hash of values' bits (FNV-1a over each value's bytes), for runs that
// compare their results bitwise by one line (--reproducible).

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace umesh::apps {

struct BitsHash {
  std::uint64_t value = 1469598103934665603ull;

  template <class T> void add(const T &v) {
    unsigned char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    for (const unsigned char c : bytes)
      value = (value ^ c) * 1099511628211ull;
  }

  /// As 16 hex digits.
  std::string hex() const {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
  }
};

} // namespace umesh::apps

#endif
