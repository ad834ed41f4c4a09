#include <umesh/detail/output_file.hpp>
#include <umesh/error.hpp>
#include <umesh/tuning_file.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ios>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace umesh {

namespace {
constexpr const char *header = "umesh-tuning 1";

// A tuning file is a regular file (or none yet): a device that never ends
// would be read for ever, and the rename that writes the file would replace
// a device node with a regular file.
void check_regular(const std::string &path) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
    fail("tuning file '", path, "' is ",
         std::filesystem::is_directory(st) ? "a folder" : "not a regular file",
         ": give a file path");
}

// std::getline, but a line longer than `longest` is an error, not a read of
// all memory.
bool bounded_line(std::istream &in, std::string &line, const std::string &path, int number) {
  constexpr std::size_t longest = 1 << 16;
  line.clear();
  int c;
  while ((c = in.get()) != EOF && c != '\n') {
    if (line.size() == longest)
      fail("tuning file '", path, "' line ", number, ": longer than ", longest,
           " characters (not a umesh tuning file): delete it to tune again");
    line.push_back(char(c));
  }
  return c != EOF || !line.empty();
}
} // namespace

TuningTable read_tuning_file(const std::string &path) {
  TuningTable table;
  check_regular(path);
  std::ifstream in(path);
  if (!in)
    return table;
  std::string line;
  int number = 1;
  if (!bounded_line(in, line, path, number) || line != header)
    fail("tuning file '", path, "' line 1: expected '", header,
         "' (not a umesh tuning file, or another version): delete it to tune again");
  while (bounded_line(in, line, path, number + 1)) {
    ++number;
    if (line.empty())
      continue;
    const auto tab = line.find('\t');
    if (tab == std::string::npos || tab == 0 || tab + 1 == line.size() ||
        line.find('\t', tab + 1) != std::string::npos)
      fail("tuning file '", path, "' line ", number,
           ": expected '<key> TAB <candidate>': delete the file to tune again");
    table[line.substr(0, tab)] = line.substr(tab + 1);
  }
  if (in.bad())
    fail("tuning file '", path, "': read error");
  return table;
}

int tuning_file_line(const std::string &path, const std::string &key) {
  try { // for a message about the file: its own problems are not this one's
    check_regular(path);
    std::ifstream in(path);
    std::string line;
    const std::string prefix = key + '\t';
    for (int number = 1; in && bounded_line(in, line, path, number); ++number)
      if (line.compare(0, prefix.size(), prefix) == 0)
        return number;
  } catch (const Error &) {
  }
  return 0;
}

namespace {
// Held while a run reads, merges and rewrites the file: a lock on the
// folder it is in, so that no lock file is left behind (and the file itself
// cannot hold one: each write renames a new file onto its name).
class FileLock {
public:
  explicit FileLock(const std::string &path) {
    // Built in one step: assigning "." afterwards trips g++ 12's -Wrestrict
    // false positive at -O3 in C++20 (GCC PR 105329).
    const std::string parent = std::filesystem::path(path).parent_path().string();
    const std::string dir = parent.empty() ? std::string(".") : parent;
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0)
      fail("cannot write tuning file '", path, "': its folder '", dir, "': ", std::strerror(errno));
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) {
        const int err = errno;
        ::close(fd_);
        fail("cannot lock the folder '", dir, "' of tuning file '", path,
             "': ", std::strerror(err));
      }
  }
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;
  ~FileLock() { ::close(fd_); }

private:
  int fd_ = -1;
};
} // namespace

void write_tuning_file(const std::string &path, const TuningTable &table) {
  check_regular(path);
  std::string text = std::string(header) + '\n';
  for (const auto &[key, candidate] : table)
    text += key + '\t' + candidate + '\n';
  // Through a temporary of this write's own (detail/output_file.hpp): two
  // runs writing one name at once interleaved their lines into a file
  // neither wrote. A file named through a link is written where the link
  // leads, and the link kept.
  detail::write_whole_file(path, text.data(), text.size(), "tuning file '" + path + "'");
}

TuningTable record_tuning_decision(const std::string &path, const std::string &key,
                                   const std::string &candidate) {
  // Read, merged and written under the lock: runs that tune at the same
  // time each keep the others' decisions.
  // The folder of the file itself, where links lead: runs that name it
  // through different links still meet.
  const FileLock lock(detail::output_target(path));
  TuningTable table = read_tuning_file(path);
  table[key] = candidate;
  write_tuning_file(path, table);
  return table;
}

} // namespace umesh
