#ifndef UMESH_DETAIL_ELEMENT_AUTO_RUN_HPP
#define UMESH_DETAIL_ELEMENT_AUTO_RUN_HPP

// What exec::ElementAutoOf's plan (element_auto.hpp) needs of its loops'
// types: each strategy's plan built on first use, the loop's outputs saved
// for the trials (exec::Auto's LoopSnapshot, through the dats that rows
// write), the maps' fingerprint for the tuning file's key.

#include <umesh/detail/element_auto_candidates.hpp>
#include <umesh/detail/element_columns.hpp>
#include <umesh/detail/element_gather.hpp>
#include <umesh/detail/element_plans.hpp>
#include <umesh/detail/loop_snapshot.hpp>
#include <umesh/detail/plan_file.hpp>
#include <umesh/element_args.hpp>
#include <umesh/element_exec.hpp>
#include <umesh/element_loop.hpp>

#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace umesh::detail {

template <class S> constexpr ElementStrategy element_strategy() {
  static_assert(std::is_same<S, exec::ElementAtomic>::value ||
                    std::is_same<S, exec::ElementColour>::value ||
                    std::is_same<S, exec::ElementGather>::value,
                "exec::ElementAutoOf: a strategy is one of exec::ElementAtomic, ElementColour, "
                "ElementGather");
  return std::is_same<S, exec::ElementAtomic>::value   ? ElementStrategy::atomic
         : std::is_same<S, exec::ElementColour>::value ? ElementStrategy::colour
                                                       : ElementStrategy::gather;
}

template <class... S> constexpr bool distinct_element_strategies() {
  constexpr ElementStrategy kinds[] = {element_strategy<S>()...};
  for (std::size_t i = 0; i < sizeof...(S); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (kinds[i] == kinds[j])
        return false;
  return true;
}

/// One strategy's plan, built the first time a candidate runs under it
/// (colouring costs a pass over the maps).
template <class S, class Space> class ElementAutoSlot {
  using PlanT = ElementPlan<S, Space>;

public:
  template <class... Maps>
  ElementAutoSlot(const Space &space, const Set &set, const Maps &...maps) {
    make_ = [=] { return std::make_unique<PlanT>(make_element_plan(space, S{}, set, maps...)); };
  }
  /// The plan, set for candidate `c` (colouring: one launch or per colour).
  PlanT &plan(const ElementCandidate &c) {
    if (!plan_)
      plan_ = make_();
    if constexpr (std::is_same<S, exec::ElementColour>::value)
      plan_->set_options(exec::ElementColour{}.with_per_colour_launches(!c.one_launch));
    (void)c;
    return *plan_;
  }

private:
  std::function<std::unique_ptr<PlanT>()> make_;
  std::unique_ptr<PlanT> plan_;
};

// What a loop may change, as LoopSnapshot's arguments: direct and one-slot
// arguments as they are, the dat of every row that is not read only.
template <class Arg> std::tuple<Arg> element_output(const Arg &a) {
  return {a};
}
template <Access A, class DatT, class MapT, int N>
auto element_output(const RowArg<A, DatT, MapT, N> &a) {
  if constexpr (A == Access::read)
    return std::tuple<>();
  else
    return std::tuple<DirectArg<Access::rw, DatT>>(DirectArg<Access::rw, DatT>{a.dat});
}
template <class ViewT> std::tuple<> element_output(const TableArg<ViewT> &) {
  return {};
}

template <class... Args> std::unique_ptr<LoopSnapshot> element_snapshot(const Args &...args) {
  return std::apply([](const auto &...o) { return std::make_unique<LoopSnapshot>(o...); },
                    std::tuple_cat(element_output(args)...));
}

/// The maps' fingerprint (exec::Auto's), columns' layers and offsets too.
template <class... Maps> std::string element_fingerprint(int elements, const Maps &...maps) {
  HostMaps host; // (the BlockPlanMaps point into it)
  std::vector<int> extra;
  if constexpr (sizeof...(Maps) > 0) {
    host = host_maps(plain_map(maps)...);
    std::vector<RowShape> shapes;
    (add_row_shape(shapes, maps), ...);
    for (const RowShape &s : shapes) {
      extra.push_back(s.layers);
      extra.insert(extra.end(), s.offsets.begin(), s.offsets.end());
    }
  }
  std::ostringstream fp;
  fp << std::hex << fingerprint(elements, host.maps, extra);
  return fp.str();
}

} // namespace umesh::detail

#endif
