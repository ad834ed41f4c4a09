#ifndef UMESH_SRC_CGNS_FILE_HPP
#define UMESH_SRC_CGNS_FILE_HPP

// Library-internal: an open CGNS file (cgnslib.h), closed when dropped,
// every call's status checked with the library's own message in the error.

#include <umesh/error.hpp>

#include <cgnslib.h>

#include <string>

namespace umesh::detail {

// An open CGNS file, closed when dropped; every call's status checked.
class CgnsFile {
public:
  CgnsFile(const std::string &path, const std::string &shown, int mode) : shown_(shown) {
    if (cg_open(path.c_str(), mode, &fn_) != CG_OK) {
      fn_ = -1;
      bad(mode == CG_MODE_READ ? "not a CGNS file the library opens (" + error() + ")"
                               : "cannot create it (" + error() + ")");
    }
  }
  CgnsFile(const CgnsFile &) = delete;
  CgnsFile &operator=(const CgnsFile &) = delete;
  ~CgnsFile() {
    if (fn_ >= 0)
      cg_close(fn_);
  }
  int fn() const { return fn_; }
  void close() {
    const int fn = fn_;
    fn_ = -1;
    if (cg_close(fn) != CG_OK)
      bad("closing it failed (" + error() + ")");
  }
  [[noreturn]] void bad(const std::string &why) const { fail("cgns file '", shown_, "': ", why); }
  void check(int status, const std::string &doing) const {
    if (status != CG_OK)
      bad(doing + " failed (" + error() + ")");
  }

private:
  static std::string error() {
    const char *e = cg_get_error();
    return e && *e ? e : "no message";
  }
  std::string shown_;
  int fn_ = -1;
};

} // namespace umesh::detail

#endif
