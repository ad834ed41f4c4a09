// Outputs that nothing planted at their names can redirect
// (umesh/detail/output_file.hpp).
#include <umesh/detail/output_file.hpp>
#include <umesh/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <ios>
#include <random>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace umesh::detail {

namespace {

// When this process started (near enough: when the library was loaded). A
// temporary changed since may be another run's that is being written now.
const timespec run_start = [] {
  timespec t{};
  ::clock_gettime(CLOCK_REALTIME, &t);
  return t;
}();

bool before_run(const timespec &t) {
  return t.tv_sec < run_start.tv_sec ||
         (t.tv_sec == run_start.tv_sec && t.tv_nsec < run_start.tv_nsec);
}

std::string folder_of(const std::string &path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".")
         : slash == 0               ? std::string("/")
                                    : path.substr(0, slash);
}

std::string name_of(const std::string &path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool alnum_run(const std::string &s, std::size_t from, std::size_t count) {
  if (s.size() != from + count)
    return false;
  for (std::size_t i = from; i < s.size(); ++i) {
    const char c = s[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
      return false;
  }
  return true;
}

constexpr std::size_t random_letters = 12;

std::string random_part() {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device device; // the kernel's random source: not guessable by another user
  std::string out;
  while (out.size() < random_letters) {
    auto bits = std::uint64_t(device()) << 32 | device();
    for (int k = 0; k < 10 && out.size() < random_letters; ++k, bits /= 62)
      out.push_back(alphabet[bits % 62]);
  }
  return out;
}

// What stands at a name, in words, for errors.
const char *kind_of(mode_t mode) {
  return S_ISLNK(mode)    ? "a symbolic link"
         : S_ISFIFO(mode) ? "a named pipe"
         : S_ISDIR(mode)  ? "a folder"
         : S_ISSOCK(mode) ? "a socket"
         : S_ISREG(mode)  ? "a file"
                          : "a device";
}

bool same_inode(const struct stat &a, const struct stat &b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

} // namespace

std::string output_target(const std::string &path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
      return p;
    std::vector<char> to(std::size_t(st.st_size > 0 ? st.st_size : 4095) + 1);
    const ssize_t n = ::readlink(p.c_str(), to.data(), to.size());
    if (n <= 0 || std::size_t(n) >= to.size())
      return p; // changed under us: the write then fails or goes where the name says
    const std::string link(to.data(), std::size_t(n));
    p = link[0] == '/' ? link : folder_of(p) + "/" + link;
  }
  fail("cannot write '", path, "': more than 40 symbolic links lead from it");
}

std::string hidden_sibling(const std::string &target, const std::string &suffix) {
  const std::string folder = target.find('/') == std::string::npos ? ""
                             : target.rfind('/') == 0              ? "/"
                                                                   : folder_of(target) + "/";
  // (Appended, not "." + name: g++ 12 at -O3 warns wrongly on that insert.)
  const auto hidden = [&](const std::string &base) {
    std::string name(1, '.');
    name += base;
    name += suffix;
    return name;
  };
  std::string name = hidden(name_of(target));
  // Room for a temporary's random part too.
  if (name.size() + random_letters > 255)
    name = hidden(std::to_string(std::hash<std::string>{}(name_of(target))));
  return folder + name;
}

bool is_temporary_name(const std::string &name, const std::string &target_name) {
  const std::string now = name_of(hidden_sibling(target_name, ".tmp."));
  if (name.compare(0, now.size(), now) == 0 && alnum_run(name, now.size(), random_letters))
    return true;
  const std::string mkstemp_style = target_name + ".tmp.";
  if (name.compare(0, mkstemp_style.size(), mkstemp_style) == 0 &&
      alnum_run(name, mkstemp_style.size(), 6))
    return true;
  return name == name_of(hidden_sibling(target_name, ".partial"));
}

int remove_stale_temporaries(const std::string &target) {
  const std::string folder = folder_of(target), name = name_of(target);
  DIR *dir = ::opendir(folder.c_str());
  if (!dir)
    return 0;
  int removed = 0;
  while (const dirent *entry = ::readdir(dir)) {
    if (!is_temporary_name(entry->d_name, name))
      continue;
    const std::string path = folder + "/" + entry->d_name;
    struct stat st {
    }, opened{}, again{};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() ||
        st.st_nlink != 1 || !before_run(st.st_mtim))
      continue;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
      continue;
    // Locked: a run is writing it (it took longer than this run has run).
    if (::fstat(fd, &opened) == 0 && same_inode(st, opened) &&
        ::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::lstat(path.c_str(), &again) == 0 &&
        same_inode(st, again) && ::unlink(path.c_str()) == 0)
      ++removed;
    ::close(fd);
  }
  ::closedir(dir);
  return removed;
}

OutputTemp::OutputTemp(const std::string &target, std::string what, const Names &names)
    : target_(target), what_(std::move(what)) {
  const std::string stem = hidden_sibling(target, ".tmp.");
  // A name taken (by anything: a file, a link, a pipe, a folder) is skipped:
  // O_EXCL never opens what stands there, and O_NOFOLLOW never follows it.
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    const std::string name = stem + (names ? names() : random_part());
    fd_ =
        ::open(name.c_str(),
               O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0600);
    if (fd_ >= 0)
      path_ = name;
    else if (errno != EEXIST && errno != ELOOP && errno != EISDIR && errno != EINTR)
      fail(what_, ": cannot create a temporary beside it ('", name, "'): ", std::strerror(errno));
  }
  if (fd_ < 0)
    fail(what_, ": 100 names for a temporary beside it ('", stem,
         "...') were all taken: is something filling the folder?");
  // Locked while written: remove_stale_temporaries of another run leaves it.
  ::flock(fd_, LOCK_EX | LOCK_NB);
}

void OutputTemp::failed(const char *doing, int err) {
  discard();
  throw std::ios_base::failure(what_ + ": " + doing + " '" + path_ +
                               "' failed: " + std::strerror(err));
}

void OutputTemp::write(const void *bytes, std::size_t size) {
  const char *p = static_cast<const char *>(bytes);
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd_, p + done, size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      failed("writing", n < 0 ? errno : EIO);
    done += std::size_t(n);
  }
}

void OutputTemp::sync() {
  if (synced_)
    return;
  // 0600 until complete; then what a file created plainly gets, 0666 less
  // the umask (read by setting it, then restoring it at once).
  const mode_t umask_now = ::umask(0);
  ::umask(umask_now);
  if (::fchmod(fd_, 0666 & ~umask_now) != 0)
    failed("setting the mode of", errno);
  if (::fsync(fd_) != 0)
    failed("syncing", errno);
  synced_ = true;
}

void OutputTemp::commit() {
  sync();
  if (std::rename(path_.c_str(), target_.c_str()) != 0) { // a folder there, say: a bad path
    const int err = errno;
    const std::string from = path_;
    discard();
    fail(what_, ": cannot move '", from, "' onto '", target_, "': ", std::strerror(err));
  }
  ::close(fd_); // after the rename: the lock holds until the file is in place
  fd_ = -1;
}

void OutputTemp::discard() noexcept {
  if (fd_ < 0)
    return;
  ::unlink(path_.c_str()); // still locked: nobody else's
  ::close(fd_);
  fd_ = -1;
}

OutputLock::OutputLock(const std::string &target, const std::string &shown)
    : target_(target), lock_(hidden_sibling(target, ".lock")) {
  const int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  for (int attempt = 0; attempt < 100; ++attempt) {
    int fd = ::open(lock_.c_str(), flags | O_CREAT | O_EXCL, 0600);
    if (fd < 0 && errno != EEXIST)
      fail("cannot write '", shown, "': cannot create its lock '", lock_,
           "': ", std::strerror(errno));
    if (fd < 0) { // there already: used only if it is a lock file of ours
      struct stat st {
      }, opened{};
      if (::lstat(lock_.c_str(), &st) != 0)
        continue; // removed meanwhile: create it
      if (!S_ISREG(st.st_mode))
        fail("cannot write '", shown, "': its lock '", lock_, "' is ", kind_of(st.st_mode),
             ", not a lock file of umesh's (put there by someone else?): remove it or give "
             "another path");
      if (st.st_uid != ::geteuid())
        fail("cannot write '", shown, "': its lock '", lock_, "' belongs to another user (uid ",
             st.st_uid, "): their run is writing it, or left the lock; give another path");
      fd = ::open(lock_.c_str(), flags);
      if (fd < 0 && errno == ENOENT)
        continue;
      if (fd < 0)
        fail("cannot write '", shown, "': cannot open its lock '", lock_,
             "': ", std::strerror(errno));
      if (::fstat(fd, &opened) != 0 || !same_inode(st, opened)) {
        ::close(fd); // replaced between the look and the open: look again
        continue;
      }
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK)
        fail("cannot write '", shown, "': another run is writing it now (its lock '", lock_,
             "' is held); wait for it or give another path");
      fail("cannot write '", shown, "': cannot lock '", lock_, "': ", std::strerror(err));
    }
    // A run that held it may have removed the name as we opened it.
    struct stat mine {
    }, named{};
    if (::fstat(fd, &mine) == 0 && ::lstat(lock_.c_str(), &named) == 0 && same_inode(mine, named)) {
      fd_ = fd;
      return;
    }
    ::close(fd);
  }
  fail("cannot write '", shown, "': its lock '", lock_,
       "' keeps changing (other runs writing the same file?)");
}

OutputLock::~OutputLock() {
  if (fd_ < 0)
    return;
  ::unlink(lock_.c_str()); // while still locked: no other run is using this name
  ::close(fd_);
}

int open_in_place(const std::string &path) {
  struct stat before {
  }, opened{};
  if (::stat(path.c_str(), &before) != 0)
    fail("cannot write '", path, "': ", std::strerror(errno));
  if (S_ISDIR(before.st_mode))
    fail("cannot write '", path, "': a folder, not a file");
  // Not blocking: opening a pipe with no reader would wait for one for ever.
  // The descriptor opened is the one written through (a probe that opened
  // and closed the pipe gave its reader an end-of-file, and it left).
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0 && errno == ENXIO && S_ISFIFO(before.st_mode))
    fail("cannot write '", path,
         "': a named pipe with no reader (the run would wait for one for ever)");
  if (fd < 0)
    fail("cannot write '", path, "': ", std::strerror(errno));
  if (::fstat(fd, &opened) != 0 || !same_inode(before, opened)) {
    ::close(fd);
    fail("cannot write '", path, "': it changed while it was being opened");
  }
  const int fl = ::fcntl(fd, F_GETFL);
  if (fl == -1 || ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
    const int err = errno;
    ::close(fd);
    fail("cannot write '", path, "': ", std::strerror(err));
  }
  return fd;
}

void write_whole_file(const std::string &path, const void *bytes, std::size_t size,
                      const std::string &what) {
  const std::string target = output_target(path);
  remove_stale_temporaries(target);
  OutputTemp temp(target, what);
  temp.write(bytes, size);
  temp.commit();
}

FdOutBuf::int_type FdOutBuf::overflow(int_type c) {
  if (!drain())
    return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

bool FdOutBuf::drain() {
  const char *p = pbase();
  const std::size_t size = std::size_t(pptr() - pbase());
  setp(buf_.data(), buf_.data() + buf_.size());
  if (err_)
    return false;
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd_, p + done, size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      err_ = n < 0 ? errno : EIO;
      return false;
    }
    done += std::size_t(n);
  }
  return true;
}

} // namespace umesh::detail
