// Counts a program's CUDA runtime calls that launch kernels or can make the
// host wait for the device, apart from Kokkos and umesh, by standing in for
// them (LD_PRELOAD) and passing each call on to the real libcudart; prints
// the counts to stderr at exit. No CUDA headers needed: the arguments are
// passed through untouched.
//
//   gcc -O2 -shared -fPIC perf/probes/cuda_sync_count.c -o cuda_sync_count.so -ldl
//   LD_PRELOAD=$PWD/cuda_sync_count.so umesh_lulesh -s 30 -q --exec atomic
//
// Only for programs linked to libcudart dynamically (Kokkos' default).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static long n_launch, n_device_sync, n_stream_sync, n_event_sync, n_memcpy, n_memcpy_async;

static void *real(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "cuda_sync_count: no %s in the next library\n", name);
    abort();
  }
  return f;
}

int cudaLaunchKernel(const void *f, unsigned long long grid, unsigned int gz,
                     unsigned long long block, unsigned int bz, void **args, size_t shmem,
                     void *stream) {
  static int (*next)(const void *, unsigned long long, unsigned int, unsigned long long,
                     unsigned int, void **, size_t, void *);
  if (!next)
    next = real("cudaLaunchKernel");
  ++n_launch;
  return next(f, grid, gz, block, bz, args, shmem, stream);
}
int cudaDeviceSynchronize(void) {
  static int (*next)(void);
  if (!next)
    next = real("cudaDeviceSynchronize");
  ++n_device_sync;
  return next();
}
int cudaStreamSynchronize(void *stream) {
  static int (*next)(void *);
  if (!next)
    next = real("cudaStreamSynchronize");
  ++n_stream_sync;
  return next(stream);
}
int cudaEventSynchronize(void *event) {
  static int (*next)(void *);
  if (!next)
    next = real("cudaEventSynchronize");
  ++n_event_sync;
  return next(event);
}
int cudaMemcpy(void *dst, const void *src, size_t bytes, int kind) {
  static int (*next)(void *, const void *, size_t, int);
  if (!next)
    next = real("cudaMemcpy");
  ++n_memcpy;
  return next(dst, src, bytes, kind);
}
int cudaMemcpyAsync(void *dst, const void *src, size_t bytes, int kind, void *stream) {
  static int (*next)(void *, const void *, size_t, int, void *);
  if (!next)
    next = real("cudaMemcpyAsync");
  ++n_memcpy_async;
  return next(dst, src, bytes, kind, stream);
}

__attribute__((destructor)) static void report(void) {
  fprintf(stderr,
          "cuda_sync_count: cudaLaunchKernel %ld, cudaDeviceSynchronize %ld, "
          "cudaStreamSynchronize %ld, cudaEventSynchronize %ld, cudaMemcpy %ld, "
          "cudaMemcpyAsync %ld\n",
          n_launch, n_device_sync, n_stream_sync, n_event_sync, n_memcpy, n_memcpy_async);
}
