#ifndef UMESH_PERF_MAIN_MEASURE_HPP
#define UMESH_PERF_MAIN_MEASURE_HPP

// How the main job checks and times one executor's run: random inputs, the
// largest relative difference from the reference, and the validated, timed
// measurement that also checks that every timed launch ran.

#include "common/bandwidth.hpp"
#include "common/bits_hash.hpp"
#include "main_options.hpp"
#include "main_report.hpp"

#include <umesh/umesh.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace umesh::perf {

template <class DatT> void randomise(const DatT &d, std::uint64_t seed, double lo, double hi) {
  auto h = Kokkos::create_mirror_view(d.view());
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  for (std::size_t i = 0; i < h.extent(0); ++i)
    for (std::size_t k = 0; k < h.extent(1); ++k)
      h(i, k) = u(rng);
  Kokkos::deep_copy(d.view(), h);
}

// Largest |got(i, k) - want(i, k)| over a rows x cols table, relative to
// max(1, |want(i, k)|). Single precision: relative to max(1, column k's
// largest |want|), since float sums of terms that cancel lose digits the
// executors' summation orders lose differently. A NaN counts as infinite.
template <class Got, class Want>
double largest_rel_diff(std::size_t rows, std::size_t cols, bool single, Got &&got, Want &&want) {
  std::vector<double> scale(cols, 1.0);
  if (single)
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t k = 0; k < cols; ++k)
        scale[k] = std::max(scale[k], std::fabs(want(i, k)));
  double err = 0;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t k = 0; k < cols; ++k) {
      const double w = want(i, k);
      const double e = std::fabs(got(i, k) - w) / (single ? scale[k] : std::max(1.0, std::fabs(w)));
      err = std::isnan(e) ? INFINITY : std::max(err, e);
    }
  return err;
}

template <class A>
constexpr bool single_precision = sizeof(typename A::value_type) < sizeof(double);

/// Largest difference of a dat from its reference (see largest_rel_diff).
template <class A, class B> double max_rel_err(const A &got, const B &want) {
  auto g = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), got.view());
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), want.view());
  return largest_rel_diff(
      std::size_t(got.size()), g.extent(1), single_precision<A>,
      [&](std::size_t i, std::size_t k) { return double(g(i, k)); },
      [&](std::size_t i, std::size_t k) { return double(w(i, k)); });
}

/// A hash of a dat's values as bits (common/bits_hash.hpp), to compare runs
/// bitwise.
template <class A> std::uint64_t bits_of(const A &dat) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dat.view());
  apps::BitsHash hash;
  for (std::size_t i = 0; i < std::size_t(dat.size()); ++i)
    for (std::size_t k = 0; k < h.extent(1); ++k)
      hash.add(h(i, k));
  return hash.value;
}

// Validates one executor against the reference, times it, then checks that
// every timed launch ran: the output must have moved by exactly
// (timed runs) x (one run's increment). The quick run's check (o.check)
// stops after the validation: its rows are not timings.
template <class OutDat, class RefDat, class RunOnce>
Row measure(const Options &o, const std::string &kernel, const std::string &executor,
            const std::string &layout, double bytes, const OutDat &out, const RefDat &ref,
            const OutDat &initial, RunOnce &&run_once) {
  // Executors sum increments in different orders: results agree within the
  // value type's rounding (single precision: measured norm-wise, see
  // max_rel_err).
  constexpr bool single = single_precision<OutDat>;
  Row row{kernel, executor, layout, 0, 0, 0, 0, single ? 1e-5 : 1e-10, ""};
  copy_values(out, initial);
  run_once();
  Kokkos::fence();
  row.max_rel_err = max_rel_err(out, ref);
  if (o.reproducible)
    row.bits = bits_of(out);
  if (o.check) // the quick run's check validates only: no timing
    return row;
  const int repeats =
      executor == exec::name_of_v<exec::Serial> ? std::min(o.repeats, 3) : o.repeats;
  const int warmup = executor == exec::name_of_v<exec::Serial> ? 1 : o.warmup;
  for (int w = 0; w < warmup; ++w)
    run_once();
  Kokkos::fence();
  // create_mirror (not _view): a host dat must be copied, not aliased.
  auto before = Kokkos::create_mirror(out.view());
  Kokkos::deep_copy(before, out.view());
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    run_once();
    Kokkos::fence();
    times.push_back(timer.seconds());
  }
  auto after = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.view());
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ref.view());
  auto i0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), initial.view());
  // Each timed run must have added one run's change (a NaN fails too).
  const double drift = largest_rel_diff(
      std::size_t(ref.size()), r.extent(1), single,
      [&](std::size_t i, std::size_t k) { return (double(after(i, k)) - before(i, k)) / repeats; },
      [&](std::size_t i, std::size_t k) { return double(r(i, k)) - i0(i, k); });
  if (!(drift < (single ? 1e-4 : 1e-6)))
    row.note = "TIMED RUNS INCOMPLETE";
  row.time_ms = apps::median(times) * 1e3;
  row.gbps = bytes / (row.time_ms * 1e-3) / 1e9;
  return row;
}

} // namespace umesh::perf

#endif
