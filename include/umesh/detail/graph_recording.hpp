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
/// would run once, outside the graph), and on CUDA a functor small enough
/// to go as a kernel argument (checked when the steps run, before they
/// are recorded).
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
  if (r->stream != nullptr && bytes >= graph_functor_max_bytes)
    fail_in_graph("launch '", label, "' passes ", bytes,
                  " bytes of kernel arguments; CUDA graphs record kernels whose arguments take "
                  "less than ",
                  graph_functor_max_bytes,
                  " bytes (Kokkos copies larger ones from the host at each launch): run this loop "
                  "outside the graph, or split it");
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
