#ifndef UMESH_DIST_EXCHANGE_GROUP_HPP
#define UMESH_DIST_EXCHANGE_GROUP_HPP

// Several halo exchanges of one set made as one (dist::par_loop's imports of
// a loop): one packing kernel, one message (NCCL: one send and one receive)
// per neighbour and one unpacking kernel for all of them, and one exchange
// a step instead of one per dat.

#include <umesh/dist/exchange.hpp>

namespace umesh::dist {

/// Exchanges of several dats of one Exchange's set made as one: every dat
/// packed by one kernel into one buffer (a neighbour's bytes of every dat
/// together), sent (through NCCL one group, one send and one receive per
/// neighbour; through the host one message each way per neighbour), then
/// unpacked by one kernel. Dats of other memory spaces, or going the other
/// way, or past detail::max_packed_dats, make further batches of the same
/// exchange. Counted as one exchange (of the dats' rows together), and
/// timed as one. Every rank starts the same dats in the same order.
class ExchangeGroup {
public:
  explicit ExchangeGroup(const Exchange &ex) : ex_(ex) {}
  ExchangeGroup(const ExchangeGroup &) = delete;
  ExchangeGroup &operator=(const ExchangeGroup &) = delete;
  /// Finishes what is under way if finish() was not called (an error
  /// unwinding past the group): messages left under way would meet later
  /// exchanges.
  ~ExchangeGroup() {
    try {
      finish();
    } catch (...) {
    }
  }

  const Exchange &exchange() const { return ex_; }

  /// Adds the exchange of `d`: an import (`to_owners` false) or an export
  /// combined by `how`. Its values are packed by post() or finish(), so
  /// they must be final by then.
  template <class T, int D, class L, class M>
  void start(const umesh::Dat<T, D, L, M> &d, bool to_owners, Exchange::Combine how) {
    ex_.add(run_, d, to_owners, how);
  }
  /// Packs what start() added and posts the host path's messages, so that
  /// they travel while the caller works (dist/overlap.hpp); finish() does
  /// it otherwise. NCCL's sends wait for finish(): on the loops' stream a
  /// receive issued now would hold the caller's kernels until the
  /// neighbour sends (Exchange::post's defer_nccl).
  void post() { ex_.post(run_, /*defer_nccl=*/true); }
  /// Waits for the transfers and unpacks every dat.
  void finish() { ex_.complete(run_); }

private:
  const Exchange &ex_;
  Exchange::Run run_;
};

} // namespace umesh::dist

#endif
