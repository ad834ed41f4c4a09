// exec::Auto's tuning file under concurrent runs: decisions recorded at the
// same time by several plans (threads here; runs in other processes take
// the same lock) are all kept, and nothing but the file is left beside it.
#include "test_main.hpp"

#include <umesh/tuning_file.hpp>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace {
using namespace umesh;

TEST(TuningFile, ConcurrentDecisionsAreAllKept) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::absolute("test_tuning_file.d");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "tuning.txt").string();
  constexpr int threads = 8, each = 25;
  std::vector<std::thread> pool;
  std::vector<std::string> errors(threads);
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        for (int k = 0; k < each; ++k)
          record_tuning_decision(path, "loop" + std::to_string(t) + "." + std::to_string(k),
                                 "candidate" + std::to_string(k % 3));
      } catch (const std::exception &e) {
        errors[t] = e.what();
      }
    });
  for (auto &th : pool)
    th.join();
  for (const auto &e : errors)
    EXPECT_EQ(e, "");
  const TuningTable table = read_tuning_file(path);
  EXPECT_EQ(table.size(), std::size_t(threads * each));
  EXPECT_EQ(table.at("loop3.7"), "candidate1");
  int files = 0;
  for (const auto &entry : fs::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(entry.path().filename(), "tuning.txt") << "left behind: " << entry.path();
  }
  EXPECT_EQ(files, 1);
  fs::remove_all(dir);
}

TEST(TuningFile, MissingFolderIsNamed) {
  try {
    record_tuning_decision("no_such_folder_here/tuning.txt", "k", "c");
    ADD_FAILURE();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("no_such_folder_here"), std::string::npos) << e.what();
  }
}

// A tuning file named through a link (kept in a shared folder, say) is
// updated where the link leads; the link stays a link, and nothing is left
// beside either.
TEST(TuningFile, ALinkedFileKeepsItsLink) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::absolute("test_tuning_file.link");
  fs::remove_all(dir);
  fs::create_directories(dir / "shared");
  fs::create_directories(dir / "run");
  const fs::path link = dir / "run" / "tuning.txt", real = dir / "shared" / "tuning.txt";
  fs::create_symlink("../shared/tuning.txt", link);
  record_tuning_decision(link.string(), "first", "atomic"); // creates the file the link names
  record_tuning_decision(link.string(), "second", "gather");
  EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced by a plain file";
  const TuningTable table = read_tuning_file(real.string());
  EXPECT_EQ(table.size(), 2u);
  EXPECT_EQ(table.at("second"), "gather");
  for (const auto *folder : {"run", "shared"})
    EXPECT_EQ(std::distance(fs::directory_iterator(dir / folder), fs::directory_iterator{}), 1)
        << folder;
  fs::remove_all(dir);
}

} // namespace
