#ifndef UMESH_APPS_COMMON_CHUNKS_HPP
#define UMESH_APPS_COMMON_CHUNKS_HPP

// Host work cut into contiguous pieces on std::threads: the apps' mesh
// generators build slabs of planes this way before Kokkos' device work
// starts (and without asking which host backend Kokkos was built with).

#include <algorithm>
#include <cstdint>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace umesh::apps {

/// fn(first, last) over [0, n) cut into up to `threads` pieces, each on a
/// thread of its own (the calling thread takes the first). An exception in
/// any piece (out of memory) reaches the caller, not std::terminate.
template <class Fn> void in_chunks(int n, int threads, Fn fn) {
  const int pieces = std::max(1, std::min(threads, n));
  auto bound = [&](int t) { return int(std::int64_t(n) * t / pieces); };
  std::vector<std::exception_ptr> failed(pieces);
  auto piece = [&](int t) {
    try {
      fn(bound(t), bound(t + 1));
    } catch (...) {
      failed[t] = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < pieces; ++t) {
    try {
      workers.emplace_back(piece, t);
    } catch (const std::system_error &) { // no thread to be had: this one does it
      piece(t);
    }
  }
  piece(0);
  for (auto &w : workers)
    w.join();
  for (const auto &e : failed)
    if (e)
      std::rethrow_exception(e);
}

} // namespace umesh::apps

#endif
