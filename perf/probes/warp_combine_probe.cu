// Probe for issue 11: does combining a warp's increments before the global
// atomics beat plain atomics on res_calc? Plain CUDA, no umesh, so that the
// question is answered before the library carries it. The same res_calc
// body (Airfoil) in SoA under
//   atomic  one thread per edge, eight red.global.add.f64
//   warp    the same, then each warp folds increments that reach one cell
//           through warp-private shared memory (a host-built link per
//           (edge, slot): the next entry of the same cell in the warp), and
//           only the first entry of each cell issues the global atomics.
// Both are checked against a host double-precision reference.
//   nvcc -O3 -arch=sm_90 -o probe warp_combine_probe.cu && ./probe [nx ny reps]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));              \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

constexpr double gm1 = 0.4, eps = 0.05;

__host__ __device__ inline void flux(const double *x1, const double *x2, const double *q1,
                                     const double *q2, double adt1, double adt2, double f[4]) {
  const double dx = x1[0] - x2[0], dy = x1[1] - x2[1];
  double ri = 1.0 / q1[0];
  const double p1 = gm1 * (q1[3] - 0.5 * ri * (q1[1] * q1[1] + q1[2] * q1[2]));
  const double vol1 = ri * (q1[1] * dy - q1[2] * dx);
  ri = 1.0 / q2[0];
  const double p2 = gm1 * (q2[3] - 0.5 * ri * (q2[1] * q2[1] + q2[2] * q2[2]));
  const double vol2 = ri * (q2[1] * dy - q2[2] * dx);
  const double mu = 0.5 * (adt1 + adt2) * eps;
  f[0] = 0.5 * (vol1 * q1[0] + vol2 * q2[0]) + mu * (q1[0] - q2[0]);
  f[1] = 0.5 * (vol1 * q1[1] + p1 * dy + vol2 * q2[1] + p2 * dy) + mu * (q1[1] - q2[1]);
  f[2] = 0.5 * (vol1 * q1[2] - p1 * dx + vol2 * q2[2] - p2 * dx) + mu * (q1[2] - q2[2]);
  f[3] = 0.5 * (vol1 * (q1[3] + p1) + vol2 * (q2[3] + p2)) + mu * (q1[3] - q2[3]);
}

__device__ inline void red(double *p, double v) {
  asm volatile("red.global.add.f64 [%0], %1;" ::"l"(p), "d"(v));
}

struct Args {
  const int *en, *ec;        // [edge][2]
  const double *x, *q, *adt; // SoA: x[k*nn+n], q[k*nc+c]
  double *res;               // SoA
  int ne, nn, nc;
  const unsigned short *plan; // [edge]: byte s = link of entry (s, lane)
};

__device__ inline void load(const Args &a, int e, int c[2], double f[4]) {
  const int2 n = reinterpret_cast<const int2 *>(a.en)[e];
  const int2 cc = reinterpret_cast<const int2 *>(a.ec)[e];
  c[0] = cc.x;
  c[1] = cc.y;
  double x1[2], x2[2], q1[4], q2[4];
  for (int k = 0; k < 2; ++k) {
    x1[k] = a.x[k * a.nn + n.x];
    x2[k] = a.x[k * a.nn + n.y];
  }
  for (int k = 0; k < 4; ++k) {
    q1[k] = a.q[k * a.nc + cc.x];
    q2[k] = a.q[k * a.nc + cc.y];
  }
  flux(x1, x2, q1, q2, a.adt[cc.x], a.adt[cc.y], f);
}

__global__ void atomic_kernel(Args a) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= a.ne)
    return;
  int c[2];
  double f[4];
  load(a, e, c, f);
  for (int k = 0; k < 4; ++k) {
    red(a.res + k * a.nc + c[0], f[k]);
    red(a.res + k * a.nc + c[1], -f[k]);
  }
}

// Link byte: bit 7 set = not the first entry of its cell in the warp (adds
// nothing itself); bits 0-6 = next entry (s * 32 + lane) of the same cell,
// 127 = none.
constexpr int kEnd = 127;

template <int WarpsPerBlock> __global__ void warp_kernel(Args a) {
  __shared__ double sv[WarpsPerBlock][4][64];
  __shared__ unsigned char sl[WarpsPerBlock][64];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  const bool live = e < a.ne;
  int c[2] = {0, 0};
  double v[2][4];
  unsigned short pl = 0xFFFF; // both entries: followers without next
  if (live) {
    double f[4];
    load(a, e, c, f);
    pl = a.plan[e];
    for (int k = 0; k < 4; ++k) {
      v[0][k] = f[k];
      v[1][k] = -f[k];
    }
  } else {
    for (int k = 0; k < 4; ++k)
      v[0][k] = v[1][k] = 0;
  }
  for (int s = 0; s < 2; ++s) {
    for (int k = 0; k < 4; ++k)
      sv[w][k][s * 32 + lane] = v[s][k];
    sl[w][s * 32 + lane] = (pl >> (8 * s)) & 0xFF;
  }
  __syncwarp();
  for (int s = 0; s < 2; ++s) {
    const unsigned b = (pl >> (8 * s)) & 0xFF;
    if (b & 0x80)
      continue;
    unsigned n = b & 0x7F;
    while (n != kEnd) {
      for (int k = 0; k < 4; ++k)
        v[s][k] += sv[w][k][n];
      n = sl[w][n] & 0x7F;
    }
    for (int k = 0; k < 4; ++k)
      red(a.res + k * a.nc + c[s], v[s][k]);
  }
}

__global__ void copy_kernel(const double4 *in, double4 *out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

int main(int argc, char **argv) {
  const int nx = argc > 1 ? std::atoi(argv[1]) : 2400, ny = argc > 2 ? std::atoi(argv[2]) : 1200;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 20;
  const int nn = (nx + 1) * (ny + 1), nc = nx * ny;
  std::vector<int> en, ec;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int c = j * nx + i;
      auto node = [&](int ii, int jj) { return jj * (nx + 1) + ii; };
      if (i + 1 < nx) {
        en.insert(en.end(), {node(i + 1, j), node(i + 1, j + 1)});
        ec.insert(ec.end(), {c, c + 1});
      }
      if (j + 1 < ny) {
        en.insert(en.end(), {node(i + 1, j + 1), node(i, j + 1)});
        ec.insert(ec.end(), {c, c + nx});
      }
    }
  const int ne = int(ec.size() / 2);
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> x(2 * size_t(nn)), q(4 * size_t(nc)), adt(nc), res0(4 * size_t(nc));
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      x[j * (nx + 1) + i] = double(i) / nx + 0.1 * u(rng) / nx;
      x[nn + j * (nx + 1) + i] = double(j) / ny + 0.1 * u(rng) / ny;
    }
  for (int c = 0; c < nc; ++c) {
    q[c] = 0.8 + 0.4 * u(rng);
    q[nc + c] = 0.3 * (u(rng) - 0.5);
    q[2 * nc + c] = 0.3 * (u(rng) - 0.5);
    q[3 * nc + c] = 2.0 + u(rng);
    adt[c] = 0.5 + u(rng);
  }
  for (auto &r : res0)
    r = 2 * u(rng) - 1;
  // Reference: one application.
  std::vector<double> ref = res0;
  for (int e = 0; e < ne; ++e) {
    double x1[2], x2[2], q1[4], q2[4], f[4];
    const int n1 = en[2 * e], n2 = en[2 * e + 1], c1 = ec[2 * e], c2 = ec[2 * e + 1];
    for (int k = 0; k < 2; ++k)
      x1[k] = x[k * nn + n1], x2[k] = x[k * nn + n2];
    for (int k = 0; k < 4; ++k)
      q1[k] = q[k * nc + c1], q2[k] = q[k * nc + c2];
    flux(x1, x2, q1, q2, adt[c1], adt[c2], f);
    for (int k = 0; k < 4; ++k)
      ref[k * nc + c1] += f[k], ref[k * nc + c2] -= f[k];
  }
  // Warp plan: entries (s, lane) of each warp grouped by cell.
  std::vector<unsigned short> plan(ne);
  long long leaders = 0;
  for (int w0 = 0; w0 < ne; w0 += 32) {
    std::vector<std::pair<int, int>> ent; // (cell, entry)
    for (int s = 0; s < 2; ++s)
      for (int l = 0; l < 32 && w0 + l < ne; ++l)
        ent.push_back({ec[2 * (w0 + l) + s], s * 32 + l});
    std::sort(ent.begin(), ent.end());
    unsigned char link[64];
    std::fill(link, link + 64, 0xFF);
    for (size_t i = 0; i < ent.size(); ++i) {
      const bool first = i == 0 || ent[i - 1].first != ent[i].first;
      const bool has_next = i + 1 < ent.size() && ent[i + 1].first == ent[i].first;
      link[ent[i].second] = (first ? 0 : 0x80) | (has_next ? ent[i + 1].second : kEnd);
      leaders += first;
    }
    for (int l = 0; l < 32 && w0 + l < ne; ++l)
      plan[w0 + l] = link[l] | (link[32 + l] << 8);
  }
  std::printf("mesh %dx%d: %d edges, %d cells; warp leaders %.3f per edge (2 without combining)\n",
              nx, ny, ne, nc, double(leaders) / ne);

  auto up = [](const auto &v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    T *d;
    CK(cudaMalloc(&d, v.size() * sizeof(T)));
    CK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
  };
  Args a{up(en), up(ec), up(x), up(q), up(adt), up(res0), ne, nn, nc, up(plan)};
  double *res0d = up(res0);
  const double bytes = 8.0 * (2 * nn + 4 * nc + nc + 2 * 4 * nc) + 2 * 4.0 * 2 * ne;

  cudaEvent_t t0, t1;
  CK(cudaEventCreate(&t0));
  CK(cudaEventCreate(&t1));
  auto time = [&](auto launch) {
    std::vector<float> ms;
    for (int r = 0; r < reps + 3; ++r) {
      CK(cudaEventRecord(t0));
      launch();
      CK(cudaEventRecord(t1));
      CK(cudaEventSynchronize(t1));
      CK(cudaGetLastError());
      float m;
      CK(cudaEventElapsedTime(&m, t0, t1));
      if (r >= 3)
        ms.push_back(m);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  };
  // Copy bandwidth (bytes read + written).
  const size_t cn = size_t(1) << 26; // 2 GiB each way
  double4 *ci, *co;
  CK(cudaMalloc(&ci, cn * sizeof(double4)));
  CK(cudaMalloc(&co, cn * sizeof(double4)));
  CK(cudaMemset(ci, 0, cn * sizeof(double4)));
  const float cms = time([&] { copy_kernel<<<132 * 16, 256>>>(ci, co, cn); });
  const double copy_gbs = 2.0 * cn * sizeof(double4) / (cms * 1e6);
  std::printf("copy bandwidth %.1f GB/s\n", copy_gbs);
  CK(cudaFree(ci));
  CK(cudaFree(co));

  auto check = [&](const char *name, auto launch) {
    CK(cudaMemcpy(a.res, res0d, res0.size() * 8, cudaMemcpyDeviceToDevice));
    launch();
    CK(cudaDeviceSynchronize());
    std::vector<double> out(res0.size());
    CK(cudaMemcpy(out.data(), a.res, out.size() * 8, cudaMemcpyDeviceToHost));
    double err = 0;
    for (size_t i = 0; i < out.size(); ++i)
      err = std::max(err, std::abs(out[i] - ref[i]) / std::max(1.0, std::abs(ref[i])));
    const float ms = time(launch);
    std::printf("%-10s %.4f ms  %.1f GB/s  %.1f%% of copy  max rel err %.2e %s\n", name, ms,
                bytes / (ms * 1e6), 100 * bytes / (ms * 1e6) / copy_gbs, err,
                err < 1e-12 ? "ok" : "WRONG");
    return err < 1e-12;
  };
  bool ok = true;
  for (int bs : {128, 256, 512}) {
    char n[32];
    std::snprintf(n, sizeof n, "atomic/%d", bs);
    ok &= check(n, [&] { atomic_kernel<<<(ne + bs - 1) / bs, bs>>>(a); });
  }
  ok &= check("warp/128", [&] { warp_kernel<4><<<(ne + 127) / 128, 128>>>(a); });
  ok &= check("warp/256", [&] { warp_kernel<8><<<(ne + 255) / 256, 256>>>(a); });
  ok &= check("warp/512", [&] { warp_kernel<16><<<(ne + 511) / 512, 512>>>(a); });
  return ok ? 0 : 1;
}
