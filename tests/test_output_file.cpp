// Outputs that nothing planted at their names can redirect
// (umesh/detail/output_file.hpp): a link, pipe or folder at a temporary's
// name is skipped and never changes a file outside the output folder; the
// shared lock name is refused when it is not a lock file of ours; a pipe
// output is written through the one descriptor that found its reader; the
// temporaries interrupted runs left are removed, and nothing else is.
#include "test_main.hpp"

#include <umesh/detail/output_file.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

namespace {
namespace fs = std::filesystem;
using umesh::Error;
using umesh::detail::OutputLock;
using umesh::detail::OutputTemp;

std::string slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

void spit(const fs::path &p, const std::string &text) {
  std::ofstream(p, std::ios::binary) << text;
}

// A fresh folder with an output folder "out" and, beside it, a file the
// planted links point at ("outside/victim").
struct Folder {
  fs::path root, out, victim;
  explicit Folder(const std::string &name) {
    root = fs::absolute("test_output_file.d") / name;
    fs::remove_all(root);
    fs::create_directories(root / "out");
    fs::create_directories(root / "outside");
    out = root / "out";
    victim = root / "outside" / "victim";
    spit(victim, "keep me\n");
  }
  ~Folder() { fs::remove_all(root); }
  // Names in out/ other than `keep`.
  std::vector<std::string> others(const std::vector<std::string> &keep) const {
    std::vector<std::string> names;
    for (const auto &e : fs::directory_iterator(out)) {
      const std::string n = e.path().filename().string();
      if (std::find(keep.begin(), keep.end(), n) == keep.end())
        names.push_back(n);
    }
    return names;
  }
};

// Scripted random parts: the planted name first, then a free one.
OutputTemp::Names script(std::vector<std::string> parts) {
  auto next = std::make_shared<std::size_t>(0);
  return [parts, next] {
    const std::size_t k = std::min(*next, parts.size() - 1);
    ++*next;
    return parts[k];
  };
}

const std::string planted = "AAAAAAAAAAAA", free_name = "BBBBBBBBBBBB";

// Writes "results\n" to out/r.csv through a temporary whose first name
// tried is taken by what `plant` puts there.
void write_past(const Folder &f, const std::function<void(const fs::path &)> &plant) {
  const fs::path target = f.out / "r.csv";
  const fs::path at = f.out / (".r.csv.tmp." + planted);
  plant(at);
  ::alarm(30); // a hang fails the test (SIGALRM ends it) instead of waiting for ctest
  OutputTemp t(target.string(), "result 'r.csv'", script({planted, free_name}));
  EXPECT_EQ(t.path(), (f.out / (".r.csv.tmp." + free_name)).string());
  t.write("results\n", 8);
  t.commit();
  ::alarm(0);
  EXPECT_EQ(slurp(target), "results\n");
  EXPECT_EQ(slurp(f.victim), "keep me\n");
  EXPECT_TRUE(fs::exists(fs::symlink_status(at))) << "what was planted is left alone";
  EXPECT_EQ(f.others({"r.csv", at.filename().string()}), std::vector<std::string>{});
}

TEST(OutputFile, ALinkAtTheTemporaryIsSkipped) {
  Folder f("link");
  write_past(f, [&](const fs::path &at) { fs::create_symlink(f.victim, at); });
  EXPECT_TRUE(fs::is_symlink(f.out / (".r.csv.tmp." + planted)));
}

TEST(OutputFile, ADanglingLinkAtTheTemporaryCreatesNothing) {
  Folder f("dangling");
  const fs::path made = f.root / "outside" / "made";
  write_past(f, [&](const fs::path &at) { fs::create_symlink(made, at); });
  EXPECT_FALSE(fs::exists(made)) << "the write created a file through the link";
}

TEST(OutputFile, APipeAtTheTemporaryDoesNotHang) {
  Folder f("fifo");
  write_past(f, [](const fs::path &at) { ASSERT_EQ(::mkfifo(at.c_str(), 0600), 0); });
}

TEST(OutputFile, AFolderAtTheTemporaryIsSkipped) {
  Folder f("folder");
  write_past(f, [](const fs::path &at) { fs::create_directory(at); });
}

TEST(OutputFile, EveryNameTakenIsAnError) {
  Folder f("taken");
  fs::create_symlink(f.victim, f.out / (".r.csv.tmp." + planted));
  try {
    OutputTemp t((f.out / "r.csv").string(), "result 'r.csv'", script({planted}));
    ADD_FAILURE() << "created " << t.path();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("were all taken"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(f.victim), "keep me\n");
}

TEST(OutputFile, TemporariesAreRandomPrivateAndBecomeTheFile) {
  Folder f("random");
  const fs::path target = f.out / "r.csv";
  OutputTemp a(target.string(), "a"), b(target.string(), "b");
  EXPECT_NE(a.path(), b.path());
  struct stat st {};
  ASSERT_EQ(::stat(a.path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u) << "readable by others before it is complete";
  a.write("a\n", 2);
  a.commit();
  b.discard();
  EXPECT_EQ(slurp(target), "a\n");
  EXPECT_EQ(f.others({"r.csv"}), std::vector<std::string>{});
}

// The lock's one shared name: used only when it is a regular file of ours.
void expect_lock_refused(const Folder &f, const std::string &words) {
  ::alarm(30);
  try {
    OutputLock lock((f.out / "r.csv").string(), "r.csv");
    ADD_FAILURE() << "locked through " << lock.path();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(".r.csv.lock"), std::string::npos) << e.what();
  }
  ::alarm(0);
  EXPECT_EQ(slurp(f.victim), "keep me\n");
  EXPECT_TRUE(fs::exists(fs::symlink_status(f.out / ".r.csv.lock")));
}

TEST(OutputFile, ALinkAtTheLockIsRefused) {
  Folder f("lock_link");
  fs::create_symlink(f.victim, f.out / ".r.csv.lock");
  expect_lock_refused(f, "is a symbolic link");
}

TEST(OutputFile, APipeAtTheLockIsRefused) {
  Folder f("lock_fifo");
  ASSERT_EQ(::mkfifo((f.out / ".r.csv.lock").c_str(), 0600), 0);
  expect_lock_refused(f, "is a named pipe");
}

TEST(OutputFile, AFolderAtTheLockIsRefused) {
  Folder f("lock_folder");
  fs::create_directory(f.out / ".r.csv.lock");
  expect_lock_refused(f, "is a folder");
}

TEST(OutputFile, ALockHeldRefusesASecondWriterAndALeftOneIsTakenOver) {
  Folder f("lock_held");
  const std::string target = (f.out / "r.csv").string();
  {
    OutputLock first(target, "r.csv");
    try {
      OutputLock second(target, "r.csv");
      ADD_FAILURE();
    } catch (const Error &e) {
      EXPECT_NE(std::string(e.what()).find("another run is writing it now"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_FALSE(fs::exists(f.out / ".r.csv.lock")) << "released, the lock is removed";
  spit(f.out / ".r.csv.lock", ""); // what a killed run leaves
  { OutputLock taken(target, "r.csv"); }
  EXPECT_EQ(f.others({}), std::vector<std::string>{});
}

void age(const fs::path &p) { // last changed an hour ago, before this run
  const timeval then[2] = {{::time(nullptr) - 3600, 0}, {::time(nullptr) - 3600, 0}};
  ASSERT_EQ(::lutimes(p.c_str(), then), 0) << p;
}

TEST(OutputFile, StaleTemporariesAreRemovedAndNothingElse) {
  Folder f("stale");
  const std::vector<std::string> stale = {".r.csv.tmp.OLDOLDOLDOLD", "r.csv.tmp.Ab12Cd",
                                          ".r.csv.partial"};
  for (const auto &n : stale) {
    spit(f.out / n, "cut short");
    age(f.out / n);
  }
  // Kept: a temporary changed since this run began (another run's), one
  // locked by its writer, a link and a folder at our names, names not ours.
  spit(f.out / ".r.csv.tmp.NEWNEWNEWNEW", "being written");
  spit(f.out / ".r.csv.tmp.LOCKEDLOCKED", "being written");
  age(f.out / ".r.csv.tmp.LOCKEDLOCKED");
  const int held = ::open((f.out / ".r.csv.tmp.LOCKEDLOCKED").c_str(), O_RDONLY);
  ASSERT_EQ(::flock(held, LOCK_EX), 0);
  fs::create_symlink(f.victim, f.out / ".r.csv.tmp.LINKLINKLINK");
  age(f.out / ".r.csv.tmp.LINKLINKLINK");
  fs::create_directory(f.out / ".r.csv.tmp.DIRDIRDIRDIR");
  age(f.out / ".r.csv.tmp.DIRDIRDIRDIR");
  const std::vector<std::string> others = {".r.csv.tmp.short", "r.csv.tmp.toolong1",
                                           ".q.csv.partial", "r.csv", ".x.r.csv.tmp.OLDOLDOLDOLD"};
  for (const auto &n : others) {
    spit(f.out / n, "not ours");
    age(f.out / n);
  }
  EXPECT_EQ(umesh::detail::remove_stale_temporaries((f.out / "r.csv").string()), 3);
  for (const auto &n : stale)
    EXPECT_FALSE(fs::exists(f.out / n)) << n;
  for (const auto &n : others)
    EXPECT_TRUE(fs::exists(f.out / n)) << n;
  for (const char *n : {".r.csv.tmp.NEWNEWNEWNEW", ".r.csv.tmp.LOCKEDLOCKED",
                        ".r.csv.tmp.LINKLINKLINK", ".r.csv.tmp.DIRDIRDIRDIR"})
    EXPECT_TRUE(fs::exists(fs::symlink_status(f.out / n))) << n;
  EXPECT_EQ(slurp(f.victim), "keep me\n");
  ::close(held);
}

TEST(OutputFile, AWholeFileWriteRemovesAnInterruptedOne) {
  Folder f("whole");
  const fs::path left = f.out / "p.plan.tmp.XyZ123"; // a plan write killed halfway
  spit(left, "half a plan");
  age(left);
  const std::string bytes = "a plan";
  umesh::detail::write_whole_file((f.out / "p.plan").string(), bytes.data(), bytes.size(),
                                  "plan file 'p.plan'");
  EXPECT_EQ(slurp(f.out / "p.plan"), "a plan");
  EXPECT_EQ(f.others({"p.plan"}), std::vector<std::string>{});
}

TEST(OutputFile, AWholeFileWriteGoesThroughALink) {
  Folder f("through");
  fs::create_directories(f.root / "real");
  spit(f.root / "real" / "t.txt", "old");
  fs::create_symlink("../real/t.txt", f.out / "t.txt"); // relative, as users make them
  umesh::detail::write_whole_file((f.out / "t.txt").string(), "new", 3, "tuning file 't.txt'");
  EXPECT_TRUE(fs::is_symlink(f.out / "t.txt")) << "the link was replaced by a file";
  EXPECT_EQ(slurp(f.root / "real" / "t.txt"), "new");
  EXPECT_EQ(f.others({"t.txt"}), std::vector<std::string>{});
  EXPECT_EQ(std::distance(fs::directory_iterator(f.root / "real"), fs::directory_iterator{}), 1);
}

TEST(OutputFile, APipeWithNoReaderIsRefusedAtOnce) {
  Folder f("pipe_alone");
  const fs::path pipe = f.out / "p";
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  ::alarm(30);
  try {
    ::close(umesh::detail::open_in_place(pipe.string()));
    ADD_FAILURE();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("a named pipe with no reader"), std::string::npos)
        << e.what();
  }
  ::alarm(0);
}

// A reader such as `cat pipe`: opens it (waiting for a writer), reads to
// the end. Opened and closed by a probe, it would see the end at once and
// leave, and the run then wait for a reader for ever.
TEST(OutputFile, APipeWithAReaderKeepsIt) {
  Folder f("pipe_read");
  const fs::path pipe = f.out / "p";
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = slurp(pipe); });
  ::alarm(30);
  int fd = -1;
  for (int tries = 0; fd < 0 && tries < 500; ++tries) {
    try {
      fd = umesh::detail::open_in_place(pipe.string());
    } catch (const Error &) { // the reader is not there yet
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ASSERT_GE(fd, 0);
  umesh::detail::FdOutBuf buf(fd);
  std::ostream out(&buf);
  out << "kernel,time\n"
      << "res_calc," << 1.5 << '\n';
  out.flush();
  EXPECT_EQ(buf.error(), 0);
  ::close(fd);
  reader.join();
  ::alarm(0);
  EXPECT_EQ(got, "kernel,time\nres_calc,1.5\n");
}

TEST(OutputFile, AFullDeviceIsAnError) {
  const int fd = umesh::detail::open_in_place("/dev/full");
  umesh::detail::FdOutBuf buf(fd);
  std::ostream out(&buf);
  out << "rows\n";
  out.flush();
  EXPECT_EQ(buf.error(), ENOSPC);
  ::close(fd);
}

} // namespace
