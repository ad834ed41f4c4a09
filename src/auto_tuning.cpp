// exec::Auto's timing of its candidates and its report
// (umesh/detail/auto_tuning.hpp): compiled once here rather than in every
// file that runs a loop under exec::Auto.
#include <umesh/detail/auto_candidates.hpp>
#include <umesh/detail/auto_tuning.hpp>
#include <umesh/detail/graph_recording.hpp>
#include <umesh/error.hpp>
#include <umesh/exec_names.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace umesh::detail {

namespace {

void write_auto_decision(std::ostream &os, const std::vector<AutoCandidate> &cands,
                         const AutoDecision &d);

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? std::numeric_limits<double>::quiet_NaN() : v[v.size() / 2];
}

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
  d.final_ratio.assign(n, nan);
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
  // One slow warm-up may be the machine's noise (another job took the
  // core): a candidate over the bound runs once more, and the faster of its
  // two runs decides.
  for (std::size_t c = 0; c < n; ++c)
    if (std::isfinite(warm[c]) && warm[c] > o.prune * best) {
      warm[c] = std::min(warm[c], time(c));
      if (warm[c] > o.prune * best)
        d.notes[c] = "pruned: warm-up " + std::to_string(warm[c]) + " ms";
    }
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
  std::vector<double> fastest_ms(n, inf);
  for (std::size_t c = 0; c < n; ++c)
    if (!ms[c].empty()) {
      d.median_ms[c] = median_of(ms[c]);
      fastest_ms[c] = *std::min_element(ms[c].begin(), ms[c].end());
      timed.push_back(c);
    }
  if (timed.empty())
    fail("loop '", loop, "' under exec::Auto: no candidate ran; the first said: ", first_error);
  // Without finals, the best median wins.
  d.winner = int(*std::min_element(timed.begin(), timed.end(), [&](std::size_t a, std::size_t b) {
    return d.median_ms[a] < d.median_ms[b];
  }));
  // Finals: the leaders by their fastest trial (a host's noise only ever
  // slows a run), those within the margin of the fastest, run in turns, each
  // round in the opposite order to the last; each round's times are taken
  // relative to the round's fastest, and the lowest median ratio wins (drift
  // between rounds cancels).
  std::stable_sort(timed.begin(), timed.end(),
                   [&](std::size_t a, std::size_t b) { return fastest_ms[a] < fastest_ms[b]; });
  std::vector<std::size_t> leaders;
  for (std::size_t c : timed)
    if (leaders.size() < std::size_t(o.finalists) &&
        fastest_ms[c] <= o.final_margin * fastest_ms[timed.front()])
      leaders.push_back(c);
  if (leaders.size() == 1 && o.final_rounds > 0)
    d.winner = int(leaders.front()); // alone within the margin: no final to run
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
    d.final_ratio[leaders[i]] = median_of(ratios[i]);
    if (median_of(ratios[i]) < median_of(ratios[win]))
      win = i;
  }
  d.winner = int(leaders[win]);
}

} // namespace

AutoTuner::AutoTuner(exec::AutoOptions options, std::vector<AutoCandidate::Kind> kinds,
                     std::vector<AutoCandidate> candidates, std::string device,
                     const std::function<std::string()> &fingerprint)
    : options_(std::move(options)), all_kinds_(std::move(kinds)),
      candidates_(std::move(candidates)), device_(std::move(device)) {
  keep_only(candidates_, options_.candidates);
  if (options_.tuning_file.empty())
    if (const char *env = std::getenv("UMESH_TUNING_FILE"))
      options_.tuning_file = env;
  if (!options_.tuning_file.empty()) { // hashing every index costs a pass: only for files
    fingerprint_ = fingerprint();
    table_ = read_tuning_file(options_.tuning_file);
  }
}

// A list of fewer than every executor keys its decisions apart (a choice
// among every executor may be no candidate of a shorter list), and so does
// the reproducible option; every executor keeps the keys of the files
// written before lists existed.
std::string AutoTuner::list_key() const {
  const std::vector<std::string> names = exec::names(AutoKinds{}); // in Kind's order
  std::vector<bool> has(names.size());
  for (const auto &c : all_kinds_)
    has[c] = true;
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k)
    if (has[k])
      out += std::string(out.empty() ? "" : ",") + names[k];
  // Reproducible runs choose among fewer candidates: their decisions are
  // kept apart too.
  return (all_kinds_.size() == names.size() ? std::string() : "|" + out) +
         (options_.reproducible ? "|reproducible" : "");
}

const AutoDecision &AutoTuner::decision(const std::string &loop) const {
  auto it = decisions_.find(loop);
  if (it == decisions_.end())
    fail("exec::Auto plan: loop '", loop, "' has not run");
  return it->second;
}

const AutoCandidate &AutoTuner::choose(const std::string &name, const std::string &sig,
                                       const std::function<void(std::size_t)> &warm_up,
                                       const std::function<double(std::size_t)> &time,
                                       const std::function<void()> &restore) {
  auto it = decisions_.find(name);
  if (it != decisions_.end()) {
    if (it->second.signature != sig)
      fail("loop '", name,
           "' under exec::Auto ran before with another kernel or other "
           "argument types (a layout, a dat's components); a decision holds for one of "
           "them: give this loop its own name");
    return candidates_[it->second.winner];
  }
  // (A decision from the tuning file needs no trials, recording or not.)
  const bool recording = graph_records();
  AutoDecision d;
  d.signature = sig;
  std::string key;
  if (!options_.tuning_file.empty()) {
    std::string clean = name;
    std::replace_if(
        clean.begin(), clean.end(), [](char c) { return c == '\t' || c == '\n' || c == '|'; }, ' ');
    key = device_ + "|" + clean + "|" + fingerprint_ + "|" + sig + list_key();
    auto found = table_.find(key);
    if (found == table_.end()) { // another plan may have tuned it since this one was made
      table_ = read_tuning_file(options_.tuning_file);
      found = table_.find(key);
    }
    if (found != table_.end()) {
      for (std::size_t c = 0; c < candidates_.size(); ++c)
        if (candidates_[c].name == found->second)
          d.winner = int(c);
      if (d.winner < 0)
        fail("tuning file '", options_.tuning_file, "' line ",
             tuning_file_line(options_.tuning_file, key), ": chose '", found->second,
             "' for loop '", name,
             "', which is not a candidate of this plan: delete the line or the file "
             "to tune again");
      if (runs_here(found->second, name, key, warm_up, restore)) {
        d.from_file = true;
        return candidates_[decisions_.emplace(name, d).first->second.winner];
      }
      d.winner = -1; // tuned again below, and the line replaced
    }
  }
  if (recording)
    fail_in_graph("loop '", name,
                  "' under exec::Auto would time its candidates while CUDA records the graph: "
                  "the step did not run it when the graph's first launch ran the steps (a step "
                  "must run the same loops each time)");
  const auto start = std::chrono::steady_clock::now();
  tune_candidates(candidates_, options_, name, d, warm_up, time);
  restore();
  d.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Merged into the file as it is now: plans sharing a file (one per layout,
  // say) must not drop each other's decisions.
  if (!key.empty())
    table_ = record_tuning_decision(options_.tuning_file, key, candidates_[d.winner].name);
  return candidates_[decisions_.emplace(name, d).first->second.winner];
}

// A choice read from the tuning file runs once on the loop's first call
// (its outputs then restored): one that does not run here (a hierarchical
// candidate whose scratch does not fit this device's teams: a file copied
// from another machine, or another Kokkos) failed on every later call with
// the executor's message, naming neither the file nor a remedy for auto.
// It is tuned again instead, with a warning naming the file and line.
bool AutoTuner::runs_here(const std::string &choice, const std::string &loop,
                          const std::string &key, const std::function<void(std::size_t)> &warm_up,
                          const std::function<void()> &restore) const {
  std::size_t c = 0;
  while (candidates_[c].name != choice)
    ++c;
  try {
    warm_up(c);
    restore();
    return true;
  } catch (const Error &e) {
    restore();
    std::string why = e.what();
    if (why.rfind("umesh: ", 0) == 0)
      why.erase(0, 7);
    std::fprintf(stderr,
                 "[umesh] warning: tuning file '%s' line %d chose '%s' for loop '%s', which does "
                 "not run here (%s): tuning the loop again (its line is replaced)\n",
                 options_.tuning_file.c_str(), tuning_file_line(options_.tuning_file, key),
                 choice.c_str(), loop.c_str(), why.c_str());
    std::fflush(stderr);
    return false;
  }
}

std::string AutoTuner::summary() const {
  std::ostringstream os;
  bool first = true;
  for (const auto &[loop, d] : decisions_) {
    os << (first ? "" : "\n") << "loop '" << loop << "': " << candidates_[d.winner].name;
    first = false;
    if (d.from_file)
      os << " (from tuning file " << options_.tuning_file << ")";
    else
      write_auto_decision(os, candidates_, d);
  }
  return os.str();
}

namespace {

void write_auto_decision(std::ostream &os, const std::vector<AutoCandidate> &cands,
                         const AutoDecision &d) {
  // After finals the margin is the runner-up's median ratio to each round's
  // fastest over the winner's (what decided); without, the medians' ratio.
  const bool finals = std::isfinite(d.final_ms[d.winner]);
  const std::vector<double> &score = finals ? d.final_ratio : d.median_ms;
  double second = std::numeric_limits<double>::infinity();
  for (std::size_t c = 0; c < score.size(); ++c)
    if (int(c) != d.winner && std::isfinite(score[c]))
      second = std::min(second, score[c]);
  os << ", " << (finals ? d.final_ms : d.median_ms)[d.winner] << " ms";
  if (std::isfinite(second))
    os << ", " << second / score[d.winner] << "x ahead of the next"
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

} // namespace

} // namespace umesh::detail
