// Unit tests of miniAero's inputs and outputs: the input file read whole and
// checked, refused meshes, output folders and clashing files, pipes, and the
// results comparison.
#include "problem.hpp"
#include "results.hpp"

#include "common/cli.hpp"
#include "common/output.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>

namespace {

using namespace miniaero;
std::string write_temp(const std::string &text) {
  const std::string path = ::testing::TempDir() + "miniaero_test.inp";
  std::ofstream(path) << text;
  return path;
}

void expect_input_error(const std::string &text, const std::string &fragment) {
  try {
    read_input(write_temp(text));
    ADD_FAILURE() << "no error for input:\n" << text;
  } catch (const umesh::Error &e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Input, MeshSizeLimits) {
  EXPECT_EQ(mesh_size_problem(1, 1, 1), "");
  EXPECT_EQ(mesh_size_problem(128, 128, 128), "");
  EXPECT_NE(mesh_size_problem(0, 4, 4).find("0 x 4 x 4 cells"), std::string::npos);
  EXPECT_NE(mesh_size_problem(4, 4, -1), "");
  EXPECT_NE(mesh_size_problem(1000, 1000, 401), ""); // 4.01e8 cells
}

TEST(Input, ReadsMiniAerosFormatAndRejectsMalformedFiles) {
  const Input in =
      read_input(write_temp("2\n2.0 2.0 1.0 30.0\n64 32 2\n400\n1e-5\n1\n100\n1\n0\n"));
  EXPECT_EQ(in.problem, 2);
  EXPECT_EQ(in.nx, 64);
  EXPECT_EQ(in.steps, 400);
  EXPECT_DOUBLE_EQ(in.dt, 1e-5);
  EXPECT_TRUE(in.second_order);
  EXPECT_FALSE(in.viscous);
  expect_input_error("0\n1 1 1 0\n4 4\n", "line 3");
  expect_input_error("3\n1 1 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n", "problem type 3");
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n-1e-6\n0\n1\n0\n0\n", "time step");
  expect_input_error("0\n1 1 1 0\n4 0 4\n1\n1e-6\n0\n1\n0\n0\n", "line 3: 4 x 0 x 4 cells");
  expect_input_error("0\n1 1 x 0\n", "line 2");
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n", "line 9");
  try {
    read_input("/nonexistent/miniaero.inp");
    ADD_FAILURE();
  } catch (const umesh::Error &e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
}

// Fields are read whole: what a stream would read "as far as it parses"
// (1e3 steps as 1, 2,5e-6 s as 2 s, a flag 2 as true) is an error naming the
// line and the field.
TEST(Input, ReadsEveryFieldWhole) {
  const std::string good = "0\n1 1 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n";
  EXPECT_EQ(read_input(write_temp(good)).steps, 1);
  // Windows line ends are whitespace.
  EXPECT_EQ(
      read_input(write_temp("0\r\n1 1 1 0\r\n4 4 4\r\n7\r\n1e-6\r\n0\r\n1\r\n0\r\n0\r\n")).steps,
      7);
  expect_input_error("0\n1 1 1 0\n4 4 4\n1e3\n1e-6\n0\n1\n0\n0\n",
                     "line 4: time_steps '1e3' is not an integer");
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n2,5e-6\n0\n1\n0\n0\n",
                     "line 5: time_step '2,5e-6' is not a number");
  expect_input_error("0\n1 1 1 0\n4 4 4 # cells\n1\n1e-6\n0\n1\n0\n0\n",
                     "line 3: 5 fields in '4 4 4 # cells', expected 3 (nx ny nz)");
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n1e-6\n2\n1\n0\n0\n",
                     "line 6: output_results '2' is not 0 or 1");
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n1e-6\n0\n1\ntrue\n0\n",
                     "line 8: second_order 'true' is not 0 or 1");
  expect_input_error("0\n1 nan 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n",
                     "line 2: ly 'nan' is not a finite number");
  expect_input_error("0\n1 1 1 0\n4 4 3000000000\n1\n1e-6\n0\n1\n0\n0\n",
                     "line 3: nz '3000000000' is out of range");
  expect_input_error(std::string(5000, '0'), "line 1: longer than 4096 characters");
  // Decimal only: strtod alone reads a C hex float; "-0" is no more an
  // integer than "+0"; a NUL shows as \0, not as the end of the message.
  expect_input_error("0\n1 1 1 0\n4 4 4\n1\n0x1p-19\n0\n1\n0\n0\n",
                     "line 5: time_step '0x1p-19' is not a decimal number");
  expect_input_error("0\n0x1p-2 1 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n",
                     "line 2: lx '0x1p-2' is not a decimal number");
  expect_input_error("-0\n1 1 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n",
                     "line 1: problem_type '-0' is not an integer");
  expect_input_error(std::string("0\n1 1 1 0\n4 4 4\n1") + '\0' + "\n1e-6\n0\n1\n0\n0\n",
                     "line 4: time_steps '1\\0' is not an integer");
  EXPECT_EQ(read_input(write_temp(good + "\n  \r\n")).steps, 1);
  expect_input_error(good + "\n1\n", "line 11: text after the last field");
}

// The generated mesh is checked as a read one is: a ramp that rises to the
// domain's height would invert the cells past it, and cells too small or
// too large for a double would divide by zero or infinity.
TEST(Input, RefusesMeshesWithInvertedOrUnrepresentableCells) {
  EXPECT_EQ(read_input(write_temp("2\n2 2 1 30\n8 4 2\n1\n1e-6\n0\n1\n0\n0\n")).ramp_angle, 30);
  expect_input_error("2\n2 0.5 1 45\n8 4 2\n1\n1e-6\n0\n1\n0\n0\n",
                     "lines 2-3: a ramp of 45 degrees over half of lx 2 rises");
  expect_input_error("2\n2 0.9 1 45\n8 4 2\n1\n1e-6\n0\n1\n0\n0\n", "cells would be inverted");
  expect_input_error("0\n1e-200 1e-200 1e-200 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n",
                     "is not a normal double");
  expect_input_error("0\n1e300 1e300 1 0\n4 4 4\n1\n1e-6\n0\n1\n0\n0\n", "is not a normal double");
  Input in;
  in.problem = 2, in.lx = 2, in.ly = 2, in.ramp_angle = -50; // a falling ramp stays valid
  EXPECT_EQ(mesh_geometry_problem(in), "");
}

// Output paths the programs share (apps/common/output.hpp): a name that is
// a folder even before it exists is refused, and so is an output that
// names one of the run's inputs or another output, however it is spelt;
// outputs written in place (devices) replace nothing and may be one.
TEST(Output, FoldersAndClashingFilesAreRefused) {
  using namespace umesh::apps;
  EXPECT_EQ(output_path_problem("out/results.csv"), "");
  EXPECT_EQ(output_path_problem("no-such-folder/."),
            "'no-such-folder/.' ends in '.': a folder, not a file");
  EXPECT_EQ(output_path_problem("no-such-folder/.."),
            "'no-such-folder/..' ends in '..': a folder, not a file");
  EXPECT_EQ(output_path_problem("."), "'.' is a folder, not a file");
  EXPECT_EQ(output_path_problem("out/"), "'out/' ends in '/': a folder, not a file");

  const std::string dir = ::testing::TempDir() + "umesh_output_test";
  std::filesystem::create_directories(dir + "/sub");
  const std::string input = dir + "/m.inp";
  std::ofstream(input) << "0\n";
  EXPECT_TRUE(same_file(input, dir + "/sub/../m.inp"));
  EXPECT_TRUE(same_file(dir + "/new.csv", dir + "/sub/../new.csv")); // neither exists yet
  EXPECT_FALSE(same_file(input, dir + "/new.csv"));
  EXPECT_EQ(clashing_files({{"--csv", dir + "/new.csv"}}, {{"--input", input}}), "");
  EXPECT_NE(clashing_files({{"--results", dir + "/sub/../m.inp"}}, {{"--input", input}})
                .find("names the file --input '" + input + "' reads"),
            std::string::npos);
  EXPECT_NE(clashing_files({{"--results", dir + "/r"}, {"--csv", dir + "/sub/../r"}}, {})
                .find("name one file: one would replace the other"),
            std::string::npos);
  EXPECT_EQ(clashing_files({{"--results", ""}, {"--csv", ""}}, {{"--input", ""}}), "");
  EXPECT_EQ(clashing_files({{"--results", "/dev/null"}, {"--csv", "/dev/null"}}, {}), "");
  std::filesystem::remove_all(dir);
}

// Inputs that are not regular files are refused before they are opened:
// opening a named pipe would wait for a writer (a plan file too).
TEST(Input, PipesAreRefusedWithoutOpening) {
  const std::string dir = ::testing::TempDir() + "umesh_input_test";
  std::filesystem::create_directories(dir);
  const std::string pipe = dir + "/pipe.inp";
  std::filesystem::remove(pipe);
  ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
  std::string path = pipe;
  EXPECT_NE(umesh::apps::input_file()(path).find("is not a regular file"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(pipe)); // seen, not opened: the reader refuses it
  std::string regular = dir + "/m.inp";
  std::ofstream(regular) << "0\n";
  EXPECT_EQ(umesh::apps::input_file()(regular), "");
  std::filesystem::remove_all(dir);
}

TEST(Results, MiniAerosCriterion) {
  const std::vector<double> xc = {0.5, 0.5, 0.5};
  const std::vector<double> u = {1.0, 2e-7, 0.0, 0.0, 250000.0};
  const auto lines = results_lines(xc, u);
  std::string report;
  EXPECT_EQ(
      compare_results(lines, {{0.5, 0.5, 0.5, 1.0005, 9e-7, 0, 0, 250100}}, 1e-3, 1e-6, report),
      0)
      << report; // within 1e-3, and 2e-7 vs 9e-7 is below the floor
  EXPECT_EQ(compare_results(lines, {{0.5, 0.5, 0.5, 1.002, 0, 0, 0, 250000}}, 1e-3, 1e-6, report),
            1);
  EXPECT_EQ(compare_results(lines, {{0.5, 0.5, 0.5, 1.0, 0, 0, 0}}, 1e-3, 1e-6, report), 1);
  const auto nan = results_lines(xc, {std::nan(""), 0, 0, 0, 250000.0});
  EXPECT_EQ(compare_results(nan, {{0.5, 0.5, 0.5, 1.0, 0, 0, 0, 250000}}, 1e-3, 1e-6, report), 1);
}

} // namespace
