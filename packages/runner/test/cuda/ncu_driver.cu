// Runs the ReLU candidate (relu_good.cu's `solution`) and the tiled matmul (gemm.cu's `kf_gemm`) once each, for the
// GPU-only check of the prepared Nsight Compute run (cuda-facts.test.ts; KFORGE_TEST_GPU=1 with ncu present).
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

extern "C" void solution(const float* x, float* y, int64_t n);
void kf_gemm(const float* A, const float* B, float* C, int64_t m, int64_t n, int64_t k);

int main() {
  const int64_t n = 1 << 24, m = 1024;
  float *x, *y, *a, *b, *c;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&a, m * m * sizeof(float));
  cudaMalloc(&b, m * m * sizeof(float));
  cudaMalloc(&c, m * m * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(a, 0, m * m * sizeof(float));
  cudaMemset(b, 0, m * m * sizeof(float));
  solution(x, y, n);
  kf_gemm(a, b, c, m, m, m);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
