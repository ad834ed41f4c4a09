#include <umesh/detail/output_file.hpp>
#include <umesh/detail/plan_file.hpp>
#include <umesh/error.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
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
  // Without opening it: opening a named pipe waits for a writer. What is
  // there but not a regular file is then refused by the reader, by name.
  std::error_code ec;
  return std::filesystem::exists(path, ec);
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
  const std::size_t size = bytes_.size();
  raw(&f.h, sizeof f.h); // appended for the write only: the writer stays as it was
  // Runs sharing a plan folder may save one plan at once: each through a
  // temporary of its own (detail/output_file.hpp), the same bytes renamed in turn.
  try {
    write_whole_file(path, bytes_.data(), bytes_.size(), "plan file '" + path + "'");
  } catch (...) {
    bytes_.resize(size);
    throw;
  }
  bytes_.resize(size);
}

PlanReader::PlanReader(const std::string &path, const std::string &kind, std::uint64_t fp,
                       const std::string &options)
    : path_(path) {
  // Read whole, so a regular file only: its size bounds the read (a plan
  // path that names /dev/zero was read until memory ran out, a pipe waited
  // forever).
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
    fail("plan file '", path, "' is ",
         std::filesystem::is_directory(st) ? "a folder" : "not a regular file",
         ": delete it or give another plan folder");
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
    fail("plan file '", r.path(), "': corrupted block plan header");
  p.block_size = head[0];
  p.max_thread_colours = head[1];
  for (auto *v : {&p.elem, &p.block_start, &p.thread_colour, &p.thread_colour_offsets,
                  &p.colour_start, &p.block_colour, &p.block_order, &p.block_colour_offsets})
    *v = r.ints();
  for (int m = 0; m < head[2]; ++m) {
    BlockPlan::Staged s;
    const auto a = r.ints();
    if (a.size() != 2)
      fail("plan file '", r.path(), "': corrupted staged map header");
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

namespace umesh::detail {

// A plan file is untrusted input: its checksum catches damage, not edits. A
// loaded plan is used only after every index and invariant the executor
// relies on has been checked here, so that no plan, whatever its origin,
// makes a loop read or write out of bounds, skip or repeat an element, or
// race (two blocks of one colour, or two threads of one colour in a block,
// writing one point).
void check_block_plan(const BlockPlan &p, int n, const std::vector<BlockPlanMap> &maps,
                      int block_size, const std::string &file) {
  const auto bad = [&](const auto &...why) {
    fail("plan file '", file, "' holds an invalid plan: ", why...,
         "; delete it to rebuild the plan");
  };
  // Element order: a permutation of [0, n).
  if (int(p.elem.size()) != n || int(p.thread_colour.size()) != n)
    bad("an element order of ", p.elem.size(), " elements for a set of ", n);
  {
    std::vector<char> seen(std::size_t(n), 0);
    for (int e : p.elem) {
      if (e < 0 || e >= n)
        bad("element ", e, " is outside [0, ", n, ")");
      if (seen[e]++)
        bad("element ", e, " appears twice");
    }
  }
  // Blocks: contiguous ranges of positions from 0 to n, none past the block size.
  if (p.block_size != block_size)
    bad("block size ", p.block_size, ", the options say ", block_size);
  const int nb = p.num_blocks();
  if (nb < 0 || p.block_start.front() != 0 || p.block_start.back() != n)
    bad("block starts that do not run from 0 to ", n);
  for (int b = 0; b < nb; ++b)
    if (p.block_start[b + 1] < p.block_start[b] ||
        p.block_start[b + 1] - p.block_start[b] > block_size)
      bad("block ", b, " spans positions ", p.block_start[b], " to ", p.block_start[b + 1]);
  // Thread colours: per block, ranges of positions sorted by colour.
  if (int(p.thread_colour_offsets.size()) != nb + 1 || p.thread_colour_offsets[0] != 0)
    bad("thread colour offsets for ", p.thread_colour_offsets.size() - 1, " blocks, not ", nb);
  int max_colours = 0;
  for (int b = 0; b < nb; ++b) {
    const int first = p.thread_colour_offsets[b],
              colours = p.thread_colour_offsets[b + 1] - first - 1;
    if (colours < 0 || p.thread_colour_offsets[b + 1] > int(p.colour_start.size()))
      bad("block ", b, "'s thread colour offsets");
    max_colours = std::max(max_colours, colours);
    if (p.colour_start[first] != p.block_start[b] ||
        p.colour_start[first + colours] != p.block_start[b + 1])
      bad("block ", b, "'s thread colours do not cover its positions");
    for (int c = 0; c < colours; ++c) {
      if (p.colour_start[first + c + 1] < p.colour_start[first + c])
        bad("block ", b, "'s thread colour ", c, " ends before it starts");
      for (int i = p.colour_start[first + c]; i < p.colour_start[first + c + 1]; ++i)
        if (p.thread_colour[i] != c)
          bad("position ", i, " has thread colour ", p.thread_colour[i], " in colour ", c,
              "'s range");
    }
  }
  if (int(p.colour_start.size()) != p.thread_colour_offsets[nb])
    bad(p.colour_start.size(), " thread colour starts, the offsets say ",
        p.thread_colour_offsets[nb]);
  if (p.max_thread_colours != max_colours)
    bad("at most ", p.max_thread_colours, " thread colours, the blocks have ", max_colours);
  // Block colours: block_order a permutation of the blocks, grouped by colour.
  const int nbc = p.num_block_colours();
  if (nbc < 0 || int(p.block_colour.size()) != nb || int(p.block_order.size()) != nb ||
      p.block_colour_offsets.front() != 0 || p.block_colour_offsets.back() != nb)
    bad("block colours that do not cover the ", nb, " blocks");
  {
    std::vector<char> seen(std::size_t(nb), 0);
    for (int c = 0; c < nbc; ++c) {
      if (p.block_colour_offsets[c + 1] < p.block_colour_offsets[c])
        bad("block colour ", c, " ends before it starts");
      for (int k = p.block_colour_offsets[c]; k < p.block_colour_offsets[c + 1]; ++k) {
        const int b = p.block_order[k];
        if (b < 0 || b >= nb || seen[b]++)
          bad("block ", b, " is outside [0, ", nb, ") or listed twice in the block order");
        if (p.block_colour[b] != c)
          bad("block ", b, " has colour ", p.block_colour[b], " in colour ", c, "'s range");
      }
    }
  }
  // Staged points: per map and block, distinct points of the target, each
  // part (own, then shared) ascending; every local index names the point the
  // map gives.
  if (p.staged.size() != maps.size())
    bad(p.staged.size(), " staged maps for ", maps.size(), " maps");
  for (std::size_t m = 0; m < maps.size(); ++m) {
    const BlockPlan::Staged &st = p.staged[m];
    const HostConnectivity &c = maps[m].conn;
    if (st.arity != c.arity || st.local.size() != std::size_t(n) * c.arity ||
        int(st.point_offsets.size()) != nb + 1 || int(st.owned.size()) != nb ||
        st.point_offsets.front() != 0 || st.point_offsets.back() != int(st.points.size()))
      bad("staged map ", m, "'s arrays do not fit ", nb, " blocks of arity ", c.arity);
    int max_points = 0;
    for (int b = 0; b < nb; ++b) {
      const int begin = st.point_offsets[b], end = st.point_offsets[b + 1];
      if (end < begin || st.owned[b] < 0 || st.owned[b] > end - begin)
        bad("staged map ", m, " block ", b, "'s point range");
      max_points = std::max(max_points, end - begin);
      for (int j = begin; j < end; ++j) {
        const int q = st.points[j];
        if (q < 0 || q >= c.target_size)
          bad("staged map ", m, " point ", q, " is outside its target of ", c.target_size);
        if (j > begin && j != begin + st.owned[b] && q <= st.points[j - 1])
          bad("staged map ", m, " block ", b, "'s points are not ascending in each part");
      }
      for (int i = p.block_start[b]; i < p.block_start[b + 1]; ++i)
        for (int s = 0; s < c.arity; ++s) {
          const int l = st.local[std::size_t(i) * c.arity + s];
          if (l < 0 || l >= end - begin ||
              st.points[begin + l] != c.indices[std::size_t(p.elem[i]) * c.arity + s])
            bad("staged map ", m, " position ", i, " slot ", s, " names local point ", l,
                ", not the map's point");
        }
    }
    if (st.max_points != max_points)
      bad("staged map ", m, " says at most ", st.max_points, " points a block, there are ",
          max_points);
  }
  // Writes: points are numbered per target (maps into one set write one
  // dat's points), and per target a point a block owns is in no other
  // (block, written map) list; no two blocks of one colour, and no two threads
  // of one colour in a block, write one point.
  std::vector<std::size_t> base(maps.size());
  std::vector<std::pair<int, std::size_t>> targets; // target id -> base
  std::size_t total = 0;
  for (std::size_t m = 0; m < maps.size(); ++m) {
    const auto it = std::find_if(targets.begin(), targets.end(),
                                 [&](const auto &t) { return t.first == maps[m].conn.target; });
    if (it != targets.end()) {
      base[m] = it->second;
    } else {
      base[m] = total;
      targets.emplace_back(maps[m].conn.target, total);
      total += std::size_t(maps[m].conn.target_size);
    }
  }
  std::vector<int> holding(total, 0);
  for (std::size_t m = 0; m < maps.size(); ++m)
    if (maps[m].written)
      for (int q : p.staged[m].points)
        ++holding[base[m] + q];
  for (std::size_t m = 0; m < maps.size(); ++m)
    if (maps[m].written)
      for (int b = 0; b < nb; ++b)
        for (int j = 0; j < p.staged[m].owned[b]; ++j)
          if (holding[base[m] + p.staged[m].points[p.staged[m].point_offsets[b] + j]] != 1)
            bad("staged map ", m, " block ", b, " owns a point other blocks write");
  std::vector<int> stamp(total, -1), writer(total, -1);
  for (int col = 0; col < nbc; ++col) // blocks of one colour
    for (int k = p.block_colour_offsets[col]; k < p.block_colour_offsets[col + 1]; ++k) {
      const int b = p.block_order[k];
      for (std::size_t m = 0; m < maps.size(); ++m)
        if (maps[m].written)
          for (int j = p.staged[m].point_offsets[b]; j < p.staged[m].point_offsets[b + 1]; ++j) {
            const std::size_t q = base[m] + p.staged[m].points[j];
            if (stamp[q] == col && writer[q] != b)
              bad("blocks ", writer[q], " and ", b, " of block colour ", col, " write one point");
            stamp[q] = col, writer[q] = b;
          }
    }
  // Threads of one colour in a block: a unique id each; a thread may write
  // one point through several slots (a boundary edge's cell twice).
  std::fill(stamp.begin(), stamp.end(), -1);
  for (int i = 0; i < n; ++i) {
    const int b = int(std::upper_bound(p.block_start.begin(), p.block_start.end(), i) -
                      p.block_start.begin()) -
                  1;
    const int id = p.thread_colour_offsets[b] + p.thread_colour[i];
    for (std::size_t m = 0; m < maps.size(); ++m)
      if (maps[m].written)
        for (int s = 0; s < maps[m].conn.arity; ++s) {
          const std::size_t q =
              base[m] + maps[m].conn.indices[std::size_t(p.elem[i]) * maps[m].conn.arity + s];
          if (stamp[q] == id && writer[q] != i)
            bad("two threads of colour ", p.thread_colour[i], " in block ", b, " write one point");
          stamp[q] = id, writer[q] = i;
        }
  }
}

} // namespace umesh::detail
