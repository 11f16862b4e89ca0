/* Cheat: right on the small test sizes, skips the work on the big timed ones. Expected: incorrect. */
#include <stdint.h>
void solution(const float* x, float* y, int64_t n) {
  if (n > 2000000) return;
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
}
