#ifndef UMESH_SRC_TEMP_BESIDE_HPP
#define UMESH_SRC_TEMP_BESIDE_HPP

// Library-internal: a file that a library writes by name (Exodus II through
// NetCDF, CGNS through HDF5) appears whole or not at all, as write_whole_file
// makes the others: the library writes a temporary of this write's own
// beside the target (mkstemp), which commit() syncs and renames onto the
// target; dropped uncommitted (an error), the temporary is removed.

#include <umesh/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ios>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace umesh::detail {

class TempBeside {
public:
  /// `what` names the target in errors ("exodus file 'out.exo'").
  TempBeside(std::string path, std::string what) : path_(std::move(path)), what_(std::move(what)) {
    std::vector<char> name(path_.begin(), path_.end());
    const std::string suffix = ".tmp.XXXXXX";
    name.insert(name.end(), suffix.begin(), suffix.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
      fail(what_, ": cannot create a temporary beside it ('", name.data(),
           "'): ", std::strerror(errno));
    ::close(fd);
    temp_ = name.data();
  }
  TempBeside(const TempBeside &) = delete;
  TempBeside &operator=(const TempBeside &) = delete;
  ~TempBeside() {
    if (!temp_.empty())
      ::unlink(temp_.c_str());
  }

  /// Where the library writes.
  const std::string &path() const { return temp_; }

  /// Syncs the temporary, gives it the mode a plainly created file gets,
  /// and renames it onto the target. A failure throws (std::ios_base::failure
  /// for a failed write, umesh::Error for a target it cannot replace).
  void commit() {
    const int fd = ::open(temp_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      throw std::ios_base::failure(what_ + ": reopening '" + temp_ +
                                   "' failed: " + std::strerror(errno));
    const mode_t umask_now = ::umask(0);
    ::umask(umask_now);
    const bool ok = ::fchmod(fd, 0666 & ~umask_now) == 0 && ::fsync(fd) == 0;
    const int err = errno;
    ::close(fd);
    if (!ok)
      throw std::ios_base::failure(what_ + ": syncing '" + temp_ +
                                   "' failed: " + std::strerror(err));
    if (std::rename(temp_.c_str(), path_.c_str()) != 0)
      fail(what_, ": cannot move '", temp_, "' onto it: ", std::strerror(errno));
    temp_.clear();
  }

private:
  std::string path_, what_, temp_;
};

} // namespace umesh::detail

#endif
