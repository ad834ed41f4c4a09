#ifndef UMESH_DETAIL_ORDERED_REDUCE_HPP
#define UMESH_DETAIL_ORDERED_REDUCE_HPP

// Loop reductions on host backends in an order the thread count does not
// change. Kokkos folds a reduction per host thread, each over the elements it
// was dealt, then the threads' values: a floating-point sum's last bits would
// move with OMP_NUM_THREADS. Here the pieces are fixed by the launch alone
// (chunks of a range, the threads of a league's teams), each folded on its
// own, then all of them in order, on one thread.

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace umesh::detail {

/// Elements per piece of a range launch's reduction.
inline constexpr int ordered_chunk = 1024;

template <class P, class = void> struct is_team_policy : std::false_type {};
template <class P>
struct is_team_policy<P, std::void_t<decltype(std::declval<const P &>().league_size())>>
    : std::true_type {};

// Chunk c of [begin, end), folded in element order into partial[c].
template <class Body, class F> struct OrderedChunks {
  using Value = typename Body::reduce_value;
  F f;
  int begin, end;
  Value *partial;
  KOKKOS_INLINE_FUNCTION void operator()(int c) const {
    Value v;
    Body::init(v);
    const int lo = begin + c * ordered_chunk;
    const int hi = end - lo < ordered_chunk ? end : lo + ordered_chunk;
    for (int i = lo; i < hi; ++i)
      f(i, v);
    partial[c] = v;
  }
};

// Each thread of each team folds into its own entry.
template <class Body, class F, class Member> struct OrderedTeams {
  using Value = typename Body::reduce_value;
  F f;
  int team_size;
  Value *partial;
  KOKKOS_INLINE_FUNCTION void operator()(const Member &m) const {
    Value v;
    Body::init(v);
    f(m, v);
    partial[std::size_t(m.league_rank()) * team_size + m.team_rank()] = v;
  }
};

/// Runs the reduction functor `f` of loop body type Body under `policy` (a
/// range or team policy of a host backend) and leaves its result in
/// `result`: the same bits on any thread count.
template <class Body, class Policy, class F>
void ordered_host_reduce(const std::string &label, const Policy &policy, const F &f,
                         typename Body::reduce_value &result) {
  using Value = typename Body::reduce_value;
  std::vector<Value> partial;
  if constexpr (is_team_policy<Policy>::value) {
    const int teams = policy.league_size(), size = policy.team_size();
    partial.resize(std::size_t(teams) * size);
    Kokkos::parallel_for(
        label, policy,
        OrderedTeams<Body, F, typename Policy::member_type>{f, size, partial.data()});
  } else {
    const int begin = int(policy.begin()), end = int(policy.end());
    const int chunks = end > begin ? (end - begin + ordered_chunk - 1) / ordered_chunk : 0;
    partial.resize(std::size_t(chunks));
    using Space = typename Policy::execution_space;
    Kokkos::parallel_for(
        label, Kokkos::RangePolicy<Space, Kokkos::IndexType<int>>(policy.space(), 0, chunks),
        OrderedChunks<Body, F>{f, begin, end, partial.data()});
  }
  policy.space().fence();
  Body::init(result);
  for (auto &p : partial)
    Body::join(result, p);
}

} // namespace umesh::detail

#endif
