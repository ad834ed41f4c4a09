// exec::Auto's timing of its candidates and its report
// (umesh/detail/auto_tuning.hpp): compiled once here rather than in every
// file that runs a loop under exec::Auto.
#include <umesh/detail/auto_tuning.hpp>
#include <umesh/error.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

namespace umesh::detail {

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? std::numeric_limits<double>::quiet_NaN() : v[v.size() / 2];
}

} // namespace

void tune_candidates(const std::vector<AutoCandidate> &cands, const exec::AutoOptions &o,
                     const std::string &loop, AutoDecision &d,
                     const std::function<void(std::size_t)> &warm_up,
                     const std::function<double(std::size_t)> &time) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const std::size_t n = cands.size();
  d.median_ms.assign(n, nan);
  d.final_ms.assign(n, nan);
  d.notes.assign(n, "");
  std::vector<double> warm(n, inf);
  std::vector<std::vector<double>> ms(n);
  double best = inf;
  std::string first_error;
  for (std::size_t c = 0; c < n; ++c) {
    if (elapsed() > o.time_limit && std::isfinite(best)) {
      d.notes[c] = "time limit";
      continue;
    }
    try {
      warm_up(c);
      warm[c] = time(c);
      best = std::min(best, warm[c]);
    } catch (const Error &e) { // does not fit this device or loop
      d.notes[c] = "not run";
      if (first_error.empty())
        first_error = e.what();
    }
  }
  for (std::size_t c = 0; c < n; ++c)
    if (std::isfinite(warm[c]) && warm[c] > o.prune * best)
      d.notes[c] = "pruned: warm-up " + std::to_string(warm[c]) + " ms";
  // Trial rounds over all candidates in turn, so that a machine whose speed
  // drifts during tuning slows every candidate alike.
  for (int r = 0; r < o.trials; ++r) {
    if (r > 0 && elapsed() > o.time_limit)
      break; // every candidate still in has as many trials
    for (std::size_t c = 0; c < n; ++c)
      if (std::isfinite(warm[c]) && d.notes[c].empty())
        ms[c].push_back(time(c));
  }
  std::vector<std::size_t> timed;
  for (std::size_t c = 0; c < n; ++c)
    if (!ms[c].empty()) {
      d.median_ms[c] = median_of(ms[c]);
      timed.push_back(c);
    }
  if (timed.empty())
    fail("loop '", loop, "' under exec::Auto: no candidate ran; the first said: ", first_error);
  std::stable_sort(timed.begin(), timed.end(),
                   [&](std::size_t a, std::size_t b) { return d.median_ms[a] < d.median_ms[b]; });
  d.winner = int(timed.front());
  // Finals: the leaders within the margin run in turns, each round in the
  // opposite order to the last; each round's times are taken relative to the
  // round's fastest, and the lowest median ratio wins (drift between rounds
  // cancels).
  std::vector<std::size_t> leaders;
  for (std::size_t c : timed)
    if (leaders.size() < std::size_t(o.finalists) &&
        d.median_ms[c] <= o.final_margin * d.median_ms[timed.front()])
      leaders.push_back(c);
  if (leaders.size() < 2 || o.final_rounds < 1 || elapsed() > o.time_limit)
    return;
  std::vector<std::vector<double>> final_ms(leaders.size()), ratios(leaders.size());
  for (int r = 0; r < o.final_rounds; ++r) {
    if (r > 0 && elapsed() > o.time_limit)
      break;
    std::vector<double> t(leaders.size());
    for (std::size_t k = 0; k < leaders.size(); ++k) {
      const std::size_t i = r % 2 == 0 ? k : leaders.size() - 1 - k;
      t[i] = time(leaders[i]);
    }
    const double fastest = *std::min_element(t.begin(), t.end());
    for (std::size_t i = 0; i < leaders.size(); ++i) {
      final_ms[i].push_back(t[i]);
      ratios[i].push_back(t[i] / fastest);
    }
  }
  std::size_t win = 0;
  for (std::size_t i = 0; i < leaders.size(); ++i) {
    d.final_ms[leaders[i]] = median_of(final_ms[i]);
    if (median_of(ratios[i]) < median_of(ratios[win]))
      win = i;
  }
  d.winner = int(leaders[win]);
}

void write_auto_decision(std::ostream &os, const std::vector<AutoCandidate> &cands,
                         const AutoDecision &d) {
  const bool finals = std::isfinite(d.final_ms[d.winner]);
  const std::vector<double> &ms = finals ? d.final_ms : d.median_ms;
  double second = std::numeric_limits<double>::infinity();
  for (std::size_t c = 0; c < ms.size(); ++c)
    if (int(c) != d.winner && std::isfinite(ms[c]))
      second = std::min(second, ms[c]);
  os << ", " << ms[d.winner] << " ms";
  if (std::isfinite(second))
    os << ", " << second / ms[d.winner] << "x ahead of the next"
       << (finals ? " in the finals" : "");
  os << "; tuned in " << d.seconds << " s:";
  for (std::size_t c = 0; c < cands.size(); ++c) {
    os << " " << cands[c].name << " ";
    if (std::isfinite(d.median_ms[c]))
      os << d.median_ms[c] << " ms";
    else
      os << "(" << d.notes[c] << ")";
    os << (c + 1 < cands.size() ? ";" : "");
  }
  if (!finals)
    return;
  os << "; finals:";
  for (std::size_t c = 0; c < cands.size(); ++c)
    if (std::isfinite(d.final_ms[c]))
      os << " " << cands[c].name << " " << d.final_ms[c] << " ms";
}

} // namespace umesh::detail
