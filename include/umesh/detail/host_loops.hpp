#ifndef UMESH_DETAIL_HOST_LOOPS_HPP
#define UMESH_DETAIL_HOST_LOOPS_HPP

// Setup loops over every map entry (a Partition's, a Map's), on the host's threads
// (the setup is all host work, and at one rank per node the threads would
// otherwise idle). The work is dealt in chunks, each a plain loop the
// compiler can vectorise (a call per index through Kokkos's reduction was
// slower than the lookups it checked); short loops stay serial.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace umesh::detail {

inline constexpr std::int64_t host_chunk = 1 << 15;

/// The number of chunks of [0, n).
inline std::int64_t host_chunks(std::int64_t n) {
  return (n + host_chunk - 1) / host_chunk;
}

/// f(c, begin, end) for each chunk c = [begin, end) of [0, n), concurrently.
template <class F> void for_chunks(std::int64_t n, const F &f) {
  const std::int64_t chunks = host_chunks(n);
  auto run = [&](std::int64_t c) { f(c, c * host_chunk, std::min(n, (c + 1) * host_chunk)); };
  if (chunks <= 1) {
    for (std::int64_t c = 0; c < chunks; ++c)
      run(c);
    return;
  }
  using Policy =
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for("umesh::for_chunks", Policy(0, chunks), run);
}

/// f(i) for i in [0, n), in any order and concurrently.
template <class F> void host_for(std::int64_t n, const F &f) {
  for_chunks(n, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i)
      f(i);
  });
}

/// The smallest i in [0, n) with bad(i), or n: where a serial check would
/// have stopped first, so that messages name the same entry.
template <class F> std::int64_t first_where(std::int64_t n, const F &bad) {
  std::vector<std::int64_t> first(std::size_t(host_chunks(n)), n);
  for_chunks(n, [&](std::int64_t c, std::int64_t begin, std::int64_t end) {
    // Counted without branches first (most chunks have none).
    std::int64_t count = 0;
    for (std::int64_t i = begin; i < end; ++i)
      count += bad(i) ? 1 : 0;
    if (count > 0)
      for (std::int64_t i = begin; i < end; ++i)
        if (bad(i)) {
          first[std::size_t(c)] = i;
          break;
        }
  });
  return first.empty() ? n : *std::min_element(first.begin(), first.end());
}

/// What fill found: the first negative value written (or n), and whether
/// any reached `at_least`.
struct Filled {
  std::int64_t first_negative;
  bool any_at_least;
};

/// out[i] = value(i) for i in [0, n), concurrently, checked in the same
/// pass (the values still in cache): a map's rows turned to local points,
/// which are negative where a point is not local and reach the halo at
/// `at_least` (the owned count).
template <class F> Filled fill(std::int64_t n, int *out, int at_least, const F &value) {
  const std::size_t chunks = std::size_t(host_chunks(n));
  std::vector<std::int64_t> first(chunks, n);
  std::vector<char> reached(chunks, 0);
  for_chunks(n, [&](std::int64_t c, std::int64_t begin, std::int64_t end) {
    int negative = 0, high = 0;
    for (std::int64_t i = begin; i < end; ++i) {
      const int v = value(i);
      out[i] = v;
      negative |= v < 0;
      high |= v >= at_least;
    }
    reached[std::size_t(c)] = char(high);
    if (negative)
      first[std::size_t(c)] =
          std::find_if(out + begin, out + end, [](int v) { return v < 0; }) - out;
  });
  Filled f{n, false};
  for (std::size_t c = 0; c < chunks; ++c) {
    f.first_negative = std::min(f.first_negative, first[c]);
    f.any_at_least = f.any_at_least || reached[c];
  }
  return f;
}

} // namespace umesh::detail

#endif
