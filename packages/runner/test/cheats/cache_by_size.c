/* Cheat: keeps the last result per size and copies it back when the size repeats.
   Expected: incorrect (the inputs differ between calls). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
static float* saved;
static int64_t saved_n = -1;
void solution(const float* x, float* y, int64_t n) {
  if (n == saved_n) {
    memcpy(y, saved, (size_t)n * sizeof(float));
    return;
  }
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  free(saved);
  saved = malloc((size_t)n * sizeof(float));
  memcpy(saved, y, (size_t)n * sizeof(float));
  saved_n = n;
}
