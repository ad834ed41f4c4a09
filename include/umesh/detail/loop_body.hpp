#ifndef UMESH_DETAIL_LOOP_BODY_HPP
#define UMESH_DETAIL_LOOP_BODY_HPP

// The per-element body shared by every executor, and the launches that run
// it over a range of elements (optionally through a permutation).

#include <umesh/detail/tuple.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <utility>

namespace umesh::detail {

template <class Dev>
using accessor_t = decltype(std::declval<const Dev &>().bind(
    0, std::declval<typename Dev::storage_type &>(),
    std::declval<typename Dev::reduce_type &>()));

template <class Kernel, class... Devs> struct LoopBody {
  static_assert(std::is_invocable<const Kernel &, accessor_t<Devs>...>::value,
                "umesh::par_loop: the kernel cannot be called with one accessor "
                "per loop argument. Check that it takes as many parameters as "
                "the loop has arguments, in the same order, and that its "
                "operator() is const.");

  using reduce_value = ReduceTuple<typename Devs::reduce_type...>;
  static constexpr bool has_reduction =
      (!std::is_same<typename Devs::reduce_type, Empty>::value || ... || false);

  Kernel kernel;
  Tuple<Devs...> devs;

  KOKKOS_INLINE_FUNCTION void operator()(int e, reduce_value &red) const {
    run(e, red, std::index_sequence_for<Devs...>{});
  }

  KOKKOS_INLINE_FUNCTION void init(reduce_value &red) const {
    init(red, std::index_sequence_for<Devs...>{});
  }
  template <class D, class S>
  KOKKOS_INLINE_FUNCTION void join(D &dst, S &src) const {
    join(dst, src, std::index_sequence_for<Devs...>{});
  }

private:
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void run(int e, reduce_value &red,
                                  std::index_sequence<I...>) const {
    Tuple<typename Devs::storage_type...> storage{};
    kernel(get<I>(devs).bind(e, get<I>(storage), get<I>(red))...);
    (get<I>(devs).finish(e, get<I>(storage)), ...);
  }
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void init(reduce_value &red,
                                   std::index_sequence<I...>) const {
    (Devs::init(get<I>(red)), ...);
  }
  template <class D, class S, std::size_t... I>
  KOKKOS_INLINE_FUNCTION void join(D &dst, S &src,
                                   std::index_sequence<I...>) const {
    (Devs::join(get<I>(dst), get<I>(src)), ...);
  }
};

// Element i of a launch: perm[i] when a permutation is given.
template <class Body> struct ForFunctor {
  Body body;
  const int *perm;
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    typename Body::reduce_value unused;
    body(perm ? perm[i] : i, unused);
  }
};

template <class Body> struct ReduceFunctor {
  using value_type = typename Body::reduce_value;
  Body body;
  const int *perm;
  KOKKOS_INLINE_FUNCTION void operator()(int i, value_type &red) const {
    body(perm ? perm[i] : i, red);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type &red) const { body.init(red); }
#if KOKKOS_VERSION < 40000
  KOKKOS_INLINE_FUNCTION void join(volatile value_type &dst,
                                   const volatile value_type &src) const {
    body.join(dst, src);
  }
#else
  KOKKOS_INLINE_FUNCTION void join(value_type &dst,
                                   const value_type &src) const {
    body.join(dst, src);
  }
#endif
};

// The reference executor's launch: one thread walks all elements in order.
template <class Body> struct SequentialFunctor {
  using value_type = typename Body::reduce_value;
  Body body;
  int n;
  KOKKOS_INLINE_FUNCTION void operator()(int, value_type &red) const {
    for (int e = 0; e < n; ++e)
      body(e, red);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type &red) const { body.init(red); }
#if KOKKOS_VERSION < 40000
  KOKKOS_INLINE_FUNCTION void join(volatile value_type &dst,
                                   const volatile value_type &src) const {
    body.join(dst, src);
  }
#else
  KOKKOS_INLINE_FUNCTION void join(value_type &dst,
                                   const value_type &src) const {
    body.join(dst, src);
  }
#endif
};

/// Runs `body` for elements [begin, end) (through `perm` if given) and
/// folds the reduction into `total`.
template <class Space, class Body>
void launch_range(const Space &space, const std::string &label,
                  const Body &body, int begin, int end, const int *perm,
                  typename Body::reduce_value &total) {
  if (begin >= end)
    return;
  Kokkos::RangePolicy<Space, Kokkos::IndexType<int>> policy(space, begin, end);
  if constexpr (Body::has_reduction) {
    typename Body::reduce_value partial;
    Kokkos::parallel_reduce(label, policy, ReduceFunctor<Body>{body, perm},
                            partial);
    body.join(total, partial);
  } else {
    Kokkos::parallel_for(label, policy, ForFunctor<Body>{body, perm});
  }
}

template <class Space, class Body>
void launch_sequential(const Space &space, const std::string &label,
                       const Body &body, int n,
                       typename Body::reduce_value &total) {
  if (n == 0)
    return;
  typename Body::reduce_value partial;
  Kokkos::parallel_reduce(label, Kokkos::RangePolicy<Space, Kokkos::IndexType<int>>(space, 0, 1),
                          SequentialFunctor<Body>{body, n}, partial);
  body.join(total, partial);
}

} // namespace umesh::detail

#endif
