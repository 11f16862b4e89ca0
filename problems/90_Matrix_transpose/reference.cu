#include <stdint.h>

__global__ void kf_transpose(const float* A, float* B, int64_t rows, int64_t cols) {
  int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, i = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (i < rows && j < cols) B[j * rows + i] = A[i * cols + j];
}

extern "C" void reference(const float* A, float* B, int64_t rows, int64_t cols) {
  dim3 block(32, 8), grid((unsigned)((cols + 31) / 32), (unsigned)((rows + 7) / 8));
  kf_transpose<<<grid, block>>>(A, B, rows, cols);
}
