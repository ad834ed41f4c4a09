#ifndef UMESH_APPS_COMMON_FIELD_OUTPUT_HPP
#define UMESH_APPS_COMMON_FIELD_OUTPUT_HPP

// The apps' result fields for ParaView and VisIt: --output vtu|exodus,
// --output-every N and --output-dir DIR, and the writer that follows a run
// step by step (umesh/vtk_output.hpp, umesh/exodus_output.hpp):
//   vtu     DIR/NAME_<step>.vtu, over MPI ranks DIR/NAME_<step>_<rank>.vtu
//           and DIR/NAME_<step>.pvtu naming them; DIR/NAME.pvd, the series
//   exodus  DIR/NAME.exo (over ranks DIR/NAME.exo.<ranks>.<rank>), every
//           step in one file, moved into place when the run ends
// Each written step prints its fields' ranges over the whole mesh (every
// value's exact decimal), which tests compare with what a reader finds.

#include "common/cli.hpp"
#include "common/output.hpp"
#include "common/ranks.hpp"

#include <umesh/error.hpp>
#include <umesh/exodus_output.hpp>
#include <umesh/mesh_file.hpp>
#include <umesh/vtk_output.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace umesh::apps {

struct FieldOutputOptions {
  std::string format; ///< "", "vtu" or "exodus"
  int every = 0;      ///< 0: the last step only
  std::string dir;

  void add_to(CLI::App &app, const std::string &default_dir) {
    dir = default_dir;
    app.add_option("--output", format,
                   "write the result fields for ParaView or VisIt: vtu (VTK XML: a .vtu per "
                   "step, over MPI ranks a piece per rank and a .pvtu, and a .pvd series) or "
                   "exodus (one Exodus II file, over ranks one per rank); into --output-dir")
        ->check(CLI::IsMember({"vtu", "exodus"}));
    app.add_option("--output-every", every,
                   "with --output: write the fields every N steps, the initial state and the "
                   "last step too (0: the last step only)")
        ->check(CLI::Range(0, 1 << 30))
        ->capture_default_str();
    app.add_option("--output-dir", dir, "with --output: the folder the fields go to (created)")
        ->check(output_folder())
        ->capture_default_str();
  }
  bool on() const { return !format.empty(); }
  /// Why this build cannot write `format`, or empty.
  std::string problem() const {
    if (format == "vtu" && !vtk_built())
      return "--output vtu: " + vtk_missing();
    if (format == "exodus")
      if (const std::string why = mesh_format_missing(MeshFormat::exodus); !why.empty())
        return "--output exodus: " + why;
    return {};
  }
  /// Whether the state after step `step` of `last` is written.
  bool due(int step, int last) const {
    return on() && (step == last || (every > 0 && step % every == 0));
  }
};

class FieldWriter {
public:
  /// Creates the folder and checks that this rank's first file can be
  /// written (a bad folder or file fails here, on every rank alike, before
  /// the run: collective over the ranks).
  FieldWriter(FieldOutputOptions o, std::string name, int rank, int ranks)
      : o_(std::move(o)), name_(std::move(name)), rank_(rank), ranks_(ranks) {
    std::string problem = o_.problem();
    if (problem.empty()) {
      try {
        make_folder(o_.dir, "output");
        for (const auto &path :
             {first_path(),
              rank_ == 0 && o_.format == "vtu" ? folder() + name_ + ".pvd" : std::string()})
          if (!path.empty())
            ResultFile check(path); // its temporary locked, then dropped
      } catch (const std::exception &e) {
        problem = std::string("--output-dir '") + o_.dir + "': " + e.what();
      }
    }
    if (const std::string first = first_problem(problem); !first.empty())
      throw Error(first);
  }

  /// Writes the state of step `step` at `time`: this rank's `piece` of the
  /// mesh and its fields (collective over the ranks).
  void write(int step, double time, const OutputGrid &piece, const OutputStep &fields) {
    OutputStep s = fields;
    s.time = time;
    std::vector<std::string> written;
    if (o_.format == "vtu") {
      write_vtu(folder() + piece_name(step, rank_), piece, s);
      if (rank_ == 0) {
        std::string index = file_name(step) + ".vtu";
        if (ranks_ > 1) {
          std::vector<std::string> pieces;
          for (int r = 0; r < ranks_; ++r)
            pieces.push_back(piece_name(step, r));
          index = file_name(step) + ".pvtu";
          write_pvtu(folder() + index, pieces, s);
        }
        series_.emplace_back(time, index);
        write_pvd(folder() + name_ + ".pvd", series_);
        written = {folder() + index, folder() + name_ + ".pvd"};
      }
    } else {
      if (!exodus_)
        exodus_ = std::make_unique<ExodusResults>(first_path(), piece, s);
      exodus_->write(s);
    }
    print_ranges(step, time, s, written);
  }

  /// Closes an Exodus II file and moves it into place.
  void finish() {
    if (!exodus_)
      return;
    exodus_->close();
    std::printf("  fields: %s%s\n", absolute_path(exodus_->path()).c_str(),
                ranks_ > 1 ? " (this rank's; each rank its own)" : "");
    exodus_.reset();
  }

private:
  std::string folder() const { return o_.dir + "/"; }
  std::string file_name(int step) const {
    char digits[16];
    std::snprintf(digits, sizeof digits, "%06d", step);
    return name_ + "_" + digits;
  }
  std::string piece_name(int step, int rank) const {
    std::string name = file_name(step);
    if (ranks_ > 1)
      name += '_', name += std::to_string(rank);
    return name + ".vtu";
  }
  std::string first_path() const {
    return o_.format == "vtu" ? folder() + piece_name(0, rank_)
                              : exodus_piece_path(folder() + name_ + ".exo", rank_, ranks_);
  }

  // "density [a, b]" per component over the whole mesh, every digit.
  void print_ranges(int step, double time, const OutputStep &s,
                    const std::vector<std::string> &written) const {
    std::string line;
    const auto ranges = [&](const std::vector<OutputField> &fields) {
      for (const auto &f : fields)
        for (int c = 0; c < f.components; ++c) {
          double lo = std::numeric_limits<double>::infinity(), hi = -lo;
          for (std::size_t i = std::size_t(c); i < f.values.size();
               i += std::size_t(f.components)) {
            lo = std::min(lo, f.values[i]);
            hi = std::max(hi, f.values[i]);
          }
          lo = -max_over_ranks(-lo);
          hi = max_over_ranks(hi);
          // The component's suffix appended, not "_" + ...: g++ 12 at -O3 warns
          // wrongly on that insert.
          std::string component;
          if (f.components > 3)
            component = std::to_string(c);
          else if (f.components > 1)
            component = std::string(1, "xyz"[c]);
          char text[96];
          std::snprintf(text, sizeof text, " %s%s%s [%.17g, %.17g]", f.name.c_str(),
                        component.empty() ? "" : "_", component.c_str(), lo, hi);
          line += text;
        }
    };
    ranges(s.point_fields);
    ranges(s.cell_fields);
    std::printf("  fields at step %d (t = %.17g):%s\n", step, time, line.c_str());
    for (const auto &w : written)
      std::printf("    written: %s\n", absolute_path(w).c_str());
    std::fflush(stdout);
  }

  FieldOutputOptions o_;
  std::string name_;
  int rank_, ranks_;
  std::vector<std::pair<double, std::string>> series_;
  std::unique_ptr<ExodusResults> exodus_;
};

} // namespace umesh::apps

#endif
