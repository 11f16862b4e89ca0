// A cuda source with a type error: must come back as compile_error with nvcc's log.
#include <stdint.h>
__global__ void relu(const float* x, float* y, int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f) + undefined_symbol;
}
extern "C" void solution(const float* x, float* y, int64_t n) { relu<<<1, 1>>>(x, y, n); }
