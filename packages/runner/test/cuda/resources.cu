#include <stdint.h>
__constant__ float coeffs[64];
__global__ void relu(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f) * coeffs[i & 63];
}
template <int N>
__global__ void __launch_bounds__(256) tiled(const float* A, float* C, int n) {
  __shared__ float s[N];
  s[threadIdx.x] = A[threadIdx.x];
  __syncthreads();
  C[threadIdx.x] = s[(threadIdx.x + 1) % N];
}
__global__ void spill(const float* x, float* y, int n) {
  float a[256];
  for (int i = 0; i < 256; i++) a[i] = x[(i * 7 + threadIdx.x) % n];
  float s = 0;
  for (int i = 0; i < 256; i++) s += a[(i * 13 + threadIdx.x) & 255] * a[i];
  y[threadIdx.x] = s;
}
__global__ void __launch_bounds__(1024) bigregs(const float* x, float* y, int n) {
  float acc[64];
  #pragma unroll
  for (int i = 0; i < 64; i++) acc[i] = x[i * n + threadIdx.x];
  #pragma unroll
  for (int k = 0; k < 64; k++)
  #pragma unroll
  for (int i = 0; i < 64; i++) acc[i] = acc[i] * acc[(i + k) & 63] + 1.0f;
  float s = 0;
  #pragma unroll
  for (int i = 0; i < 64; i++) s += acc[i];
  y[threadIdx.x] = s;
}
extern "C" void solution(const float* x, float* y, int64_t n) {
  relu<<<(unsigned)((n + 255) / 256), 256>>>(x, y, n);
  tiled<256><<<1, 256>>>(x, y, (int)n);
  spill<<<1, 128>>>(x, y, (int)n);
  bigregs<<<1, 1024>>>(x, y, (int)n);
}
