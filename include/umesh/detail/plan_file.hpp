#ifndef UMESH_DETAIL_PLAN_FILE_HPP
#define UMESH_DETAIL_PLAN_FILE_HPP

// Binary plan files. Layout (native byte order):
//   magic "umeshpln" | u32 format version | kind (text) | u64 fingerprint of
//   the maps | options (text) | payload | u64 checksum of all bytes before it
// Text is u64 length + bytes; int arrays are u64 count + int32 values;
// reals are f64. A reader accepts a file only when magic, version, checksum,
// kind, fingerprint and options all match; anything else is an Error that
// says which, so a stale or damaged file never yields a wrong plan.

#include <umesh/block_plan.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace umesh::detail {

// 2: staged lists hold a block's own points first (BlockPlan::Staged::owned).
constexpr std::uint32_t plan_file_version = 2;

/// FNV-1a over the element count and each map's arity, target, target size,
/// written flag and indices, then `extra` (e.g. given block ids).
std::uint64_t fingerprint(int num_elements, const std::vector<BlockPlanMap> &maps,
                          const std::vector<int> &extra = {});

class PlanWriter {
public:
  PlanWriter(const std::string &kind, std::uint64_t fingerprint, const std::string &options);
  void text(const std::string &s);
  void ints(const std::vector<int> &v);
  void real(double x);
  /// Writes the file (through a temporary renamed into place).
  void save(const std::string &path);

private:
  void raw(const void *p, std::size_t n);
  std::vector<char> bytes_;
};

class PlanReader {
public:
  /// Reads and checks `path`; fails with a clear Error on any mismatch.
  PlanReader(const std::string &path, const std::string &kind, std::uint64_t fingerprint,
             const std::string &options);
  std::string text();
  std::vector<int> ints();
  double real();
  /// Fails unless the payload was read exactly to its end.
  void finish() const;
  /// The file, for the errors of what its payload holds.
  const std::string &path() const { return path_; }

private:
  void raw(void *p, std::size_t n);
  std::string path_;
  std::vector<char> bytes_;
  std::size_t pos_ = 0, end_ = 0;
};

bool file_exists(const std::string &path);

void write_block_plan(PlanWriter &w, const BlockPlan &plan);
BlockPlan read_block_plan(PlanReader &r);

/// A plan file is untrusted input (its checksum catches damage, not edits):
/// fails with an Error naming `file` and the first broken invariant unless
/// `plan` is a valid plan of `n` elements over `maps` in blocks of at most
/// `block_size`: the element order a permutation, blocks and colours
/// covering it exactly, every staged point and local index the one the map
/// gives, owned points written by no other block, and no two blocks of one
/// colour or threads of one colour in a block writing one point.
void check_block_plan(const BlockPlan &plan, int n, const std::vector<BlockPlanMap> &maps,
                      int block_size, const std::string &file);

} // namespace umesh::detail

#endif
