#ifndef UMESH_APPS_COMMON_EXCHANGE_TALLY_HPP
#define UMESH_APPS_COMMON_EXCHANGE_TALLY_HPP

// What a distributed run's halo exchanges cost this rank, and the report
// lines the apps print after a run (miniAero per step, LULESH per cycle).

#include <cstddef>
#include <cstdio>
#include <memory>
#include <vector>

namespace umesh::apps {

/// A rank's halo exchanges so far: how many, and their seconds.
struct ExchangeTally {
  double seconds = 0;
  std::size_t count = 0;
  /// Where the seconds went (umesh::dist::Exchange::Phases), and the wait
  /// for the neighbours' loops when timed on the device.
  double pack = 0, wait = 0, unpack = 0, skew = 0, final_wait = 0;
  double bytes = 0; ///< sent, over all neighbours

  ExchangeTally operator-(const ExchangeTally &o) const {
    ExchangeTally d = *this;
    d.seconds -= o.seconds, d.count -= o.count, d.pack -= o.pack, d.wait -= o.wait;
    d.unpack -= o.unpack, d.skew -= o.skew, d.final_wait -= o.final_wait, d.bytes -= o.bytes;
    return d;
  }
};

/// The tally of every halo a dist::Partition's sets exchange (elements and
/// targets; a halo two of them share counted once).
template <class PartitionT> ExchangeTally exchange_tally(const PartitionT &p) {
  std::vector<const void *> seen;
  ExchangeTally t;
  auto add = [&](const auto &part) {
    const auto *halo = part ? part->halo.get() : nullptr;
    for (const void *s : seen)
      if (s == halo)
        return;
    if (!halo)
      return;
    seen.push_back(halo);
    const auto ph = halo->phases();
    t.seconds += halo->seconds();
    t.count += halo->exchanges();
    t.pack += ph.pack;
    t.wait += ph.wait;
    t.unpack += ph.unpack;
    t.skew += ph.skew;
    t.final_wait += ph.final_wait;
    t.bytes += double(halo->bytes_sent());
  };
  add(p.elements());
  for (const auto &target : p.targets())
    add(target);
  return t;
}

/// The lines after a distributed run of `steps` steps (`per`: "step",
/// "cycle") that took `seconds`: the exchanges' share, count and mean cost
/// (rank 0's), and with `timed` (fenced on the device) where it went.
inline void print_exchange_report(const ExchangeTally &d, double seconds, int steps,
                                  const char *per, bool timed, bool nccl) {
  std::printf("    halo exchange %.2f s, %.1f%% of the %ss' time (rank 0's, %s): %zu "
              "exchanges, %.1f per %s, %.1f us each\n",
              d.seconds, seconds > 0 ? 100 * d.seconds / seconds : 0.0, per,
              timed ? "device fenced" : "host side", d.count,
              steps > 0 ? double(d.count) / steps : 0.0, per,
              d.count > 0 ? 1e6 * d.seconds / double(d.count) : 0.0);
  if (timed && d.count > 0) {
    // Through NCCL the phases are the device's (CUDA events), with one
    // host wait at the end; through the host each is fenced.
    const double each = 1e6 / double(d.count);
    std::printf("    per exchange: %.0f KiB sent; pack %.1f us, %s %.1f us, unpack %.1f us",
                d.bytes / double(d.count) / 1024, each * d.pack, nccl ? "transfer" : "MPI wait",
                each * d.wait, each * d.unpack);
    if (nccl)
      std::printf(", the host's final wait %.1f us", each * d.final_wait);
    std::printf("; waiting for the neighbours' loops before it %.1f us (not counted above)\n",
                each * d.skew);
  }
}

} // namespace umesh::apps

#endif
