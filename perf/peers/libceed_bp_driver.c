// The bake-off problems BP1 and BP3 through libCEED's public C API, on the
// meshes umesh_bp_bench --export writes (perf/bp_export.hpp): the same
// elements, node numbering, geometry and input vector, so the two are timed
// on the same operator. Geometry as libCEED's examples build it: the
// vertex coordinates through a trilinear (P = 2) basis into the gallery's
// Mass3DBuild / Poisson3DBuild; then MassApply / Poisson3DApply with an
// H1 Lagrange tensor basis of p + 1 Gauss-Lobatto nodes and q = p + 2 Gauss
// points a direction. Each result is checked against umesh's (in the file)
// before it is timed: the median of single applications, each synchronised
// (as umesh_bp_bench times its rows), reported in DoF/s (nodes x
// applications / seconds).
//
//   libceed_bp_driver RESOURCE FILE [REPEATS]     e.g. /gpu/cuda/gen bp_p3_1030301.bin 20
//
// Compile with -DBP_DRIVER_CUDA (and -lcudart) to synchronise the GPU
// between applications; CPU backends run synchronously. Exit status: 0,
// 1 a result differs from umesh's, 2 bad arguments or file, 4 libCEED failed.

#define _POSIX_C_SOURCE 200809L // clock_gettime under -std=c11

#include <ceed.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef BP_DRIVER_CUDA
#include <cuda_runtime.h>
#endif

typedef struct {
  int32_t p, elements, nodes, vertices, count;
  int32_t *bps;
  double *coords; // [vertices][3]
  int32_t *element_vertices, *element_nodes;
  double *x, *y; // [nodes], [count][nodes]
} BpMesh;

static void die(const char *what, const char *detail) {
  fprintf(stderr, "libceed_bp_driver: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(2);
}

#define CEED_CHECK(call)                                                                           \
  do {                                                                                             \
    const int ierr_ = (call);                                                                      \
    if (ierr_ != CEED_ERROR_SUCCESS) {                                                             \
      fprintf(stderr, "libceed_bp_driver: %s failed (%d) at line %d\n", #call, ierr_, __LINE__);   \
      exit(4);                                                                                     \
    }                                                                                              \
  } while (0)

static void *read_block(FILE *f, size_t count, size_t size, const char *path) {
  void *p = malloc(count * size > 0 ? count * size : 1);
  if (!p)
    die("out of memory reading", path);
  if (fread(p, size, count, f) != count)
    die("truncated file", path);
  return p;
}

static BpMesh read_mesh(const char *path) {
  BpMesh m;
  char magic[8];
  int32_t head[5];
  FILE *f = fopen(path, "rb");
  if (!f)
    die("cannot open", path);
  if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "umeshbp1", 8) != 0)
    die("not an umesh_bp_bench --export file", path);
  if (fread(head, 4, 5, f) != 5)
    die("truncated file", path);
  m.p = head[0], m.elements = head[1], m.nodes = head[2], m.vertices = head[3], m.count = head[4];
  if (m.p < 1 || m.p > 16 || m.elements < 1 || m.nodes < 1 || m.vertices < 8 || m.count < 1 ||
      m.count > 2)
    die("implausible header in", path);
  const size_t P3 = (size_t)(m.p + 1) * (m.p + 1) * (m.p + 1);
  m.bps = read_block(f, m.count, 4, path);
  m.coords = read_block(f, (size_t)m.vertices * 3, 8, path);
  m.element_vertices = read_block(f, (size_t)m.elements * 8, 4, path);
  m.element_nodes = read_block(f, (size_t)m.elements * P3, 4, path);
  m.x = read_block(f, m.nodes, 8, path);
  m.y = read_block(f, (size_t)m.count * m.nodes, 8, path);
  fclose(f);
  for (size_t i = 0; i < (size_t)m.elements * 8; ++i)
    if (m.element_vertices[i] < 0 || m.element_vertices[i] >= m.vertices)
      die("a vertex index out of range in", path);
  for (size_t i = 0; i < (size_t)m.elements * P3; ++i)
    if (m.element_nodes[i] < 0 || m.element_nodes[i] >= m.nodes)
      die("a node index out of range in", path);
  return m;
}

static void synchronise(void) {
#ifdef BP_DRIVER_CUDA
  cudaDeviceSynchronize();
#endif
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// One problem: geometry, operator, check, timing; prints its CSV row.
static int run_bp(Ceed ceed, const char *resource, const BpMesh *m, int index, int repeats) {
  const int bp = m->bps[index], P = m->p + 1, Q = m->p + 2, Q3 = Q * Q * Q;
  const int P3 = P * P * P, factors = bp == 1 ? 1 : 6;
  CeedElemRestriction r_x, r_u, r_qd;
  CeedBasis b_x, b_u;
  CeedVector X, U, V, qdata;
  CeedQFunction qf_build, qf_apply;
  CeedOperator op_build, op_apply;

  // Restrictions: coordinates interleaved ([vertex][3]), nodes, factors.
  CeedInt *x_offsets = malloc(sizeof(CeedInt) * (size_t)m->elements * 8);
  CeedInt *u_offsets = malloc(sizeof(CeedInt) * (size_t)m->elements * P3);
  if (!x_offsets || !u_offsets)
    die("out of memory", NULL);
  for (size_t i = 0; i < (size_t)m->elements * 8; ++i)
    x_offsets[i] = 3 * m->element_vertices[i];
  for (size_t i = 0; i < (size_t)m->elements * P3; ++i)
    u_offsets[i] = m->element_nodes[i];
  CEED_CHECK(CeedElemRestrictionCreate(ceed, m->elements, 8, 3, 1, 3 * (CeedSize)m->vertices,
                                       CEED_MEM_HOST, CEED_COPY_VALUES, x_offsets, &r_x));
  CEED_CHECK(CeedElemRestrictionCreate(ceed, m->elements, P3, 1, 1, m->nodes, CEED_MEM_HOST,
                                       CEED_COPY_VALUES, u_offsets, &r_u));
  CEED_CHECK(CeedElemRestrictionCreateStrided(ceed, m->elements, Q3, factors,
                                              (CeedSize)m->elements * Q3 * factors,
                                              CEED_STRIDES_BACKEND, &r_qd));
  free(x_offsets);
  free(u_offsets);
  CEED_CHECK(CeedBasisCreateTensorH1Lagrange(ceed, 3, 3, 2, Q, CEED_GAUSS, &b_x));
  CEED_CHECK(CeedBasisCreateTensorH1Lagrange(ceed, 3, 1, P, Q, CEED_GAUSS, &b_u));

  CEED_CHECK(CeedVectorCreate(ceed, 3 * (CeedSize)m->vertices, &X));
  CEED_CHECK(CeedVectorSetArray(X, CEED_MEM_HOST, CEED_COPY_VALUES, m->coords));
  CEED_CHECK(CeedVectorCreate(ceed, (CeedSize)m->elements * Q3 * factors, &qdata));
  CEED_CHECK(CeedVectorCreate(ceed, m->nodes, &U));
  CEED_CHECK(CeedVectorSetArray(U, CEED_MEM_HOST, CEED_COPY_VALUES, m->x));
  CEED_CHECK(CeedVectorCreate(ceed, m->nodes, &V));

  // Geometric factors, once (not timed).
  CEED_CHECK(CeedQFunctionCreateInteriorByName(ceed, bp == 1 ? "Mass3DBuild" : "Poisson3DBuild",
                                               &qf_build));
  CEED_CHECK(
      CeedOperatorCreate(ceed, qf_build, CEED_QFUNCTION_NONE, CEED_QFUNCTION_NONE, &op_build));
  CEED_CHECK(CeedOperatorSetField(op_build, "dx", r_x, b_x, CEED_VECTOR_ACTIVE));
  CEED_CHECK(
      CeedOperatorSetField(op_build, "weights", CEED_ELEMRESTRICTION_NONE, b_x, CEED_VECTOR_NONE));
  CEED_CHECK(CeedOperatorSetField(op_build, "qdata", r_qd, CEED_BASIS_NONE, CEED_VECTOR_ACTIVE));
  CEED_CHECK(CeedOperatorApply(op_build, X, qdata, CEED_REQUEST_IMMEDIATE));

  // The operator.
  CEED_CHECK(
      CeedQFunctionCreateInteriorByName(ceed, bp == 1 ? "MassApply" : "Poisson3DApply", &qf_apply));
  CEED_CHECK(
      CeedOperatorCreate(ceed, qf_apply, CEED_QFUNCTION_NONE, CEED_QFUNCTION_NONE, &op_apply));
  CEED_CHECK(CeedOperatorSetField(op_apply, bp == 1 ? "u" : "du", r_u, b_u, CEED_VECTOR_ACTIVE));
  CEED_CHECK(CeedOperatorSetField(op_apply, "qdata", r_qd, CEED_BASIS_NONE, qdata));
  CEED_CHECK(CeedOperatorSetField(op_apply, bp == 1 ? "v" : "dv", r_u, b_u, CEED_VECTOR_ACTIVE));

  // Checked against umesh's result first (the first application also
  // compiles the backend's kernels).
  CEED_CHECK(CeedOperatorApply(op_apply, U, V, CEED_REQUEST_IMMEDIATE));
  const CeedScalar *v;
  const double *ref = m->y + (size_t)index * m->nodes;
  double diff = 0, scale = 0;
  CEED_CHECK(CeedVectorGetArrayRead(V, CEED_MEM_HOST, &v));
  for (int i = 0; i < m->nodes; ++i) {
    const double d = fabs(v[i] - ref[i]);
    if (isnan(v[i]))
      diff = INFINITY; // unwritten
    else if (d > diff)
      diff = d;
    scale = fabs(ref[i]) > scale ? fabs(ref[i]) : scale;
  }
  CEED_CHECK(CeedVectorRestoreArrayRead(V, &v));
  const double err = diff / (scale > 0 ? scale : 1);
  const int ok = err < 1e-11;

  double *t = malloc(sizeof(double) * (size_t)repeats);
  for (int r = 0; r < 2; ++r)
    CEED_CHECK(CeedOperatorApply(op_apply, U, V, CEED_REQUEST_IMMEDIATE));
  for (int r = 0; r < repeats; ++r) {
    synchronise();
    const double t0 = now();
    CEED_CHECK(CeedOperatorApply(op_apply, U, V, CEED_REQUEST_IMMEDIATE));
    synchronise();
    t[r] = now() - t0;
  }
  qsort(t, (size_t)repeats, sizeof(double), by_value);
  const double median = repeats % 2 ? t[repeats / 2] : 0.5 * (t[repeats / 2 - 1] + t[repeats / 2]);
  printf("libceed,%s,bp%d,%d,%d,%d,%d,%g,%g,%g,%s\n", resource, bp, m->p, Q, m->nodes, m->elements,
         1e3 * median, m->nodes / median / 1e9, err, ok ? "ok" : "FAILED");
  fflush(stdout);
  free(t);

  CeedOperatorDestroy(&op_apply);
  CeedOperatorDestroy(&op_build);
  CeedQFunctionDestroy(&qf_apply);
  CeedQFunctionDestroy(&qf_build);
  CeedVectorDestroy(&X);
  CeedVectorDestroy(&U);
  CeedVectorDestroy(&V);
  CeedVectorDestroy(&qdata);
  CeedBasisDestroy(&b_x);
  CeedBasisDestroy(&b_u);
  CeedElemRestrictionDestroy(&r_x);
  CeedElemRestrictionDestroy(&r_u);
  CeedElemRestrictionDestroy(&r_qd);
  return ok;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: libceed_bp_driver RESOURCE FILE [REPEATS]\n"
                    "  RESOURCE: a libCEED backend, e.g. /gpu/cuda/gen or /cpu/self\n"
                    "  FILE: a mesh written by umesh_bp_bench --export\n");
    return 2;
  }
  const int repeats = argc == 4 ? atoi(argv[3]) : 20;
  if (repeats < 1)
    die("REPEATS must be a positive integer, not", argv[3]);
  const BpMesh m = read_mesh(argv[2]);
  Ceed ceed;
  CEED_CHECK(CeedInit(argv[1], &ceed));
  int ok = 1;
  for (int i = 0; i < m.count; ++i)
    ok &= run_bp(ceed, argv[1], &m, i, repeats);
  CeedDestroy(&ceed);
  return ok ? 0 : 1;
}
