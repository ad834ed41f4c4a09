#ifndef UMESH_DETAIL_BIND_HPP
#define UMESH_DETAIL_BIND_HPP

// Host side of a loop: validate every argument against the loop's set, then
// turn it into its device form. Only indirect increments differ between
// executors; `IncPolicy::combine(arg)` supplies those (inc, min and max).

#include <umesh/access.hpp>
#include <umesh/detail/device_args.hpp>
#include <umesh/detail/loop_body.hpp>
#include <umesh/detail/set_mismatch.hpp>
#include <umesh/device_global.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::detail {

struct LoopInfo {
  const std::string &name;
  const Set &set;
};

template <class Space, class MemSpace> constexpr void check_space() {
  static_assert(Kokkos::SpaceAccessibility<Space, MemSpace>::accessible,
                "umesh::par_loop: a dat or map lives in a memory space the "
                "loop's execution space cannot access; copy it with "
                "umesh::clone_to<Space::memory_space>(...) first");
}

// Arguments are counted from 1, as a reader counts a call's arguments.
template <Access A, class DatT>
void validate(const LoopInfo &loop, int index, const DirectArg<A, DatT> &a) {
  if (a.dat.set() != loop.set)
    fail("loop '", loop.name, "' argument ", index, " (", access_name(A), "): ",
         set_mismatch("dat '" + a.dat.name() + "'", a.dat.set(), "the loop runs over", loop.set,
                      "r.apply(" + a.dat.name() + ")"));
}

template <Access A, class DatT, class MapT>
void validate(const LoopInfo &loop, int index, const IndirectArg<A, DatT, MapT> &a) {
  if (a.map.from() != loop.set)
    fail("loop '", loop.name, "' argument ", index, " (", access_name(A), " through map '",
         a.map.name(), "'): ",
         set_mismatch("map '" + a.map.name() + "' (its from-set)", a.map.from(),
                      "the loop runs over", loop.set, "r.apply(" + a.map.name() + ")"));
  if (a.dat.set() != a.map.to())
    fail("loop '", loop.name, "' argument ", index, " (", access_name(A), " through map '",
         a.map.name(), "'): ",
         set_mismatch("dat '" + a.dat.name() + "'", a.dat.set(),
                      "map '" + a.map.name() + "' maps to", a.map.to(),
                      "r.apply(" + a.dat.name() + ")"));
  if (std::int64_t(a.map.from().size()) * a.map.arity() > std::int64_t(0xFFFFFFFFu))
    fail("loop '", loop.name, "' argument ", index, ": map '", a.map.name(), "' has ",
         std::int64_t(a.map.from().size()) * a.map.arity(),
         " entries; indirect loops index maps of at most 2^32 - 1 entries");
  if (a.slot < 0 || a.slot >= a.map.arity())
    fail("loop '", loop.name, "' argument ", index, ": slot ", a.slot, " of map '", a.map.name(),
         "', whose arity is ", a.map.arity());
}

template <Reduction R, class T, int D>
void validate(const LoopInfo &loop, int index, const GlobalArg<R, T, D> &a) {
  if (a.global == nullptr)
    fail("loop '", loop.name, "' argument ", index, ": null global");
  if (in_graph())
    fail_in_graph("loop '", loop.name, "' argument ", index, ": reduce_", reduction_name(R),
                  " into umesh::Global '", a.global->name(),
                  "', whose value the host reads after each loop; in a graph, reduce into a "
                  "umesh::DeviceGlobal and fetch its store after LoopGraph::launch()");
}

template <Reduction R, class T, int D, class S>
void validate(const LoopInfo &loop, int index, const DeviceGlobalArg<R, T, D, S> &a) {
  if (a.global.reduction() != R)
    fail("loop '", loop.name, "' argument ", index, ": reduce_", reduction_name(R),
         " into device global '", a.global.name(), "', which was made for reduce_",
         reduction_name(a.global.reduction()), " (store '", a.global.store(), "')");
}

template <class Space, class IncPolicy, Access A, class T, int D, class L, class M>
auto to_device(IncPolicy &, const DirectArg<A, Dat<T, D, L, M>> &a) {
  check_space<Space, M>();
  return DirectDev<A, T, D, L>{{}, dat_ptr(a.dat)};
}

// Executors that bind indirect reads themselves (staged, or through a
// compact map) say so with `stages_reads = true` and supply `read(arg)`.
template <class P, class = void> struct stages_reads : std::false_type {};
template <class P>
struct stages_reads<P, std::void_t<decltype(P::stages_reads)>>
    : std::integral_constant<bool, P::stages_reads> {};

template <class Space, class IncPolicy, Access A, class T, int D, class L, class M, class MM>
auto to_device(IncPolicy &policy, const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) {
  check_space<Space, M>();
  check_space<Space, MM>();
  if constexpr (A == Access::read && stages_reads<IncPolicy>::value) {
    return policy.read(a);
  } else if constexpr (A == Access::read) {
    return IndirectReadDev<const T, D, L>{
        {}, read_ptr(a.dat), a.map.view().data(), a.map.arity(), a.slot};
  } else {
    static_assert(is_combining(A), "indirect access is read, inc, min or max");
    return policy.combine(a);
  }
}

template <class Space, class IncPolicy, Reduction R, class T, int D>
auto to_device(IncPolicy &, const GlobalArg<R, T, D> &) {
  return GlobalDev<R, T, D>{};
}

template <class Space, class IncPolicy, Reduction R, class T, int D, class S>
auto to_device(IncPolicy &, const DeviceGlobalArg<R, T, D, S> &a) {
  check_space<Space, typename S::memory_space>();
  DeviceGlobalAccess::mark_reduced(a.global);
  return DeviceGlobalDev<R, T, D>{{}, DeviceGlobalAccess::values(a.global)};
}

// The device sink of a loop whose reductions all go into device globals:
// the first device global's store provides it.
template <class Arg> void *find_sink(void *found, std::size_t, const Arg &) {
  return found;
}
template <Reduction R, class T, int D, class S>
void *find_sink(void *found, std::size_t bytes, const DeviceGlobalArg<R, T, D, S> &a) {
  return found ? found : DeviceGlobalAccess::sink(a.global, bytes);
}

// Writes a loop's reduction result into the Global objects: it replaces
// the values held, or folds into them where the user asked
// (combine_with_held).
template <class Arg, class Value> void store_reduction(const Arg &, const Value &) {}
template <Reduction R, class T, int D>
void store_reduction(const GlobalArg<R, T, D> &a, const Array<T, D> &result) {
  for (int k = 0; k < D; ++k) {
    T &g = (*a.global)[k];
    g = a.combine_held ? reduction_fold<R>(g, result.v[k]) : result.v[k];
  }
}

template <class... Args, class Value, std::size_t... I>
void store_reductions(const Value &total, std::index_sequence<I...>, const Args &...args) {
  (store_reduction(args, get<I>(total)), ...);
}

// A dat folded into under two combining accesses (say inc and min) in one
// loop has no defined result: executors buffer and apply them separately.
struct CombinedDat {
  const void *data;
  Access access;
  int index;
};
template <class Arg>
void note_combined(const LoopInfo &, std::vector<CombinedDat> &, int, const Arg &) {}
template <Access A, class DatT, class MapT>
void note_combined(const LoopInfo &loop, std::vector<CombinedDat> &seen, int index,
                   const IndirectArg<A, DatT, MapT> &a) {
  if constexpr (is_combining(A)) {
    for (const auto &s : seen)
      if (s.data == a.dat.view().data() && s.access != A)
        fail("loop '", loop.name, "' argument ", index, ": dat '", a.dat.name(),
             "' is combined with ", access_name(A), " here and with ", access_name(s.access),
             " in argument ", s.index, "; one loop may fold into a dat under one access only");
    seen.push_back({a.dat.view().data(), A, index});
  }
}

template <class... Args> void validate_all(const LoopInfo &loop, const Args &...args) {
  int index = 1;
  (validate(loop, index++, args), ...);
  std::vector<CombinedDat> seen;
  index = 1;
  (note_combined(loop, seen, index++, args), ...);
}

/// Binds and runs: the common path of every executor (par_loop validated the
/// arguments). `run(body, total)` performs the executor's launches.
template <class Space, class IncPolicy, class Kernel, class Run, class... Args>
void run_loop(IncPolicy &policy, const Kernel &kernel, Run &&run, const Args &...args) {
  // Braced initialisation binds the arguments left to right, the order the
  // gather executor's repeated-slot bookkeeping relies on.
  using Body = LoopBody<Kernel, decltype(to_device<Space>(policy, args))...>;
  Body body{kernel, {to_device<Space>(policy, args)...}};
  if constexpr (Body::has_device_store) {
    void *sink = nullptr;
    ((sink = find_sink(sink, sizeof(typename Body::reduce_value), args)), ...);
    body.sink = sink;
  }
  typename Body::reduce_value total;
  body.init(total);
  // While CUDA records a graph, a body too large to go as a kernel argument
  // goes by reference, from a copy the graph keeps in device memory.
  bool by_reference = false;
  if constexpr (body_by_reference<Space, Body>()) {
    if (const Body *copy = graph_copy_body(body)) {
      run(BodyRef<Body>{copy, body.sink}, total);
      by_reference = true;
    }
  }
  if (!by_reference)
    run(body, total);
  if constexpr (Body::has_reduction)
    store_reductions(total, std::index_sequence_for<Args...>{}, args...);
}

} // namespace umesh::detail

#endif
