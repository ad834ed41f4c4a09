#ifndef UMESH_PERF_MAIN_CASES_HPP
#define UMESH_PERF_MAIN_CASES_HPP

// The main job's kernels, one source file each (case_<kernel>.cpp), so that
// their instantiations of every executor compile in parallel.

#include "main_mesh.hpp"
#include "main_options.hpp"
#include "main_report.hpp"

#include <string>
#include <vector>

namespace umesh::perf {

// Each runs every executor, layout and reordering asked for on one mesh,
// appending rows and plan metrics.
void run_res_calc(const Options &o, const std::string &label, const EdgeFluxMesh &m, double mesh_s,
                  std::vector<Row> &rows, std::vector<PlanRow> &plan_rows);

void run_face_flux(const Options &o, const std::string &label, const FaceFluxMesh &m, double mesh_s,
                   std::vector<Row> &rows, std::vector<PlanRow> &plan_rows);

void run_getacc(const Options &o, const std::string &label, const QuadNodeMesh &m, double mesh_s,
                std::vector<Row> &rows, std::vector<PlanRow> &plan_rows);

void run_integrate_stress(const Options &o, const std::string &label, const HexNodeMesh &m,
                          double mesh_s, std::vector<Row> &rows, std::vector<PlanRow> &plan_rows);

void run_volna(const Options &o, const std::string &label, const VolnaMesh &m, double mesh_s,
               std::vector<Row> &rows, std::vector<PlanRow> &plan_rows);

} // namespace umesh::perf

#endif
