// What perf/peers/tycho2.sh needs beside Tycho2 itself, written here from
// the file formats Tycho2 documents in its headers (ParallelMesh.hh,
// PsiData.cc), not from its code:
//
//   umesh_tycho2_tools mesh IN.msh OUT.pmesh
//     the tets of a Gmsh file as Tycho2's parallel mesh (format 2, one
//     partition): cells with their four faces and nodes, faces with their
//     cells (or none past the boundary), nodes with their coordinates;
//     global ids are umesh's numbers, so results compare cell by cell.
//   umesh_tycho2_tools compare IN.msh TYCHO.psi UMESH.phi [SN] [SIDE]
//     Tycho2's angular flux (4 vertex values per cell, angle and group)
//     made cell-average scalar fluxes with its product quadrature of order
//     SN (default 8), against umesh_sweep_bench's --flux-out file: their
//     relative L1, L2 and largest differences, and each against the
//     manufactured solution 4 pi (1 - r / R) at the centroids (R = 0.3
//     SIDE, SIDE 100 by default).
#include "../sweep_quadrature.hpp"
#include "common/run_main.hpp"

#include <umesh/gmsh.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace umesh;

constexpr std::uint64_t invalid = UINT64_MAX;

GmshMesh::Block tets_of(const GmshMesh &g) {
  return elements_once(g.block("tet"), g.format_version);
}

void write_pmesh(const std::string &in, const std::string &out) {
  const GmshMesh g = read_gmsh(in);
  const GmshMesh::Block t = tets_of(g);
  const std::uint64_t nc = std::uint64_t(t.set.size());
  // Faces by their sorted nodes: cells and nodes in the order first seen.
  std::map<std::array<int, 3>, std::uint64_t> index;
  std::vector<std::array<std::uint64_t, 5>> faces; // cell 0, cell 1, nodes
  std::vector<std::uint64_t> cells(nc * 10);
  for (std::uint64_t c = 0; c < nc; ++c) {
    const int *v = &t.nodes[c * 4];
    for (int i = 0; i < 4; ++i) { // face i: the one without node i
      std::array<int, 3> key;
      for (int j = 0, k = 0; j < 4; ++j)
        if (j != i)
          key[k++] = v[j];
      std::array<int, 3> sorted = key;
      std::sort(sorted.begin(), sorted.end());
      auto [it, fresh] = index.emplace(sorted, faces.size());
      if (fresh)
        faces.push_back(
            {c, invalid, std::uint64_t(key[0]), std::uint64_t(key[1]), std::uint64_t(key[2])});
      else if (faces[it->second][1] == invalid)
        faces[it->second][1] = c;
      else
        fail("'", in, "': a face of tet ", c, " belongs to three tets");
      cells[c * 10 + i] = it->second;
      cells[c * 10 + 4 + i] = std::uint64_t(v[i]);
    }
    cells[c * 10 + 8] = c; // global id
    cells[c * 10 + 9] = 0; // material
  }
  const std::uint64_t nf = faces.size(), nn = std::uint64_t(g.nodes.size());
  std::vector<std::uint64_t> words{2, 1}; // version, partitions
  const std::uint64_t start = 32 + 8 * 4;
  words.push_back(start);
  words.push_back(start + 8 * (3 + 10 * nc + 9 * nf + 4 * nn));
  words.insert(words.end(), {nc, nf, nn});
  words.insert(words.end(), cells.begin(), cells.end());
  for (std::uint64_t f = 0; f < nf; ++f) {
    const bool boundary = faces[f][1] == invalid;
    words.insert(words.end(), {faces[f][0], faces[f][1], faces[f][2], faces[f][3], faces[f][4], f,
                               0, boundary ? invalid : 0, boundary ? 0u : 2u});
  }
  for (std::uint64_t n = 0; n < nn; ++n) {
    for (int k = 0; k < 3; ++k) {
      std::uint64_t bits;
      std::memcpy(&bits, &g.coords[n * 3 + k], 8);
      words.push_back(bits);
    }
    words.push_back(n);
  }
  char name[32] = "Tycho 2 Parallel Mesh";
  std::ofstream o(out, std::ios::binary);
  o.write(name, 32);
  o.write(reinterpret_cast<const char *>(words.data()), std::streamsize(words.size() * 8));
  if (!o)
    fail("cannot write '", out, "'");
  std::printf("%s: %llu tets, %llu faces, %llu nodes\n", out.c_str(), (unsigned long long)nc,
              (unsigned long long)nf, (unsigned long long)nn);
}

std::vector<double> read_doubles(std::ifstream &in, std::size_t n, const std::string &what) {
  std::vector<double> v(n);
  in.read(reinterpret_cast<char *>(v.data()), std::streamsize(n * 8));
  if (!in)
    fail("'", what, "' is truncated");
  return v;
}

int compare(const std::string &msh, const std::string &psi_file, const std::string &phi_file,
            int sn, double side) {
  const GmshMesh g = read_gmsh(msh);
  const GmshMesh::Block t = tets_of(g);
  const std::size_t nc = std::size_t(t.set.size());
  std::ifstream tp(psi_file, std::ios::binary);
  if (!tp)
    fail("cannot read '", psi_file, "'");
  const std::vector<double> head = read_doubles(tp, 8, psi_file);
  std::uint64_t cells, angles, groups;
  std::memcpy(&cells, &head[5], 8);
  std::memcpy(&angles, &head[6], 8);
  std::memcpy(&groups, &head[7], 8);
  const perf::Quadrature q = perf::product_set(sn);
  if (cells != nc || angles != std::uint64_t(q.size()))
    fail("'", psi_file, "' holds ", cells, " cells and ", angles, " angles; the mesh has ", nc,
         " tets and the product set of order ", sn, " ", q.size(), " directions");
  std::ifstream up(phi_file, std::ios::binary);
  std::string tag;
  std::size_t ucells = 0, ugroups = 0;
  up >> tag >> tag >> tag >> ucells >> ugroups;
  up.get();
  if (!up || ucells != nc)
    fail("'", phi_file, "' is no umesh flux of ", nc, " cells");
  const std::vector<double> mine = read_doubles(up, nc * ugroups, phi_file);
  const double centre = side / 2, radius = 0.3 * side;
  double l1 = 0, n1 = 0, l2 = 0, n2 = 0, worst = 0, scale = 0, e_t = 0, e_u = 0, n_x = 0;
  for (std::size_t c = 0; c < nc; ++c) {
    const std::vector<double> cell = read_doubles(tp, angles * 4 * groups, psi_file);
    double theirs = 0; // group 0: sum over angles of w_a * the vertices' mean
    for (std::uint64_t a = 0; a < angles; ++a)
      for (int v = 0; v < 4; ++v)
        theirs += q.weights[a] * 0.25 * cell[(a * 4 + v) * groups];
    const double ours = mine[c * ugroups];
    double x[3] = {0, 0, 0};
    for (int v = 0; v < 4; ++v)
      for (int k = 0; k < 3; ++k)
        x[k] += 0.25 * g.coords[std::size_t(t.nodes[c * 4 + v]) * 3 + k];
    const double r =
        std::sqrt((x[0] - centre) * (x[0] - centre) + (x[1] - centre) * (x[1] - centre) +
                  (x[2] - centre) * (x[2] - centre));
    const double exact = r <= radius ? 4 * M_PI * (1 - r / radius) : 0;
    l1 += std::abs(ours - theirs), n1 += std::abs(theirs);
    l2 += (ours - theirs) * (ours - theirs), n2 += theirs * theirs;
    worst = std::max(worst, std::abs(ours - theirs)), scale = std::max(scale, std::abs(theirs));
    e_t += (theirs - exact) * (theirs - exact), e_u += (ours - exact) * (ours - exact);
    n_x += exact * exact;
  }
  std::printf("scalar flux, group 0, %zu cells: umesh vs Tycho2 relative L1 %.4g, L2 %.4g, "
              "largest %.4g; against the manufactured solution: Tycho2 %.4g, umesh %.4g (L2)\n",
              nc, l1 / n1, std::sqrt(l2 / n2), worst / scale, std::sqrt(e_t / n_x),
              std::sqrt(e_u / n_x));
  return 0;
}

int run(int argc, char **argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  if (what == "mesh" && argc == 4) {
    write_pmesh(argv[2], argv[3]);
    return 0;
  }
  if (what == "compare" && argc >= 5 && argc <= 7)
    return compare(argv[2], argv[3], argv[4], argc > 5 ? std::stoi(argv[5]) : 8,
                   argc > 6 ? std::stod(argv[6]) : 100.0);
  fail("usage: umesh_tycho2_tools mesh IN.msh OUT.pmesh | compare IN.msh TYCHO.psi UMESH.phi "
       "[SN] [SIDE]");
}

} // namespace

int main(int argc, char **argv) {
  return umesh::apps::run_main("umesh_tycho2_tools", [&] { return run(argc, argv); });
}
