#ifndef UMESH_DIST_EXCHANGE_GROUP_HPP
#define UMESH_DIST_EXCHANGE_GROUP_HPP

// Several halo exchanges of one set made as one (dist::par_loop's imports of
// a loop): fewer NCCL launches and fewer exchanges a step.

#include <umesh/dist/exchange.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace umesh::dist {

/// Exchanges of several dats of one Exchange's set made as one: through
/// NCCL, every dat packed, then all transfers in one NCCL group (one
/// launch), then every dat unpacked; through the host, all messages under
/// way together. Counted as one exchange (of the dats' rows together), and
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

  /// Starts the exchange of `d` (packing it; through the host, posting its
  /// messages): an import (`to_owners` false) or an export combined by
  /// `how`.
  template <class T, int D, class L, class M>
  void start(const umesh::Dat<T, D, L, M> &d, bool to_owners, Exchange::Combine how) {
    if (ex_.neighbours_.empty())
      return;
    if (finishers_.empty())
      marked_ = ex_.open_group(ex_.device_path<M>());
    auto p = std::make_shared<Exchange::Pending>(ex_.start(d, to_owners, how, /*grouped=*/true));
    const std::size_t row = D * sizeof(T);
    row_ += row;
    if (p->device)
      sends_.push_back(
          [ex = &ex_, p, row] { ex->send_through_nccl<M>(p->slot, p->to_owners, row); });
    finishers_.push_back([ex = &ex_, d, p] { ex->finish(d, *p); });
  }
  /// Sends what start() packed (NCCL) and completes every exchange.
  void finish() {
    if (finishers_.empty())
      return;
    const auto finishers = std::move(finishers_);
    const auto sends = std::move(sends_);
    finishers_.clear(), sends_.clear();
    const std::size_t row = row_;
    row_ = 0;
    auto &marks = ex_.group_marks_;
    if (marked_)
      marks.record(1);
    if (!sends.empty())
      ex_.group_sends(sends);
    if (marked_)
      marks.record(2), marks.record(3);
    for (const auto &f : finishers)
      f();
    ex_.close_group(marked_, row);
  }

private:
  const Exchange &ex_;
  std::vector<std::function<void()>> sends_, finishers_;
  bool marked_ = false;
  std::size_t row_ = 0;
};

} // namespace umesh::dist

#endif
