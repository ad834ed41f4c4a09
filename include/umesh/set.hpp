#ifndef UMESH_SET_HPP
#define UMESH_SET_HPP

#include <umesh/error.hpp>

#include <climits>
#include <cstdint>
#include <memory>
#include <string>

namespace umesh {

/// A named set of mesh entities (nodes, edges, cells...). Copies share one
/// identity: maps and dats compare sets by identity, not by name or size.
class Set {
public:
  Set(std::string name, std::int64_t size)
      : info_(std::make_shared<const Info>(Info{std::move(name), size, nullptr})) {
    if (size < 0 || size > INT_MAX)
      detail::fail("set '", info_->name, "' has size ", size, " (must be in [0, ", INT_MAX, "])");
  }

  /// A new set standing for `original` in another numbering (what
  /// umesh::reorder makes): the same name and size, an identity of its own.
  /// It remembers `original`, so that errors can tell the two apart.
  static Set renumbering_of(const Set &original) {
    Set s(original.name(), original.size());
    s.info_ = std::make_shared<const Info>(Info{original.name(), original.size(), original.info_});
    return s;
  }
  /// Whether this set is `s` renumbered (once or more).
  bool renumbers(const Set &s) const {
    for (const Info *i = info_->original.get(); i; i = i->original.get())
      if (i == s.info_.get())
        return true;
    return false;
  }

  const std::string &name() const { return info_->name; }
  int size() const { return static_cast<int>(info_->size); }

  friend bool operator==(const Set &a, const Set &b) { return a.info_ == b.info_; }
  friend bool operator!=(const Set &a, const Set &b) { return !(a == b); }

private:
  struct Info {
    std::string name;
    std::int64_t size;
    std::shared_ptr<const Info> original; // renumbering_of: the set renumbered
  };
  std::shared_ptr<const Info> info_;
};

} // namespace umesh

#endif
