#ifndef UMESH_DIST_DETAIL_EXCHANGE_BATCH_HPP
#define UMESH_DIST_DETAIL_EXCHANGE_BATCH_HPP

// The dats of one halo exchange that move together (dist::Exchange): those
// of one memory space and direction, packed by one kernel into one buffer
// with a neighbour's bytes contiguous, and unpacked by one kernel.

#include <umesh/dat.hpp>
#include <umesh/dist/detail/exchange_lists.hpp>
#include <umesh/dist/detail/exchange_pack.hpp>
#include <umesh/dist/detail/exchange_slots.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstddef>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

namespace umesh::detail {

class ExchangeBatch {
public:
  ExchangeBatch(std::type_index space, bool to_owners) : space_(space), to_owners_(to_owners) {}
  virtual ~ExchangeBatch() = default;

  /// Whether a dat of `space` going the same way can join.
  bool takes(std::type_index space, bool to_owners) const {
    return space == space_ && to_owners == to_owners_ && dats_.count < max_packed_dats;
  }
  template <class T, int D, class L, class M> void add(const umesh::Dat<T, D, L, M> &d, Fold fold) {
    PackedDat p;
    p.data = reinterpret_cast<char *>(d.view().data());
    p.point_stride = std::ptrdiff_t(d.view().stride(0));
    p.comp_stride = std::ptrdiff_t(d.view().stride(1));
    p.dim = D, p.size = int(sizeof(T)), p.kind = value_kind<T>(), p.fold = fold;
    p.by_component = by_component<L>();
    dats_.dat[dats_.count++] = p;
    names_[dats_.count - 1] = &d.name(); // the dat outlives its exchange
  }
  /// The fold of the dat whose values start at `data` in this batch, if it
  /// is in it.
  const Fold *fold_of(const void *data) const {
    for (int d = 0; d < dats_.count; ++d)
      if (dats_.dat[d].data == data)
        return &dats_.dat[d].fold;
    return nullptr;
  }
  /// Places the dats' blocks (before the first packing) and checks that
  /// the exchange's counts fit.
  void arrange(const ExchangeLists &lists) {
    dats_.arrange();
    lists.check_sizes([this] { return names(); }, std::size_t(dats_.values),
                      std::size_t(dats_.row_bytes));
  }

  bool to_owners() const { return to_owners_; }
  /// Bytes a point, over the dats (padded so every block is aligned).
  std::size_t row() const { return std::size_t(dats_.row_bytes); }
  /// The dats' names, for messages.
  std::string names() const {
    std::string s;
    for (int d = 0; d < dats_.count; ++d)
      s += (d ? ", '" : "dat '") + *names_[d] + "'";
    return s;
  }

  /// Packs what leaves this rank into the out buffer (`out_rows` rows).
  virtual void pack(const ExchangeLists &lists, ExchangeBuffers &b, std::size_t out_rows) = 0;
  /// Stores or combines the in buffer's `in_rows` rows into the dats.
  virtual void unpack(const ExchangeLists &lists, ExchangeBuffers &b, std::size_t in_rows) = 0;
  /// The packed and arrived bytes (after pack()).
  virtual char *out() const = 0;
  virtual char *in() const = 0;
  /// Host path: copies the packed bytes to `host` and the host's arrived
  /// bytes into the in buffer.
  virtual void to_host(std::vector<char> &host, std::size_t bytes) const = 0;
  virtual void from_host(std::vector<char> &host, std::size_t bytes) const = 0;

  bool device = false;               // through NCCL
  int slot = -1;                     // buffers in use; -1 before packing
  std::vector<MPI_Request> requests; // host path

protected:
  std::type_index space_;
  bool to_owners_;
  PackedDats dats_;
  const std::string *names_[max_packed_dats] = {}; // in the order added
};

/// A batch of dats in memory space M, unpacked and packed by kernels of
/// M's execution space.
template <class M> class SpaceBatch final : public ExchangeBatch {
public:
  explicit SpaceBatch(bool to_owners) : ExchangeBatch(typeid(M), to_owners) {}

  void pack(const ExchangeLists &lists, ExchangeBuffers &b, std::size_t out_rows) override {
    // Import: owners send their points, the halo receives; export the
    // reverse.
    const std::size_t in_rows = to_owners_ ? lists.sent_points() : lists.halo_points();
    out_ = staging<M>(b.out, out_rows * row());
    in_ = staging<M>(b.in, in_rows * row());
    const bool send = !to_owners_;
    pack_values<Exec>(PackedIndex<M>{lists.blocks<M>(send), dats_}, lists.indices<M>(send),
                      int(out_rows), out_.data());
  }
  void unpack(const ExchangeLists &lists, ExchangeBuffers &, std::size_t in_rows) override {
    if (!to_owners_) // each halo point from its one owner
      store_values<Exec>(PackedIndex<M>{lists.blocks<M>(false), dats_}, lists.indices<M>(false),
                         int(in_rows), in_.data());
    else
      combine_values<Exec>(dats_, lists.combine<M>(), lists.blocks<M>(true), in_.data());
  }
  char *out() const override { return out_.data(); }
  char *in() const override { return in_.data(); }
  void to_host(std::vector<char> &host, std::size_t bytes) const override {
    Kokkos::deep_copy(host_bytes(host, bytes),
                      Kokkos::subview(out_, std::make_pair(std::size_t(0), bytes)));
  }
  void from_host(std::vector<char> &host, std::size_t bytes) const override {
    Kokkos::deep_copy(Kokkos::subview(in_, std::make_pair(std::size_t(0), bytes)),
                      host_bytes(host, bytes));
  }

private:
  using Exec = typename Kokkos::View<char *, M>::execution_space;
  Kokkos::View<char *, M> out_, in_;
};

} // namespace umesh::detail

#endif
