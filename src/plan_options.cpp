// par_loop's check that its tag's plan options are its plan's
// (umesh/detail/plan_options.hpp).
#include <umesh/detail/plan_options.hpp>
#include <umesh/error.hpp>

#include <charconv>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace umesh::detail {

namespace {

using Blocks = std::shared_ptr<const std::vector<int>>;

template <class T> bool same(const T &a, const T &b) {
  return a == b;
}
// NaN is no value's equal, not even its own: a tag that holds one must
// still agree with the plan built from it.
bool same(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}
bool same(const Blocks &a, const Blocks &b) {
  return a == b || (a && b && *a == *b);
}

template <class T> std::string text(const T &v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
// The shortest text that reads back as `v`: two margins that differ in the
// seventh digit print differently (a stream's default precision is six).
std::string text(double v) {
  char buffer[32];
  const auto done = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, done.ptr);
}
std::string text(const std::string &s) {
  return "'" + s + "'";
}
std::string text(exec::Partition p) {
  return exec::partition_name(p);
}
std::string text(const Blocks &b) {
  return b ? std::to_string(b->size()) + " block ids (with_blocks)" : std::string("none");
}
template <class T> std::string text(const std::vector<T> &v) {
  std::string out = "{";
  for (std::size_t i = 0; i < v.size(); ++i)
    out += (i ? ", " : "") + text(v[i]);
  return out + "}";
}

// What the loop's tag sets and what its plan was built with.
template <class T> std::string mismatch(const char *option, const T &asked, const T &built) {
  return std::string(option) + " to " + text(asked) + ", but its plan was built with " + option +
         " " + text(built);
}
// Block ids of one count: where the two first differ, since their counts
// alone would read as equal.
std::string mismatch(const char *option, const Blocks &asked, const Blocks &built) {
  if (!asked || !built || asked->size() != built->size())
    return mismatch<Blocks>(option, asked, built);
  std::size_t i = 0;
  while ((*asked)[i] == (*built)[i])
    ++i; // they differ somewhere: same() said so
  return std::string(option) + " to " + text(asked) + " that differ from its plan's at element " +
         std::to_string(i) + " (block " + std::to_string((*asked)[i]) + ", the plan's " +
         std::to_string((*built)[i]) + ")";
}

// One executor's check: each option a loop's tag gives, by its setter
// (`given` bits) or by a value other than the default's, is the plan's.
template <class Tag> struct Check {
  const std::string &loop;
  const char *executor;
  const Tag &tag, &plan;

  static const Tag &defaults() {
    static const Tag d{};
    return d;
  }

  template <class T> void operator()(const char *option, unsigned bit, T Tag::*field) const {
    const T &asked = tag.*field, &built = plan.*field;
    const bool given = (tag.plan_options_given & bit) || !same(asked, defaults().*field);
    if (given && !same(asked, built))
      fail("loop '", loop, "' under the ", executor, " executor: its tag sets ",
           mismatch(option, asked, built),
           ": plan options belong to make_plan; pass par_loop the plan's tag or one that "
           "leaves ",
           option, " unset");
  }
};

} // namespace

void check_plan_options(const std::string &loop, const exec::HierarchicalOptions &loop_tag,
                        const exec::HierarchicalOptions &plan) {
  using H = exec::HierarchicalOptions;
  const Check<H> check{loop, "hierarchical", loop_tag, plan};
  check("block_size", H::block_size_given, &H::block_size);
  check("blocks", H::blocks_given, &H::blocks); // before the partition with_blocks sets
  check("partition", H::partition_given, &H::partition);
  check("metis_margin", H::metis_margin_given, &H::metis_margin);
  check("plan_file", H::plan_file_given, &H::plan_file);
}

void check_plan_options(const std::string &loop, const exec::Segmented &loop_tag,
                        const exec::Segmented &plan) {
  using S = exec::Segmented;
  const Check<S> check{loop, "segmented", loop_tag, plan};
  check("block_size", S::block_size_given, &S::block_size);
  check("max_segments", S::max_segments_given, &S::max_segments);
}

void check_plan_options(const std::string &loop, const exec::WarpCombine &loop_tag,
                        const exec::WarpCombine &plan) {
  using W = exec::WarpCombine;
  const Check<W> check{loop, "warp", loop_tag, plan};
  check("block_size", W::block_size_given, &W::block_size);
}

void check_plan_options(const std::string &loop, const exec::AutoOptions &loop_tag,
                        const exec::AutoOptions &plan) {
  using A = exec::AutoOptions;
  const Check<A> check{loop, "auto", loop_tag, plan};
  const auto bit = [](A::Option o) { return 1u << o; };
  check("block_sizes", bit(A::block_sizes_option), &A::block_sizes);
  check("blocks_per_team", bit(A::blocks_per_team_option), &A::blocks_per_team);
  check("warp_registers", bit(A::warp_registers_option), &A::warp_registers);
  check("warp_maps", bit(A::warp_maps_option), &A::warp_maps);
  check("hier_registers", bit(A::hier_registers_option), &A::hier_registers);
  check("trials", bit(A::trials_option), &A::trials);
  check("prune", bit(A::prune_option), &A::prune);
  check("final_margin", bit(A::final_margin_option), &A::final_margin);
  check("finalists", bit(A::finalists_option), &A::finalists);
  check("final_rounds", bit(A::final_rounds_option), &A::final_rounds);
  check("time_limit", bit(A::time_limit_option), &A::time_limit);
  check("tuning_file", bit(A::tuning_file_option), &A::tuning_file);
  check("candidates", bit(A::candidates_option), &A::candidates);
}

} // namespace umesh::detail
