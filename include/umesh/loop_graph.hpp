#ifndef UMESH_LOOP_GRAPH_HPP
#define UMESH_LOOP_GRAPH_HPP

// A sequence of loops recorded once and replayed as one launch. Where work
// per launch is small (small meshes, coarse multigrid levels), the cost of
// launching each loop dominates; a CUDA graph launches the whole sequence at
// the cost of about one.
//
//   umesh::LoopGraph<> g("cycle");                 // on umesh::graph_space()
//   auto plan = umesh::make_plan(g.space(), umesh::exec::Atomic{}, cells);
//   g.add("update", [&] { umesh::par_loop(plan, ...); });
//   g.add("residual", [&] { ...; store.reset(); umesh::par_loop(..., reduce_max(r)); });
//   for (int it = 0; it < n; ++it) {
//     g.launch();                                   // one graph launch
//     store.fetch();                                // the host waits here, once
//   }
//
// The first launch() runs the steps (each closure, in order): plans build
// their lazy tables and exec::Auto tunes, as one-by-one loops would. On CUDA
// it then records the steps from the graph's stream (the closures run again,
// launching nothing) and later launches replay that recording: the same
// kernels with the same arguments on the same memory, reading the values it
// holds then. On host backends every launch runs the closures again.
//
// So a step must issue the same work every time, from values that stay in
// device memory: no host value that changes between launches in a kernel's
// arguments (keep it in a View; copy it there inside a step from
// Kokkos::CudaHostPinnedSpace), no host side effect (swap dats between
// launches, or record one graph per arrangement), no reallocation of the
// memory its loops use (reset() and launch again after one). A step may not
// make the host wait: reductions go into umesh::DeviceGlobal (fetch the store
// after launch()); a umesh::Global, a fetch() or a loop on another
// execution space instance are Errors naming the graph, the step and the
// loop. A loop whose arguments take more than a kernel argument may (3 KB)
// is recorded with them in device memory the graph keeps; a kernel of the
// user's own must be light weight (Kokkos::Experimental::WorkItemProperty::
// HintLightWeight, under 4 KB), else its recording is an Error.

#include <umesh/detail/graph_cuda.hpp>
#include <umesh/detail/graph_recording.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>

#include <any>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace umesh {

/// An execution space instance whose work a LoopGraph can record: Space(),
/// but on CUDA where Kokkos' default instance runs on the legacy default
/// stream (Kokkos 3), one Kokkos::Cuda on a stream of umesh's, the same for
/// the whole program (ordered with the legacy stream's work).
template <class Space = Kokkos::DefaultExecutionSpace> Space graph_space() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<Space, Kokkos::Cuda>::value)
    return detail::cuda_graph_space();
#endif
  return Space();
}

/// Named steps (closures that run loops, fills and copies on space()),
/// launched together: a CUDA graph recorded at the first launch and
/// replayed after it, or on host backends the closures in order.
template <class Space = Kokkos::DefaultExecutionSpace> class LoopGraph {
public:
  using execution_space = Space;
  /// Whether launches replay a recording (CUDA) rather than run the steps.
#ifdef KOKKOS_ENABLE_CUDA
  static constexpr bool replays = std::is_same<Space, Kokkos::Cuda>::value;
#else
  static constexpr bool replays = false;
#endif

  explicit LoopGraph(std::string name, const Space &space = graph_space<Space>())
      : name_(std::move(name)), space_(space) {
    if (name_.empty())
      fail("LoopGraph: a graph needs a name");
  }
  LoopGraph(const LoopGraph &) = delete;
  LoopGraph &operator=(const LoopGraph &) = delete;
  LoopGraph(LoopGraph &&) = default;
  LoopGraph &operator=(LoopGraph &&) = default;

  /// Appends step `step`, the closure `f`: it runs its loops on space().
  template <class F> LoopGraph &add(std::string step, F &&f) {
    if (step.empty())
      fail("LoopGraph '", name_, "': a step needs a name");
    for (const auto &s : steps_)
      if (s.name == step)
        fail("LoopGraph '", name_, "' has a step called '", step, "' already");
    if (launches_ > 0)
      fail("LoopGraph '", name_, "': step '", step,
           "' added after the first launch; reset() the graph first");
    steps_.push_back({std::move(step), std::function<void()>(std::forward<F>(f))});
    return *this;
  }

  /// Runs the steps once: at the first launch (and the first after a
  /// reset()) by running them, then (CUDA) by replaying their recording.
  void launch() {
    if (steps_.empty())
      fail("LoopGraph '", name_, "' has no steps to launch");
    if (detail::in_graph())
      detail::fail_in_graph("LoopGraph '", name_, "' launched inside another graph's step");
    if constexpr (replays) {
#ifdef KOKKOS_ENABLE_CUDA
      if (!graph_) {
        run_steps(detail::GraphPhase::run);
        record();
      } else {
        // Kokkos replaced the scratch the recording points at: record again.
        if (!(detail::cuda_scratch(space_) == scratch_))
          record();
        graph_->launch(space_.cuda_stream(), name_);
      }
#endif
    } else if (detail::graph_bodies_by_reference_on_host()) {
      host_bodies_.clear();
      run_steps(detail::GraphPhase::run, no_check, [&](const void *body, std::size_t bytes) {
        host_bodies_.emplace_back(static_cast<const unsigned char *>(body),
                                  static_cast<const unsigned char *>(body) + bytes);
        return static_cast<const void *>(host_bodies_.back().data());
      });
    } else {
      run_steps(detail::GraphPhase::run);
    }
    ++launches_;
  }

  /// Forgets the recording (and allows add()): the next launch runs the
  /// steps and records them again. After the memory a step uses moved.
  void reset() {
#ifdef KOKKOS_ENABLE_CUDA
    graph_.reset();
    bodies_.reset();
#endif
    keep_.clear();
    launches_ = 0;
  }

  const std::string &name() const {
    return name_;
  }
  /// The instance the steps' loops must run on (their plans' space).
  const Space &space() const {
    return space_;
  }
  int steps() const {
    return int(steps_.size());
  }
  /// Launches since construction or the last reset().
  int launches() const {
    return launches_;
  }
  /// Kernels, copies and fills a replay launches (the recording's nodes);
  /// 0 before the first launch and on host backends.
  std::size_t nodes() const {
#ifdef KOKKOS_ENABLE_CUDA
    if (graph_)
      return graph_->nodes();
#endif
    return 0;
  }

private:
  struct Step {
    std::string name;
    std::function<void()> run;
  };

  // The thread's recording state for the duration of the steps.
  class Scope {
  public:
    explicit Scope(detail::GraphRecording &r) { detail::graph_recording() = &r; }
    ~Scope() { detail::graph_recording() = nullptr; }
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;
  };

  detail::GraphRecording state(detail::GraphPhase phase) const {
    detail::GraphRecording r;
    r.graph = name_;
    r.phase = phase;
    r.space = typeid(Space);
    r.stream = detail::stream_of(space_);
    return r;
  }

  using CopyBody = std::function<const void *(const void *, std::size_t)>;
  static void no_check(const std::string &) {}

  // Each step in order; `after(step)` once it returned; loop bodies passed
  // by reference go where `copy_body` says (none by default). An exception
  // from a step comes back as an Error naming the graph and the step.
  template <class After = void (*)(const std::string &)>
  void run_steps(detail::GraphPhase phase, After after = no_check, CopyBody copy_body = {}) {
    detail::GraphRecording r = state(phase);
    r.copy_body = std::move(copy_body);
    const Scope scope(r);
    for (const auto &s : steps_) {
      r.step = s.name;
      try {
        s.run();
      } catch (const std::exception &e) {
        std::string what = e.what();
        if (what.find("LoopGraph '") != std::string::npos)
          throw; // it says which graph and step already
        if (what.rfind("umesh: ", 0) == 0)
          what.erase(0, 7);
        fail("LoopGraph '", name_, "', step '", s.name, "': ", what);
      }
      after(s.name);
    }
    if (phase == detail::GraphPhase::record)
      keep_ = std::move(r.keep);
  }

#ifdef KOKKOS_ENABLE_CUDA
  // Records the steps. Loop bodies too large for a kernel argument go by
  // reference into an arena allocated before the capture: a recording that
  // outgrew it is given up and recorded again with room for what it used.
  void record() {
    graph_.reset();
    std::size_t room = bodies_ ? bodies_->used() : 0;
    bodies_.reset();
    for (;;) {
      auto arena = std::make_unique<detail::CudaBodyArena>(room);
      detail::CudaCapture capture(space_.cuda_stream(), name_);
      run_steps(
          detail::GraphPhase::record, [&](const std::string &step) { capture.check_step(step); },
          [&](const void *body, std::size_t bytes) { return arena->add(body, bytes); });
      if (!arena->fits()) {
        room = arena->used();
        continue; // (the capture is given up as it goes)
      }
      graph_ = capture.finish();
      arena->upload();
      bodies_ = std::move(arena);
      break;
    }
    scratch_ = detail::cuda_scratch(space_);
  }
  std::unique_ptr<detail::CudaGraph> graph_;
  std::unique_ptr<detail::CudaBodyArena> bodies_;
  detail::CudaScratch scratch_;
#endif

  std::string name_;
  Space space_;
  std::vector<Step> steps_;
  std::vector<std::any> keep_; // what the recording points at (graph_recording.hpp)
  std::vector<std::vector<unsigned char>> host_bodies_; // tests' bodies by reference
  int launches_ = 0;
};

} // namespace umesh

#endif
