// exec::ElementAutoOf's candidates (umesh/detail/element_auto_candidates.hpp).
#include <umesh/detail/element_auto_candidates.hpp>
#include <umesh/error.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace umesh::detail {

namespace {

bool power_of_two(int n) {
  return n > 0 && (n & (n - 1)) == 0;
}

// Sorted, each value once: a value listed twice would time one shape twice.
std::vector<int> distinct(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// The lanes tried: the options' list, or every power of two up to the one
// covering `work` (at most 32).
std::vector<int> lanes_tried(const exec::ElementAutoOptions &o, bool host) {
  if (host)
    return {1};
  if (!o.lanes.empty())
    return distinct(o.lanes);
  std::vector<int> out{1};
  while (out.back() < o.work && out.back() < 32)
    out.push_back(2 * out.back());
  return out;
}

} // namespace

std::vector<ElementCandidate>
element_auto_candidates(const exec::ElementAutoOptions &o,
                        const std::vector<ElementStrategy> &strategies, bool host) {
  check_auto_options(o.tuning);
  if (o.tuning.reproducible)
    fail("exec::ElementAuto: the tuning options' 'reproducible' is exec::Auto's; element loops "
         "do not limit their strategies by it (name the strategy to run instead)");
  if (o.elements_per_team.empty())
    fail("exec::ElementAuto: no elements per team to try");
  for (int e : o.elements_per_team)
    if (e < 1 || e > 1024)
      fail("exec::ElementAuto: elements per team ", e, " is outside [1, 1024]");
  for (int l : o.lanes)
    if (l > 32 || !power_of_two(l))
      fail("exec::ElementAuto: lanes ", l, " is not a power of two in [1, 32]");
  if (o.work < 1)
    fail("exec::ElementAuto: work ", o.work,
         " (the most items the kernel spreads over lanes) must be at least 1");
  std::vector<ElementCandidate> out;
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    const ElementStrategy kind = strategies[s];
    for (int form = 0; form < (kind == ElementStrategy::colour ? 2 : 1); ++form)
      for (int lanes : lanes_tried(o, host))
        for (int per_team : distinct(o.elements_per_team)) {
          if (!host && per_team * lanes > 1024)
            continue; // no backend launches teams of more threads
          ElementCandidate c;
          c.strategy = int(s);
          c.one_launch = form == 0;
          c.per_team = per_team;
          c.lanes = lanes;
          c.name = std::string(kind == ElementStrategy::atomic ? "atomic"
                               : kind == ElementStrategy::gather
                                   ? "gather"
                                   : (c.one_launch ? "colour" : "colour-per")) +
                   "/e" + std::to_string(per_team) + "/l" + std::to_string(lanes);
          out.push_back(c);
        }
  }
  if (out.empty())
    fail("exec::ElementAuto: no candidate: every elements per team times lanes exceeds 1024 "
         "threads a team");
  return out;
}

std::vector<AutoCandidate> as_auto_candidates(const std::vector<ElementCandidate> &c) {
  std::vector<AutoCandidate> out;
  for (std::size_t i = 0; i < c.size(); ++i) {
    AutoCandidate a{};
    a.name = c[i].name;
    a.slot = int(i);
    out.push_back(a);
  }
  return out;
}

std::string element_signature(const std::vector<const char *> &type_names,
                              const std::vector<ElementStrategy> &strategies) {
  std::uint64_t h = 1469598103934665603ull; // FNV-1a, as exec::Auto's
  for (const char *name : type_names)
    for (const char *c = name; *c; ++c)
      h = (h ^ static_cast<unsigned char>(*c)) * 1099511628211ull;
  std::ostringstream os;
  os << "element:" << std::hex << h << ":";
  for (std::size_t i = 0; i < strategies.size(); ++i)
    os << (i ? "," : "")
       << (strategies[i] == ElementStrategy::atomic   ? "atomic"
           : strategies[i] == ElementStrategy::colour ? "colour"
                                                      : "gather");
  return os.str();
}

} // namespace umesh::detail
