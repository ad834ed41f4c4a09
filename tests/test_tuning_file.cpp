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

} // namespace
