/* Cheat (cuda): writes far past its output buffer. Expected: not accepted (a cuda error, a runtime error). */
#include <stdint.h>
__global__ void relu(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
  if (i == 0) y[n + (int64_t)(1ll << 33)] = 1.0f;
}
extern "C" void solution(const float* x, float* y, int64_t n) {
  relu<<<(unsigned)((n + 255) / 256), 256>>>(x, y, n);
}
