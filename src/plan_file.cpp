#include <umesh/detail/plan_file.hpp>
#include <umesh/error.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

namespace umesh::detail {

namespace {

constexpr char magic[8] = {'u', 'm', 'e', 's', 'h', 'p', 'l', 'n'};

struct Fnv {
  std::uint64_t h = 1469598103934665603ull;
  void add(const void *p, std::size_t n) {
    const auto *b = static_cast<const unsigned char *>(p);
    for (std::size_t i = 0; i < n; ++i)
      h = (h ^ b[i]) * 1099511628211ull;
  }
  template <class T> void add(const T &v) { add(&v, sizeof v); }
};

} // namespace

std::uint64_t fingerprint(int num_elements, const std::vector<BlockPlanMap> &maps,
                          const std::vector<int> &extra) {
  Fnv f;
  f.add(num_elements);
  for (const auto &m : maps) {
    f.add(m.conn.arity);
    f.add(m.conn.target);
    f.add(m.conn.target_size);
    f.add(char(m.written));
    f.add(m.conn.indices, std::size_t(num_elements) * m.conn.arity * sizeof(int));
  }
  f.add(std::uint64_t(extra.size()));
  f.add(extra.data(), extra.size() * sizeof(int));
  return f.h;
}

bool file_exists(const std::string &path) {
  return std::ifstream(path, std::ios::binary).good();
}

PlanWriter::PlanWriter(const std::string &kind, std::uint64_t fp, const std::string &options) {
  raw(magic, sizeof magic);
  raw(&plan_file_version, sizeof plan_file_version);
  text(kind);
  raw(&fp, sizeof fp);
  text(options);
}

void PlanWriter::raw(const void *p, std::size_t n) {
  // resize + memcpy rather than insert: g++ 12 at -O3 -std=c++20 warns
  // (wrongly) that vector<char>::insert overflows.
  const std::size_t old = bytes_.size();
  bytes_.resize(old + n);
  if (n)
    std::memcpy(bytes_.data() + old, p, n);
}
void PlanWriter::text(const std::string &s) {
  const std::uint64_t n = s.size();
  raw(&n, sizeof n);
  raw(s.data(), s.size());
}
void PlanWriter::ints(const std::vector<int> &v) {
  const std::uint64_t n = v.size();
  raw(&n, sizeof n);
  raw(v.data(), v.size() * sizeof(int));
}
void PlanWriter::real(double x) {
  raw(&x, sizeof x);
}

void PlanWriter::save(const std::string &path) {
  Fnv f;
  f.add(bytes_.data(), bytes_.size());
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      fail("plan file '", path, "': cannot open '", tmp, "' for writing");
    out.write(bytes_.data(), std::streamsize(bytes_.size()));
    out.write(reinterpret_cast<const char *>(&f.h), sizeof f.h);
    if (!out.flush())
      fail("plan file '", path, "': writing failed (disk full?)");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    fail("plan file '", path, "': cannot move '", tmp, "' into place");
}

PlanReader::PlanReader(const std::string &path, const std::string &kind, std::uint64_t fp,
                       const std::string &options)
    : path_(path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail("plan file '", path, "': cannot open it for reading");
  bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (bytes_.size() < sizeof magic || std::memcmp(bytes_.data(), magic, sizeof magic) != 0)
    fail("plan file '", path, "' is not a umesh plan file (no 'umeshpln' header)");
  pos_ = sizeof magic;
  end_ = bytes_.size();
  std::uint32_t version = 0;
  raw(&version, sizeof version);
  if (version != plan_file_version)
    fail("plan file '", path, "' has format version ", version, "; this umesh reads version ",
         plan_file_version, ": delete it to rebuild the plan");
  if (bytes_.size() < pos_ + sizeof(std::uint64_t))
    fail("plan file '", path, "' is truncated");
  end_ = bytes_.size() - sizeof(std::uint64_t);
  Fnv f;
  f.add(bytes_.data(), end_);
  std::uint64_t stored;
  std::memcpy(&stored, bytes_.data() + end_, sizeof stored);
  if (stored != f.h)
    fail("plan file '", path, "' is truncated or corrupted (checksum mismatch)");
  const std::string got_kind = text();
  if (got_kind != kind)
    fail("plan file '", path, "' holds a ", got_kind, ", not a ", kind);
  std::uint64_t got_fp;
  raw(&got_fp, sizeof got_fp);
  if (got_fp != fp)
    fail("plan file '", path, "' was built from different maps or sets (fingerprint ", got_fp,
         ", these maps give ", fp, "): delete it to rebuild the plan");
  const std::string got_options = text();
  if (got_options != options)
    fail("plan file '", path, "' was built with options '", got_options, "', not '", options,
         "': delete it or use another file");
}

void PlanReader::raw(void *p, std::size_t n) {
  if (n > end_ - pos_)
    fail("plan file '", path_, "' is truncated (needs ", n, " more bytes at offset ", pos_, ")");
  if (n) // an empty array's data() may be null: memcpy must not see it (fuzzer finding)
    std::memcpy(p, bytes_.data() + pos_, n);
  pos_ += n;
}
std::string PlanReader::text() {
  std::uint64_t n = 0;
  raw(&n, sizeof n);
  if (n > end_ - pos_)
    fail("plan file '", path_, "' is corrupted (a text of ", n, " bytes at offset ", pos_, ")");
  std::string s(bytes_.data() + pos_, std::size_t(n));
  pos_ += std::size_t(n);
  return s;
}
std::vector<int> PlanReader::ints() {
  std::uint64_t n = 0;
  raw(&n, sizeof n);
  if (n > (end_ - pos_) / sizeof(int))
    fail("plan file '", path_, "' is corrupted (an array of ", n, " ints at offset ", pos_, ")");
  std::vector<int> v(static_cast<std::size_t>(n));
  raw(v.data(), v.size() * sizeof(int));
  return v;
}
double PlanReader::real() {
  double x;
  raw(&x, sizeof x);
  return x;
}
void PlanReader::finish() const {
  if (pos_ != end_)
    fail("plan file '", path_, "' has ", end_ - pos_, " unexpected bytes after its plan");
}

void write_block_plan(PlanWriter &w, const BlockPlan &p) {
  w.ints({p.block_size, p.max_thread_colours, int(p.staged.size()), int(p.phases.size())});
  for (const auto *v : {&p.elem, &p.block_start, &p.thread_colour, &p.thread_colour_offsets,
                        &p.colour_start, &p.block_colour, &p.block_order, &p.block_colour_offsets})
    w.ints(*v);
  for (const auto &s : p.staged) {
    w.ints({s.arity, s.max_points});
    w.ints(s.point_offsets);
    w.ints(s.points);
    w.ints(s.owned);
    w.ints(s.local);
  }
  for (double x :
       {p.mean_thread_colours, p.reuse, p.mean_staged_points, p.mean_cache_lines, p.build_seconds})
    w.real(x);
  w.text(p.blocks_from);
  for (const auto &ph : p.phases) {
    w.text(ph.name);
    w.real(ph.seconds);
  }
}

BlockPlan read_block_plan(PlanReader &r) {
  BlockPlan p;
  const auto head = r.ints();
  if (head.size() != 4 || head[2] < 0 || head[3] < 0)
    fail("plan file: corrupted block plan header");
  p.block_size = head[0];
  p.max_thread_colours = head[1];
  for (auto *v : {&p.elem, &p.block_start, &p.thread_colour, &p.thread_colour_offsets,
                  &p.colour_start, &p.block_colour, &p.block_order, &p.block_colour_offsets})
    *v = r.ints();
  for (int m = 0; m < head[2]; ++m) {
    BlockPlan::Staged s;
    const auto a = r.ints();
    if (a.size() != 2)
      fail("plan file: corrupted staged map header");
    s.arity = a[0];
    s.max_points = a[1];
    s.point_offsets = r.ints();
    s.points = r.ints();
    s.owned = r.ints();
    s.local = r.ints();
    p.staged.push_back(std::move(s));
  }
  for (double *x : {&p.mean_thread_colours, &p.reuse, &p.mean_staged_points, &p.mean_cache_lines,
                    &p.build_seconds})
    *x = r.real();
  p.blocks_from = r.text();
  for (int i = 0; i < head[3]; ++i) {
    const std::string name = r.text();
    p.phases.push_back({name, r.real()});
  }
  r.finish();
  return p;
}

} // namespace umesh::detail
