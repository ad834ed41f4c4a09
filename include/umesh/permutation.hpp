#ifndef UMESH_PERMUTATION_HPP
#define UMESH_PERMUTATION_HPP

// A renumbering of one set: a bijection between the original numbering and
// a new one, with helpers that move View rows between the two.

#include <umesh/dat.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace umesh {

class Permutation {
public:
  Permutation() = default;
  /// From the new index of every original index; fails unless it is a
  /// bijection of [0, n).
  explicit Permutation(std::vector<int> new_of_old) : new_of_old_(std::move(new_of_old)) {
    const int n = size();
    old_of_new_.assign(n, -1);
    for (int old = 0; old < n; ++old) {
      const int i = new_of_old_[old];
      if (i < 0 || i >= n)
        detail::fail("permutation: original index ", old, " maps to ", i, ", outside [0, ", n, ")");
      if (old_of_new_[i] >= 0)
        detail::fail("permutation: original indices ", old_of_new_[i], " and ", old,
                     " both map to ", i);
      old_of_new_[i] = old;
    }
  }
  static Permutation identity(int n) {
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i)
      v[i] = i;
    return Permutation(std::move(v));
  }

  int size() const { return int(new_of_old_.size()); }
  int new_index(int original) const { return new_of_old_[original]; }
  int original_index(int renumbered) const { return old_of_new_[renumbered]; }
  const std::vector<int> &new_of_old() const { return new_of_old_; }
  const std::vector<int> &old_of_new() const { return old_of_new_; }
  bool is_identity() const {
    for (int i = 0; i < size(); ++i)
      if (new_of_old_[i] != i)
        return false;
    return true;
  }

  /// Rows of `view` (rank 1 or 2, one row per original index) in the new
  /// numbering: out(new_index(i), ...) = view(i, ...). Any memory space.
  template <class View> View from_original(const View &view) const {
    return permute_rows(view, new_of_old_);
  }
  /// The inverse of from_original.
  template <class View> View to_original(const View &view) const {
    return permute_rows(view, old_of_new_);
  }

private:
  // out(to[i]) = in(i), through host mirrors: setup work, not a hot loop.
  template <class View> View permute_rows(const View &in, const std::vector<int> &to) const {
    static_assert(int(View::rank) == 1 || int(View::rank) == 2,
                  "umesh::Permutation moves rows of rank-1 or rank-2 Views");
    // A dat's View may have a few rows past its set (Dat::rows()): they stay.
    const std::size_t n = std::size_t(size());
    std::size_t rows = n;
    if constexpr (int(View::rank) == 2)
      rows = detail::dat_rows<typename View::non_const_value_type, int(View::static_extent(1)),
                              typename View::array_layout>(n);
    if (in.extent(0) != n && in.extent(0) != rows)
      detail::fail("permutation of ", size(), " indices applied to View '", in.label(), "' with ",
                   in.extent(0), " rows");
    View out(Kokkos::view_alloc(Kokkos::WithoutInitializing, in.label()), in.layout());
    auto src = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), in);
    auto dst = Kokkos::create_mirror(out);
    if constexpr (int(View::rank) == 2)
      for (std::size_t i = n; i < src.extent(0); ++i)
        for (std::size_t k = 0; k < src.extent(1); ++k)
          dst(i, k) = src(i, k);
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (int(View::rank) == 1)
        dst(to[i]) = src(i);
      else
        for (std::size_t k = 0; k < src.extent(1); ++k)
          dst(to[i], k) = src(i, k);
    }
    Kokkos::deep_copy(out, dst);
    return out;
  }

  std::vector<int> new_of_old_, old_of_new_;
};

} // namespace umesh

#endif
