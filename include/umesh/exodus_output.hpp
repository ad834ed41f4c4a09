#ifndef UMESH_EXODUS_OUTPUT_HPP
#define UMESH_EXODUS_OUTPUT_HPP

// Results as an Exodus II file: the grid once, then nodal and element
// variables at each time step (a field of several components is written as
// one variable per component, "velocity_x", "velocity_y", ..., which
// ParaView shows as one vector). The file is written beside its path and
// moved onto it by close(): an interrupted run keeps the previous file. In
// a distributed run each rank writes its own piece, named as Exodus II's
// tools expect (exodus_piece_path). Needs the Exodus II library at build
// time (UMESH_ENABLE_EXODUS): without it the writer throws saying so.

#include <umesh/output_grid.hpp>

#include <memory>
#include <string>
#include <vector>

namespace umesh {

/// "out.exo" for one rank, "out.exo.<ranks>.<rank>" for several (digits
/// padded as Exodus II's decomposition tools pad them), which ParaView opens
/// as one mesh.
std::string exodus_piece_path(const std::string &path, int rank, int ranks);

class ExodusResults {
public:
  /// Creates the file's temporary beside `path` and writes `grid` and the
  /// names of the fields `first` has (every step must have the same).
  ExodusResults(std::string path, const OutputGrid &grid, const OutputStep &first);
  ExodusResults(ExodusResults &&) noexcept;
  ExodusResults &operator=(ExodusResults &&) noexcept;
  ~ExodusResults();

  /// Appends a time step: its time and values (checked against the grid and
  /// the first step's fields).
  void write(const OutputStep &step);
  /// Closes the file and moves it onto its path.
  void close();
  const std::string &path() const { return path_; }

private:
  struct File;
  std::string path_;
  std::unique_ptr<File> file_;
};

} // namespace umesh

#endif
