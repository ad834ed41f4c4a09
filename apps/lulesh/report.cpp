#include "report.hpp"

#include "common/ranks.hpp"

#include <cmath>
#include <cstdio>

namespace lulesh {

Report make_report(int size, int cycles, const std::vector<double> &e, double elapsed) {
  Report r;
  r.size = size;
  r.cycles = cycles;
  r.elapsed = elapsed;
  r.origin_energy = e.at(0);
  // Plane 0 is symmetric under swapping its two in-plane directions: compare
  // element (row j, column k) with (row k, column j).
  for (int j = 0; j < size; ++j)
    for (int k = j + 1; k < size; ++k) {
      const double a = e[std::size_t(j) * size + k], b = e[std::size_t(k) * size + j];
      const double diff = std::fabs(a - b);
      r.total_abs_diff += diff;
      if (r.max_abs_diff < diff)
        r.max_abs_diff = diff;
      const double rel = diff / b;
      if (r.max_rel_diff < rel)
        r.max_rel_diff = rel;
    }
  return r;
}

void print_report(const Report &r, int ranks) {
  std::printf("Run completed:\n");
  std::printf("   Problem size        =  %d\n", r.size);
  std::printf("   MPI tasks           =  %d\n", ranks);
  std::printf("   Iteration count     =  %d\n", r.cycles);
  std::printf("   Final Origin Energy =  %12.6e\n", r.origin_energy);
  std::printf("   Testing Plane 0 of Energy Array on rank 0:\n");
  std::printf("        MaxAbsDiff   = %12.6e\n", r.max_abs_diff);
  std::printf("        TotalAbsDiff = %12.6e\n", r.total_abs_diff);
  std::printf("        MaxRelDiff   = %12.6e\n", r.max_rel_diff);
  std::printf("\nElapsed time         = %10.2g (s)\n", r.elapsed);
  std::printf("Grind time (us/z/c)  = %10.8g (per dom)  (%10.8g overall)\n", r.grind_us(),
              r.elapsed);
  std::printf("FOM                  = %10.8g (z/s)\n\n", r.fom());
}

std::string setup_per_rank(const SetupPhase &mesh, const std::vector<SetupPhase> &phases,
                           const SetupPhase &build, const std::vector<SetupPhase> &steps) {
  using umesh::apps::seconds_over_ranks;
  std::string wall = "mesh " + seconds_over_ranks(mesh.seconds),
              cpu = "mesh " + seconds_over_ranks(mesh.cpu_seconds);
  double rest = build.seconds, rest_cpu = build.cpu_seconds;
  for (const SetupPhase &p : phases) {
    wall += std::string(", ") + p.name + " " + seconds_over_ranks(p.seconds);
    cpu += std::string(", ") + p.name + " " + seconds_over_ranks(p.cpu_seconds);
    rest -= p.seconds;
    rest_cpu -= p.cpu_seconds;
  }
  wall += ", device data and plans " + seconds_over_ranks(rest);
  cpu += ", device data and plans " + seconds_over_ranks(rest_cpu);
  std::string by_step;
  for (const SetupPhase &p : steps)
    by_step +=
        std::string(by_step.empty() ? "" : ", ") + p.name + " " + seconds_over_ranks(p.seconds);
  return "setup per rank (fastest-slowest): " + wall +
         "\nsetup CPU per rank (fastest-slowest): " + cpu +
         (by_step.empty() ? "" : "\npartition steps per rank (fastest-slowest): " + by_step);
}

} // namespace lulesh
