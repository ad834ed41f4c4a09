#ifndef UMESH_ACCESS_HPP
#define UMESH_ACCESS_HPP

// Access descriptors: how a loop uses each argument. Direct arguments live on
// the loop's set; indirect ones are reached through a map and a slot of it.

#include <umesh/dat.hpp>
#include <umesh/global.hpp>
#include <umesh/map.hpp>

namespace umesh {

enum class Access { read, write, rw, inc, min, max };

inline const char *access_name(Access a) {
  switch (a) {
  case Access::read:
    return "read";
  case Access::write:
    return "write";
  case Access::rw:
    return "rw";
  case Access::inc:
    return "inc";
  case Access::min:
    return "min";
  case Access::max:
    return "max";
  }
  return "?";
}

inline const char *reduction_name(Reduction r) {
  return r == Reduction::sum ? "sum" : r == Reduction::min ? "min" : "max";
}

template <Access A, class DatT> struct DirectArg {
  static constexpr Access access = A;
  DatT dat;
};

template <Access A, class DatT, class MapT> struct IndirectArg {
  static constexpr Access access = A;
  DatT dat;
  MapT map;
  int slot;
};

template <Reduction R, class T, int Dim> struct GlobalArg {
  static constexpr Reduction reduction = R;
  Global<T, Dim> *global;
  // Fold the loop's result into the values held (combine_with_held)
  // rather than replace them.
  bool combine_held = false;
};

/// Direct read of the loop element's own data.
template <class T, int D, class L, class M> auto read(const Dat<T, D, L, M> &d) {
  return DirectArg<Access::read, Dat<T, D, L, M>>{d};
}
/// Direct write (every component must be written by the kernel).
template <class T, int D, class L, class M> auto write(const Dat<T, D, L, M> &d) {
  return DirectArg<Access::write, Dat<T, D, L, M>>{d};
}
/// Direct read-write.
template <class T, int D, class L, class M> auto rw(const Dat<T, D, L, M> &d) {
  return DirectArg<Access::rw, Dat<T, D, L, M>>{d};
}
/// Direct increment.
template <class T, int D, class L, class M> auto inc(const Dat<T, D, L, M> &d) {
  return DirectArg<Access::inc, Dat<T, D, L, M>>{d};
}
/// Indirect read of the point `map(e, slot)`.
template <class T, int D, class L, class M, class MM>
auto read(const Dat<T, D, L, M> &d, const Map<MM> &map, int slot) {
  return IndirectArg<Access::read, Dat<T, D, L, M>, Map<MM>>{d, map, slot};
}
/// Indirect increment of the point `map(e, slot)`: the race is the
/// executor's to solve.
template <class T, int D, class L, class M, class MM>
auto inc(const Dat<T, D, L, M> &d, const Map<MM> &map, int slot) {
  return IndirectArg<Access::inc, Dat<T, D, L, M>, Map<MM>>{d, map, slot};
}

/// Indirect minimum into the point `map(e, slot)`: the kernel calls
/// `lo(k).update(v)` and the point ends as the minimum of its value before
/// the loop and every v given to it (initialise it first, e.g. to +inf or to
/// the point's own value).
template <class T, int D, class L, class M, class MM>
auto min(const Dat<T, D, L, M> &d, const Map<MM> &map, int slot) {
  return IndirectArg<Access::min, Dat<T, D, L, M>, Map<MM>>{d, map, slot};
}
/// Indirect maximum into the point `map(e, slot)`, like min().
template <class T, int D, class L, class M, class MM>
auto max(const Dat<T, D, L, M> &d, const Map<MM> &map, int slot) {
  return IndirectArg<Access::max, Dat<T, D, L, M>, Map<MM>>{d, map, slot};
}

/// Whether an access folds values into a point (the executor's race).
constexpr bool is_combining(Access a) {
  return a == Access::inc || a == Access::min || a == Access::max;
}

/// Global sum: the kernel adds to `g(k)`, which starts at 0; the loop's
/// total replaces the values `g` held (global.hpp).
template <class T, int D> auto reduce_sum(Global<T, D> &g) {
  return GlobalArg<Reduction::sum, T, D>{&g};
}
/// Global minimum: the kernel does `g(k) = min(g(k), v)` from the largest
/// value of T; the loop's minimum replaces the values `g` held.
template <class T, int D> auto reduce_min(Global<T, D> &g) {
  return GlobalArg<Reduction::min, T, D>{&g};
}
/// Global maximum: the kernel does `g(k) = max(g(k), v)` from the lowest
/// value of T; the loop's maximum replaces the values `g` held.
template <class T, int D> auto reduce_max(Global<T, D> &g) {
  return GlobalArg<Reduction::max, T, D>{&g};
}
/// The same, the loop's result folded into the values `g` held (a running
/// sum, minimum or maximum over several loops).
template <class T, int D> auto reduce_sum(Global<T, D> &g, CombineWithHeld) {
  return GlobalArg<Reduction::sum, T, D>{&g, true};
}
template <class T, int D> auto reduce_min(Global<T, D> &g, CombineWithHeld) {
  return GlobalArg<Reduction::min, T, D>{&g, true};
}
template <class T, int D> auto reduce_max(Global<T, D> &g, CombineWithHeld) {
  return GlobalArg<Reduction::max, T, D>{&g, true};
}

} // namespace umesh

#endif
