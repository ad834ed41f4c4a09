// The executors' names (umesh/exec_names.hpp): command lines, result files
// and tuning files match them byte for byte, so they are spelt out here.
#include <umesh/exec_names.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

namespace {
using namespace umesh;

TEST(ExecNames, EveryExecutorInOrder) {
  EXPECT_EQ(exec::names(exec::Every{}),
            (std::vector<std::string>{"serial", "atomic", "scatterview", "gather", "colour",
                                      "hierarchical", "segmented", "warp", "auto"}));
  EXPECT_EQ(std::string(exec::name_of_v<exec::Auto>), "auto");
  EXPECT_EQ(std::string(exec::name_of_v<exec::AutoOf<exec::Atomic>>), "auto");
  EXPECT_EQ(std::string(exec::name_of_v<exec::HierarchicalAll>), "hierarchical");
}

// The registry is the one list: its lines, in order, are exec::Every; its
// candidates exec::AutoAll's.
TEST(ExecNames, EveryIsTheRegistry) {
  std::vector<std::string> lines;
#define UMESH_TEST_LINE(Tag, name, role) lines.push_back(#name);
  UMESH_EXECUTORS(UMESH_TEST_LINE)
#undef UMESH_TEST_LINE
  EXPECT_EQ(exec::names(exec::Every{}), lines);
  static_assert(std::is_same_v<exec::registered_t<exec::HierarchicalAll>, exec::Hierarchical>);
  static_assert(std::is_same_v<exec::registered_t<exec::Auto>, exec::AutoAll>);
}

// exec::AutoAll's candidates (the tuning files' order) are every listed
// executor but the reference and the tuner itself, under the same names.
TEST(ExecNames, AutoAllIsEveryOtherButSerial) {
  const std::vector<std::string> candidates =
      exec::names(exec::candidates_of<exec::AutoAll>::type{});
  EXPECT_EQ(candidates, (std::vector<std::string>{"atomic", "scatterview", "gather", "colour",
                                                  "hierarchical", "segmented", "warp"}));
  std::vector<std::string> every = exec::names(exec::Every{});
  std::vector<std::string> others;
  for (const auto &n : every)
    if (n != "serial" && n != "auto")
      others.push_back(n);
  std::sort(others.begin(), others.end());
  std::vector<std::string> sorted = candidates;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, others);
}

TEST(ExecNames, DispatchOnlyToTheListed) {
  using Two = exec::List<exec::Atomic, exec::GlobalColour>;
  std::string seen;
  EXPECT_TRUE(exec::with_name(Two{}, "colour", [&](auto tag) {
    seen = std::is_same<decltype(tag), exec::GlobalColour>::value ? "colour" : "other";
  }));
  EXPECT_EQ(seen, "colour");
  seen.clear();
  EXPECT_FALSE(exec::with_name(Two{}, "warp", [&](auto) { seen = "called"; }));
  EXPECT_FALSE(exec::with_name(Two{}, "", [&](auto) { seen = "called"; }));
  EXPECT_EQ(seen, "");
}

TEST(ExecNames, IndexOf) {
  static_assert(exec::index_of<exec::Serial>(exec::Every{}) == 0);
  static_assert(exec::index_of<exec::AutoAll>(exec::Every{}) == 8);
  static_assert(exec::index_of<exec::Serial>(exec::List<exec::Atomic>{}) == 1); // absent: size
}

TEST(ExecNames, VariantLabels) {
  EXPECT_EQ(exec::variant_name(exec::SegmentedLoop{}), "segmented");
  EXPECT_EQ(exec::variant_name(exec::SegmentedLoop{}.with_scratch_atomics()), "segmented/sa");
  EXPECT_EQ(exec::variant_name(exec::WarpLoop{}), "warp");
  EXPECT_EQ(exec::variant_name(exec::WarpLoop{}.with_compact_maps()), "warp/m16");
  EXPECT_EQ(exec::variant_name(exec::WarpLoop{}.with_max_registers(64).with_compact_maps()),
            "warp/r64/m16");
  EXPECT_EQ(exec::variant_name(exec::Hierarchical::Loop{}), "hier-all");
}

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
