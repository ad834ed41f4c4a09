// Result writers: fields written as .vtu (VTK's writer) and Exodus II read
// back with VTK's reader and the Exodus II library, every value bit for bit
// (random values, the readers' buffers poisoned first); the index files
// (.pvtu, .pvd); every refusal of check_output.
#include "test_main.hpp"

#include <umesh/exodus_output.hpp>
#include <umesh/vtk_output.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#if defined(UMESH_TEST_VTK)
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>
#endif
#if defined(UMESH_TEST_EXODUS)
#include <exodusII.h>
#endif

namespace {
using namespace umesh;

std::string temp_path(const std::string &name) {
  return ::testing::TempDir() + "umesh_fields_" + std::to_string(::getpid()) + "_" + name;
}
template <class F> std::string error_of(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "(no error)";
}
#define EXPECT_HAS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << (text)

// nx x ny x 1 hexes (or, `wedges`, each hex cut in two wedges) with random
// coordinates jitter and random fields.
std::pair<OutputGrid, OutputStep> random_grid(bool wedges, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const int nx = 4, ny = 3;
  OutputGrid g;
  g.cell_type = wedges ? "wedge" : "hex";
  const auto id = [&](int i, int j, int k) { return (k * (ny + 1) + j) * (nx + 1) + i; };
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        g.points.insert(g.points.end(), {i + 0.1 * u(rng), j + 0.1 * u(rng), k + 0.1 * u(rng)});
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int a = id(i, j, 0), b = id(i + 1, j, 0), c = id(i + 1, j + 1, 0), d = id(i, j + 1, 0);
      const int h = id(0, 0, 1);
      if (wedges)
        g.cells.insert(g.cells.end(), {a, b, c, a + h, b + h, c + h, a, c, d, a + h, c + h, d + h});
      else
        g.cells.insert(g.cells.end(), {a, b, c, d, a + h, b + h, c + h, d + h});
    }
  OutputStep s;
  s.time = 0.25;
  s.point_fields = {{"velocity", 3, std::vector<double>(3 * std::size_t(g.point_count()))}};
  s.cell_fields = {{"energy", 1, std::vector<double>(std::size_t(g.cell_count()))},
                   {"stress", 6, std::vector<double>(6 * std::size_t(g.cell_count()))}};
  for (auto *fs : {&s.point_fields, &s.cell_fields})
    for (auto &f : *fs)
      for (auto &v : f.values)
        v = std::ldexp(u(rng), int(rng() % 40) - 20);
  return {g, s};
}

TEST(FieldOutput, ChecksRefuseBadGrids) {
  auto [g, s] = random_grid(false, 1);
  const auto refused = [&](auto change, const char *part) {
    OutputGrid g2 = g;
    OutputStep s2 = s;
    change(g2, s2);
    EXPECT_HAS(error_of([&] { check_output(g2, s2, "out.vtu"); }), part);
  };
  check_output(g, s, "out.vtu");
  refused([](auto &g2, auto &) { g2.cells[5] = 9999; }, "out.vtu: cell 0 has the corner 9999");
  refused([](auto &g2, auto &) { g2.cells[5] = -1; }, "cell 0 has the corner -1");
  refused([](auto &g2, auto &) { g2.cells.pop_back(); }, "95 cell corners, not 8 a hex");
  refused([](auto &g2, auto &) { g2.points.pop_back(); }, "not three a point");
  refused([](auto &g2, auto &) { g2.cell_type = "pyramid"; }, "cell type 'pyramid'");
  refused([](auto &, auto &s2) { s2.cell_fields[0].values.pop_back(); },
          "field 'energy' has 11 values for 12 cells of 1 component");
  refused([](auto &, auto &s2) { s2.cell_fields[1].name = "energy"; },
          "a field named 'energy' twice");
  refused([](auto &, auto &s2) { s2.point_fields[0].name = ""; }, "(no name)");
  refused([](auto &, auto &s2) { s2.point_fields[0].components = 0; }, "of 0 components");
}

TEST(FieldOutput, IndexFilesAndPieceNames) {
  EXPECT_EQ(exodus_piece_path("o/r.exo", 0, 1), "o/r.exo");
  EXPECT_EQ(exodus_piece_path("o/r.exo", 3, 12), "o/r.exo.12.03");
  EXPECT_EQ(exodus_piece_path("o/r.exo", 0, 2), "o/r.exo.2.0");
  if (!vtk_built()) {
    EXPECT_HAS(error_of([] { write_pvd(temp_path("a.pvd"), {}); }), "built without VTK");
    return;
  }
  const auto [g, s] = random_grid(false, 2);
  const std::string pvtu = temp_path("x.pvtu"), pvd = temp_path("x.pvd");
  write_pvtu(pvtu, {"x_0.vtu", "x_1&2.vtu"}, s);
  std::stringstream text;
  text << std::ifstream(pvtu).rdbuf();
  EXPECT_HAS(text.str(),
             "<PDataArray type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\"/>");
  EXPECT_HAS(text.str(), "<PDataArray type=\"Float64\" Name=\"stress\" NumberOfComponents=\"6\"/>");
  EXPECT_HAS(text.str(), "<Piece Source=\"x_1&amp;2.vtu\"/>");
  write_pvd(pvd, {{0.0, "a.vtu"}, {0.1, "b.pvtu"}});
  std::stringstream series;
  series << std::ifstream(pvd).rdbuf();
  EXPECT_HAS(series.str(),
             "<DataSet timestep=\"0.10000000000000001\" part=\"0\" file=\"b.pvtu\"/>");
  EXPECT_HAS(error_of([&] { write_pvtu(pvtu, {}, s); }), "no pieces to name");
  std::remove(pvtu.c_str());
  std::remove(pvd.c_str());
}

#if defined(UMESH_TEST_VTK)
TEST(FieldOutput, VtuReadBackBitForBit) {
  for (bool wedges : {false, true}) {
    const auto [g, s] = random_grid(wedges, 3 + wedges);
    const std::string path = temp_path(wedges ? "w.vtu" : "h.vtu");
    write_vtu(path, g, s);
    vtkNew<vtkXMLUnstructuredGridReader> reader;
    reader->SetFileName(path.c_str());
    reader->Update();
    vtkUnstructuredGrid *ug = reader->GetOutput();
    ASSERT_EQ(ug->GetNumberOfPoints(), g.point_count());
    ASSERT_EQ(ug->GetNumberOfCells(), g.cell_count());
    double p[3] = {NAN, NAN, NAN};
    for (vtkIdType i = 0; i < ug->GetNumberOfPoints(); ++i) {
      ug->GetPoint(i, p);
      for (int d = 0; d < 3; ++d)
        ASSERT_EQ(p[d], g.points[3 * std::size_t(i) + d]);
    }
    // VTK's wedge lists its first triangle the other way round.
    const int order[8] = {0, 1, 2, 3, 4, 5, 6, 7}, wedge[6] = {0, 2, 1, 3, 5, 4};
    const int k = g.corners();
    vtkNew<vtkIdList> ids;
    for (vtkIdType c = 0; c < ug->GetNumberOfCells(); ++c) {
      EXPECT_EQ(ug->GetCellType(c), wedges ? 13 : 12);
      ug->GetCellPoints(c, ids);
      ASSERT_EQ(ids->GetNumberOfIds(), k);
      for (int a = 0; a < k; ++a)
        ASSERT_EQ(ids->GetId(a), g.cells[std::size_t(c) * k + (wedges ? wedge : order)[a]]);
    }
    const auto same = [](vtkDataArray *a, const OutputField &f) {
      ASSERT_NE(a, nullptr) << f.name;
      ASSERT_EQ(a->GetNumberOfComponents(), f.components) << f.name;
      const std::size_t n = f.values.size() / std::size_t(f.components);
      ASSERT_EQ(std::size_t(a->GetNumberOfTuples()), n) << f.name;
      for (std::size_t i = 0; i < n; ++i)
        for (int c = 0; c < f.components; ++c)
          ASSERT_EQ(a->GetComponent(vtkIdType(i), c), f.values[i * f.components + c]) << f.name;
    };
    same(ug->GetPointData()->GetArray("velocity"), s.point_fields[0]);
    same(ug->GetCellData()->GetArray("energy"), s.cell_fields[0]);
    same(ug->GetCellData()->GetArray("stress"), s.cell_fields[1]);
    std::remove(path.c_str());
  }
  EXPECT_HAS(error_of([] {
               auto [g, s] = random_grid(false, 9);
               write_vtu("/nonexistent/x.vtu", g, s);
             }),
             "vtu file '/nonexistent/x.vtu': cannot create a temporary");
}
#endif

#if defined(UMESH_TEST_EXODUS)
TEST(FieldOutput, ExodusReadBackBitForBit) {
  const std::string path = temp_path("r.exo");
  auto [g, s0] = random_grid(true, 5);
  const OutputStep s1 = random_grid(true, 6).second;
  {
    ExodusResults exo(path, g, s0);
    exo.write(s0);
    OutputStep later = s1;
    later.time = 0.5;
    exo.write(later);
    OutputStep other = s1;
    other.cell_fields.pop_back();
    EXPECT_HAS(error_of([&] { exo.write(other); }), "other fields than the first");
    exo.close();
  }
  int cpu = sizeof(double), io = 0;
  float version = 0;
  const int id = ex_open(path.c_str(), EX_READ, &cpu, &io, &version);
  ASSERT_GE(id, 0);
  EXPECT_EQ(ex_inquire_int(id, EX_INQ_TIME), 2);
  double t = -1;
  ex_get_time(id, 2, &t);
  EXPECT_EQ(t, 0.5);
  int nodal = 0, element = 0;
  ex_get_variable_param(id, EX_NODAL, &nodal);
  ex_get_variable_param(id, EX_ELEM_BLOCK, &element);
  EXPECT_EQ(nodal, 3);
  EXPECT_EQ(element, 7);
  char name[MAX_STR_LENGTH + 1] = {};
  ex_get_variable_name(id, EX_NODAL, 2, name);
  EXPECT_STREQ(name, "velocity_y");
  ex_get_variable_name(id, EX_ELEM_BLOCK, 3, name);
  EXPECT_STREQ(name, "stress_1");
  for (int step = 1; step <= 2; ++step) {
    const OutputStep &s = step == 1 ? s0 : s1;
    std::vector<double> v(std::size_t(g.point_count()), NAN);
    for (int c = 0; c < 3; ++c) {
      ASSERT_GE(ex_get_var(id, step, EX_NODAL, c + 1, 1, g.point_count(), v.data()), 0);
      for (std::size_t i = 0; i < v.size(); ++i)
        ASSERT_EQ(v[i], s.point_fields[0].values[3 * i + c]) << step << " " << i;
    }
    std::vector<double> e(std::size_t(g.cell_count()), NAN);
    ASSERT_GE(ex_get_var(id, step, EX_ELEM_BLOCK, 7, 1, g.cell_count(), e.data()), 0);
    for (std::size_t i = 0; i < e.size(); ++i)
      ASSERT_EQ(e[i], s.cell_fields[1].values[6 * i + 5]);
  }
  std::vector<int> conn(g.cells.size(), -1);
  ex_get_conn(id, EX_ELEM_BLOCK, 1, conn.data(), nullptr, nullptr);
  for (std::size_t i = 0; i < conn.size(); ++i)
    ASSERT_EQ(conn[i] - 1, g.cells[i]);
  ex_close(id);
  std::remove(path.c_str());
}
#endif

} // namespace
