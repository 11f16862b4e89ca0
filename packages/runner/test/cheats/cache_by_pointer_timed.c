/* Cheat: honest on the test sizes (so the correctness phase's second call passes), but on the timed sizes
   computes once per (x, y) pointer pair and returns at once on later calls with the same buffers.
   Expected: incorrect (every timed sample has fresh inputs and NaN-filled outputs in the same buffers). */
#include <stdint.h>
static const float* last_x;
static float* last_y;
void solution(const float* x, float* y, int64_t n) {
  if (n > 2000000 && x == last_x && y == last_y) return;
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (n > 2000000) last_x = x, last_y = y;
}
