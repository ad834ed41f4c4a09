#ifndef UMESH_DETAIL_OUTPUT_FILE_HPP
#define UMESH_DETAIL_OUTPUT_FILE_HPP

// Files a run writes (plan and tuning files, the programs' result tables),
// opened so that nothing another user planted in the output folder can
// redirect them. An output is written to a temporary of its own beside it,
// created exclusively under a random name (O_CREAT|O_EXCL|O_NOFOLLOW, mode
// 0600 until complete) and renamed onto it: a link, pipe or folder standing
// at a temporary's name is skipped for a fresh name, never followed. The one
// name runs must share (the lock that makes a second run into one file
// refuse) is used only when it is a regular file of this user. Temporaries an
// interrupted run left are removed by the next run that writes the same file.
// Outputs that are pipes or devices are opened once, in place.
//
// Errors: umesh::Error for a name that cannot be used (bad input, or planted);
// std::ios_base::failure for a write that failed (disk full, I/O error).

#include <cstddef>
#include <functional>
#include <streambuf>
#include <string>
#include <vector>

namespace umesh::detail {

/// The file a write to `path` replaces: `path` itself, or where the symbolic
/// links at its name lead (a link is written through and kept, not replaced
/// by a plain file). At most 40 links are followed.
std::string output_target(const std::string &path);

/// The hidden name beside `target` that a run uses for it:
/// "out/r.csv", ".lock" -> "out/.r.csv.lock". A name that would pass the
/// 255-byte limit uses a hash of the file's name instead (the same in every
/// run, so that runs writing one file still meet at its lock).
std::string hidden_sibling(const std::string &target, const std::string &suffix);

/// Whether `name` (a file name, no folder) is one of the temporaries a run
/// writing the file named `target_name` creates, now or in earlier versions:
/// ".<target>.tmp.<12 letters or digits>", "<target>.tmp.<6 of them>" and
/// ".<target>.partial".
bool is_temporary_name(const std::string &name, const std::string &target_name);

/// Removes the temporaries (is_temporary_name) of `target` that interrupted
/// runs left in its folder: only regular files of this user, with one link,
/// last changed before this process started, that no process holds locked
/// (a writer locks its temporary). Anything else at such a name stays.
/// Best effort: returns how many were removed, never throws.
int remove_stale_temporaries(const std::string &target);

/// A temporary beside `target`, created exclusively and locked, that becomes
/// `target` on commit(); removed if not committed. `what` names the output in
/// errors ("plan file 'a.plan'").
class OutputTemp {
public:
  /// The random part of each name tried (a test scripts it to plant files at
  /// the names); empty: 12 random letters and digits.
  using Names = std::function<std::string()>;

  OutputTemp(const std::string &target, std::string what, const Names &names = {});
  OutputTemp(const OutputTemp &) = delete;
  OutputTemp &operator=(const OutputTemp &) = delete;
  ~OutputTemp() { discard(); }

  int fd() const { return fd_; }
  const std::string &path() const { return path_; }
  /// Writes all of `bytes`; throws std::ios_base::failure on a failed write.
  void write(const void *bytes, std::size_t size);
  /// Gives the file its final mode (0666 less the umask) and syncs it.
  void sync();
  /// sync(), then renames the temporary onto the target (umesh::Error when
  /// it cannot: a folder there, say).
  void commit();
  /// Removes the temporary (not once committed).
  void discard() noexcept;

private:
  [[noreturn]] void failed(const char *doing, int err);
  std::string target_, what_, path_;
  int fd_ = -1;
  bool synced_ = false;
};

/// The lock ".<name>.lock" beside `target`, held while a run writes it: a
/// second run asking for it refuses (umesh::Error: another run is writing
/// `shown`). A link, pipe, folder or another user's file at that name is
/// refused, never opened. Removed when released; one a killed run left is
/// taken over.
class OutputLock {
public:
  OutputLock(const std::string &target, const std::string &shown);
  OutputLock(const OutputLock &) = delete;
  OutputLock &operator=(const OutputLock &) = delete;
  ~OutputLock();
  const std::string &path() const { return lock_; }
  const std::string &target() const { return target_; }

private:
  std::string target_, lock_;
  int fd_ = -1;
};

/// Opens `path`, an output written in place (a named pipe, a device, a name
/// through a process's descriptors), once, for writing (appended). A named
/// pipe with no reader is an Error at once, not a wait; one with a reader
/// keeps it (the descriptor opened is the one written through).
int open_in_place(const std::string &path);

/// Writes `bytes` to `path` whole or not at all: stale temporaries removed,
/// a temporary of this write's own beside the file `path` leads to
/// (output_target), synced, renamed onto it.
void write_whole_file(const std::string &path, const void *bytes, std::size_t size,
                      const std::string &what);

/// A stream buffer over a descriptor, every write checked: error() is the
/// first failed write's errno (0 while none failed).
class FdOutBuf : public std::streambuf {
public:
  explicit FdOutBuf(int fd = -1) : fd_(fd), buf_(1 << 16) { reset(fd); }
  void reset(int fd) {
    fd_ = fd;
    setp(buf_.data(), buf_.data() + buf_.size());
  }
  int error() const { return err_; }

protected:
  int_type overflow(int_type c) override;
  int sync() override { return drain() ? 0 : -1; }

private:
  bool drain();
  int fd_ = -1, err_ = 0;
  std::vector<char> buf_;
};

} // namespace umesh::detail

#endif
