#include <stdint.h>

__global__ void kf_gelu(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
  }
}

extern "C" void reference(const float* x, float* y, int64_t n) {
  kf_gelu<<<(unsigned)((n + 255) / 256), 256>>>(x, y, n);
}
