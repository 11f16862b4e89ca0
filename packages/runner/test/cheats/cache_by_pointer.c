/* Cheat: computes once per (x, y) pointer pair and skips later calls with the same buffers.
   Expected: incorrect (every call gets fresh inputs and NaN-filled outputs). */
#include <stdint.h>
static const float* last_x;
static float* last_y;
void solution(const float* x, float* y, int64_t n) {
  if (x == last_x && y == last_y) return;
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  last_x = x;
  last_y = y;
}
