#ifndef UMESH_DETAIL_GRAPH_CUDA_HPP
#define UMESH_DETAIL_GRAPH_CUDA_HPP

// A LoopGraph's CUDA side: its stream's capture (begin, a check after each
// step, end), the checks of what was captured, the instantiated graph and
// its launch; and the stream umesh::graph_space() gives where Kokkos'
// default CUDA instance runs on the legacy default stream, which CUDA
// cannot capture (Kokkos 3).

#include <umesh/detail/graph_recording.hpp>
#include <umesh/error.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#ifdef KOKKOS_ENABLE_CUDA

namespace umesh::detail {

/// Fails naming the graph, `what` and CUDA's error, unless `e` is success.
inline void cuda_graph_check(cudaError_t e, const std::string &graph, const std::string &what) {
  if (e != cudaSuccess)
    fail("LoopGraph '", graph, "': ", what, " failed: ", cudaGetErrorName(e), " (",
         cudaGetErrorString(e), ")");
}

/// Kokkos::Cuda() where its stream can be captured; else (Kokkos 3: the
/// legacy default stream) one Kokkos::Cuda on a stream of umesh's for the
/// whole program, released at Kokkos::finalize. The stream is a blocking
/// one, so work on the legacy default stream stays ordered with it.
inline Kokkos::Cuda cuda_graph_space() {
  if (Kokkos::Cuda().cuda_stream() != nullptr)
    return Kokkos::Cuda();
  static std::mutex mutex;
  static std::unique_ptr<Kokkos::Cuda> instance;
  static cudaStream_t stream = nullptr;
  const std::lock_guard<std::mutex> lock(mutex);
  if (!instance) {
    cuda_graph_check(cudaStreamCreate(&stream), "umesh::graph_space", "cudaStreamCreate");
    instance = std::make_unique<Kokkos::Cuda>(stream);
    // Before Kokkos' own finalisation: the instance frees its scratch there.
    Kokkos::push_finalize_hook([] {
      instance.reset();
      cudaStreamDestroy(stream);
      stream = nullptr;
    });
  }
  return *instance;
}

/// Where Kokkos keeps the instance's reduction and team scratch: a recorded
/// graph points at them, and Kokkos replaces them when a launch outside the
/// graph needs more (Kokkos 3; Kokkos 4 keeps them elsewhere: not tracked).
struct CudaScratch {
  const void *space = nullptr, *flags = nullptr, *unified = nullptr, *team = nullptr;
  bool operator==(const CudaScratch &o) const {
    return space == o.space && flags == o.flags && unified == o.unified && team == o.team;
  }
};
inline CudaScratch cuda_scratch(const Kokkos::Cuda &space) {
#if KOKKOS_VERSION < 40000
  const auto *i = space.impl_internal_space_instance();
  return {i->m_scratchSpace, i->m_scratchFlags, i->m_scratchUnified, i->m_team_scratch_ptr};
#else
  (void)space;
  return {};
#endif
}

/// An instantiated graph (none where nothing was recorded). A graph still
/// running when it is destroyed is freed by CUDA when it completes.
class CudaGraph {
public:
  CudaGraph(cudaGraph_t graph, cudaGraphExec_t exec, std::size_t nodes)
      : graph_(graph), exec_(exec), nodes_(nodes) {}
  CudaGraph(const CudaGraph &) = delete;
  CudaGraph &operator=(const CudaGraph &) = delete;
  ~CudaGraph() {
    if (exec_)
      cudaGraphExecDestroy(exec_);
    if (graph_)
      cudaGraphDestroy(graph_);
  }
  void launch(cudaStream_t stream, const std::string &name) const {
    if (exec_)
      cuda_graph_check(cudaGraphLaunch(exec_, stream), name, "cudaGraphLaunch");
  }
  std::size_t nodes() const { return nodes_; }

private:
  cudaGraph_t graph_;
  cudaGraphExec_t exec_;
  std::size_t nodes_;
};

/// Device memory for the loop bodies a recording passes by reference
/// (graph_copy_body): each body's bytes are kept on the host as the capture
/// meets it and copied here once the capture ended. Made with a capacity
/// before the capture (no allocation may happen during one); a recording
/// that needs more is recorded again with an arena of the size it used.
class CudaBodyArena {
public:
  explicit CudaBodyArena(std::size_t capacity)
      : device_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "umesh::LoopGraph::bodies"),
                capacity) {}
  /// Where the body will be (a host address, never read, when it does not fit).
  const void *add(const void *body, std::size_t bytes) {
    const std::size_t at = (used_ + 255) / 256 * 256;
    used_ = at + bytes;
    host_.resize(used_);
    std::memcpy(host_.data() + at, body, bytes);
    return fits() ? static_cast<const void *>(device_.data() + at) : host_.data() + at;
  }
  bool fits() const { return used_ <= device_.extent(0); }
  std::size_t used() const { return used_; }
  void upload() const {
    if (used_ == 0)
      return;
    using Host = Kokkos::View<const unsigned char *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    Kokkos::deep_copy(Kokkos::subview(device_, std::make_pair(std::size_t(0), used_)),
                      Host(host_.data(), used_));
  }

private:
  Kokkos::View<unsigned char *, Kokkos::CudaSpace> device_;
  std::vector<unsigned char> host_;
  std::size_t used_ = 0;
};

/// A capture of `stream` from construction to finish(); given up (and its
/// partial graph freed) if it ends otherwise, an exception from a step.
class CudaCapture {
public:
  CudaCapture(cudaStream_t stream, std::string graph) : stream_(stream), name_(std::move(graph)) {
    if (stream == nullptr)
      fail("LoopGraph '", name_,
           "': its execution space instance runs on CUDA's legacy default stream, which CUDA "
           "cannot record: make the graph on umesh::graph_space<Kokkos::Cuda>() (the "
           "default), and the plans of its loops on LoopGraph::space()");
    cudaStreamCaptureStatus status;
    cuda_graph_check(cudaStreamIsCapturing(stream, &status), name_, "cudaStreamIsCapturing");
    if (status != cudaStreamCaptureStatusNone)
      fail("LoopGraph '", name_, "': its stream is being recorded already (another graph?)");
    // An error left by earlier work is no step's: it is not reported as one.
    (void)cudaGetLastError();
    // Thread-local: calls that may wait (allocations, synchronous copies)
    // are errors on this thread only, not on the program's other threads.
    cuda_graph_check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), name_,
                     "cudaStreamBeginCapture");
    capturing_ = true;
  }
  CudaCapture(const CudaCapture &) = delete;
  CudaCapture &operator=(const CudaCapture &) = delete;
  ~CudaCapture() {
    if (capturing_) {
      cudaGraph_t g = nullptr;
      if (cudaStreamEndCapture(stream_, &g) == cudaSuccess && g)
        cudaGraphDestroy(g);
      (void)cudaGetLastError(); // the capture's failure, reported already
    }
  }

  /// After step `step`: fails naming it if one of its calls failed or broke
  /// the capture (a wait, work on the legacy default stream).
  void check_step(const std::string &step) {
    const cudaError_t launch = cudaGetLastError();
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    const cudaError_t query = cudaStreamIsCapturing(stream_, &status);
    if (launch != cudaSuccess || query != cudaSuccess || status != cudaStreamCaptureStatusActive)
      fail("LoopGraph '", name_, "', step '", step, "': CUDA could not record it (",
           cudaGetErrorName(launch != cudaSuccess ? launch : query),
           status == cudaStreamCaptureStatusInvalidated ? ", capture invalidated" : "",
           "): the step waited for the device, or ran work on the legacy default stream or on a "
           "stream that waits for it");
  }

  /// Ends the capture, checks the copies it holds, instantiates the graph.
  std::unique_ptr<CudaGraph> finish() {
    capturing_ = false;
    cudaGraph_t graph = nullptr;
    cuda_graph_check(cudaStreamEndCapture(stream_, &graph), name_, "cudaStreamEndCapture");
    std::unique_ptr<cudaGraph_t, void (*)(cudaGraph_t *)> owned(&graph, [](cudaGraph_t *g) {
      if (*g)
        cudaGraphDestroy(*g);
    });
    const std::size_t nodes = check_nodes(graph);
    cudaGraphExec_t exec = nullptr;
    if (nodes > 0) // (steps that launched nothing: nothing to replay)
      cuda_graph_check(cudaGraphInstantiateWithFlags(&exec, graph, 0), name_,
                       "cudaGraphInstantiateWithFlags");
    auto out = std::make_unique<CudaGraph>(graph, exec, nodes);
    graph = nullptr; // the CudaGraph owns it now
    return out;
  }

private:
  // Host memory a replay would copy from or to: pageable memory is not the
  // graph's to keep, and Kokkos 3's constant-memory staging buffer holds
  // whatever launch came last.
  static bool pageable(const void *p) {
    if (p == nullptr)
      return false;
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
      (void)cudaGetLastError();
      return true;
    }
    return a.type == cudaMemoryTypeUnregistered;
  }
  std::size_t check_nodes(cudaGraph_t graph) const {
    std::size_t n = 0;
    if (graph == nullptr)
      return 0;
    cuda_graph_check(cudaGraphGetNodes(graph, nullptr, &n), name_, "cudaGraphGetNodes");
    std::vector<cudaGraphNode_t> nodes(n);
    cuda_graph_check(cudaGraphGetNodes(graph, nodes.data(), &n), name_, "cudaGraphGetNodes");
    for (cudaGraphNode_t node : nodes) {
      cudaGraphNodeType type;
      cuda_graph_check(cudaGraphNodeGetType(node, &type), name_, "cudaGraphNodeGetType");
      if (type != cudaGraphNodeTypeMemcpy)
        continue;
      cudaMemcpy3DParms p = {};
      cuda_graph_check(cudaGraphMemcpyNodeGetParams(node, &p), name_,
                       "cudaGraphMemcpyNodeGetParams");
#if KOKKOS_VERSION < 40000
      if (p.srcPtr.ptr == Kokkos::Impl::CudaInternal::constantMemHostStaging) {
        // The next constant-memory launch would wait for an event recorded
        // in the capture: recorded again, outside it.
        cudaEventRecord(Kokkos::Impl::CudaInternal::constantMemReusable, stream_);
        fail("LoopGraph '", name_,
             "': a recorded kernel takes its arguments through constant memory (a Kokkos "
             "launch of a functor of 512 bytes or more without "
             "WorkItemProperty::HintLightWeight): launch it light weight, or outside the graph");
      }
#endif
      if (pageable(p.srcPtr.ptr) || pageable(p.dstPtr.ptr))
        fail("LoopGraph '", name_, "': a recorded copy of ", p.extent.width * p.extent.height,
             " bytes reads or writes pageable host memory (a Kokkos::deep_copy with a HostSpace "
             "View, or a kernel whose arguments Kokkos copies from the host), which a replay "
             "cannot use: copy through Kokkos::CudaHostPinnedSpace, or outside the graph");
    }
    return n;
  }

  cudaStream_t stream_;
  std::string name_;
  bool capturing_ = false;
};

} // namespace umesh::detail

#endif // KOKKOS_ENABLE_CUDA

#endif
