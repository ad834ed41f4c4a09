#ifndef UMESH_APPS_COMMON_OUTPUT_HPP
#define UMESH_APPS_COMMON_OUTPUT_HPP

// Result files of the perf programs and apps. A result file appears complete
// or not at all: it is written to a hidden temporary in its own folder and
// renamed onto its path once complete, so that an interrupted run keeps the
// previous results and a cut-off file never looks complete. The temporary is
// locked while it is written, so that a second run writing the same file
// refuses at once instead of replacing rows under the first. Every write is
// checked: a full disk is an error (exit status 3), not a short file.

#include "common/cleanup.hpp"
#include "common/run_main.hpp"

#include <umesh/error.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace umesh::apps {

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
/// folder, or a name ending in '/', '.' or '..'. Nothing is created.
inline std::string output_path_problem(const std::string &path) {
  if (path.empty())
    return "an empty path names no file";
  if (path.back() == '/')
    return "'" + path + "' ends in '/': a folder, not a file";
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return "'" + path + "' is a folder, not a file";
  // "out/." and "out/.." name folders even before they exist (the write
  // would create out/ and then fail to rename onto it).
  const std::string name = std::filesystem::path(path).filename().string();
  if (name == "." || name == "..")
    return "'" + path + "' ends in '" + name + "': a folder, not a file";
  return {};
}

/// Where a result file's hidden siblings go: the file `path` names once
/// the links of its folders and of the file itself are followed (the link
/// is kept). Empty where the file is written in place: a device, a pipe, a
/// socket, and a name that goes through a process's file descriptors
/// (/dev/stdout, /proc/self/fd/1: the file the output is redirected to,
/// which a rename must not replace). Decided by what the path resolves to,
/// not by how it is spelt: /proc/self/cwd/x and /dev/../x are regular files.
inline std::filesystem::path result_target(const std::string &path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  for (int hops = 0; hops < 40; ++hops) {
    const fs::path folder = fs::weakly_canonical(p.parent_path(), ec);
    const std::string f = folder.string();
    if ((f.rfind("/proc/", 0) == 0 && folder.filename() == "fd") || f == "/dev/fd")
      return {};
    p = folder / p.filename();
    if (!fs::is_symlink(p, ec))
      break;
    const fs::path to = fs::read_symlink(p, ec);
    if (ec)
      break;
    p = to.is_absolute() ? to : folder / to;
  }
  const auto st = fs::status(p, ec);
  if (fs::exists(st) && !fs::is_regular_file(st))
    return {};
  return p;
}

/// Two paths that name one file: the same file when both exist (also
/// through links), else the same absolute path once '.', '..' and links of
/// the folders are resolved.
inline bool same_file(const std::string &a, const std::string &b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec))
    return fs::equivalent(a, b, ec);
  const fs::path ca = fs::weakly_canonical(fs::absolute(a, ec), ec);
  const fs::path cb = fs::weakly_canonical(fs::absolute(b, ec), ec);
  return ca == cb;
}

/// Why the files of one run clash (empty when they do not): an output that
/// names an input (the run would replace what it reads) or another output
/// (one would replace the other, and both be reported written). Each path
/// comes with the option that gave it; empty paths are not in use. Outputs
/// written in place (devices, pipes: /dev/null, /dev/stdout) replace
/// nothing, so two of them may be one.
inline std::string clashing_files(const std::vector<std::pair<std::string, std::string>> &outputs,
                                  const std::vector<std::pair<std::string, std::string>> &inputs) {
  const auto replaces = [](const std::string &path) {
    return !path.empty() && !result_target(path).empty();
  };
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto &[option, path] = outputs[i];
    if (!replaces(path))
      continue;
    for (const auto &[in_option, in_path] : inputs)
      if (!in_path.empty() && same_file(path, in_path))
        return option + " '" + path + "' names the file " + in_option + " '" + in_path +
               "' reads: the run would replace it";
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (replaces(outputs[j].second) && same_file(path, outputs[j].second))
        return option + " '" + path + "' and " + outputs[j].first + " '" + outputs[j].second +
               "' name one file: one would replace the other";
  }
  return {};
}

/// The hidden file beside `target` that a run writes or locks:
/// "out/r.csv", ".partial" -> "out/.r.csv.partial".
inline std::string hidden_sibling(const std::filesystem::path &target, const char *suffix) {
  // Appended, not '"." + name': g++ 12 in C++20 warns (wrongly, -Wrestrict)
  // about the memcpy of operator+(const char *, string &&).
  std::string name(".");
  name += target.filename().string();
  name += suffix;
  // A valid name near the 255-byte limit would give a sibling past it: a
  // hash of the name instead (the same in every run, so that runs writing
  // one file still meet at its lock).
  if (name.size() > 255) {
    name = ".";
    name += std::to_string(std::hash<std::string>{}(target.filename().string()));
    name += suffix;
  }
  return (target.parent_path() / name).string();
}

/// `path` with its file name's extension (not a folder's) replaced by
/// `suffix`: "out.d/results.csv", "_plans.csv" -> "out.d/results_plans.csv".
inline std::string sibling_path(const std::string &path, const std::string &suffix) {
  std::filesystem::path p(path);
  const std::string stem = p.stem().string();
  return (p.parent_path() / (stem + suffix)).string();
}

/// Opens (creating it) and locks `lock`, a hidden file beside the result
/// `path`, and returns its descriptor. A run that finds it locked refuses
/// (umesh::Error: another run is writing `path`); one that locked a name
/// another run had just renamed or removed (the name now names another
/// file, or none) tries again. `what` names the lock in errors.
inline int lock_beside(const std::string &lock, const std::string &path, const char *what) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      throw Error("cannot write '" + path + "': cannot create '" + lock +
                  "': " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK)
        throw Error("cannot write '" + path + "': another run is writing it now (its " + what +
                    " '" + lock + "' is locked); wait for it or give another path");
      throw Error("cannot write '" + path + "': cannot lock '" + lock + "': " + std::strerror(err));
    }
    struct stat mine {
    }, named{};
    if (::fstat(fd, &mine) == 0 && ::stat(lock.c_str(), &named) == 0 &&
        mine.st_dev == named.st_dev && mine.st_ino == named.st_ino)
      return fd;
    ::close(fd);
  }
  throw Error("cannot write '" + path + "': its " + what + " '" + lock +
              "' keeps changing (other runs writing the same file?)");
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
    // A device, a pipe, or a name under /dev or /proc (/dev/stdout names the
    // file the output is redirected to: renaming onto it would replace that
    // file): no temporary, no rename; appended, so as not to cut earlier output.
    const std::filesystem::path target = result_target(path_);
    if (target.empty()) {
      direct_ = true;
      refuse_pipe_without_reader();
      out_.open(path_, std::ios::binary | std::ios::app);
      if (!out_)
        throw Error("cannot write '" + path_ + "': " + std::strerror(errno));
      return;
    }
    if (!target.parent_path().empty())
      make_folder(target.parent_path().string(), "output");
    final_ = target.string();
    temp_ = hidden_sibling(target, ".partial");
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
  /// Bytes in the file once flush()ed (0 where its size cannot be read).
  std::uintmax_t bytes() const {
    std::error_code ec;
    const std::uintmax_t n = std::filesystem::file_size(direct_ || committed_ ? path_ : temp_, ec);
    return ec ? 0 : n;
  }

  /// Writes everything out to disk and checks it, without moving it into
  /// place: throws ResourceError when anything written was lost (disk full,
  /// I/O error). A run that writes several files flushes them all before it
  /// commits any, so that a failed write replaces none of them.
  void flush() {
    if (flushed_)
      return;
    errno = 0;
    out_.flush();
    const bool written = out_.good();
    const int err = errno;
    out_.close();
    if (!written || out_.fail())
      fail_write(err ? err : errno);
    if (!direct_ && ::fsync(fd_) != 0)
      fail_write(errno);
    flushed_ = true;
  }

  /// flush(), then renames the temporary onto the path.
  void commit() {
    if (committed_)
      return;
    flush();
    if (!direct_) {
      // Forgotten first: a signal after the rename must not remove the
      // temporary of another run that took the name since.
      forget_on_signal(slot_);
      slot_ = -1;
      if (std::rename(temp_.c_str(), final_.c_str()) != 0) {
        const int err = errno;
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

  void lock_temp() {
    fd_ = lock_beside(temp_, path_, "temporary");
    slot_ = remove_on_signal(temp_.c_str());
  }

  // Opening a named pipe for writing waits for a reader: a run would hang
  // before doing anything. One with a reader is written.
  void refuse_pipe_without_reader() const {
    std::error_code ec;
    if (!std::filesystem::is_fifo(path_, ec))
      return;
    const int fd = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENXIO)
      throw Error("cannot write '" + path_ +
                  "': a named pipe with no reader (the run would wait for one for ever)");
    if (fd >= 0)
      ::close(fd);
  }

  void discard() noexcept {
    if (out_.is_open())
      out_.close();
    forget_on_signal(slot_);
    slot_ = -1;
    if (fd_ >= 0) { // removed while still locked: no other run is using this name
      ::unlink(temp_.c_str());
      ::close(fd_);
      fd_ = -1;
    }
  }

  std::string path_, final_, temp_;
  std::ofstream out_;
  int fd_ = -1, slot_ = -1;
  bool direct_ = false, flushed_ = false, committed_ = false;
};

/// Held by a run that writes one result file several times over (a table
/// rewritten whole, through a ResultFile, as each row is measured, so that
/// a run cut short keeps its rows): a second run writing the same file
/// refuses at once, instead of each one's rewrites replacing the other's
/// rows while both say they wrote them. Its lock is a hidden file beside the
/// result, `.<name>.lock`, removed when the run ends (one a killed run
/// leaves is unlocked, and taken over by the next run).
class RunLock {
public:
  explicit RunLock(const std::string &path) {
    if (const std::string why = output_path_problem(path); !why.empty())
      throw Error("cannot write: " + why);
    const std::filesystem::path target = result_target(path);
    if (target.empty()) // written in place: nothing to lock
      return;
    if (!target.parent_path().empty())
      make_folder(target.parent_path().string(), "output");
    lock_ = hidden_sibling(target, ".lock");
    fd_ = lock_beside(lock_, path, "run lock");
    slot_ = remove_on_signal(lock_.c_str());
  }
  RunLock(const RunLock &) = delete;
  RunLock &operator=(const RunLock &) = delete;
  ~RunLock() {
    forget_on_signal(slot_);
    if (fd_ >= 0) { // removed while still locked, as ResultFile's temporary
      ::unlink(lock_.c_str());
      ::close(fd_);
    }
  }

private:
  std::string lock_;
  int fd_ = -1, slot_ = -1;
};

} // namespace umesh::apps

#endif
