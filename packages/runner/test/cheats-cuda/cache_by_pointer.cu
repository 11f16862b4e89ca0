/* Cheat (cuda): computes once per (x, y) pointer pair and skips later calls with the same buffers.
   Expected: not accepted (every call gets fresh inputs and a poisoned output). */
#include <stdint.h>
__global__ void relu(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}
static const float* last_x;
static float* last_y;
extern "C" void solution(const float* x, float* y, int64_t n) {
  if (x == last_x && y == last_y) return;
  relu<<<(unsigned)((n + 255) / 256), 256>>>(x, y, n);
  last_x = x;
  last_y = y;
}
