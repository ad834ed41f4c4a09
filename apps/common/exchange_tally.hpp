#ifndef UMESH_APPS_COMMON_EXCHANGE_TALLY_HPP
#define UMESH_APPS_COMMON_EXCHANGE_TALLY_HPP

// What a distributed run's halo exchanges cost this rank, and the report
// lines the apps print after a run (miniAero per step, LULESH per cycle).

#include <cstddef>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

namespace umesh::apps {

/// A rank's halo exchanges so far: how many, and their seconds.
struct ExchangeTally {
  double seconds = 0;
  std::size_t count = 0;
  /// Where the seconds went (umesh::dist::Exchange::Phases), and the wait
  /// for the neighbours' loops when timed on the device.
  double pack = 0, wait = 0, unpack = 0, skew = 0, lead = 0;
  double bytes = 0; ///< sent, over all neighbours
  /// Per halo (in for_each_halo's order): exchanges per row size in bytes
  /// (dist::Exchange::rows).
  std::vector<std::map<std::size_t, std::size_t>> rows;

  ExchangeTally operator-(const ExchangeTally &o) const {
    ExchangeTally d = *this;
    d.seconds -= o.seconds, d.count -= o.count, d.pack -= o.pack, d.wait -= o.wait;
    d.unpack -= o.unpack, d.skew -= o.skew, d.lead -= o.lead, d.bytes -= o.bytes;
    for (std::size_t h = 0; h < d.rows.size() && h < o.rows.size(); ++h)
      for (const auto &[row, n] : o.rows[h])
        d.rows[h][row] -= n;
    return d;
  }
};

/// Calls f(halo) for every halo a dist::Partition's sets exchange
/// (elements and targets; a halo two of them share once), in a fixed order.
template <class PartitionT, class F> void for_each_halo(const PartitionT &p, F &&f) {
  std::vector<const void *> seen;
  auto visit = [&](const auto &part) {
    const auto *halo = part ? part->halo.get() : nullptr;
    for (const void *s : seen)
      if (s == halo)
        return;
    if (!halo)
      return;
    seen.push_back(halo);
    f(*halo);
  };
  visit(p.elements());
  for (const auto &target : p.targets())
    visit(target);
}

/// The tally of every halo a dist::Partition's sets exchange.
template <class PartitionT> ExchangeTally exchange_tally(const PartitionT &p) {
  ExchangeTally t;
  for_each_halo(p, [&](const auto &h) {
    const auto *halo = &h;
    t.rows.push_back(halo->rows());
    const auto ph = halo->phases();
    t.seconds += halo->seconds();
    t.count += halo->exchanges();
    t.pack += ph.pack;
    t.wait += ph.wait;
    t.unpack += ph.unpack;
    t.skew += ph.skew;
    t.lead += ph.lead;
    t.bytes += double(halo->bytes_sent());
  });
  return t;
}

/// NCCL's own transfer of the bytes of the exchanges `d` counts (a
/// difference of two tallies of `p`) between the same ranks, without
/// packing (umesh::dist::nccl_transfer_seconds, each halo's row sizes
/// apart): seconds per exchange. Collective over the ranks; 0 without NCCL.
template <class PartitionT> double nccl_same_bytes(const PartitionT &p, const ExchangeTally &d) {
  double total = 0;
  std::size_t count = 0, h = 0;
  for_each_halo(p, [&](const auto &halo) {
    if (h >= d.rows.size())
      return;
    std::size_t n = 0;
    for (const auto &[row, k] : d.rows[h])
      n += k;
    // (found by argument-dependent lookup: the apps' builds without MPI
    // never instantiate this)
    total += nccl_transfer_seconds(halo, d.rows[h++], 21) * double(n);
    count += n;
  });
  return count ? total / double(count) : 0.0;
}

/// The lines after a distributed run of `steps` steps (`per`: "step",
/// "cycle") that took `seconds`: the exchanges' share, count and mean cost
/// (rank 0's), and with `timed` (fenced on the device) where it went.
/// `nccl_same`: seconds NCCL's own transfer of the same bytes took an
/// exchange (nccl_same_bytes), or 0 when not measured.
inline void print_exchange_report(const ExchangeTally &d, double seconds, int steps,
                                  const char *per, bool timed, bool nccl, double nccl_same = 0) {
  // Timed through NCCL, the device's spins before the exchanges (the lead
  // in which the host launches them) are not the steps' time.
  const double steps_time = seconds - d.lead;
  std::printf("    halo exchange %.2f s, %.1f%% of the %ss' time (rank 0's, %s%s): %zu "
              "exchanges, %.1f per %s, %.1f us each\n",
              d.seconds, steps_time > 0 ? 100 * d.seconds / steps_time : 0.0, per,
              timed ? (nccl ? "the device's time" : "device fenced") : "host side",
              d.lead > 0 ? ", the timing's leads left out" : "", d.count,
              steps > 0 ? double(d.count) / steps : 0.0, per,
              d.count > 0 ? 1e6 * d.seconds / double(d.count) : 0.0);
  if (timed && d.count > 0) {
    // Through NCCL the phases are the device's (CUDA events); through the
    // host each is fenced.
    const double each = 1e6 / double(d.count);
    std::printf("    per exchange: %.0f KiB sent; pack %.1f us, %s %.1f us, unpack %.1f us",
                d.bytes / double(d.count) / 1024, each * d.pack, nccl ? "transfer" : "MPI wait",
                each * d.wait, each * d.unpack);
    std::printf("; waiting for the neighbours' loops before it %.1f us (not counted above)\n",
                each * d.skew);
    if (nccl_same > 0)
      std::printf("    NCCL alone, the same bytes between the same ranks (median of 21 each "
                  "size): %.1f us an exchange; the exchange costs %.2fx that\n",
                  1e6 * nccl_same, d.seconds / double(d.count) / nccl_same);
  }
}

} // namespace umesh::apps

#endif
