#ifndef UMESH_APPS_LOOP_TIMERS_HPP
#define UMESH_APPS_LOOP_TIMERS_HPP

// Fenced wall-clock time per named loop group, for the apps' benchmark modes.

#include "common/launch_counter.hpp" // timer_region

#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>

#include <map>
#include <string>
#include <vector>

namespace umesh::apps {

class LoopTimers {
public:
  /// Off: time() just runs f. On: fence, run, fence, and record the time
  /// (so timed runs are slower than untimed ones; the benchmark says so).
  /// `only` non-empty: time just that name (the others run unfenced).
  void enable(bool on, std::string only = {}) {
    on_ = on;
    only_ = std::move(only);
  }
  void clear() { samples_.clear(); }
  /// Whether no loop is timed but, at most, `group` (a run may then put the
  /// group's loops in one graph: only the group's time is taken, around it).
  bool times_at_most(const std::string &group) const { return !on_ || only_ == group; }

  template <class F> void time(const std::string &name, F &&f) {
    if (!on_ || (!only_.empty() && name != only_)) {
      f();
      return;
    }
    fence();
    Kokkos::Timer t;
    f();
    fence();
    samples_[name].push_back(t.seconds());
  }

  /// Seconds of every call of `name` since clear().
  const std::vector<double> &samples(const std::string &name) const {
    static const std::vector<double> none;
    auto it = samples_.find(name);
    return it == samples_.end() ? none : it->second;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto &s : samples_)
      out.push_back(s.first);
    return out;
  }

private:
  // The measurement's own waits, in a region that LaunchCounter leaves out.
  static void fence() {
    Kokkos::Profiling::pushRegion(timer_region());
    Kokkos::fence();
    Kokkos::Profiling::popRegion();
  }

  bool on_ = false;
  std::string only_;
  std::map<std::string, std::vector<double>> samples_;
};

} // namespace umesh::apps

#endif
