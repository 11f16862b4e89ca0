#include <stdint.h>

__global__ void kf_gemv(const float* A, const float* x, float* y, int64_t m, int64_t k) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int64_t j = 0; j < k; j++) s += A[i * k + j] * x[j];
    y[i] = s;
  }
}

extern "C" void reference(const float* A, const float* x, float* y, int64_t m, int64_t k) {
  kf_gemv<<<(unsigned)((m + 127) / 128), 128>>>(A, x, y, m, k);
}
