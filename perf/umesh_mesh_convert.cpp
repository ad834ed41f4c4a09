// umesh_mesh_convert: a mesh file written in another format. It is read and
// checked as umesh_main --mesh reads it (Gmsh .msh, Exodus II .exo/.e/.g,
// CGNS .cgns), then written as Exodus II or CGNS, by the output's name,
// whole or not at all (umesh/mesh_file.hpp says how blocks, tags and sets
// map between the formats).
//
//   umesh_mesh_convert IN OUT
#include "common/cli.hpp"
#include "common/output.hpp"
#include "common/run_main.hpp"

#include <umesh/mesh_file.hpp>

#include <cstdio>
#include <string>

namespace {

struct Options {
  std::string in, out;
  bool skip_checks = false;
};

Options parse(int argc, char **argv) {
  Options o;
  CLI::App app("umesh_mesh_convert: writes a mesh file (Gmsh, Exodus II or CGNS) as Exodus II "
               "or CGNS, checked as umesh_main --mesh reads it",
               "umesh_mesh_convert");
  umesh::apps::add_version(app);
  app.add_option("in", o.in, "the mesh file: .msh, .exo (.e, .g, .ex2, .gen) or .cgns")
      ->required()
      ->check(umesh::apps::input_file());
  app.add_option("out", o.out, "the file to write: .exo (.e, .g, .ex2, .gen) or .cgns")
      ->required()
      ->check(umesh::apps::output_file());
  app.add_flag("--skip-mesh-checks", o.skip_checks,
               "trust the input: skip the checks of its cells (as umesh_main's flag)");
  umesh::apps::parse_or_exit(app, argc, argv);
  return o;
}

} // namespace

int main(int argc, char **argv) {
  const Options o = parse(argc, argv);
  return umesh::apps::run_main("umesh_mesh_convert", [&] {
    if (const std::string why = umesh::apps::clashing_files({{"out", o.out}}, {{"in", o.in}});
        !why.empty())
      throw umesh::Error(why);
    const umesh::MeshFormat to = umesh::mesh_format_of(o.out);
    if (to == umesh::MeshFormat::gmsh)
      throw umesh::Error("umesh_mesh_convert: out '" + o.out +
                         "': umesh writes Exodus II (.exo) and CGNS (.cgns), not Gmsh");
    if (const std::string why = umesh::mesh_format_missing(to); !why.empty())
      throw umesh::Error("umesh_mesh_convert: out '" + o.out + "': " + why);
    const umesh::GmshMesh m =
        umesh::read_mesh_file(o.in, umesh::GmshOptions().checks(!o.skip_checks));
    if (to == umesh::MeshFormat::exodus)
      umesh::write_exodus_mesh(o.out, m);
    else
      umesh::write_cgns_mesh(o.out, m);
    std::size_t elements = 0;
    for (const auto &b : m.blocks)
      elements += b.physical.size();
    std::printf("umesh_mesh_convert: %s (%s, %d nodes, %zu elements in %zu blocks) -> %s\n",
                o.in.c_str(), m.format.c_str(), m.nodes.size(), elements, m.blocks.size(),
                umesh::apps::absolute_path(o.out).c_str());
    return umesh::apps::exit_ok;
  });
}
