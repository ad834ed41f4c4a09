#ifndef UMESH_DETAIL_GRAPH_RECORDING_HPP
#define UMESH_DETAIL_GRAPH_RECORDING_HPP

// What a LoopGraph (loop_graph.hpp) tells the rest of umesh while it runs or
// records its steps: which graph and step, on which execution space
// instance. The launch sites check their launches against it, the places
// that make the host wait refuse to, and memory a recording points at is
// kept alive with it. A thread records one graph at a time, so the state is
// the thread's, not global.

#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>

#include <any>
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

namespace umesh::detail {

/// run: the steps execute (a graph's first launch, or every launch on host
/// backends); record: CUDA captures them (nothing executes).
enum class GraphPhase { run, record };

struct GraphRecording {
  std::string graph, step;
  GraphPhase phase = GraphPhase::run;
  std::type_index space = typeid(void); // the graph's execution space
  const void *stream = nullptr;         // its CUDA stream (null elsewhere)
  std::vector<std::any> keep;           // memory the recording points at
  /// Where a loop body passed by reference lives (copy_body): set while
  /// CUDA records, null otherwise.
  std::function<const void *(const void *, std::size_t)> copy_body;
};

/// The graph this thread is running or recording, or null.
inline GraphRecording *&graph_recording() {
  static thread_local GraphRecording *current = nullptr;
  return current;
}

/// Whether this thread is inside a LoopGraph's step.
inline bool in_graph() {
  return graph_recording() != nullptr;
}
/// Whether CUDA is capturing this thread's launches (nothing executes).
inline bool graph_records() {
  return in_graph() && graph_recording()->phase == GraphPhase::record;
}

/// Fails with "LoopGraph 'G', step 'S': " and `parts`.
template <class... Parts> [[noreturn]] void fail_in_graph(Parts &&...parts) {
  const GraphRecording &r = *graph_recording();
  fail("LoopGraph '", r.graph, "', step '", r.step, "': ", std::forward<Parts>(parts)...);
}

/// A step must not make the host wait for the device: on CUDA the wait
/// would come while nothing has run (the graph records), and the value
/// waited for would be the recording's, not each replay's. `what` says
/// what would wait.
inline void refuse_host_wait(const std::string &what) {
  if (in_graph())
    fail_in_graph(what,
                  " makes the host wait for the device, which a graph's step cannot: reduce into "
                  "a umesh::DeviceGlobal and fetch its store after LoopGraph::launch()");
}

/// The CUDA stream of an execution space instance, or null.
template <class Space> const void *stream_of(const Space &space) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<Space, Kokkos::Cuda>::value)
    return static_cast<const void *>(space.cuda_stream());
#endif
  (void)space;
  return nullptr;
}

/// Functor bytes from which a CUDA launch no longer passes its functor as a
/// kernel argument (Kokkos' 4 KB limit less a margin for its driver object,
/// as detail::light_launch_max_bytes): Kokkos then copies it from the host
/// (global memory) or through constant memory, copies that a graph would
/// replay from host memory that no longer holds the functor.
constexpr std::size_t graph_functor_max_bytes = 3 * 1024;

/// Checks a launch `label` with a functor of `bytes` on `space` inside a
/// graph's step: the graph's execution space instance (else the launch
/// would run once, outside the graph), and while CUDA records, a functor
/// small enough to go as a kernel argument (loops pass large bodies by
/// reference, BodyRef: this catches any other launch).
template <class Space>
void check_graph_launch(const Space &space, const std::string &label, std::size_t bytes) {
  GraphRecording *r = graph_recording();
  if (r == nullptr)
    return;
  if (std::type_index(typeid(Space)) != r->space || stream_of(space) != r->stream)
    fail_in_graph("launch '", label, "' runs on another execution space instance (", Space::name(),
                  stream_of(space) ? ", another CUDA stream" : "",
                  ") than the graph's: make its plan (and fills, copies, device global stores) on "
                  "LoopGraph::space()");
  if (r->phase == GraphPhase::record && bytes >= graph_functor_max_bytes)
    fail_in_graph("launch '", label, "' passes ", bytes,
                  " bytes of kernel arguments; CUDA graphs record kernels whose arguments take "
                  "less than ",
                  graph_functor_max_bytes,
                  " bytes (Kokkos copies larger ones from the host at each launch): run this loop "
                  "outside the graph, or split it");
}

/// Bodies of at least this many bytes go by reference while CUDA records
/// (the launch's functor adds its own fields and Kokkos its driver's).
constexpr std::size_t graph_body_margin = 512;

/// Whether a loop body of type Body on Space may go by reference
/// (BodyRef): bodies near graph_functor_max_bytes on GPU backends (and on
/// every backend in tests that define UMESH_TEST_BODIES_BY_REFERENCE).
template <class Space, class Body> constexpr bool body_by_reference() {
#ifdef UMESH_TEST_BODIES_BY_REFERENCE
  constexpr bool backend = true;
#else
  constexpr bool backend =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
#endif
  return backend && sizeof(Body) + graph_body_margin >= graph_functor_max_bytes;
}

/// Tests: host backends pass large loop bodies by reference as well (from
/// host copies), so that BodyRef runs under every executor without a GPU.
inline bool &graph_bodies_by_reference_on_host() {
  static thread_local bool on = false;
  return on;
}

/// The recording's copy of `body` (in device memory the graph keeps, as
/// CUDA's kernels read it), or null where the thread's recording wants none.
template <class Body> const Body *graph_copy_body(const Body &body) {
  GraphRecording *r = graph_recording();
  if (r == nullptr || !r->copy_body)
    return nullptr;
  return static_cast<const Body *>(r->copy_body(static_cast<const void *>(&body), sizeof(Body)));
}

/// Keeps `value` (a Kokkos View, ...) alive as long as the recording that
/// points at it: a buffer that a later loop outgrows is replaced, and the
/// recorded graph still uses the old one.
template <class T> void keep_for_graph(const T &value) {
  if (graph_records())
    graph_recording()->keep.push_back(value);
}

} // namespace umesh::detail

#endif
