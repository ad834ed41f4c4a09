#ifndef UMESH_EXEC_NAMES_HPP
#define UMESH_EXEC_NAMES_HPP

// The executors' names and their list, from the registry
// (umesh/exec_registry.hpp): command lines ('--exec atomic'), result rows and
// exec::Auto's candidates all read them here. A run-time
// name reaches its tag through a list the caller writes, so a program
// instantiates only the executors it lists (each costs compile time).

#include <umesh/exec.hpp>
#include <umesh/exec_auto.hpp>
#include <umesh/exec_registry.hpp>

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::detail {
template <class> inline constexpr bool not_an_executor = false;
} // namespace umesh::detail

namespace umesh::exec {

/// The registry's tag that stands for E: E itself, the standard kernel set
/// for every hierarchical one, exec::AutoAll for every candidate list.
template <class E> struct registered { using type = E; };
template <unsigned K> struct registered<HierarchicalOf<K>> { using type = Hierarchical; };
template <class... C> struct registered<AutoOf<C...>> { using type = AutoAll; };
template <class E> using registered_t = typename registered<E>::type;

namespace detail {
template <class E> struct registry_name {
  static_assert(umesh::detail::not_an_executor<E>,
                "umesh::exec::name_of<E>: E is not an executor tag (umesh/exec_registry.hpp)");
};
#define UMESH_REGISTRY_NAME(Tag, name, role)                                                       \
  template <> struct registry_name<Tag> { static constexpr const char *value = #name; };
UMESH_EXECUTORS(UMESH_REGISTRY_NAME)
#undef UMESH_REGISTRY_NAME
} // namespace detail

/// The name of executor tag E on command lines and in results (the
/// registry's: umesh/exec_registry.hpp): name_of<E>::value ("atomic", ...).
/// Every hierarchical kernel set is "hierarchical", every candidate list
/// "auto": a program offers one tuner.
template <class E> struct name_of : detail::registry_name<registered_t<E>> {};

template <class E> inline constexpr const char *name_of_v = name_of<E>::value;

/// A list of executor tags: those a program dispatches names to.
template <class... E> struct List {};

namespace detail {
template <class Acc, class... T> struct list_nonvoid;
template <class... Acc> struct list_nonvoid<List<Acc...>> { using type = List<Acc...>; };
template <class... Acc, class... T>
struct list_nonvoid<List<Acc...>, void, T...> : list_nonvoid<List<Acc...>, T...> {};
template <class... Acc, class H, class... T>
struct list_nonvoid<List<Acc...>, H, T...> : list_nonvoid<List<Acc..., H>, T...> {};
} // namespace detail

#define UMESH_EVERY_TAG(Tag, name, role) Tag,
/// Every executor of the registry (umesh/exec_registry.hpp), in its order
/// ('--exec all'); "auto" tunes over every other but serial (exec::AutoAll).
using Every = typename detail::list_nonvoid<List<>, UMESH_EXECUTORS(UMESH_EVERY_TAG) void>::type;
#undef UMESH_EVERY_TAG

/// The candidates of exec::AutoOf<C...> as a list (exec::AutoAll's: every
/// executor exec::Auto can choose, in the order its tuning keys list them).
template <class A> struct candidates_of;
template <class... C> struct candidates_of<AutoOf<C...>> { using type = List<C...>; };

/// The names of a list's tags, in its order.
template <class... E> std::vector<std::string> names(List<E...>) {
  return {name_of<E>::value...};
}

/// Calls f(E{}) for the tag E of the list called `name`; false (f not
/// called) when none is. Only the listed tags are instantiated.
template <class... E, class F> bool with_name(List<E...>, const std::string &name, F &&f) {
  return ((name == name_of<E>::value ? (static_cast<void>(f(E{})), true) : false) || ...);
}

/// The position of tag E in a list; the list's length when it is not there
/// (callers that need E listed static_assert on that: detail::auto_kind).
template <class E, class... L> constexpr std::size_t index_of(List<L...>) {
  constexpr bool same[] = {std::is_same<E, L>::value..., false};
  std::size_t i = 0;
  while (i < sizeof...(L) && !same[i])
    ++i;
  return i;
}

// Row labels: a variant's name begins with its executor's ("segmented/sa",
// "warp/r64/m16"); the hierarchical variants are "hier-..."
// (exec::variant_name(const Hierarchical &), umesh/exec.hpp).

/// "segmented", then "/sa" for scratch atomics.
inline std::string variant_name(const SegmentedLoop &s) {
  return std::string(name_of<Segmented>::value) + (s.scratch_atomics ? "/sa" : "");
}

/// "warp", then "/r<n>" for a register budget and "/m16" for compact maps.
inline std::string variant_name(const WarpLoop &w) {
  return std::string(name_of<WarpCombine>::value) +
         (w.max_registers ? "/r" + std::to_string(w.max_registers) : "") +
         (w.compact_maps ? "/m16" : "");
}

} // namespace umesh::exec

#endif
