/* Cheat (cuda): a kernel that never ends. Expected: timeout, within the runner's limit, and the GPU usable after. */
#include <stdint.h>
__global__ void spin(float* y) {
  volatile float* v = y;
  while (true) v[0] = v[0] + 1.0f;
}
extern "C" void solution(const float* x, float* y, int64_t n) {
  (void)x, (void)n;
  spin<<<1, 1>>>(y);
}
