#ifndef UMESH_APPS_COMMON_OUTPUT_HPP
#define UMESH_APPS_COMMON_OUTPUT_HPP

// Result files of the perf programs and apps: opened (folder created) before
// any long work, so that a bad path fails at once, and checked when closed,
// so that a failed write is an error instead of a success message.

#include <umesh/error.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

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

/// Opens `path` for writing now, creating its folder.
inline std::ofstream open_output(const std::string &path) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty())
    make_folder(parent.string(), "output");
  std::ofstream f(path);
  if (!f)
    throw Error("cannot write '" + path + "': " + std::strerror(errno));
  return f;
}

/// Closes `f`; throws when anything written to it was lost.
inline void close_output(std::ofstream &f, const std::string &path) {
  f.flush();
  const bool ok = f.good();
  f.close();
  if (!ok || f.fail())
    throw Error("writing '" + path + "' failed (disk full, or the file was removed?)");
}

} // namespace umesh::perf

#endif
