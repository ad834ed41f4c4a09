#ifndef UMESH_DETAIL_EXECUTOR_COLOUR_HPP
#define UMESH_DETAIL_EXECUTOR_COLOUR_HPP

// Global colouring: elements permuted so that each colour is contiguous; one
// launch per colour, in which no two elements write the same point.

#include <umesh/colouring.hpp>
#include <umesh/detail/bind.hpp>
#include <umesh/detail/executor_direct.hpp>
#include <umesh/detail/loop_body.hpp>
#include <umesh/plan.hpp>

#include <Kokkos_Timer.hpp>

namespace umesh {
namespace detail {

template <class PlanT> struct ColouredIncPolicy {
  const PlanT &plan;
  const std::string &loop;
  template <Access A, class T, int D, class L, class M, class MM>
  auto combine(const IndirectArg<A, Dat<T, D, L, M>, Map<MM>> &a) const {
    plan.map_index(a.map, loop); // the colouring must cover this map
    return IndirectCombineDev<A, T, D, L, false>{
        {}, dat_ptr(a.dat), a.map.view().data(), a.map.arity(), a.slot};
  }
};

} // namespace detail

template <class Space> class Plan<exec::GlobalColour, Space> : public detail::PlanBase<Space> {
public:
  using exec_type = exec::GlobalColour;
  using memory_space = typename Space::memory_space;

  template <class... Maps>
  Plan(const Space &space, Set set, const Maps &...maps)
      : detail::PlanBase<Space>(space, std::move(set), maps...) {
    Kokkos::Timer timer;
    // Colour over the maps loops increment through (not the read-only ones).
    const detail::HostMaps host = detail::host_maps(maps...);
    const Colouring colouring = greedy_colour(this->set_.size(), host.written());
    colour_sizes_ = colouring.colour_sizes;
    offsets_.assign(colour_sizes_.size() + 1, 0);
    for (std::size_t c = 0; c < colour_sizes_.size(); ++c)
      offsets_[c + 1] = offsets_[c] + colour_sizes_[c];
    std::vector<int> fill(offsets_.begin(), offsets_.end() - 1);
    perm_ = Kokkos::View<int *, memory_space>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::GlobalColour::perm"),
        this->set_.size());
    auto h = Kokkos::create_mirror_view(perm_);
    for (int e = 0; e < this->set_.size(); ++e)
      h(fill[colouring.colour[e]]++) = e;
    Kokkos::deep_copy(perm_, h);
    this->build_seconds_ = timer.seconds();
  }

  int num_colours() const { return int(colour_sizes_.size()); }
  const std::vector<int> &colour_sizes() const { return colour_sizes_; }
  /// Elements sorted by colour.
  const Kokkos::View<int *, memory_space> &permutation() const { return perm_; }

  template <class Kernel, class... Args>
  void run(const exec::NoLoopOptions &, const std::string &name, const Kernel &kernel,
           const Args &...args) {
    detail::ColouredIncPolicy<Plan> policy{*this, name};
    detail::run_loop<Space>(
        policy, kernel,
        [&](const auto &body, auto &total) {
          const std::string label = "umesh::colour::" + name;
          for (std::size_t c = 0; c + 1 < offsets_.size(); ++c)
            detail::launch_range(this->space_, label, body, offsets_[c], offsets_[c + 1],
                                 perm_.data(), total);
        },
        args...);
  }

private:
  std::vector<int> colour_sizes_, offsets_;
  Kokkos::View<int *, memory_space> perm_;
};

} // namespace umesh

#endif
