#ifndef UMESH_DETAIL_TUPLE_HPP
#define UMESH_DETAIL_TUPLE_HPP

// A minimal tuple usable in device code (std::tuple's members are not
// marked for the device in every Kokkos backend).

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace umesh::detail {

struct Empty {};

template <std::size_t I, class T> struct TupleLeaf { T value; };

template <class Seq, class... T> struct TupleImpl;
template <std::size_t... I, class... T>
struct TupleImpl<std::index_sequence<I...>, T...> : TupleLeaf<I, T>... {
  TupleImpl() = default;
  template <class... U,
            class = std::enable_if_t<sizeof...(U) == sizeof...(T) && (sizeof...(U) > 0)>>
  KOKKOS_INLINE_FUNCTION TupleImpl(const U &...v) : TupleLeaf<I, T>{v}... {}
};

template <class... T> struct Tuple : TupleImpl<std::index_sequence_for<T...>, T...> {
  using TupleImpl<std::index_sequence_for<T...>, T...>::TupleImpl;
};

template <std::size_t I, class T> KOKKOS_INLINE_FUNCTION T &get(TupleLeaf<I, T> &leaf) {
  return leaf.value;
}
template <std::size_t I, class T> KOKKOS_INLINE_FUNCTION const T &get(const TupleLeaf<I, T> &leaf) {
  return leaf.value;
}
template <std::size_t I, class T>
KOKKOS_INLINE_FUNCTION volatile T &get(volatile TupleLeaf<I, T> &leaf) {
  return leaf.value;
}
template <std::size_t I, class T>
KOKKOS_INLINE_FUNCTION const volatile T &get(const volatile TupleLeaf<I, T> &leaf) {
  return leaf.value;
}

// A reduction value: Kokkos wants its size to be a multiple of sizeof(int),
// which a tuple of empty members is not.
template <class... T> struct alignas(8) ReduceTuple : Tuple<T...> { using Tuple<T...>::Tuple; };

// Fixed-size array for thread-private buffers and reduction values.
template <class T, int N> struct Array {
  T v[N] = {};
};

} // namespace umesh::detail

#endif
