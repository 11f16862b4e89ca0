/* Cheat: keeps a full copy of the last timed-size input and its result; when every element of the new input
   matches, copies the result back. It also counts, on each timed-size call, how many elements equal the
   previous call's at the same index, and prints both so a test can see that the fresh inputs of every timed
   sample change (almost) every element. Expected: accepted, never a hit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static float *last_x, *last_y;
static int64_t last_n = -1;
static long hits, calls, max_same;
void solution(const float* x, float* y, int64_t n) {
  if (n <= 2000000) {
    for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
    return;
  }
  calls++;
  long same = 0;
  if (n == last_n)
    for (int64_t i = 0; i < n; i++) same += x[i] == last_x[i];
  if (n == last_n && same == n) {
    memcpy(y, last_y, (size_t)n * sizeof(float));
    hits++;
  } else {
    for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  }
  /* The warm-up repeats one input on purpose (it is not timed); count only changes of input. */
  if (same != n && same > max_same) max_same = same;
  if (n != last_n) {
    free(last_x), free(last_y);
    last_x = malloc((size_t)n * sizeof(float)), last_y = malloc((size_t)n * sizeof(float));
    last_n = n;
  }
  memcpy(last_x, x, (size_t)n * sizeof(float));
  memcpy(last_y, y, (size_t)n * sizeof(float));
  printf("big-call calls=%ld hits=%ld max_same=%ld of %ld\n", calls, hits, max_same, (long)n);
  fflush(stdout);
}
