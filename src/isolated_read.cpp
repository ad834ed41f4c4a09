#include <umesh/detail/isolated_read.hpp>
#include <umesh/error.hpp>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

// Under a sanitizer or libFuzzer a report calls their death callback, which
// in the child would write a crash file for a failure the parent reports;
// elsewhere the symbol is absent (null).
extern "C" __attribute__((weak)) void __sanitizer_set_death_callback(void (*)(void));

namespace umesh::detail {
namespace {

// The child's exit codes: the read came back, or threw an umesh::Error (the
// parent's own read then throws it with its message), or threw anything else.
constexpr int kRead = 0, kUmeshError = 3, kOtherException = 4;

// The memory a read may add: what a file of `bytes` can honestly expand to
// (compressed values, the reader's copies) with room to spare.
unsigned long long memory_allowance(const std::string &path) {
  struct stat st {};
  const unsigned long long bytes = ::stat(path.c_str(), &st) == 0 ? st.st_size : 0;
  return 16 * bytes + (1ull << 30);
}

// Address space in use now (a sanitizer's reservations included), bytes.
unsigned long long address_space_now() {
  unsigned long long pages = 0;
  std::ifstream("/proc/self/statm") >> pages;
  return pages * (unsigned long long)::sysconf(_SC_PAGESIZE);
}

[[noreturn]] void child(const std::function<void()> &read, unsigned long long allowance,
                        int message_fd) {
  // The library's messages and any sanitizer report: the parent's read
  // prints the library's messages once, where they belong.
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) {
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
  }
  // A crash ends the child by its signal, not through the handlers of
  // sanitizers, debuggers or fuzzers inherited from the parent.
  for (int s : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP})
    std::signal(s, SIG_DFL);
  if (__sanitizer_set_death_callback)
    __sanitizer_set_death_callback(nullptr);
  // An allocation past the allowance fails (std::bad_alloc, or a library's
  // out-of-memory error) instead of taking the machine's memory.
  const unsigned long long now = address_space_now();
  struct rlimit limit {};
  if (now > 0 && ::getrlimit(RLIMIT_AS, &limit) == 0 &&
      (limit.rlim_cur == RLIM_INFINITY || now + allowance < limit.rlim_cur)) {
    limit.rlim_cur = rlim_t(now + allowance);
    ::setrlimit(RLIMIT_AS, &limit);
  }
  int code = kRead;
  try {
    read();
  } catch (const Error &e) {
    // Its message goes to the parent, which throws it without reading the
    // file again (a library leaks what a failed call allocated).
    code = kUmeshError;
    const char *m = e.what();
    for (std::size_t left = std::strlen(m); left > 0;) {
      const ssize_t n = ::write(message_fd, m, left);
      if (n <= 0 && errno != EINTR)
        break;
      if (n > 0)
        m += n, left -= std::size_t(n);
    }
  } catch (...) {
    code = kOtherException;
  }
  ::_exit(code); // no atexit handlers: Kokkos, MPI and buffers are the parent's
}

} // namespace

void read_in_child_first(const std::string &path, const std::string &what,
                         const std::string &library, const std::function<void()> &read) {
  const unsigned long long allowance = memory_allowance(path);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return; // no child: read as without the guard
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]), ::close(fds[1]);
    return;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(read, allowance, fds[1]);
  }
  ::close(fds[1]);
  std::string message; // read to the end first: the child may wait on a full pipe
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n > 0)
      message.append(buffer, std::size_t(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kUmeshError && !message.empty())
    throw Error(message);
  const std::string damaged =
      ": the file is damaged or not what its name says (umesh reads such files in a separate "
      "process first, with at most " +
      std::to_string((allowance >> 20) + 1) + " MiB of memory)";
  if (WIFSIGNALED(status))
    fail(what, ": reading it, the ", library, " library ended its process with signal ",
         WTERMSIG(status), " (", ::strsignal(WTERMSIG(status)), ")", damaged);
  if (WIFEXITED(status) && WEXITSTATUS(status) != kRead && WEXITSTATUS(status) != kUmeshError)
    fail(what, ": reading it, the ", library, " library failed (",
         WEXITSTATUS(status) == kOtherException
             ? "an exception such as running out of memory"
             : "exit status " + std::to_string(WEXITSTATUS(status)),
         ")", damaged);
}

} // namespace umesh::detail
