#include <umesh/timing.hpp>

#include <chrono>
#include <cstdio>
#include <sstream>

namespace umesh {

namespace {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
} // namespace

std::string format(const PhaseTimes &phases) {
  std::ostringstream os;
  os.precision(3);
  for (std::size_t i = 0; i < phases.size(); ++i)
    os << (i ? ", " : "") << phases[i].name << ' ' << phases[i].seconds << " s";
  return os.str();
}

namespace detail {

void PhaseClock::start(const std::string &phase) {
  stop();
  phase_ = phase;
  t0_ = now();
  if (progress_) {
    std::fprintf(stderr, "[umesh] %s: %s...\n", what_.c_str(), phase_.c_str());
    std::fflush(stderr);
  }
}

void PhaseClock::stop() {
  if (phase_.empty())
    return;
  const double s = now() - t0_;
  out_.push_back({phase_, s});
  // Below the size threshold a slow phase still says how long it took.
  if (progress_ || s > 2.0) {
    std::fprintf(stderr, "[umesh] %s: %s done in %.2f s\n", what_.c_str(), phase_.c_str(), s);
    std::fflush(stderr);
  }
  phase_.clear();
}

} // namespace detail
} // namespace umesh
