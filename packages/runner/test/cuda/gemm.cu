// A tiled matmul kernel (as in problems/1_Square_matrix_multiplication_/reference.cu without cuBLAS) and its launch.
#include <stdint.h>
#define TILE 16
__global__ void kf_tiled_gemm(const float* A, const float* B, float* C, int64_t m, int64_t n, int64_t k) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int64_t row = (int64_t)blockIdx.y * TILE + threadIdx.y, col = (int64_t)blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int64_t t = 0; t < k; t += TILE) {
    As[threadIdx.y][threadIdx.x] = (row < m && t + threadIdx.x < k) ? A[row * k + t + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (col < n && t + threadIdx.y < k) ? B[(t + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; i++) acc += As[threadIdx.y][i] * Bs[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) C[row * n + col] = acc;
}

void kf_gemm(const float* A, const float* B, float* C, int64_t m, int64_t n, int64_t k) {
  dim3 block(TILE, TILE), grid((unsigned)((n + TILE - 1) / TILE), (unsigned)((m + TILE - 1) / TILE));
  kf_tiled_gemm<<<grid, block>>>(A, B, C, m, n, k);
}
