#ifndef UMESH_APPS_COMMON_BUILT_CHECK_HPP
#define UMESH_APPS_COMMON_BUILT_CHECK_HPP

// An executor or layout this build left out (UMESH_APP_EXECUTORS,
// UMESH_APP_LAYOUTS), refused with the command line: refused only when its
// turn came, it threw away the results of the variants that ran before it.

#include "common/exec_names.hpp"

#include <umesh/error.hpp>

#include <string>
#include <vector>

namespace umesh::apps {

/// Why one of `execs` (names an app's --exec takes; those that are not
/// umesh executors are the app's own, always built) or `layouts` ("aos",
/// "soa") cannot run in this build, or empty.
inline std::string left_out_problem(const std::vector<std::string> &execs,
                                    const std::vector<std::string> &layouts) {
  try {
    for (const auto &e : execs)
      with_executor(e, [](auto) {});
    for (const auto &l : layouts)
      with_layout(l == "soa", [](auto) {});
  } catch (const Error &e) {
    return std::string("--exec/--layout: ") + e.what();
  }
  return {};
}

} // namespace umesh::apps

#endif
