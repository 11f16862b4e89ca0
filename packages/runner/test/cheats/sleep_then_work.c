/* Cheat: computes the right answer, but on the timed sizes leaves a helper thread behind that is asleep when
   the call returns and wakes a moment later to do work (here, burning cpu: a real cheat would precompute
   something for the next call). The thread check at return sees nothing running. Expected: rejected (the
   sandbox used cpu between calls). */
#include <pthread.h>
#include <stdint.h>
#include <time.h>
static pthread_t helper;
static int started;
static volatile double sink;
static void* later(void* p) {
  (void)p;
  for (;;) {
    struct timespec t = {0, 1500000};
    nanosleep(&t, NULL); /* asleep when each call returns */
    for (int i = 0; i < 3000000; i++) sink += i * 1e-9; /* then a few ms of work */
  }
  return NULL;
}
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (n > 2000000 && !started) started = 1, pthread_create(&helper, NULL, later, NULL);
}
