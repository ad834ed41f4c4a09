#ifndef UMESH_LULESH_REPORT_HPP
#define UMESH_LULESH_REPORT_HPP

// LULESH's closing report: problem size, cycles, the energy at the origin,
// the symmetry of the energy on plane 0, and the timing figures.

#include <string>
#include <vector>

namespace lulesh {

struct Report {
  int size = 0, cycles = 0;
  double origin_energy = 0, max_abs_diff = 0, total_abs_diff = 0, max_rel_diff = 0;
  double elapsed = 0; ///< seconds of the cycles
  /// Microseconds per element per cycle.
  double grind_us() const { return elapsed * 1e6 / cycles / (double(size) * size * size); }
  /// Elements per second (LULESH's figure of merit).
  double fom() const { return 1000.0 / grind_us(); }
};

/// The report of a run of `cycles` cycles that left element energies `e`
/// (those of plane 0 at least: the first size^2 elements).
Report make_report(int size, int cycles, const std::vector<double> &e, double elapsed);

/// Prints it as LULESH does; `ranks`: the MPI tasks the run used.
void print_report(const Report &r, int ranks = 1);

/// Seconds of one phase of a distributed setup on this rank, wall and CPU.
struct SetupPhase {
  const char *name;
  double seconds, cpu_seconds;
};

/// Distributed runs: "setup per rank (fastest-slowest): mesh ..., ..., device
/// data and plans ..." and the same in CPU seconds (every thread of a rank;
/// no wait for a core), two lines over the ranks (collective). `phases` of
/// the solver's build, whose rest (of `build`) is the device data and plans;
/// a third line gives the partition's `steps` (wall seconds), if any.
std::string setup_per_rank(const SetupPhase &mesh, const std::vector<SetupPhase> &phases,
                           const SetupPhase &build, const std::vector<SetupPhase> &steps = {});

} // namespace lulesh

#endif
