#ifndef UMESH_PERF_MAIN_OPTIONS_HPP
#define UMESH_PERF_MAIN_OPTIONS_HPP

// The main job's command line: what to run, how often, where results go.

#include "common/cli.hpp"

#include <umesh/umesh.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

namespace umesh::perf {

std::vector<std::string> available_reorders() {
  std::vector<std::string> out;
  for (Reorder r : {Reorder::none, Reorder::gps, Reorder::rcm, Reorder::metis, Reorder::builtin})
    if (reorder_available(r))
      out.push_back(reorder_name(r));
  return out;
}

struct Options {
  int nx = 600, ny = 300, n3 = 48;
  std::vector<std::string> executors{"serial",      "atomic",       "gather", "colour",
                                     "scatterview", "hierarchical", "auto"};
  std::vector<int> blocks{128, 256};
  std::vector<exec::Staging> stagings{exec::Staging::all, exec::Staging::increments,
                                      exec::Staging::none};
  std::vector<exec::Combine> combines{std::begin(exec::all_combines), std::end(exec::all_combines)};
  std::vector<exec::Writeback> writebacks{exec::Writeback::coloured, exec::Writeback::atomic};
  std::vector<int> blocks_per_team{
      1}; // pipelined variants (reads, /sa/ga, /sg/ga): blocks per team
  std::vector<std::string> numberings{"natural", "shuffled"};
  // Every reordering built in; each moves the mesh and data, then every
  // executor runs on the result.
  std::vector<std::string> reorders = available_reorders();
  int reorder_block = 256; // block size of the metis and builtin renumberings
  std::vector<std::string> layouts{"aos", "soa"};
  std::vector<std::string> kernels{"res_calc", "face_flux", "getacc", "volna", "integrate_stress"};
  std::vector<std::string> kernels_asked; // --kernel as given (empty: those that fit)
  std::string mesh;                       // a Gmsh file instead of generated meshes
  int repeats = 20, warmup = 3;
  std::string out = "umesh-results"; // results folder under the current directory
  std::string csv;                   // default: <out>/results.csv
};

using umesh::perf::split;

[[noreturn]] void usage_error(const std::string &what) {
  std::fprintf(
      stderr,
      "umesh_main: %s\nusage: umesh_main [--size tiny|small|large] [--nx N --ny N] "
      "[--n3 N] [--executor serial,atomic,gather,colour,scatterview,hierarchical,auto] "
      "[--blocks 128,256,...] [--staging all,inc,none,reads] [--combine colours,atomics,gather] "
      "[--writeback coloured,atomic] [--blocks-per-team 1,8,...] "
      "[--numbering natural,shuffled] [--reorder none,gps,rcm,metis,builtin] "
      "[--reorder-block N] "
      "[--layout aos|soa|all] [--kernel res_calc,face_flux,getacc,volna,integrate_stress] "
      "[--repeats N] "
      "[--warmup N] [--out DIR] [--csv FILE] [--kokkos-...]\n",
      what.c_str());
  std::exit(2);
}

int positive(const char *flag, const char *value) {
  return umesh::perf::positive(flag, value, usage_error);
}

Options parse(int argc, char **argv) {
  Options o;
  std::string generated_only; // an option for generated meshes, to refuse with --mesh
  const std::vector<std::string> all_exec{"serial",      "atomic",       "gather", "colour",
                                          "scatterview", "hierarchical", "auto"};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--kokkos", 0) == 0)
      continue; // Kokkos' own, consumed by Kokkos::initialize
    if (i + 1 >= argc)
      usage_error("missing value after " + a);
    const char *v = argv[++i];
    if (a == "--size" || a == "--nx" || a == "--ny" || a == "--n3" || a == "--numbering")
      generated_only = a;
    if (a == "--mesh")
      o.mesh = v;
    else if (a == "--size") {
      const std::string s = v;
      if (s == "tiny")
        o.nx = 60, o.ny = 30, o.n3 = 12;
      else if (s == "small")
        o.nx = 600, o.ny = 300, o.n3 = 48;
      else if (s == "large") // past a 50 MB L2: 5.76M edges, 6.24M faces
        o.nx = 2400, o.ny = 1200, o.n3 = 128;
      else
        usage_error("--size is tiny, small or large, not '" + s + "'");
    } else if (a == "--nx")
      o.nx = positive("--nx", v);
    else if (a == "--ny")
      o.ny = positive("--ny", v);
    else if (a == "--n3")
      o.n3 = positive("--n3", v);
    else if (a == "--repeats")
      o.repeats = positive("--repeats", v);
    else if (a == "--warmup")
      o.warmup = positive("--warmup", v);
    else if (a == "--csv")
      o.csv = v;
    else if (a == "--out")
      o.out = v;
    else if (a == "--executor") {
      o.executors = split(v);
      for (auto &e : o.executors)
        if (std::find(all_exec.begin(), all_exec.end(), e) == all_exec.end())
          usage_error("unknown executor '" + e + "'");
    } else if (a == "--blocks") {
      o.blocks.clear();
      for (auto &b : split(v))
        o.blocks.push_back(positive("--blocks", b.c_str()));
    } else if (a == "--blocks-per-team") {
      o.blocks_per_team.clear();
      for (auto &b : split(v))
        o.blocks_per_team.push_back(positive("--blocks-per-team", b.c_str()));
    } else if (a == "--staging") {
      o.stagings.clear();
      for (auto &st : split(v)) {
        exec::Staging staging;
        if (!exec::staging_from_name(st, staging))
          usage_error("--staging takes all, inc, none, reads; not '" + st + "'");
        o.stagings.push_back(staging);
      }
    } else if (a == "--combine") {
      o.combines.clear();
      for (auto &c : split(v)) {
        exec::Combine combine;
        if (!exec::combine_from_name(c, combine))
          usage_error("--combine takes colours, atomics, gather; not '" + c + "'");
        o.combines.push_back(combine);
      }
    } else if (a == "--writeback") {
      o.writebacks.clear();
      for (auto &w : split(v)) {
        if (w != "coloured" && w != "atomic")
          usage_error("--writeback takes coloured, atomic; not '" + w + "'");
        o.writebacks.push_back(w == "atomic" ? exec::Writeback::atomic : exec::Writeback::coloured);
      }
    } else if (a == "--reorder") {
      o.reorders = split(v);
      for (auto &r : o.reorders) {
        Reorder method;
        try {
          method = parse_reorder(r);
        } catch (const Error &e) {
          usage_error(e.what());
        }
        if (!reorder_available(method))
          usage_error("--reorder " + r + ": umesh was built without " +
                      (method == Reorder::gps ? "Scotch" : "METIS"));
      }
    } else if (a == "--reorder-block")
      o.reorder_block = positive("--reorder-block", v);
    else if (a == "--numbering") {
      o.numberings = split(v);
      for (auto &n : o.numberings)
        if (n != "natural" && n != "shuffled")
          usage_error("--numbering takes natural, shuffled; not '" + n + "'");
    } else if (a == "--layout") {
      const std::string s = v;
      if (s == "all")
        o.layouts = {"aos", "soa"};
      else if (s == "aos" || s == "soa")
        o.layouts = {s};
      else
        usage_error("--layout is aos, soa or all, not '" + s + "'");
    } else if (a == "--kernel") {
      o.kernels = o.kernels_asked = split(v);
      for (auto &k : o.kernels)
        if (k != "res_calc" && k != "face_flux" && k != "getacc" && k != "volna" &&
            k != "integrate_stress")
          usage_error("unknown kernel '" + k +
                      "' (res_calc, face_flux, getacc, volna, integrate_stress)");
    } else
      usage_error("unknown argument '" + a + "'");
  }
  if (!o.mesh.empty() && !generated_only.empty())
    usage_error(generated_only + " is for generated meshes; --mesh " + o.mesh +
                " runs on the file's mesh in its own numbering");
  if (o.csv.empty())
    o.csv = o.out + "/results.csv";
  return o;
}

} // namespace umesh::perf

#endif
