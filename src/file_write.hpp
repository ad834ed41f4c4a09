#ifndef UMESH_SRC_FILE_WRITE_HPP
#define UMESH_SRC_FILE_WRITE_HPP

// Library-internal: a file written whole or not at all (plan files, tuning
// files). The bytes go to a temporary of this write's own (mkstemp: two runs
// saving one name at once each write their own, where a shared "<path>.tmp"
// mixed their bytes, and a named pipe put at that name made the run wait for
// ever), are synced, then renamed onto `path`. A failed write is not bad
// input: it throws std::ios_base::failure, which the programs report as a
// read or write error (exit status 3).

#include <umesh/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ios>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace umesh::detail {

/// Writes `bytes` to `path` through a temporary beside it; `what` names the
/// file in errors ("plan file 'x.plan'").
inline void write_whole_file(const std::string &path, const void *bytes, std::size_t size,
                             const std::string &what) {
  std::vector<char> name(path.begin(), path.end());
  const std::string suffix = ".tmp.XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    fail(what, ": cannot create a temporary beside it ('", name.data(),
         "'): ", std::strerror(errno));
  const std::string tmp = name.data();
  auto failed = [&](const char *doing, int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw std::ios_base::failure(what + ": " + doing + " '" + tmp +
                                 "' failed: " + std::strerror(err));
  };
  const char *p = static_cast<const char *>(bytes);
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd, p + done, size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      failed("writing", n < 0 ? errno : EIO);
    done += std::size_t(n);
  }
  // mkstemp makes it 0600; a file created plainly has 0666 less the umask
  // (read back by setting it, then restoring it at once).
  const mode_t umask_now = ::umask(0);
  ::umask(umask_now);
  if (::fchmod(fd, 0666 & ~umask_now) != 0)
    failed("setting the mode of", errno);
  if (::fsync(fd) != 0)
    failed("syncing", errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw std::ios_base::failure(what + ": closing '" + tmp + "' failed: " + std::strerror(err));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(what, ": cannot move '", tmp, "' onto it: ", std::strerror(err));
  }
}

} // namespace umesh::detail

#endif
