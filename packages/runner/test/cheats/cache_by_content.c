/* Cheat: keyed by a fingerprint of the input's content; returns the stored result on a hit.
   Every sample has freshly generated inputs, so it never hits where it would pay: it is accepted, at
   honest speed, and prints its hit count on the timed sizes after each big call so a test can see it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static float* saved;
static int64_t saved_n = -1;
static float k0, k1, k2;
static long hits;
void solution(const float* x, float* y, int64_t n) {
  if (n == saved_n && x[0] == k0 && x[n / 2] == k1 && x[n - 1] == k2) {
    memcpy(y, saved, (size_t)n * sizeof(float));
    if (n > 2000000) hits++;
  } else {
    for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
    free(saved);
    saved = malloc((size_t)n * sizeof(float));
    memcpy(saved, y, (size_t)n * sizeof(float));
    saved_n = n, k0 = x[0], k1 = x[n / 2], k2 = x[n - 1];
  }
  if (n > 2000000) printf("big-call hits=%ld\n", hits), fflush(stdout);
}
