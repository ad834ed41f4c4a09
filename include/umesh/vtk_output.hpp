#ifndef UMESH_VTK_OUTPUT_HPP
#define UMESH_VTK_OUTPUT_HPP

// Results as VTK XML files, for ParaView and VisIt: an unstructured grid
// (.vtu, written by VTK's own writer: binary, compressed) with point and
// cell fields; in a distributed run one .vtu piece per rank and a .pvtu
// that names the pieces; a time series (.pvd) naming each step's file. Every
// file appears whole or not at all (written beside, then renamed). Needs VTK
// at build time (UMESH_ENABLE_VTK): without it the writers throw saying so.

#include <umesh/output_grid.hpp>

#include <string>
#include <utility>
#include <vector>

namespace umesh {

/// Whether this build writes VTK files; vtk_missing() says why not.
bool vtk_built();
std::string vtk_missing();

/// Writes `grid` and the fields of `step` to `path` (.vtu).
void write_vtu(const std::string &path, const OutputGrid &grid, const OutputStep &step);

/// Writes a .pvtu at `path` naming `pieces` (paths relative to its folder,
/// one .vtu per rank) that hold the fields of `step` (their values are not
/// read: the names and components say what each piece has).
void write_pvtu(const std::string &path, const std::vector<std::string> &pieces,
                const OutputStep &step);

/// Writes a .pvd at `path`: each (time, file) of `steps` (files relative to
/// its folder, .vtu or .pvtu), in order.
void write_pvd(const std::string &path, const std::vector<std::pair<double, std::string>> &steps);

} // namespace umesh

#endif
