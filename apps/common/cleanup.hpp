#ifndef UMESH_APPS_COMMON_CLEANUP_HPP
#define UMESH_APPS_COMMON_CLEANUP_HPP

// Hidden files a run holds while it writes its results (output.hpp's
// temporaries and locks), removed when SIGINT, SIGTERM or SIGHUP stops the
// run: the previous results stay either way, but a stopped run left its
// ".<name>.tmp.XXXXXXXXXXXX" behind. SIGKILL cannot be caught; the next run
// into the same file removes such a temporary and takes the lock over. A handler may call only
// async-signal-safe functions, so the paths live in a fixed table, not in strings.

#include <csignal>
#include <cstring>

#include <unistd.h>

namespace umesh::apps {

namespace cleanup_detail {
constexpr int slots = 64, longest = 4096;
struct Table {
  char path[slots][longest];
  volatile std::sig_atomic_t used[slots];
  struct sigaction previous[3];
  bool installed;
};
inline Table &table() {
  static Table t{};
  return t;
}
constexpr int signals[3] = {SIGINT, SIGTERM, SIGHUP};

extern "C" inline void remove_and_reraise(int sig) {
  Table &t = table();
  for (int i = 0; i < slots; ++i)
    if (t.used[i])
      ::unlink(t.path[i]);
  for (int k = 0; k < 3; ++k)
    if (signals[k] == sig)
      ::sigaction(sig, &t.previous[k], nullptr); // the handler before ours, or the default
  std::raise(sig);
}
} // namespace cleanup_detail

/// Removes `path` if a catchable signal stops the run, until forget(slot);
/// returns the slot (-1 when the table is full or the path too long: then
/// the file is only left behind, as before).
inline int remove_on_signal(const char *path) {
  using namespace cleanup_detail;
  Table &t = table();
  if (!t.installed) {
    t.installed = true;
    struct sigaction action {};
    action.sa_handler = remove_and_reraise;
    sigemptyset(&action.sa_mask);
    for (int k = 0; k < 3; ++k)
      if (::sigaction(signals[k], &action, &t.previous[k]) == 0 &&
          t.previous[k].sa_handler == SIG_IGN) // ignored (nohup): stays so
        ::sigaction(signals[k], &t.previous[k], nullptr);
  }
  if (std::strlen(path) >= std::size_t(longest))
    return -1;
  for (int i = 0; i < slots; ++i)
    if (!t.used[i]) {
      std::strcpy(t.path[i], path);
      t.used[i] = 1; // after the path is whole: the handler reads it then
      return i;
    }
  return -1;
}

/// The file of `slot` is no longer removed on a signal (committed, or
/// removed by the run itself).
inline void forget_on_signal(int slot) {
  if (slot >= 0)
    cleanup_detail::table().used[slot] = 0;
}

} // namespace umesh::apps

#endif
