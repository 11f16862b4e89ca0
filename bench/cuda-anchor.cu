/* The do_bench-style anchor of bench/cuda.mjs (issue 32): a kernel's `solution` timed the way Triton's do_bench times
   (triton/testing.py): a 256 MB buffer zeroed before every call, start event, call, end event, all queued back to
   back with one synchronize at the end; warm-up calls first. Linked with the same source the runner evaluates, built
   with -DKF_SIG_RELU (solution(x, y, n)) or -DKF_SIG_MATMUL (solution(A, B, C, n)). Prints one JSON line.
   usage: anchor N [REPS] */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(KF_SIG_RELU)
extern "C" void solution(const float *x, float *y, int64_t n);
#elif defined(KF_SIG_MATMUL)
extern "C" void solution(const float *A, const float *B, float *C, int64_t n);
#else
#error "build with -DKF_SIG_RELU or -DKF_SIG_MATMUL"
#endif

__global__ void fill(float *p, size_t n, uint32_t seed) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint32_t z = (uint32_t)i * 2654435761u ^ seed;
    z ^= z >> 15;
    z *= 2246822519u;
    z ^= z >> 13;
    p[i] = (float)(z & 0xffffff) / 8388608.0f - 1.0f;
  }
}

static int cmp(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  int64_t n = atoll(argv[1]);
  int reps = argc > 2 ? atoi(argv[2]) : 200;
  if (reps < 5) reps = 5;
#if defined(KF_SIG_RELU)
  size_t in_elems = (size_t)n, out_elems = (size_t)n;
#else
  size_t in_elems = (size_t)n * n, out_elems = (size_t)n * n;
#endif
  float *a = NULL, *b = NULL, *c = NULL;
  int *cache = NULL;
  const size_t cache_bytes = 256000000; /* do_bench: torch.empty(int(256e6 // 4), dtype=torch.int) */
  if (cudaMalloc(&a, in_elems * 4) || cudaMalloc(&b, in_elems * 4) || cudaMalloc(&c, out_elems * 4) ||
      cudaMalloc(&cache, cache_bytes)) {
    fprintf(stderr, "no device memory (or no device)\n");
    return 3;
  }
  fill<<<1024, 256>>>(a, in_elems, 1);
  fill<<<1024, 256>>>(b, in_elems, 2);
#if defined(KF_SIG_RELU)
#define CALL() solution(a, c, n)
#else
#define CALL() solution(a, b, c, n)
#endif
  cudaEvent_t *e0 = (cudaEvent_t *)malloc(sizeof(cudaEvent_t) * reps), *e1 = (cudaEvent_t *)malloc(sizeof(cudaEvent_t) * reps);
  for (int i = 0; i < reps; i++) {
    cudaEventCreate(&e0[i]);
    cudaEventCreate(&e1[i]);
  }
  /* Warm-up: do_bench runs for 25 ms first. */
  cudaEvent_t w0, w1;
  cudaEventCreate(&w0);
  cudaEventCreate(&w1);
  float spent = 0;
  cudaEventRecord(w0);
  for (int k = 0; k < 10000 && spent < 25.0f; k++) {
    cudaMemsetAsync(cache, 0, cache_bytes);
    CALL();
    if (k % 10 == 9) {
      cudaEventRecord(w1);
      cudaEventSynchronize(w1);
      cudaEventElapsedTime(&spent, w0, w1);
    }
  }
  cudaDeviceSynchronize();
  for (int i = 0; i < reps; i++) {
    cudaMemsetAsync(cache, 0, cache_bytes);
    cudaEventRecord(e0[i]);
    CALL();
    cudaEventRecord(e1[i]);
  }
  if (cudaDeviceSynchronize() != cudaSuccess) {
    fprintf(stderr, "the kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 4;
  }
  float *ms = (float *)malloc(sizeof(float) * reps);
  double sum = 0;
  for (int i = 0; i < reps; i++) {
    cudaEventElapsedTime(&ms[i], e0[i], e1[i]);
    sum += ms[i];
  }
  qsort(ms, (size_t)reps, sizeof(float), cmp);
  printf("{\"median_ms\":%.6f,\"mean_ms\":%.6f,\"min_ms\":%.6f,\"p20_ms\":%.6f,\"p80_ms\":%.6f,\"reps\":%d,\"n\":%lld}\n",
         ms[reps / 2], sum / reps, ms[0], ms[reps / 5], ms[reps * 4 / 5], reps, (long long)n);
  return 0;
}
