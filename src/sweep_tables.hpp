// What the sweep schedule's builder (sweep_schedule.cpp) and its plan file
// (sweep_file.cpp) share: the checked geometry, the inflow faces of a
// direction, the fingerprint and the per-direction loop.
#ifndef UMESH_SRC_SWEEP_TABLES_HPP
#define UMESH_SRC_SWEEP_TABLES_HPP

#include <umesh/sweep_schedule.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace umesh::detail {

/// The mesh and directions checked (every error make_sweep_schedule
/// documents but cycles) into cells, faces, directions, neighbours,
/// partners, each face's two normals made exactly opposite, and directions.
SweepTables sweep_geometry(const SweepMesh &mesh, const std::vector<double> &directions,
                           const SweepOptions &options);

/// FNV-1a of the geometry's cells, faces, neighbours, normals and directions.
std::uint64_t sweep_fingerprint(const SweepTables &t);

/// The options that shape a plan, as a plan file records them.
std::string sweep_options_text(const SweepOptions &o);

/// Sets the low byte of flags[c] for every cell c: bit s when slot s is an
/// inflow face of c for direction d (clears the rest).
void sweep_inflow(const SweepTables &t, int d, std::uint16_t *flags);

/// Direction d's unit vector, "(x, y, z)", for messages.
std::string sweep_direction_text(const SweepTables &t, int d);

/// f(d) for every direction, on the host's threads; the first direction's
/// Error (by number) is thrown after all ran.
void for_each_direction(int directions, const std::function<void(int)> &f);

/// Levels, widest level and lagged faces of direction d from its order,
/// offsets and flags (the report's other fields are left as they are).
void sweep_level_report(const SweepTables &t, int d, SweepDirectionReport &r);

} // namespace umesh::detail

#endif
