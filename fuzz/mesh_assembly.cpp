// libFuzzer target: assemble_mesh, where every check of an Exodus II or
// CGNS file's contents lives, fed blocks and sets decoded from the input
// (random files seldom get past the libraries' own parsers, so the file
// targets reach little of it), then check_gmsh and the sides derived from
// the cells, as the Gmsh target does. umesh::Error is the only way out.
#include "../src/mesh_assembly.hpp"

#include "mesh_sides.hpp"

#include <umesh/connectivity.hpp>
#include <umesh/error.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace {

// Small numbers from the input, mostly near the edges of what is valid.
struct Bytes {
  const std::uint8_t *p, *end;
  int byte() { return p < end ? *p++ : 0; }
  long long number() { // -128..127, or a value past 32 bits
    const int b = byte();
    return b == 0x80 ? (1LL << 33) : (long long)(std::int8_t(b));
  }
  double coordinate() {
    const int b = byte();
    if (b == 0x7f)
      return std::numeric_limits<double>::infinity();
    if (b == 0x7e)
      return std::nan("");
    return double(std::int8_t(b)) / 4;
  }
};

const char *const kTypes[] = {"point", "line", "triangle", "quad", "tet", "hex", "wedge", ""};
const int kNodes[] = {1, 2, 3, 4, 4, 8, 6, 20};

umesh::detail::RawMesh decode(Bytes in) {
  umesh::detail::RawMesh r;
  r.faces_from_sets = in.byte() & 1;
  r.format = r.faces_from_sets ? "cgns" : "exodus";
  r.dim = 2 + (in.byte() & 1);
  const int nodes = in.byte() % 40;
  for (int i = 0; i < 3 * nodes; ++i)
    r.coords.push_back(in.coordinate());
  for (int b = in.byte() % 4; b > 0; --b) {
    umesh::detail::RawMesh::Block block;
    const int t = in.byte() % 8;
    block.type = kTypes[t];
    block.file_type = t == 7 ? "HEX20" : kTypes[t];
    block.id = in.number();
    block.first = in.number();
    block.nodes_per_element = (in.byte() & 7) == 0 ? int(in.byte() % 9) : kNodes[t];
    const int count = in.byte() % 8;
    for (int i = 0; i < count * block.nodes_per_element; ++i)
      block.nodes.push_back(in.number());
    if (in.byte() % 4 == 0)
      for (int i = 0; i < count; ++i)
        block.numbers.push_back(in.number());
    r.blocks.push_back(block);
  }
  for (int s = in.byte() % 3; s > 0; --s) {
    umesh::detail::RawMesh::SideSet set{in.number(), "s", {}, {}};
    const int count = in.byte() % 6;
    for (int i = 0; i < count; ++i) {
      set.elements.push_back(in.number());
      if (!r.faces_from_sets || in.byte() % 8 == 0)
        set.sides.push_back(in.number());
    }
    r.side_sets.push_back(set);
  }
  for (int s = in.byte() % 3; s > 0; --s) {
    umesh::detail::RawMesh::NodeSet set{in.number(), "n", {}};
    for (int i = in.byte() % 6; i > 0; --i)
      set.nodes.push_back(in.number());
    r.node_sets.push_back(set);
  }
  return r;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  try {
    const umesh::GmshMesh m = umesh::detail::assemble_mesh(decode({data, data + size}), "fuzz",
                                                           umesh::GmshOptions().checks(false));
    check_and_derive_sides(m, "fuzz");
  } catch (const umesh::Error &) {
  }
  return 0;
}
