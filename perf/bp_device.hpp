#ifndef UMESH_PERF_BP_DEVICE_HPP
#define UMESH_PERF_BP_DEVICE_HPP

// A bake-off mesh on the device (umesh_bp_bench): sets, the element-node
// and element-vertex maps, vertex coordinates, the basis tables; and one
// operator on it: its geometric factors (built on the device by an element
// loop, as libCEED's Build qfunctions do) and its application y = A x as an
// element loop under any plan, in the team form (lanes and scratch) or the
// one-thread-per-element form.

#include "bp_basis.hpp"
#include "bp_kernels.hpp"
#include "bp_mesh.hpp"

#include <umesh/umesh.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace umesh::perf {

using BpSpace = Kokkos::DefaultExecutionSpace;
using BpMem = BpSpace::memory_space;
using NodeDat = Dat<double, 1, AoS, BpMem>;

/// The mesh of order P - 1 on the device.
template <int P> struct BpDevice {
  static constexpr int Q = P + 1, P3 = P * P * P;
  Set elements, nodes, vertices;
  Map<BpMem> element_nodes, element_vertices;
  Dat<double, 3, AoS, BpMem> coords;
  Kokkos::View<double **, BpMem> b, d, gq; // [q][i] twice; [q]: point, weight

  BpDevice(const H1Mesh &m, const BpBasis &basis)
      : elements("elements", m.elements), nodes("nodes", m.dofs), vertices("vertices", m.vertices),
        element_nodes("element_nodes", elements, nodes, P3, m.rows),
        element_vertices("element_vertices", elements, vertices, 8, m.vertex_rows),
        coords(vertices, "coords"), b("b", Q, P), d("d", Q, P), gq("gq", Q, 2) {
    copy_from_host(coords, m.coords);
    auto hb = Kokkos::create_mirror_view(b);
    auto hd = Kokkos::create_mirror_view(d);
    auto hg = Kokkos::create_mirror_view(gq);
    for (int q = 0; q < Q; ++q) {
      hg(q, 0) = basis.qx[q];
      hg(q, 1) = basis.qw[q];
      for (int i = 0; i < P; ++i) {
        hb(q, i) = basis.b[q * P + i];
        hd(q, i) = basis.d[q * P + i];
      }
    }
    Kokkos::deep_copy(b, hb);
    Kokkos::deep_copy(d, hd);
    Kokkos::deep_copy(gq, hg);
  }
};

/// Lanes covering n items, at most 32.
inline int lanes_for(int n) {
  int l = 1;
  while (l < n && l < 32)
    l *= 2;
  return l;
}

/// Operator BP (1 or 3) on mesh `m`: its factors at every element's points.
template <int P, int BP> struct BpOperator {
  static constexpr int Q = P + 1, Q3 = Q * Q * Q, P3 = P * P * P;
  static constexpr int factors = BP == 1 ? Q3 : 6 * Q3; ///< doubles an element
  const BpDevice<P> &m;
  Dat<double, factors, AoS, BpMem> qdata;

  explicit BpOperator(const BpDevice<P> &mesh)
      : m(mesh), qdata(mesh.elements, "qdata_bp" + std::to_string(BP)) {
    auto plan = make_element_plan(BpSpace(), exec::ElementAtomic{}, m.elements);
    element_loop(plan, "bp_qdata", ElementTeams{}.with_elements_per_team(4).with_lanes(32),
                 BuildQData<Q, BP>{}, table(m.gq), read_row<8>(m.coords, m.element_vertices),
                 write(qdata));
  }

  /// Element scratch of the team form, in doubles.
  static constexpr int scratch_doubles() {
    return BP == 1 ? MassApply<P, Q>::scratch_doubles() : DiffusionApply<P, Q>::scratch_doubles();
  }
  /// The team form's teams with `per_team` elements of `lanes` lanes.
  static ElementTeams team_shape(int per_team, int lanes) {
    return ElementTeams{}.with_elements_per_team(per_team).with_lanes(lanes).with_scratch<double>(
        scratch_doubles());
  }

  /// y = A x (y zeroed first, as an operator's application does) under
  /// `plan`, in the team form or one thread per element (`thread`).
  template <class Plan>
  void apply(Plan &plan, const std::string &name, const ElementTeams &teams, bool thread,
             const NodeDat &x, const NodeDat &y) const {
    fill(BpSpace(), y.view(), 0.0);
    const auto u = read_row<P3>(x, m.element_nodes);
    const auto r = inc_row<P3>(y, m.element_nodes);
    if constexpr (BP == 1) {
      if (thread)
        element_loop(plan, name, teams, MassThread<P, Q>{}, table(m.b), read(qdata), u, r);
      else
        element_loop(plan, name, teams, MassApply<P, Q>{}, table(m.b), read(qdata), u, r);
    } else {
      if (thread)
        element_loop(plan, name, teams, DiffusionThread<P, Q>{}, table(m.b), table(m.d),
                     read(qdata), u, r);
      else
        element_loop(plan, name, teams, DiffusionApply<P, Q>{}, table(m.b), table(m.d), read(qdata),
                     u, r);
    }
  }

  /// Bytes an application moves at least: x once, y read and written, the
  /// map and the factors.
  double bytes() const {
    return 24.0 * m.nodes.size() + double(m.elements.size()) * (4.0 * P3 + 8.0 * factors);
  }
};

/// max |a - b| / max |b| over the nodes (infinity where a is NaN).
struct RelDiff {
  NodeDat::view_type a, b;
  KOKKOS_INLINE_FUNCTION void operator()(int i, double &m) const {
    const double x = a(i, 0), y = b(i, 0), e = x > y ? x - y : y - x;
    m = (x == x) ? (e > m ? e : m) : 1e300;
  }
};
struct AbsMax {
  NodeDat::view_type b;
  KOKKOS_INLINE_FUNCTION void operator()(int i, double &m) const {
    const double y = b(i, 0) < 0 ? -b(i, 0) : b(i, 0);
    m = y > m ? y : m;
  }
};
inline double relative_difference(const NodeDat &a, const NodeDat &b) {
  double diff = 0, scale = 0;
  const Kokkos::RangePolicy<BpSpace> all(0, a.size());
  Kokkos::parallel_reduce("umesh_bp_bench::diff", all, RelDiff{a.view(), b.view()},
                          Kokkos::Max<double>(diff));
  Kokkos::parallel_reduce("umesh_bp_bench::scale", all, AbsMax{b.view()},
                          Kokkos::Max<double>(scale));
  return diff / (scale > 0 ? scale : 1);
}

/// A dat's values on the host.
inline std::vector<double> to_host(const NodeDat &d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.view());
  return std::vector<double>(h.data(), h.data() + d.size());
}

} // namespace umesh::perf

#endif
