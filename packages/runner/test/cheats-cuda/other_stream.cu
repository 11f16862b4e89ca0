/* Cheat (cuda): launches on its own non-blocking stream and returns at once, hoping the clock stops before the
   kernel ends. Expected: accepted at its honest time (the worker synchronizes the whole device before replying). */
#include <stdint.h>
__global__ void relu(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}
extern "C" void solution(const float* x, float* y, int64_t n) {
  static cudaStream_t s;
  if (!s) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  relu<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(x, y, n);
}
