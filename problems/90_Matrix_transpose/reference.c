#include <stdint.h>

void reference(const float* A, float* B, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) B[j * rows + i] = A[i * cols + j];
}
