#include <stdint.h>

__global__ void relu_kernel(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

extern "C" void reference(const float* x, float* y, int64_t n) {
  int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  relu_kernel<<<(unsigned)blocks, threads>>>(x, y, n);
}
