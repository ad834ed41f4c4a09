#ifndef UMESH_GLOBAL_HPP
#define UMESH_GLOBAL_HPP

// Global values and the reductions loops carry out into them.

#include <array>
#include <limits>
#include <string>

namespace umesh {

enum class Reduction { sum, min, max };

/// A small array of global values, the target of a loop's reductions
/// (`reduce_sum`, `reduce_min`, `reduce_max`). Lives on the host.
///
/// As with Kokkos' reducers, a loop's reduction starts from its identity
/// (0 for a sum, the largest value for a minimum, the lowest for a maximum)
/// and the loop's result replaces the values held: a minimum into
/// `Global<double> dt("dt")` is the minimum of what the kernel gave, never
/// the 0 it was made with. `reduce_min(g, umesh::combine_with_held)` (and
/// the same for sum and max) folds the result into the values held instead,
/// for a running value over several loops. An empty loop gives the identity
/// (or, combined, leaves the values held).
template <class T, int Dim = 1> class Global {
  static_assert(Dim >= 1, "umesh::Global needs at least one component");

public:
  using value_type = T;
  static constexpr int dim = Dim;

  /// `initial`: the values held before the first loop (what
  /// combine_with_held folds into).
  explicit Global(std::string name, T initial = T(0)) : name_(std::move(name)) {
    values_.fill(initial);
  }

  const std::string &name() const { return name_; }
  T &operator[](int k) { return values_[k]; }
  const T &operator[](int k) const { return values_[k]; }
  T value() const { return values_[0]; }
  void fill(T v) { values_.fill(v); }

private:
  std::string name_;
  std::array<T, Dim> values_;
};

/// Asks a reduction to fold its result into the values a Global holds
/// instead of replacing them: `reduce_min(g, umesh::combine_with_held)`.
struct CombineWithHeld {
  explicit constexpr CombineWithHeld() = default;
};
inline constexpr CombineWithHeld combine_with_held{};

namespace detail {
// Host side of the reductions: their identity (the values Kokkos'
// reduction_identity gives) and how two partial results fold.
template <Reduction R, class T> constexpr T reduction_identity() {
  if constexpr (R == Reduction::sum)
    return T(0);
  else if constexpr (R == Reduction::min)
    return std::numeric_limits<T>::max();
  else
    return std::numeric_limits<T>::lowest();
}
template <Reduction R, class T> constexpr T reduction_fold(T a, T b) {
  if constexpr (R == Reduction::sum)
    return a + b;
  else if constexpr (R == Reduction::min)
    return b < a ? b : a;
  else
    return b > a ? b : a;
}
} // namespace detail

} // namespace umesh

#endif
