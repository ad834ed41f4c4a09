#ifndef UMESH_SRC_EXODUS_FILE_HPP
#define UMESH_SRC_EXODUS_FILE_HPP

// Library-internal: an open Exodus II file (exodusII.h, 64-bit integers
// through the API), closed when dropped, every call's status checked with
// the library's own message in the error.

#include <umesh/error.hpp>

#include <exodusII.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace umesh::detail {

class ExodusFile {
public:
  /// Opens `path` to read; a missing file, a folder or a file that is not
  /// Exodus II throws umesh::Error naming it.
  static ExodusFile open(const std::string &path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      fail("exodus file '", path, "' is a folder, not a file");
    std::ifstream probe(path, std::ios::binary);
    if (!probe)
      fail("cannot open exodus file '", path, "': ", std::strerror(errno));
    char magic[4] = {};
    probe.read(magic, 4);
    // NetCDF classic and 64-bit offset files ("CDF\1", "CDF\2", "CDF\5")
    // store every value in full: their size bounds what they can hold.
    const bool classic = probe.gcount() == 4 && std::memcmp(magic, "CDF", 3) == 0;
    const bool hdf5 = probe.gcount() == 4 && std::memcmp(magic, "\x89HDF", 4) == 0;
    if (!classic && !hdf5)
      fail("exodus file '", path, "': not an Exodus II file (neither NetCDF nor HDF5)");
    ex_opts(0); // errors are returned, not printed, and never abort
    int cpu_ws = sizeof(double), io_ws = 0;
    float version = 0;
    ExodusFile f(path, path);
    f.id_ = ex_open(path.c_str(), EX_READ, &cpu_ws, &io_ws, &version);
    if (f.id_ < 0)
      f.bad("not an Exodus II file the library opens (" + f.library_error() + ")");
    ex_set_int64_status(f.id_, EX_ALL_INT64_API);
    f.version_ = std::to_string(version).substr(0, 4);
    if (classic) {
      const auto size = std::filesystem::file_size(path, ec);
      f.most_ = ec ? 0 : (long long)(size / 4 + 1);
    }
    f.name_length();
    return f;
  }

  /// Creates `path` (replacing it) to write; `shown` names it in errors.
  /// NetCDF's classic format (64-bit offsets, 32-bit integers: umesh's
  /// numbers are ints), which every Exodus II reader opens, not its HDF5
  /// one: HDF5's parser is the part of a reader a forged file crashes.
  static ExodusFile create(const std::string &path, const std::string &shown) {
    ex_opts(0);
    int cpu_ws = sizeof(double), io_ws = sizeof(double);
    ExodusFile f(path, shown);
    f.id_ = ex_create(path.c_str(), EX_CLOBBER | EX_LARGE_MODEL, &cpu_ws, &io_ws);
    if (f.id_ < 0)
      f.bad("cannot create it (" + f.library_error() + ")");
    ex_set_int64_status(f.id_, EX_ALL_INT64_API);
    ex_set_max_name_length(f.id_, 64);
    return f;
  }

  ExodusFile(ExodusFile &&o) noexcept
      : path_(std::move(o.path_)), shown_(std::move(o.shown_)), version_(std::move(o.version_)),
        id_(o.id_), length_(o.length_), most_(o.most_) {
    o.id_ = -1;
  }
  ExodusFile &operator=(ExodusFile &&) = delete;
  ~ExodusFile() {
    if (id_ >= 0)
      ex_close(id_);
  }

  int id() const { return id_; }
  const std::string &version() const { return version_; }
  /// The most values a count may ask for: a classic file's size bounds it
  /// (a forged header must not make the reader allocate terabytes).
  long long most_values() const { return most_; }

  void close() {
    const int id = id_;
    id_ = -1;
    if (ex_close(id) < 0)
      bad("closing it failed (" + library_error() + ")");
  }

  [[noreturn]] void bad(const std::string &why) const { fail("exodus file '", shown_, "': ", why); }
  void check(int status, const std::string &doing) const {
    if (status < 0)
      bad(doing + " failed (" + library_error() + ")");
  }

  std::vector<long long> ids(ex_entity_type type, long long count) {
    std::vector<int64_t> ids(std::size_t(count > 0 ? count : 0));
    if (count > 0)
      check(ex_get_ids(id_, type, ids.data()), "reading the ids of its " + kind(type));
    return {ids.begin(), ids.end()};
  }

  std::vector<std::string> names(ex_entity_type type, long long count) {
    const std::size_t n = std::size_t(count > 0 ? count : 0), len = std::size_t(length_) + 1;
    std::vector<char> buffer(n * len, '\0');
    std::vector<char *> pointers(n);
    for (std::size_t i = 0; i < n; ++i)
      pointers[i] = &buffer[i * len];
    if (n > 0)
      check(ex_get_names(id_, type, pointers.data()), "reading the names of its " + kind(type));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i)
      out.emplace_back(pointers[i], strnlen(pointers[i], len - 1));
    return out;
  }

  void put_names(ex_entity_type type, const std::vector<std::string> &names) {
    if (names.empty())
      return;
    std::vector<std::string> copies(names);
    std::vector<char *> pointers;
    for (auto &n : copies) {
      n.resize(std::min<std::size_t>(n.size(), 64));
      pointers.push_back(n.data());
    }
    check(ex_put_names(id_, type, pointers.data()), "writing the names of its " + kind(type));
  }

private:
  ExodusFile(std::string path, std::string shown)
      : path_(std::move(path)), shown_(std::move(shown)) {}

  static std::string kind(ex_entity_type type) {
    return type == EX_ELEM_BLOCK ? "element blocks"
           : type == EX_SIDE_SET ? "side sets"
           : type == EX_NODE_SET ? "node sets"
                                 : "entities";
  }

  static std::string library_error() {
    const char *msg = nullptr, *func = nullptr;
    int code = 0;
    ex_get_err(&msg, &func, &code);
    std::string out = msg && *msg ? msg : "no message";
    if (func && *func)
      out = std::string(func) + ": " + out;
    return out;
  }

  // Names up to the longest the file holds (Exodus' default reads 32).
  void name_length() {
    const long long used = ex_inquire_int(id_, EX_INQ_DB_MAX_USED_NAME_LENGTH);
    length_ = int(used < 32 ? 32 : used > 255 ? 255 : used);
    ex_set_max_name_length(id_, length_);
  }

  std::string path_, shown_, version_;
  int id_ = -1;
  int length_ = 32;
  long long most_ = 1LL << 40;
};

} // namespace umesh::detail

#endif
