#ifndef UMESH_GLOBAL_HPP
#define UMESH_GLOBAL_HPP

#include <array>
#include <string>

namespace umesh {

/// A small array of global values, the target of a loop's reductions
/// (`reduce_sum`, `reduce_min`, `reduce_max`). Lives on the host; a loop
/// combines its result with the values held before the loop.
template <class T, int Dim = 1> class Global {
  static_assert(Dim >= 1, "umesh::Global needs at least one component");

public:
  using value_type = T;
  static constexpr int dim = Dim;

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

} // namespace umesh

#endif
