// miniAero's result fields: see fields.hpp.
#include "fields.hpp"
#include "physics.hpp"

#include <unordered_map>

namespace miniaero {

umesh::OutputGrid cell_grid(const Input &in, const std::vector<int> &cells) {
  static const int offset[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                   {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  umesh::OutputGrid g;
  g.cell_type = "hex";
  g.cells.reserve(cells.size() * 8);
  std::unordered_map<long long, int> point_of; // global node -> point
  for (int c : cells) {
    const int k = c % in.nz, j = (c / in.nz) % in.ny, i = c / (in.nz * in.ny);
    for (const auto &o : offset) {
      const int ni = i + o[0], nj = j + o[1], nk = k + o[2];
      const long long node = ((long long)(ni) * (in.ny + 1) + nj) * (in.nz + 1) + nk;
      const auto [it, fresh] = point_of.emplace(node, int(point_of.size()));
      if (fresh) {
        const auto x = mesh_node(in, ni, nj, nk);
        g.points.insert(g.points.end(), x.begin(), x.end());
      }
      g.cells.push_back(it->second);
    }
  }
  return g;
}

umesh::OutputStep cell_fields(const std::vector<double> &u) {
  const std::size_t n = u.size() / 5;
  umesh::OutputStep s;
  s.cell_fields = {{"density", 1, std::vector<double>(n)},
                   {"velocity", 3, std::vector<double>(3 * n)},
                   {"pressure", 1, std::vector<double>(n)},
                   {"energy", 1, std::vector<double>(n)}};
  for (std::size_t c = 0; c < n; ++c) {
    double V[5];
    to_primitive(&u[5 * c], V);
    s.cell_fields[0].values[c] = V[0];
    for (int d = 0; d < 3; ++d)
      s.cell_fields[1].values[3 * c + std::size_t(d)] = V[1 + d];
    s.cell_fields[2].values[c] = pressure(V);
    s.cell_fields[3].values[c] = u[5 * c + 4];
  }
  return s;
}

void FieldOutput::after_step(int step, const SolverBase &solver) {
  if (!options_.due(step, in_.steps))
    return;
  const auto [cells, u] = solver.own_solution();
  if (!grid_)
    grid_ = cell_grid(in_, cells);
  writer_.write(step, step * in_.dt, *grid_, cell_fields(u));
}

} // namespace miniaero
