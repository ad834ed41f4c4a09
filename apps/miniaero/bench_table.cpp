// The benchmark table of umesh_miniaero --bench (bench_table.hpp).
#include "bench_table.hpp"

#include "common/output.hpp"

#include <algorithm>

namespace miniaero {

namespace {

// The face-flux cost of a variant: the cell-flux variant needs its
// apply_cell_flux gather too. (The atomic variant's apply_cell_flux is the
// dt / volume scaling that the umesh solver does in its update loop.)
double flux_cost(const BenchRow &r) {
  return r.face_flux_ms + (r.variant == "miniaero-cellflux" ? r.apply_ms : 0.0);
}

} // namespace

double face_flux_bytes(const Input &in, const Mesh &m) {
  const double nf = m.faces.size(), nc = m.num_cells;
  const bool full = in.second_order || in.viscous;
  const double face = (full ? 12 : 9) * 8.0 + 2 * 4.0;
  const double cell = (full ? 5 + 3 + 15 + 5 : 5) * 8.0 + 2 * 5 * 8.0;
  return nf * face + nc * cell;
}

Ratios ratios(const BenchRow &r, const std::vector<BenchRow> &rows) {
  auto ratio = [](double ref, double x) { return ref > 0 && x > 0 ? ref / x : 0.0; };
  Ratios x;
  for (const auto &ref : rows) {
    if (ref.variant == "miniaero-atomic")
      x.flux_atomic = ratio(flux_cost(ref), flux_cost(r)),
      x.stage_atomic = ratio(ref.stage_ms, r.stage_ms);
    if (ref.variant == "miniaero-cellflux")
      x.flux_cellflux = ratio(flux_cost(ref), flux_cost(r)),
      x.stage_cellflux = ratio(ref.stage_ms, r.stage_ms);
  }
  return x;
}

void write_csv(const std::string &path, const std::vector<BenchRow> &rows, double copy_gbps,
               const umesh::apps::RunLock &held) {
  umesh::apps::ResultFile csv(path, &held); // the whole table again, in place when complete
  csv << "variant,layout,reorder,face_flux_ms,face_flux_gbps,face_flux_pct_copy,"
         "stage_ms,gradient_ms,stencil_minmax_ms,limiter_ms,apply_cell_flux_ms,"
         "face_flux_speedup_vs_miniaero_atomic,face_flux_speedup_vs_miniaero_cellflux,"
         "stage_speedup_vs_miniaero_atomic,stage_speedup_vs_miniaero_cellflux,note\n";
  for (const auto &row : rows) {
    const Ratios x = ratios(row, rows);
    std::string note = row.note;
    std::replace(note.begin(), note.end(), ',', ';');
    std::replace(note.begin(), note.end(), '"', '\'');
    csv << row.variant << ',' << row.layout << ',' << row.reorder << ',' << row.face_flux_ms << ','
        << row.gbps << ',' << 100 * row.gbps / copy_gbps << ',' << row.stage_ms << ','
        << row.gradient_ms << ',' << row.minmax_ms << ',' << row.limiter_ms << ',' << row.apply_ms
        << ',' << x.flux_atomic << ',' << x.flux_cellflux << ',' << x.stage_atomic << ','
        << x.stage_cellflux << ",\"" << note << "\"\n";
  }
  csv.commit();
}

} // namespace miniaero
