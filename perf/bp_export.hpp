#ifndef UMESH_PERF_BP_EXPORT_HPP
#define UMESH_PERF_BP_EXPORT_HPP

// A bake-off mesh as a file for a peer's driver (perf/peers/libceed_bp.sh):
// the same elements, numbering, geometry, input vector and the results a
// peer must reproduce. Native byte order:
//   "umeshbp1" | int32 p, elements, nodes, vertices, count | int32 bp[count]
//   | f64 coords[vertices][3] | int32 element_vertices[elements][8]
//   | int32 element_nodes[elements][(p+1)^3] | f64 x[nodes] | f64 y[count][nodes]
// Rows are in tensor order (x fastest; vertices: corner x + 2y + 4z), nodes
// at Gauss-Lobatto points, y = A x with q = p + 2 Gauss points a direction.

#include "bp_mesh.hpp"
#include "common/output.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace umesh::perf {

/// Writes `m`, `x` and the results `y` of problems `bps` into folder `dir`
/// (created if missing) as bp_p<p>_<nodes>.bin, as every result file is
/// written (apps::ResultFile: complete or not at all); returns the path.
inline std::string export_bp_mesh(const std::string &dir, const H1Mesh &m,
                                  const std::vector<double> &x, const std::vector<int> &bps,
                                  const std::vector<std::vector<double>> &y) {
  const std::string path =
      dir + "/bp_p" + std::to_string(m.p) + "_" + std::to_string(m.dofs) + ".bin";
  apps::ResultFile file(path);
  std::ostream &out = file.stream();
  auto ints = [&](const std::vector<int> &v) {
    const std::vector<std::int32_t> w(v.begin(), v.end());
    out.write(reinterpret_cast<const char *>(w.data()), std::streamsize(w.size() * 4));
  };
  auto reals = [&](const std::vector<double> &v) {
    out.write(reinterpret_cast<const char *>(v.data()), std::streamsize(v.size() * 8));
  };
  out.write("umeshbp1", 8);
  ints({m.p, m.elements, m.dofs, m.vertices, int(bps.size())});
  ints(bps);
  reals(m.coords);
  ints(m.vertex_rows);
  ints(m.rows);
  reals(x);
  for (const auto &v : y)
    reals(v);
  file.commit();
  return path;
}

} // namespace umesh::perf

#endif
