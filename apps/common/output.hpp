#ifndef UMESH_APPS_COMMON_OUTPUT_HPP
#define UMESH_APPS_COMMON_OUTPUT_HPP

// Result files of the perf programs and apps. A result file appears complete
// or not at all: it is written to a hidden temporary in its own folder and
// renamed onto its path once complete, so that an interrupted run keeps the
// previous results and a cut-off file never looks complete. The file is
// locked while it is written, so that a second run writing the same file
// refuses at once instead of replacing rows under the first. Every write is
// checked: a full disk is an error (exit status 3), not a short file. The
// names beside the file are opened as umesh/detail/output_file.hpp says:
// nothing planted there is followed.

#include "common/cleanup.hpp"
#include "common/run_main.hpp"

#include <umesh/detail/output_file.hpp>
#include <umesh/error.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

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

/// The tuning file exec::Auto writes in a run, with what named it, for
/// clashing_files: `given` (the program's --tuning-file), else
/// $UMESH_TUNING_FILE (read by the library when no file is given), else none.
inline std::pair<std::string, std::string> tuning_file_output(const std::string &given) {
  if (!given.empty())
    return {"--tuning-file", given};
  const char *env = std::getenv("UMESH_TUNING_FILE");
  return {"UMESH_TUNING_FILE", env ? env : ""};
}

/// `path` with its file name's extension (not a folder's) replaced by
/// `suffix`: "out.d/results.csv", "_plans.csv" -> "out.d/results_plans.csv".
inline std::string sibling_path(const std::string &path, const std::string &suffix) {
  std::filesystem::path p(path);
  const std::string stem = p.stem().string();
  return (p.parent_path() / (stem + suffix)).string();
}

/// Held by a run that writes one result file several times over (a table
/// rewritten whole, through a ResultFile, as each row is measured, so that
/// a run cut short keeps its rows): a second run writing the same file
/// refuses at once, instead of each one's rewrites replacing the other's
/// rows while both say they wrote them. Its lock is a hidden file beside the
/// result, `.<name>.lock` (detail::OutputLock: a link, pipe or folder put at
/// that name is refused, never followed), removed when the run ends (one a
/// killed run leaves is unlocked, and taken over by the next run). A
/// ResultFile of the same path takes it as held.
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
    lock_.emplace(target.string(), path);
    slot_ = remove_on_signal(lock_->path().c_str());
  }
  RunLock(const RunLock &) = delete;
  RunLock &operator=(const RunLock &) = delete;
  ~RunLock() { forget_on_signal(slot_); }
  /// The file it locks (empty: written in place).
  std::string target() const { return lock_ ? lock_->target() : std::string(); }

private:
  std::optional<detail::OutputLock> lock_;
  int slot_ = -1;
};

/// A result file written to a temporary beside `path` and renamed onto it
/// by commit(). The file is locked for the writer (a second run into it
/// refuses), the temporary created exclusively under a random name, and the
/// temporaries of interrupted runs removed (detail/output_file.hpp). Not
/// committed (an error, an exception), the temporary is removed and `path`
/// keeps what it held. Paths that are not regular files (/dev/stdout, a
/// pipe) are opened once and written in place, every write checked; a pipe
/// with no reader is refused. Errors: umesh::Error for a path that cannot be
/// a file or is being written by another run, ResourceError for a failed
/// write.
class ResultFile {
public:
  /// Checks the path, creates its folder, locks it and creates the
  /// temporary: a bad path fails here, before any long work. `held`: the
  /// run's own RunLock of this path, when it holds one.
  explicit ResultFile(std::string path, const RunLock *held = nullptr)
      : path_(std::move(path)), out_(&buf_) {
    if (const std::string why = output_path_problem(path_); !why.empty())
      throw Error("cannot write: " + why);
    // A device, a pipe, or a name under /dev or /proc (/dev/stdout names the
    // file the output is redirected to: renaming onto it would replace that
    // file): no temporary, no rename; appended, so as not to cut earlier output.
    const std::filesystem::path target = result_target(path_);
    if (target.empty()) {
      direct_fd_ = detail::open_in_place(path_);
      buf_.reset(direct_fd_);
      return;
    }
    if (!target.parent_path().empty())
      make_folder(target.parent_path().string(), "output");
    if (!held || held->target() != target.string()) {
      lock_.emplace(target.string(), path_);
      lock_slot_ = remove_on_signal(lock_->path().c_str());
    }
    detail::remove_stale_temporaries(target.string());
    temp_.emplace(target.string(), "cannot write '" + path_ + "'");
    temp_slot_ = remove_on_signal(temp_->path().c_str());
    buf_.reset(temp_->fd());
  }
  ResultFile(const ResultFile &) = delete;
  ResultFile &operator=(const ResultFile &) = delete;
  ~ResultFile() {
    discard();
    forget_on_signal(lock_slot_);
    if (direct_fd_ >= 0)
      ::close(direct_fd_);
  }

  /// Where the rows go.
  std::ostream &stream() { return out_; }
  template <class T> ResultFile &operator<<(const T &v) {
    out_ << v;
    return *this;
  }
  const std::string &path() const { return path_; }
  /// Bytes in the file once flush()ed (0 where its size cannot be read).
  std::uintmax_t bytes() const {
    if (temp_ && temp_->fd() >= 0) {
      struct stat st {};
      return ::fstat(temp_->fd(), &st) == 0 ? std::uintmax_t(st.st_size) : 0;
    }
    std::error_code ec;
    const std::uintmax_t n = std::filesystem::file_size(path_, ec);
    return ec ? 0 : n;
  }

  /// Writes everything out to disk and checks it, without moving it into
  /// place: throws ResourceError when anything written was lost (disk full,
  /// I/O error). A run that writes several files flushes them all before it
  /// commits any, so that a failed write replaces none of them.
  void flush() {
    if (flushed_)
      return;
    out_.flush();
    if (!out_.good() || buf_.error())
      fail_write(buf_.error());
    if (temp_) {
      try {
        temp_->sync();
      } catch (const std::ios_base::failure &e) {
        discard();
        throw ResourceError(std::string(e.what()) + "; its previous content is kept");
      }
    }
    flushed_ = true;
  }

  /// flush(), then renames the temporary onto the path.
  void commit() {
    if (committed_)
      return;
    flush();
    if (temp_) {
      // Forgotten first: a signal after the rename must not remove the
      // temporary of another run that took the name since.
      forget_on_signal(temp_slot_);
      temp_slot_ = -1;
      try {
        temp_->commit();
      } catch (const std::exception &e) {
        throw ResourceError(without_program_prefix(e.what(), ""));
      }
    }
    committed_ = true;
  }

private:
  [[noreturn]] void fail_write(int err) {
    discard();
    throw ResourceError("writing '" + path_ + "' failed" +
                        (err ? std::string(": ") + std::strerror(err) : std::string()) +
                        (temp_ ? "; its previous content is kept" : ""));
  }

  void discard() noexcept {
    forget_on_signal(temp_slot_);
    temp_slot_ = -1;
    if (temp_)
      temp_->discard();
  }

  std::string path_;
  detail::FdOutBuf buf_;
  std::ostream out_;
  std::optional<detail::OutputLock> lock_; // declared before temp_: released after it
  std::optional<detail::OutputTemp> temp_;
  int direct_fd_ = -1, lock_slot_ = -1, temp_slot_ = -1;
  bool flushed_ = false, committed_ = false;
};

} // namespace umesh::apps

#endif
