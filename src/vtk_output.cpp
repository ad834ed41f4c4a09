// VTK XML results (vtk_output.hpp): the .vtu through VTK's own writer, to a
// string that goes to disk whole; the .pvtu and .pvd index files, which VTK
// writes only from a parallel controller or not at all, as the few lines of
// XML they are.
#include <umesh/error.hpp>
#include <umesh/vtk_output.hpp>

#include <umesh/detail/output_file.hpp>

#include <sstream>

#if defined(UMESH_HAS_VTK)
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>
#endif

namespace umesh {
namespace {

std::string xml_escaped(const std::string &s) {
  std::string out;
  for (char c : s)
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  return out;
}

void write_text(const std::string &path, const std::string &text, const char *kind) {
  detail::write_whole_file(path, text.data(), text.size(),
                           std::string(kind) + " file '" + path + "'");
}

} // namespace

bool vtk_built() {
#if defined(UMESH_HAS_VTK)
  return true;
#else
  return false;
#endif
}

std::string vtk_missing() {
  return vtk_built() ? std::string()
                     : "this umesh was built without VTK (configure with UMESH_ENABLE_VTK=ON "
                       "where VTK 9 is installed; Debian: apt-get install libvtk9-dev)";
}

void write_vtu(const std::string &path, const OutputGrid &grid, const OutputStep &step) {
  const std::string what = "vtu file '" + path + "'";
#if defined(UMESH_HAS_VTK)
  check_output(grid, step, what);
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(grid.point_count());
  for (vtkIdType i = 0; i < grid.point_count(); ++i)
    points->SetPoint(i, &grid.points[3 * std::size_t(i)]);
  vtkNew<vtkUnstructuredGrid> ug;
  ug->SetPoints(points);
  const int k = grid.corners();
  // VTK's wedge turns its first triangle the other way (its normal points
  // out of the cell, where Gmsh's and Exodus II's points into it).
  static const int same[8] = {0, 1, 2, 3, 4, 5, 6, 7}, wedge[6] = {0, 2, 1, 3, 5, 4};
  const int *order = grid.cell_type == "wedge" ? wedge : same;
  const int type = grid.cell_type == "line"       ? VTK_LINE
                   : grid.cell_type == "triangle" ? VTK_TRIANGLE
                   : grid.cell_type == "quad"     ? VTK_QUAD
                   : grid.cell_type == "tet"      ? VTK_TETRA
                   : grid.cell_type == "wedge"    ? VTK_WEDGE
                                                  : VTK_HEXAHEDRON;
  ug->Allocate(grid.cell_count());
  vtkIdType ids[8];
  for (std::int64_t c = 0; c < grid.cell_count(); ++c) {
    for (int a = 0; a < k; ++a)
      ids[a] = grid.cells[std::size_t(c * k + order[a])];
    ug->InsertNextCell(type, k, ids);
  }
  const auto add = [](vtkDataSetAttributes *to, const OutputField &f) {
    vtkNew<vtkDoubleArray> a;
    a->SetName(f.name.c_str());
    a->SetNumberOfComponents(f.components);
    a->SetNumberOfTuples(vtkIdType(f.values.size() / std::size_t(f.components)));
    std::copy(f.values.begin(), f.values.end(), a->GetPointer(0));
    to->AddArray(a);
  };
  for (const auto &f : step.point_fields)
    add(ug->GetPointData(), f);
  for (const auto &f : step.cell_fields)
    add(ug->GetCellData(), f);
  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  writer->SetInputData(ug);
  writer->SetDataModeToAppended();
  writer->SetCompressorTypeToZLib();
  writer->WriteToOutputStringOn();
  if (writer->Write() != 1)
    fail(what, ": VTK's writer failed");
  const std::string bytes = writer->GetOutputString();
  write_text(path, bytes, "vtu");
#else
  (void)grid, (void)step;
  fail(what, ": ", vtk_missing());
#endif
}

void write_pvtu(const std::string &path, const std::vector<std::string> &pieces,
                const OutputStep &step) {
  const std::string what = "pvtu file '" + path + "'";
  if (!vtk_built())
    fail(what, ": ", vtk_missing());
  if (pieces.empty())
    fail(what, ": no pieces to name");
  std::ostringstream x;
  x << "<?xml version=\"1.0\"?>\n"
    << "<VTKFile type=\"PUnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
    << "  <PUnstructuredGrid GhostLevel=\"0\">\n";
  const auto arrays = [&](const char *tag, const std::vector<OutputField> &fields) {
    x << "    <" << tag << ">\n";
    for (const auto &f : fields)
      x << "      <PDataArray type=\"Float64\" Name=\"" << xml_escaped(f.name)
        << "\" NumberOfComponents=\"" << f.components << "\"/>\n";
    x << "    </" << tag << ">\n";
  };
  arrays("PPointData", step.point_fields);
  arrays("PCellData", step.cell_fields);
  x << "    <PPoints>\n      <PDataArray type=\"Float64\" NumberOfComponents=\"3\"/>\n"
    << "    </PPoints>\n";
  for (const auto &p : pieces)
    x << "    <Piece Source=\"" << xml_escaped(p) << "\"/>\n";
  x << "  </PUnstructuredGrid>\n</VTKFile>\n";
  write_text(path, x.str(), "pvtu");
}

void write_pvd(const std::string &path, const std::vector<std::pair<double, std::string>> &steps) {
  if (!vtk_built())
    fail("pvd file '", path, "': ", vtk_missing());
  std::ostringstream x;
  x.precision(17);
  x << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
  for (const auto &[time, file] : steps)
    x << "    <DataSet timestep=\"" << time << "\" part=\"0\" file=\"" << xml_escaped(file)
      << "\"/>\n";
  x << "  </Collection>\n</VTKFile>\n";
  write_text(path, x.str(), "pvd");
}

} // namespace umesh
