#ifndef UMESH_TEST_EXECUTOR_SUITE_HPP
#define UMESH_TEST_EXECUTOR_SUITE_HPP

// The executor suite: every test runs one executor against the serial
// reference on the same random inputs, on every enabled execution space and
// both layouts. Each test_executors*.cpp instantiates it for a few executors
// (their instantiations compile in parallel): adding an executor is one such
// file. test_executors_auto.cpp is a program of its own, the others make up
// test_executors.
#include "executor_suite_kernels.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <vector>

namespace umesh::test {

template <class S, class E, class L> struct Config {
  using space = S;
  using exec = E;
  using layout = L;
  using mem = typename S::memory_space;
};

/// Every enabled execution space and both layouts for each executor E...,
/// for INSTANTIATE_TYPED_TEST_SUITE_P(Name, Executors, ExecutorConfigs<E...>).
template <class S, class... E> using ConfigsFor = List<Config<S, E, AoS>..., Config<S, E, SoA>...>;
template <class Spaces, class... E> struct Expand;
template <class... S, class... E> struct Expand<List<S...>, E...> {
  using type = typename test::Cat<ConfigsFor<S, E...>..., List<>>::type;
};
template <class... E>
using ExecutorConfigs = typename test::ToTypes<typename Expand<test::Spaces, E...>::type>::type;
/// The same in one layout L only: an executor whose instantiations are heavy
/// splits its configurations over two files that compile in parallel.
template <class L, class S, class... E> using ConfigsIn = List<Config<S, E, L>...>;
template <class L, class Spaces, class... E> struct ExpandIn;
template <class L, class... S, class... E> struct ExpandIn<L, List<S...>, E...> {
  using type = typename test::Cat<ConfigsIn<L, S, E...>..., List<>>::type;
};
template <class L, class... E>
using LayoutConfigs = typename test::ToTypes<typename ExpandIn<L, test::Spaces, E...>::type>::type;

template <class C> class Executors : public ::testing::Test {
protected:
  using Space = typename C::space;
  using Mem = typename C::mem;
  using L = typename C::layout;
  template <int D> using DatT = Dat<double, D, L, Mem>;

  // Hierarchical with small blocks, so that even these meshes have many
  // blocks and block colours.
  template <class E, class... Maps> auto plan(const Set &set, const Maps &...maps) {
    if constexpr (std::is_same<E, exec::Hierarchical>::value)
      return make_plan(Space(), exec::Hierarchical{}.with_block_size(64), set, maps...);
    // Two segments: blocks of shuffled meshes leave most points to global
    // atomics, so both paths run.
    else if constexpr (std::is_same<E, exec::Segmented>::value)
      return make_plan(Space(), exec::Segmented{}.with_block_size(64).with_max_segments(2), set,
                       maps...);
    else if constexpr (std::is_same<E, exec::WarpCombine>::value)
      return make_plan(Space(), exec::WarpCombine{}.with_block_size(64), set, maps...);
    else if constexpr (std::is_same<E, exec::Auto>::value) // the tuned loop's result is checked
      return make_plan(Space(), exec::Auto{}.with_block_sizes({64}).with_trials(1), set, maps...);
    else
      return make_plan(Space(), E{}, set, maps...);
  }
};
TYPED_TEST_SUITE_P(Executors);

TYPED_TEST_P(Executors, EdgeKernelMatchesSerialOnShuffledQuadMesh) {
  using Mem = typename TestFixture::Mem;
  using E = typename TypeParam::exec;
  const QuadMesh m = make_quad_mesh(37, 23, {true, 7});
  Map<Mem> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  typename TestFixture::template DatT<1> w(m.edges, "w"), adt(m.cells, "adt");
  typename TestFixture::template DatT<2> x(m.nodes, "x");
  typename TestFixture::template DatT<4> q(m.cells, "q"), res(m.cells, "res"), ref(m.cells, "ref");
  test::randomise(w, 1);
  test::randomise(adt, 2, 0.1, 2);
  test::randomise(x, 3);
  test::randomise(q, 4);
  test::randomise(res, 5); // increments land on random values, never zeros
  copy_values(ref, res);

  auto run = [&](auto &plan, auto &out, Global<double, 2> &sum, Global<double> &mn,
                 Global<double> &mx) {
    par_loop(plan, "edge", EdgeKernel{}, read(w), read(x, pedge, 0), read(x, pedge, 1),
             read(q, pecell, 0), read(q, pecell, 1), read(adt, pecell, 0), read(adt, pecell, 1),
             inc(out, pecell, 0), inc(out, pecell, 1), reduce_sum(sum), reduce_min(mn),
             reduce_max(mx));
  };
  Global<double, 2> sum_ref("sum", 1.5), sum("sum", 1.5);
  Global<double> mn_ref("min", 0.25), mn("min", 0.25), mx_ref("max", -1.0), mx("max", -1.0);
  auto serial = this->template plan<exec::Serial>(m.edges);
  run(serial, ref, sum_ref, mn_ref, mx_ref);
  auto p = this->template plan<E>(m.edges, pecell);
  run(p, res, sum, mn, mx);
  EXPECT_LT(test::max_rel_err(res, ref), 1e-12);
  for (int k = 0; k < 2; ++k)
    EXPECT_NEAR(sum[k], sum_ref[k], 1e-10 * std::fabs(sum_ref[k]));
  EXPECT_EQ(mn.value(), mn_ref.value());
  EXPECT_EQ(mx.value(), mx_ref.value());
  EXPECT_LT(mn.value(), 0.25); // the loop did reach the globals
  EXPECT_GT(mx.value(), 0.0);

  // A second run through the same plan (cached workspaces) adds again.
  run(p, res, sum, mn, mx);
  run(serial, ref, sum_ref, mn_ref, mx_ref);
  EXPECT_LT(test::max_rel_err(res, ref), 1e-12);
}

// Every available reordering: maps and dats moved into the new numbering,
// the executor runs there, results mapped back must equal the serial run in
// the original numbering. Hierarchical runs on the renumbering's blocks.
TYPED_TEST_P(Executors, EdgeKernelUnderEveryReorderingMatchesSerial) {
  using Mem = typename TestFixture::Mem;
  using E = typename TypeParam::exec;
  const QuadMesh m = make_quad_mesh(31, 19, {true, 17});
  Map<Mem> pedge("pedge", m.edges, m.nodes, 2, m.edge_nodes);
  Map<Mem> pecell("pecell", m.edges, m.cells, 2, m.edge_cells);
  typename TestFixture::template DatT<1> w(m.edges, "w"), adt(m.cells, "adt");
  typename TestFixture::template DatT<2> x(m.nodes, "x");
  typename TestFixture::template DatT<4> q(m.cells, "q"), res0(m.cells, "res0"),
      ref(m.cells, "ref");
  test::randomise(w, 61);
  test::randomise(adt, 62, 0.1, 2);
  test::randomise(x, 63);
  test::randomise(q, 64);
  test::randomise(res0, 65);
  copy_values(ref, res0);
  Global<double, 2> sum_ref("sum", 0.5);
  Global<double> mn_ref("min", 0.25), mx_ref("max", -1.0);
  auto serial = this->template plan<exec::Serial>(m.edges);
  par_loop(serial, "edge", EdgeKernel{}, read(w), read(x, pedge, 0), read(x, pedge, 1),
           read(q, pecell, 0), read(q, pecell, 1), read(adt, pecell, 0), read(adt, pecell, 1),
           inc(ref, pecell, 0), inc(ref, pecell, 1), reduce_sum(sum_ref), reduce_min(mn_ref),
           reduce_max(mx_ref));
  for (Reorder method :
       {Reorder::none, Reorder::gps, Reorder::rcm, Reorder::metis, Reorder::builtin}) {
    SCOPED_TRACE(reorder_name(method));
    if (!reorder_available(method))
      continue;
    const Renumbering r = reorder(ReorderOptions{}.with_method(method).with_block_size(48), m.edges,
                                  pecell, read_only(pedge));
    const auto pe = r.apply(pedge);
    const auto pc = r.apply(pecell);
    const auto w2 = r.apply(w);
    const auto adt2 = r.apply(adt);
    const auto x2 = r.apply(x);
    const auto q2 = r.apply(q);
    auto res2 = r.apply(res0);
    if (method != Reorder::none) {
      EXPECT_NE(pc.from(), m.edges);
    }
    Global<double, 2> sum("sum", 0.5);
    Global<double> mn("min", 0.25), mx("max", -1.0);
    auto run = [&](auto &plan) {
      par_loop(plan, "edge", EdgeKernel{}, read(w2), read(x2, pe, 0), read(x2, pe, 1),
               read(q2, pc, 0), read(q2, pc, 1), read(adt2, pc, 0), read(adt2, pc, 1),
               inc(res2, pc, 0), inc(res2, pc, 1), reduce_sum(sum), reduce_min(mn), reduce_max(mx));
    };
    if constexpr (std::is_same<E, exec::Hierarchical>::value) {
      auto options = exec::Hierarchical{}.with_block_size(48);
      if (r.blocks())
        options.with_blocks(r.blocks());
      auto plan = make_plan(typename TestFixture::Space(), options, pc.from(), pc, read_only(pe));
      // Block renumberings put elements in the order the plan runs them.
      EXPECT_EQ(plan.elements_in_block_order(), r.blocks() != nullptr);
      run(plan);
    } else {
      auto plan = this->template plan<E>(pc.from(), pc);
      run(plan);
    }
    EXPECT_LT(test::max_rel_err(r.to_original(res2), ref), 1e-12);
    for (int k = 0; k < 2; ++k)
      EXPECT_NEAR(sum[k], sum_ref[k], 1e-10 * std::fabs(sum_ref[k]));
    EXPECT_EQ(mn.value(), mn_ref.value());
    EXPECT_EQ(mx.value(), mx_ref.value());
  }
}

TYPED_TEST_P(Executors, RandomArity4MapWithRepeatedSlotsAndDirectArgs) {
  using Mem = typename TestFixture::Mem;
  using E = typename TypeParam::exec;
  Set elems("elems", 3001), pts("pts", 97);
  Map<Mem> map("random4", elems, pts, 4, make_random_connectivity(elems, pts, 4, 99));
  typename TestFixture::template DatT<2> d(elems, "d"), d_ref(elems, "d_ref");
  typename TestFixture::template DatT<1> w(elems, "w"), w_ref(elems, "w_ref"), di(elems, "di"),
      di_ref(elems, "di_ref"), b(pts, "b"), b_ref(pts, "b_ref");
  typename TestFixture::template DatT<3> p(pts, "p"), a(pts, "a"), a_ref(pts, "a_ref");
  test::randomise(d, 21);
  copy_values(d_ref, d);
  test::poison(w); // written: every element must be
  test::poison(w_ref);
  test::randomise(di, 22);
  copy_values(di_ref, di);
  test::randomise(p, 23);
  test::randomise(a, 24);
  copy_values(a_ref, a);
  test::randomise(b, 25);
  copy_values(b_ref, b);
  auto serial = this->template plan<exec::Serial>(elems);
  par_loop(serial, "scatter", ScatterKernel{}, rw(d_ref), write(w_ref), inc(di_ref),
           read(p, map, 0), read(p, map, 3), inc(a_ref, map, 0), inc(a_ref, map, 1),
           inc(a_ref, map, 2), inc(a_ref, map, 3), inc(b_ref, map, 2), inc(b_ref, map, 2));
  auto plan = this->template plan<E>(elems, map);
  par_loop(plan, "scatter", ScatterKernel{}, rw(d), write(w), inc(di), read(p, map, 0),
           read(p, map, 3), inc(a, map, 0), inc(a, map, 1), inc(a, map, 2), inc(a, map, 3),
           inc(b, map, 2), inc(b, map, 2));
  EXPECT_LT(test::max_rel_err(a, a_ref), 1e-11);
  EXPECT_LT(test::max_rel_err(b, b_ref), 1e-11);
  EXPECT_LT(test::max_rel_err(d, d_ref), 1e-14);
  EXPECT_LT(test::max_rel_err(w, w_ref), 1e-14);
  EXPECT_LT(test::max_rel_err(di, di_ref), 1e-14);
}

TYPED_TEST_P(Executors, FaceKernelMatchesSerialOnShuffledHexMesh) {
  using Mem = typename TestFixture::Mem;
  using E = typename TypeParam::exec;
  const HexMesh m = make_hex_mesh(9, 7, 5, {true, 5});
  Map<Mem> fc("face_cells", m.faces, m.cells, 2, m.face_cells);
  typename TestFixture::template DatT<3> nrm(m.faces, "n");
  typename TestFixture::template DatT<5> u(m.cells, "u"), f(m.cells, "f"), f_ref(m.cells, "f_ref");
  test::randomise(nrm, 31);
  test::randomise(u, 32);
  test::randomise(f, 33);
  copy_values(f_ref, f);
  auto serial = this->template plan<exec::Serial>(m.faces);
  par_loop(serial, "face", FaceKernel{}, read(nrm), read(u, fc, 0), read(u, fc, 1),
           inc(f_ref, fc, 0), inc(f_ref, fc, 1));
  auto plan = this->template plan<E>(m.faces, fc);
  par_loop(plan, "face", FaceKernel{}, read(nrm), read(u, fc, 0), read(u, fc, 1), inc(f, fc, 0),
           inc(f, fc, 1));
  EXPECT_LT(test::max_rel_err(f, f_ref), 1e-12);
}

// Points whose value the loop changed (min and max must not be no-ops).
template <class A, class B> int changed_points(const A &after, const B &before) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), after.view());
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), before.view());
  int n = 0;
  for (std::size_t i = 0; i < std::size_t(after.size()); ++i) {
    bool c = false;
    for (std::size_t k = 0; k < ha.extent(1); ++k)
      c = c || ha(i, k) != hb(i, k);
    n += c;
  }
  return n;
}

TYPED_TEST_P(Executors, MinMaxThroughFacesMatchSerialExactly) {
  using Mem = typename TestFixture::Mem;
  using E = typename TypeParam::exec;
  const HexMesh m = make_hex_mesh(9, 7, 5, {true, 15});
  Map<Mem> fc("face_cells", m.faces, m.cells, 2, m.face_cells);
  typename TestFixture::template DatT<5> u(m.cells, "u"), lo(m.cells, "lo"), hi(m.cells, "hi"),
      f(m.cells, "f"), lo0(m.cells, "lo0"), hi0(m.cells, "hi0"), lo_ref(m.cells, "lo_ref"),
      hi_ref(m.cells, "hi_ref"), f_ref(m.cells, "f_ref");
  test::randomise(u, 71);
  // Start points at random values (not the identity): the result is the
  // min/max of the start value and every face's contribution.
  test::randomise(lo0, 72, -0.5, 1.5);
  test::randomise(hi0, 73, -1.5, 0.5);
  test::randomise(f, 74);
  for (auto *d : {&lo, &lo_ref})
    copy_values(*d, lo0);
  for (auto *d : {&hi, &hi_ref})
    copy_values(*d, hi0);
  copy_values(f_ref, f);
  auto serial = this->template plan<exec::Serial>(m.faces);
  par_loop(serial, "minmax", StencilMinMaxKernel{}, read(u, fc, 0), read(u, fc, 1),
           min(lo_ref, fc, 0), min(lo_ref, fc, 1), max(hi_ref, fc, 0), max(hi_ref, fc, 1),
           inc(f_ref, fc, 0), inc(f_ref, fc, 1));
  // With random start values in [-0.5, 1.5) most cells take a neighbour's
  // value: the loop is not a no-op.
  EXPECT_GT(changed_points(lo_ref, lo0), m.cells.size() / 2);
  EXPECT_GT(changed_points(hi_ref, hi0), m.cells.size() / 2);
  auto plan = this->template plan<E>(m.faces, fc);
  // min and max are idempotent: a second run (cached workspaces) changes
  // nothing.
  for (int run = 0; run < 2; ++run) {
    par_loop(plan, "minmax", StencilMinMaxKernel{}, read(u, fc, 0), read(u, fc, 1), min(lo, fc, 0),
             min(lo, fc, 1), max(hi, fc, 0), max(hi, fc, 1), inc(f, fc, 0), inc(f, fc, 1));
    EXPECT_EQ(test::max_rel_err(lo, lo_ref), 0.0) << "run " << run;
    EXPECT_EQ(test::max_rel_err(hi, hi_ref), 0.0) << "run " << run;
    if (run == 0) {
      EXPECT_LT(test::max_rel_err(f, f_ref), 1e-12);
    }
  }
}

TYPED_TEST_P(Executors, MinMaxRandomArity4MapWithRepeatedSlot) {
  using Mem = typename TestFixture::Mem;
  using E = typename TypeParam::exec;
  Set elems("elems", 3001), pts("pts", 97);
  Map<Mem> map("random4", elems, pts, 4, make_random_connectivity(elems, pts, 4, 77));
  typename TestFixture::template DatT<3> d(elems, "d"), lo(pts, "lo"), hi(pts, "hi"),
      lo0(pts, "lo0"), hi0(pts, "hi0"), lo_ref(pts, "lo_ref"), hi_ref(pts, "hi_ref");
  test::randomise(d, 81);
  test::randomise(lo0, 82, 0.0, 3.0);
  test::randomise(hi0, 83, -3.0, 0.0);
  copy_values(lo, lo0);
  copy_values(lo_ref, lo0);
  copy_values(hi, hi0);
  copy_values(hi_ref, hi0);
  auto serial = this->template plan<exec::Serial>(elems);
  par_loop(serial, "mm4", Arity4MinMaxKernel{}, read(d), min(lo_ref, map, 0), min(lo_ref, map, 0),
           max(hi_ref, map, 1), max(hi_ref, map, 2), max(hi_ref, map, 3));
  auto plan = this->template plan<E>(elems, map);
  par_loop(plan, "mm4", Arity4MinMaxKernel{}, read(d), min(lo, map, 0), min(lo, map, 0),
           max(hi, map, 1), max(hi, map, 2), max(hi, map, 3));
  EXPECT_EQ(test::max_rel_err(lo, lo_ref), 0.0);
  EXPECT_EQ(test::max_rel_err(hi, hi_ref), 0.0);
  // The reference really moved most points away from their start values.
  EXPECT_GT(changed_points(lo_ref, lo0), 90);
  EXPECT_GT(changed_points(hi_ref, hi0), 90);
  // ... and it is the plain min/max (checked without umesh).
  const std::vector<int> conn = make_random_connectivity(elems, pts, 4, 77);
  auto hd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.view());
  auto hlo = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lo0.view());
  auto hhi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hi0.view());
  for (int e = 0; e < elems.size(); ++e)
    for (int k = 0; k < 3; ++k) {
      const double v = hd(e, k) * (k + 1);
      const int *c = &conn[4 * e];
      hlo(c[0], k) = std::min({hlo(c[0], k), v, -v});
      hhi(c[1], k) = std::max(hhi(c[1], k), v);
      hhi(c[2], k) = std::max(hhi(c[2], k), v * v - 0.5);
      hhi(c[3], k) = std::max(hhi(c[3], k), -v);
    }
  auto got_lo = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lo_ref.view());
  auto got_hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hi_ref.view());
  for (int p = 0; p < pts.size(); ++p)
    for (int k = 0; k < 3; ++k) {
      // The device may contract v * v - 0.5 into an FMA: equal to rounding.
      EXPECT_DOUBLE_EQ(got_lo(p, k), hlo(p, k));
      EXPECT_DOUBLE_EQ(got_hi(p, k), hhi(p, k));
    }
}

TYPED_TEST_P(Executors, EmptySetDoesNothing) {
  using E = typename TypeParam::exec;
  Set none("none", 0), pts("pts", 4);
  Map<typename TestFixture::Mem> map("empty", none, pts, 3, std::vector<int>{});
  typename TestFixture::template DatT<1> a(pts, "a");
  test::randomise(a, 41);
  typename TestFixture::template DatT<1> before(pts, "before");
  copy_values(before, a);
  auto plan = this->template plan<E>(none, map);
  Global<double> count("count", 5.0), held("held", 5.0);
  par_loop(plan, "nothing", CountKernel{}, inc(a, map, 1), reduce_sum(count));
  EXPECT_EQ(count.value(), 0.0); // the identity, as Kokkos gives for an empty range
  par_loop(plan, "nothing", CountKernel{}, inc(a, map, 1), reduce_sum(held, combine_with_held));
  EXPECT_EQ(held.value(), 5.0);
  EXPECT_EQ(test::max_rel_err(a, before), 0.0);
}

TYPED_TEST_P(Executors, SinglePrecisionTriangleEdgesWithBoundaryMatchSerial) {
  using Mem = typename TestFixture::Mem;
  using L = typename TestFixture::L;
  using E = typename TypeParam::exec;
  const TriMesh m = make_tri_mesh(23, 17, {true, 11});
  const CellSides sides = derive_edges(m.cells, 3, m.cell_nodes, m.nodes);
  const int ni = sides.sides.size(), nb = sides.boundary.size();
  ASSERT_GT(nb, 0);
  std::vector<int> ec(sides.side_cells), flag(ni, 0);
  for (int b = 0; b < nb; ++b) {
    ec.insert(ec.end(), 2, sides.boundary_cells[b]);
    flag.push_back(1);
  }
  const Set edges("edges", ni + nb);
  Map<Mem> emap("edge_cells", edges, m.cells, 2, ec);
  Dat<float, 3, L, Mem> flux(edges, "flux");
  Dat<int, 1, L, Mem> boundary(edges, "boundary");
  Dat<float, 1, L, Mem> vol(m.cells, "vol");
  Dat<float, 4, L, Mem> out(m.cells, "out"), ref(m.cells, "ref");
  {
    auto h = Kokkos::create_mirror_view(boundary.view());
    for (int e = 0; e < ni + nb; ++e)
      h(e, 0) = flag[e];
    Kokkos::deep_copy(boundary.view(), h);
  }
  test::randomise(flux, 61);
  test::randomise(vol, 62, 0.5, 2);
  test::randomise(out, 63);
  copy_values(ref, out);
  auto serial = this->template plan<exec::Serial>(edges);
  par_loop(serial, "volna", FloatEdgeKernel{}, read(flux), read(boundary), read(vol, emap, 0),
           read(vol, emap, 1), inc(ref, emap, 0), inc(ref, emap, 1));
  auto plan = this->template plan<E>(edges, emap);
  par_loop(plan, "volna", FloatEdgeKernel{}, read(flux), read(boundary), read(vol, emap, 0),
           read(vol, emap, 1), inc(out, emap, 0), inc(out, emap, 1));
  // Float sums in another order: a few ulps over a cell's three edges.
  EXPECT_LT(test::max_rel_err(out, ref), 1e-5);
}

REGISTER_TYPED_TEST_SUITE_P(Executors, EdgeKernelMatchesSerialOnShuffledQuadMesh,
                            EdgeKernelUnderEveryReorderingMatchesSerial,
                            RandomArity4MapWithRepeatedSlotsAndDirectArgs,
                            FaceKernelMatchesSerialOnShuffledHexMesh,
                            MinMaxThroughFacesMatchSerialExactly,
                            MinMaxRandomArity4MapWithRepeatedSlot, EmptySetDoesNothing,
                            SinglePrecisionTriangleEdgesWithBoundaryMatchSerial);

} // namespace umesh::test

#endif
