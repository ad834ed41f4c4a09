#ifndef UMESH_APPS_COMMON_OUTPUT_HPP
#define UMESH_APPS_COMMON_OUTPUT_HPP

// Result files of the perf programs and apps. A result file appears complete
// or not at all: it is written to a hidden temporary in its own folder and
// renamed onto its path once complete, so that an interrupted run keeps the
// previous results and a cut-off file never looks complete. The temporary is
// locked while it is written, so that a second run writing the same file
// refuses at once instead of replacing rows under the first. Every write is
// checked: a full disk is an error (exit status 3), not a short file.

#include "common/run_main.hpp"

#include <umesh/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace umesh::perf {

/// `path` made absolute, for messages that tell the user where to look.
inline std::string absolute_path(const std::string &path) {
  std::error_code ec;
  const auto abs = std::filesystem::absolute(path, ec);
  return ec ? path : abs.lexically_normal().string();
}

/// Creates `dir` and its parents; throws umesh::Error naming it on failure.
inline void make_folder(const std::string &dir, const char *what) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw Error(std::string("cannot create the ") + what + " folder '" + dir +
                "': " + (ec ? ec.message() : "not a folder"));
}

/// Why `path` cannot name a file to write (empty when it can): empty, a
/// folder, or a name ending in '/'. Nothing is created.
inline std::string output_path_problem(const std::string &path) {
  if (path.empty())
    return "an empty path names no file";
  if (path.back() == '/')
    return "'" + path + "' ends in '/': a folder, not a file";
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return "'" + path + "' is a folder, not a file";
  return {};
}

/// `path` with its file name's extension (not a folder's) replaced by
/// `suffix`: "out.d/results.csv", "_plans.csv" -> "out.d/results_plans.csv".
inline std::string sibling_path(const std::string &path, const std::string &suffix) {
  std::filesystem::path p(path);
  const std::string stem = p.stem().string();
  return (p.parent_path() / (stem + suffix)).string();
}

/// A result file written to a locked temporary beside `path` and renamed
/// onto it by commit(). Not committed (an error, an exception), the
/// temporary is removed and `path` keeps what it held. Paths that are not
/// regular files (/dev/stdout, a pipe) are written in place, every write
/// checked. Errors: umesh::Error for a path that cannot be a file or is being
/// written by another run, ResourceError for a failed write.
class ResultFile {
public:
  /// Checks the path, creates its folder, opens and locks the temporary:
  /// a bad path fails here, before any long work.
  explicit ResultFile(std::string path) : path_(std::move(path)) {
    if (const std::string why = output_path_problem(path_); !why.empty())
      throw Error("cannot write: " + why);
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path target(path_);
    const auto st = fs::status(target, ec);
    // A device, a pipe, or a name under /dev or /proc (/dev/stdout names the
    // file the output is redirected to: renaming onto it would replace that
    // file): no temporary, no rename; appended, so as not to cut earlier output.
    const bool special = path_.rfind("/dev/", 0) == 0 || path_.rfind("/proc/", 0) == 0;
    if (fs::exists(st) && (special || !fs::is_regular_file(st))) {
      direct_ = true;
      out_.open(path_, std::ios::binary | std::ios::app);
      if (!out_)
        throw Error("cannot write '" + path_ + "': " + std::strerror(errno));
      return;
    }
    if (fs::is_symlink(target, ec)) // replace the file the link names, keep the link
      target = fs::weakly_canonical(target, ec);
    if (!target.parent_path().empty())
      make_folder(target.parent_path().string(), "output");
    final_ = target.string();
    temp_ = (target.parent_path() / ("." + target.filename().string() + ".partial")).string();
    lock_temp();
    out_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!out_) {
      const int err = errno;
      discard();
      throw ResourceError("cannot write '" + temp_ + "': " + std::strerror(err));
    }
  }
  ResultFile(const ResultFile &) = delete;
  ResultFile &operator=(const ResultFile &) = delete;
  ~ResultFile() { discard(); }

  /// Where the rows go.
  std::ostream &stream() { return out_; }
  template <class T> ResultFile &operator<<(const T &v) {
    out_ << v;
    return *this;
  }
  const std::string &path() const { return path_; }

  /// Flushes to disk and renames the temporary onto the path; throws
  /// ResourceError when anything written was lost (disk full, I/O error).
  void commit() {
    if (committed_)
      return;
    errno = 0;
    out_.flush();
    const bool written = out_.good();
    int err = errno;
    out_.close();
    if (!written || out_.fail())
      fail_write(err ? err : errno);
    if (!direct_) {
      if (::fsync(fd_) != 0)
        fail_write(errno);
      if (std::rename(temp_.c_str(), final_.c_str()) != 0) {
        err = errno;
        discard();
        throw ResourceError("cannot move '" + temp_ + "' onto '" + path_ +
                            "': " + std::strerror(err));
      }
      ::close(fd_); // after the rename: the lock holds until the file is in place
      fd_ = -1;
    }
    committed_ = true;
  }

private:
  [[noreturn]] void fail_write(int err) {
    discard();
    throw ResourceError("writing '" + path_ + "' failed" +
                        (err ? std::string(": ") + std::strerror(err) : std::string()) +
                        (direct_ ? "" : "; its previous content is kept"));
  }

  // Opens and locks the temporary. A run that finds it locked refuses; one
  // that locked a temporary another run had just renamed or removed (the
  // name now names another file, or none) tries again.
  void lock_temp() {
    for (int attempt = 0; attempt < 100; ++attempt) {
      fd_ = ::open(temp_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd_ < 0)
        throw Error("cannot write '" + path_ + "': cannot create '" + temp_ +
                    "': " + std::strerror(errno));
      if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        ::close(fd_);
        fd_ = -1;
        if (err == EWOULDBLOCK)
          throw Error("cannot write '" + path_ +
                      "': another run is writing it now (its "
                      "temporary '" +
                      temp_ + "' is locked); wait for it or give another path");
        throw Error("cannot write '" + path_ + "': cannot lock '" + temp_ +
                    "': " + std::strerror(err));
      }
      struct stat mine {
      }, named{};
      if (::fstat(fd_, &mine) == 0 && ::stat(temp_.c_str(), &named) == 0 &&
          mine.st_dev == named.st_dev && mine.st_ino == named.st_ino)
        return;
      ::close(fd_);
      fd_ = -1;
    }
    throw Error("cannot write '" + path_ + "': its temporary '" + temp_ +
                "' keeps changing (other runs writing the same file?)");
  }

  void discard() noexcept {
    if (out_.is_open())
      out_.close();
    if (fd_ >= 0) { // removed while still locked: no other run is using this name
      ::unlink(temp_.c_str());
      ::close(fd_);
      fd_ = -1;
    }
  }

  std::string path_, final_, temp_;
  std::ofstream out_;
  int fd_ = -1;
  bool direct_ = false, committed_ = false;
};

} // namespace umesh::perf

#endif
