#ifndef UMESH_DETAIL_ELEMENT_TABLES_HPP
#define UMESH_DETAIL_ELEMENT_TABLES_HPP

// Tables of element loops (umesh::table): copied by the whole team into its
// scratch once, before its elements run, and read from there.

#include <umesh/detail/scratch.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace umesh {

/// The accessor of a table: `tab(i)`, `tab(i, j)` or `tab(i, j, l)` read the
/// team's copy (row-major whatever the View's layout); extent(r) its sizes.
template <class T, int Rank> struct TableAccessor {
  const T *data;
  int n[3];
  KOKKOS_INLINE_FUNCTION int extent(int r) const { return n[r]; }
  KOKKOS_INLINE_FUNCTION const T &operator()(int i) const {
    static_assert(Rank == 1, "umesh: this table has more than one index");
    return data[i];
  }
  KOKKOS_INLINE_FUNCTION const T &operator()(int i, int j) const {
    static_assert(Rank == 2, "umesh: this table does not have two indices");
    return data[i * n[1] + j];
  }
  KOKKOS_INLINE_FUNCTION const T &operator()(int i, int j, int l) const {
    static_assert(Rank == 3, "umesh: this table does not have three indices");
    return data[(i * n[1] + j) * n[2] + l];
  }
};

namespace detail {

// A table bound to a loop: its View and its place in team scratch.
template <class ViewT> struct TableDev {
  using T = typename ViewT::non_const_value_type;
  static constexpr int rank = int(ViewT::rank);
  ViewT view;
  int offset; // bytes into the team's scratch
  int n[3];

  KOKKOS_INLINE_FUNCTION int size() const { return n[0] * n[1] * n[2]; }

  /// The whole team copies the table, 32 values per thread and row of the loop.
  template <class Member> KOKKOS_INLINE_FUNCTION void stage(const Member &m, char *team) const {
    T *dst = scratch_at<T>(team, offset);
    const int total = size(), rows = (total + 31) / 32;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, rows), [&](int r) {
      const int begin = r * 32, count = total - begin < 32 ? total - begin : 32;
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, count), [&](int c) {
        const int x = begin + c;
        if constexpr (rank == 1)
          dst[x] = view(x);
        else if constexpr (rank == 2)
          dst[x] = view(x / n[1], x % n[1]);
        else
          dst[x] = view(x / (n[1] * n[2]), (x / n[2]) % n[1], x % n[2]);
      });
    });
  }
  KOKKOS_INLINE_FUNCTION TableAccessor<T, rank> bind(char *team) const {
    return {scratch_at<const T>(team, offset), {n[0], n[1], n[2]}};
  }
};

} // namespace detail
} // namespace umesh

#endif
