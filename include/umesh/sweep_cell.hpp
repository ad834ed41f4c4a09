#ifndef UMESH_SWEEP_CELL_HPP
#define UMESH_SWEEP_CELL_HPP

// The handle a sweep kernel receives first: its (cell, direction, group),
// the geometry of the cell's faces, which faces are inflow faces, and the
// values entering through them. The kernel returns the cell's new value.
// Every executor hands it the same values: a cell's upwind neighbours have
// always been written when it runs. An upwind GPU kernel, step closure:
//
//   struct Step {
//     template <class Cell, class Sigma, class Q, class Vol>
//     KOKKOS_INLINE_FUNCTION double operator()(const Cell &s, Sigma sigma, Q q, Vol v) const {
//       double num = q(s.group()) * v(0), den = sigma(s.group()) * v(0);
//       for (int f = 0; f < s.faces(); ++f) {
//         if (s.inflow(f)) num -= s.dot(f) * s.upwind(f); // (dot < 0 there)
//         else den += s.dot(f);
//       }
//       return num / den;
//     }
//   };

#include <umesh/detail/sweep_refs.hpp>
#include <umesh/sweep_mesh.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace umesh {

/// `Coherent`: upwind values are read past the GPU's L1 (the data-flow
/// executor's teams read what other teams wrote in the same launch).
template <class T, bool Coherent = false> class SweepCell {
public:
  using value_type = T;

  KOKKOS_INLINE_FUNCTION SweepCell(const detail::SweepGeometry &geo, const detail::FluxRef<T> &psi,
                                   int cell, int direction, int group, std::uint16_t flags)
      : geo_(geo), psi_(psi), cell_(cell), dir_(direction), group_(group), flags_(flags) {}

  KOKKOS_INLINE_FUNCTION int cell() const { return cell_; }
  KOKKOS_INLINE_FUNCTION int direction() const { return dir_; }
  KOKKOS_INLINE_FUNCTION int group() const { return group_; }
  KOKKOS_INLINE_FUNCTION int groups() const { return psi_.groups; }
  /// Face slots of every cell (some may be sweep_no_face: face(f) says).
  KOKKOS_INLINE_FUNCTION int faces() const { return geo_.faces; }

  /// Component k of the direction (a unit vector).
  KOKKOS_INLINE_FUNCTION double omega(int k) const { return geo_.dirs[dir_ * 3 + k]; }
  /// Component k of slot f's outward normal (area-weighted as the mesh
  /// gave it; the mean of the face's two cells' normals, signs made opposite).
  KOKKOS_INLINE_FUNCTION double normal(int f, int k) const {
    return geo_.normals[(std::size_t(cell_) * geo_.faces + f) * 3 + k];
  }
  /// The direction dotted with slot f's normal: negative on inflow faces.
  KOKKOS_INLINE_FUNCTION double dot(int f) const {
    return omega(0) * normal(f, 0) + omega(1) * normal(f, 1) + omega(2) * normal(f, 2);
  }
  /// The cell across slot f, sweep_boundary or sweep_no_face.
  KOKKOS_INLINE_FUNCTION int neighbour(int f) const {
    return geo_.neighbours[std::size_t(cell_) * geo_.faces + f];
  }
  KOKKOS_INLINE_FUNCTION bool face(int f) const { return neighbour(f) != sweep_no_face; }
  KOKKOS_INLINE_FUNCTION bool boundary(int f) const { return neighbour(f) == sweep_boundary; }
  /// Whether slot f is an inflow face, as the plan decided (use it, not the
  /// sign of dot(f), which may round the other way where it is near zero).
  KOKKOS_INLINE_FUNCTION bool inflow(int f) const { return flags_ >> f & 1u; }
  /// Whether slot f is an inflow face whose value is the previous sweep's
  /// (lagged to break a cycle).
  KOKKOS_INLINE_FUNCTION bool lagged(int f) const { return flags_ >> (8 + f) & 1u; }

  /// The value entering through slot f: the neighbour's value of this
  /// sweep, its value before this sweep on a lagged face, 0 on the boundary
  /// (kernels with incoming boundary values test boundary(f)) and on faces
  /// that are not inflow faces.
  KOKKOS_INLINE_FUNCTION T upwind(int f) const {
    if (!inflow(f))
      return T(0);
    const int nb = neighbour(f);
    if (nb < 0)
      return T(0);
    if (lagged(f))
      return psi_.lag[std::size_t(geo_.lag_index(dir_, cell_, f)) * psi_.groups + group_];
    const T *p = psi_.data + psi_.at(nb, dir_, group_);
    if constexpr (Coherent)
      return *static_cast<const volatile T *>(p);
    else
      return *p;
  }

private:
  const detail::SweepGeometry &geo_;
  const detail::FluxRef<T> &psi_;
  int cell_, dir_, group_;
  std::uint16_t flags_;
};

} // namespace umesh

#endif
