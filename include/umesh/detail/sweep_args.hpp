#ifndef UMESH_DETAIL_SWEEP_ARGS_HPP
#define UMESH_DETAIL_SWEEP_ARGS_HPP

// A sweep loop's arguments after the angular flux: dats the kernel reads,
// on the plan's cells (read(dat)) or through a map from them (read(dat, map,
// slot)), checked as par_loop checks its own and bound per cell. Nothing
// else: every direction of a cell runs at once, so a kernel that wrote a
// cell's dat would race with itself; it returns the cell's value instead.

#include <umesh/access.hpp>
#include <umesh/detail/bind.hpp>
#include <umesh/detail/device_args.hpp>

#include <string>
#include <type_traits>

namespace umesh::detail {

template <class Arg> struct is_sweep_arg : std::false_type {};
template <class DatT> struct is_sweep_arg<DirectArg<Access::read, DatT>> : std::true_type {};
template <class DatT, class MapT>
struct is_sweep_arg<IndirectArg<Access::read, DatT, MapT>> : std::true_type {};

template <class... Args> void validate_sweep_args(const LoopInfo &loop, const Args &...args) {
  static_assert((is_sweep_arg<Args>::value && ...),
                "umesh::sweep_loop: after the angular flux, a sweep takes dats it reads only: "
                "read(dat) on the plan's cells or read(dat, map, slot); every direction of a "
                "cell runs at once, so a kernel returns its cell's value rather than write a dat");
  int index = 2; // (argument 1 is the angular flux)
  (validate(loop, index++, args), ...);
}

template <class Space, class T, int D, class L, class M>
auto sweep_device(const DirectArg<Access::read, Dat<T, D, L, M>> &a) {
  check_space<Space, M>();
  return DirectDev<Access::read, const T, D, L>{{}, read_ptr(a.dat)};
}
template <class Space, class T, int D, class L, class M, class MM>
auto sweep_device(const IndirectArg<Access::read, Dat<T, D, L, M>, Map<MM>> &a) {
  check_space<Space, M>();
  check_space<Space, MM>();
  return IndirectReadDev<const T, D, L>{
      {}, read_ptr(a.dat), a.map.view().data(), a.map.arity(), a.slot};
}

/// The accessor a kernel receives for cell c.
template <class Dev> KOKKOS_INLINE_FUNCTION auto sweep_bind(const Dev &d, int c) {
  Empty none;
  return d.bind(ElementCtx{c}, none, none);
}

template <class Dev> using sweep_accessor_t = decltype(sweep_bind(std::declval<const Dev &>(), 0));

} // namespace umesh::detail

#endif
