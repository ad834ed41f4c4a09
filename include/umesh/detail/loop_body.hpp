#ifndef UMESH_DETAIL_LOOP_BODY_HPP
#define UMESH_DETAIL_LOOP_BODY_HPP

// The per-element body shared by every executor, and the launches that run
// it over a range of elements (optionally through a permutation).

#include <umesh/detail/device_args.hpp>
#include <umesh/detail/host_sync.hpp>
#include <umesh/detail/ordered_reduce.hpp>
#include <umesh/detail/tuple.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <utility>

namespace umesh::detail {

template <class Dev>
using accessor_t =
    decltype(std::declval<const Dev &>().bind(std::declval<const TeamCtx &>(),
                                              std::declval<typename Dev::storage_type &>(),
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
  /// Some reduction goes into device globals (folded in by final()).
  static constexpr bool has_device_store = (stores_on_device<Devs>::value || ... || false);
  /// Some reduction's result is needed on the host (a umesh::Global): the
  /// host waits for each launch.
  static constexpr bool host_reduction =
      ((!std::is_same<typename Devs::reduce_type, Empty>::value &&
        !stores_on_device<Devs>::value) ||
       ... || false);

  Kernel kernel;
  Tuple<Devs...> devs;
  /// Device memory for launch results nobody reads (loops whose reductions
  /// all go into device globals; DeviceGlobal::sink).
  void *sink = nullptr;

  using storage = Tuple<typename Devs::storage_type...>;

  KOKKOS_INLINE_FUNCTION void operator()(int e, reduce_value &red) const {
    storage st{};
    const ElementCtx ctx{e};
    compute(ctx, st, red);
    finish(ctx, st);
  }

  /// Runs the kernel; buffered increments stay in `st` until finish().
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void compute(const Ctx &ctx, storage &st, reduce_value &red) const {
    compute(ctx, st, red, std::index_sequence_for<Devs...>{});
  }
  template <class Ctx> KOKKOS_INLINE_FUNCTION void finish(const Ctx &ctx, storage &st) const {
    finish(ctx, st, std::index_sequence_for<Devs...>{});
  }
  /// Calls f(dev) for every device argument (team staging and write-back).
  template <class F> KOKKOS_INLINE_FUNCTION void for_each(F &&f) const {
    for_each(f, std::index_sequence_for<Devs...>{});
  }

  // (Static: they read no argument's data, so a body passed by reference,
  // BodyRef, runs them on the host too.)
  KOKKOS_INLINE_FUNCTION static void init(reduce_value &red) {
    init(red, std::index_sequence_for<Devs...>{});
  }
  template <class D, class S> KOKKOS_INLINE_FUNCTION static void join(D &dst, S &src) {
    join(dst, src, std::index_sequence_for<Devs...>{});
  }
  /// A launch's reduction result, folded into the device globals.
  KOKKOS_INLINE_FUNCTION void final(const reduce_value &red) const {
    final(red, std::index_sequence_for<Devs...>{});
  }

private:
  template <class Ctx, std::size_t... I>
  KOKKOS_INLINE_FUNCTION void compute(const Ctx &ctx, storage &st, reduce_value &red,
                                      std::index_sequence<I...>) const {
    kernel(get<I>(devs).bind(ctx, get<I>(st), get<I>(red))...);
  }
  template <class Ctx, std::size_t... I>
  KOKKOS_INLINE_FUNCTION void finish(const Ctx &ctx, storage &st, std::index_sequence<I...>) const {
    (get<I>(devs).finish(ctx, get<I>(st)), ...);
  }
  template <class F, std::size_t... I>
  KOKKOS_INLINE_FUNCTION void for_each(F &f, std::index_sequence<I...>) const {
    (f(get<I>(devs)), ...);
  }
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION static void init(reduce_value &red, std::index_sequence<I...>) {
    (Devs::init(get<I>(red)), ...);
  }
  template <class D, class S, std::size_t... I>
  KOKKOS_INLINE_FUNCTION static void join(D &dst, S &src, std::index_sequence<I...>) {
    (Devs::join(get<I>(dst), get<I>(src)), ...);
  }
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void final(const reduce_value &red, std::index_sequence<I...>) const {
    (store_one(get<I>(devs), get<I>(red)), ...);
  }
  template <class Dev, class R>
  KOKKOS_INLINE_FUNCTION static void store_one(const Dev &d, const R &r) {
    if constexpr (stores_on_device<Dev>::value)
      d.store(r);
  }
};

/// A loop body passed by reference: LoopBody's interface over a copy of the
/// body that a recorded graph keeps in device memory (bind.hpp's run_loop,
/// for bodies too large to go as a kernel argument while CUDA records).
template <class Body> struct BodyRef {
  using reduce_value = typename Body::reduce_value;
  using storage = typename Body::storage;
  static constexpr bool has_reduction = Body::has_reduction;
  static constexpr bool has_device_store = Body::has_device_store;
  static constexpr bool host_reduction = Body::host_reduction;

  const Body *body;
  void *sink = nullptr; // the body's (reduce_launch reads it on the host)

  KOKKOS_INLINE_FUNCTION void operator()(int e, reduce_value &red) const { (*body)(e, red); }
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void compute(const Ctx &ctx, storage &st, reduce_value &red) const {
    body->compute(ctx, st, red);
  }
  template <class Ctx> KOKKOS_INLINE_FUNCTION void finish(const Ctx &ctx, storage &st) const {
    body->finish(ctx, st);
  }
  template <class F> KOKKOS_INLINE_FUNCTION void for_each(F &&f) const {
    body->for_each(static_cast<F &&>(f));
  }
  KOKKOS_INLINE_FUNCTION static void init(reduce_value &red) { Body::init(red); }
  template <class D, class S> KOKKOS_INLINE_FUNCTION static void join(D &dst, S &src) {
    Body::join(dst, src);
  }
  KOKKOS_INLINE_FUNCTION void final(const reduce_value &red) const { body->final(red); }
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

// init/join of a reduction functor, forwarded to the loop body. Kokkos 3
// calls join on volatile references, Kokkos 4 on plain ones. With device
// globals, also final(): Kokkos calls it once per launch on the launch's
// result, on the device (a functor without final() makes Kokkos do less).
template <class Body, bool Final = Body::has_device_store> struct ReduceHooks;
template <class Body> struct ReduceHooks<Body, false> {
  using value_type = typename Body::reduce_value;
  Body body;
  KOKKOS_INLINE_FUNCTION void init(value_type &red) const { body.init(red); }
#if KOKKOS_VERSION < 40000
  KOKKOS_INLINE_FUNCTION void join(volatile value_type &dst, const volatile value_type &src) const {
    body.join(dst, src);
  }
#else
  KOKKOS_INLINE_FUNCTION void join(value_type &dst, const value_type &src) const {
    body.join(dst, src);
  }
#endif
};
template <class Body> struct ReduceHooks<Body, true> : ReduceHooks<Body, false> {
  KOKKOS_INLINE_FUNCTION void final(typename Body::reduce_value &red) const {
    this->body.final(red);
  }
};

/// Runs Kokkos' reduction of functor `f` under `policy`: into the host's
/// `total` when the loop has umesh::Global reductions (the host waits), else
/// into the loop's device sink (every result is folded into device globals
/// by final(); the host does not wait). Host backends fold in an order the
/// thread count does not change (ordered_reduce.hpp).
template <class Space, class Body, class Policy, class F>
void reduce_launch(const std::string &label, const Policy &policy, const F &f, const Body &body,
                   typename Body::reduce_value &total) {
  using Value = typename Body::reduce_value;
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename Space::memory_space>::accessible) {
    Value result;
    const auto run = [&] { ordered_host_reduce<Body>(label, policy, f, result); };
    if constexpr (Body::host_reduction)
      as_host_sync(run);
    else
      run();
    if constexpr (Body::has_device_store)
      f.final(result); // as Kokkos does with a launch's result
    if constexpr (Body::host_reduction)
      body.join(total, result);
  } else if constexpr (Body::host_reduction) {
    Value partial;
    as_host_sync([&] { Kokkos::parallel_reduce(label, policy, f, partial); });
    body.join(total, partial);
  } else {
    const Kokkos::View<Value, typename Space::memory_space, Kokkos::MemoryUnmanaged> sink(
        static_cast<Value *>(body.sink));
    Kokkos::parallel_reduce(label, policy, f, sink);
  }
}

template <class Body> struct ReduceFunctor : ReduceHooks<Body> {
  const int *perm;
  KOKKOS_INLINE_FUNCTION void operator()(int i, typename Body::reduce_value &red) const {
    this->body(perm ? perm[i] : i, red);
  }
};

// The reference executor's launch: one thread walks all elements in order.
template <class Body> struct SequentialFunctor : ReduceHooks<Body> {
  int n;
  const int *perm;
  KOKKOS_INLINE_FUNCTION void operator()(int, typename Body::reduce_value &red) const {
    for (int i = 0; i < n; ++i)
      this->body(perm ? perm[i] : i, red);
  }
};

template <class Body> struct SequentialForFunctor {
  Body body;
  int n;
  const int *perm;
  KOKKOS_INLINE_FUNCTION void operator()(int) const {
    typename Body::reduce_value unused;
    for (int i = 0; i < n; ++i)
      body(perm ? perm[i] : i, unused);
  }
};

/// Runs `body` for elements [begin, end) (through `perm` if given) and
/// folds the reduction into `total`.
template <class Space, class Body>
void launch_range(const Space &space, const std::string &label, const Body &body, int begin,
                  int end, const int *perm, typename Body::reduce_value &total) {
  if (begin >= end)
    return;
  check_graph_launch(space, label, sizeof(ReduceFunctor<Body>));
  // Light weight: the functor goes as a kernel argument, not through Kokkos
  // 3's constant-memory copy that waits for the previous launch.
  const auto policy = Kokkos::Experimental::require(
      Kokkos::RangePolicy<Space, Kokkos::IndexType<int>>(space, begin, end),
      Kokkos::Experimental::WorkItemProperty::HintLightWeight);
  if constexpr (Body::has_reduction) {
    reduce_launch<Space>(label, policy, ReduceFunctor<Body>{{body}, perm}, body, total);
  } else {
    Kokkos::parallel_for(label, policy, ForFunctor<Body>{body, perm});
  }
}

/// Runs `body` for elements 0..n-1 in order (or perm[0..n-1]) on one
/// thread, and folds the reduction into `total`.
template <class Space, class Body>
void launch_sequential(const Space &space, const std::string &label, const Body &body, int n,
                       typename Body::reduce_value &total, const int *perm = nullptr) {
  if (n == 0)
    return;
  check_graph_launch(space, label, sizeof(SequentialFunctor<Body>));
  // Light weight, as launch_range's (a CUDA graph records no constant-memory launch).
  const auto one =
      Kokkos::Experimental::require(Kokkos::RangePolicy<Space, Kokkos::IndexType<int>>(space, 0, 1),
                                    Kokkos::Experimental::WorkItemProperty::HintLightWeight);
  if constexpr (Body::has_reduction) {
    reduce_launch<Space>(label, one, SequentialFunctor<Body>{{body}, n, perm}, body, total);
  } else {
    // No reduction: a plain launch, so no reduction value lives in shared
    // memory (race checkers flagged Kokkos' handling of it).
    Kokkos::parallel_for(label, one, SequentialForFunctor<Body>{body, n, perm});
  }
}

} // namespace umesh::detail

#endif
