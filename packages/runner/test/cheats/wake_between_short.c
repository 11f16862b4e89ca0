/* Cheat (issue 31): a little work between calls by a thread that was asleep when the harness last saw the sandbox
   quiet. On the benchmark sizes, solution() wakes a helper at its end; the helper sleeps 1 ms (so nothing of it runs
   when the harness looks at the reply, nor while the sandbox is confirmed quiet), then burns about 0.3 ms (a real
   cheat would precompute the next call's answer from inputs already in place) and waits again. 0.3 ms is far less
   than a call of the benchmark size lasts, so it looks like the one thing the harness forgives between calls (a
   call's own last stretch, read late: harness_worker.c stretch_only), except that the helper had to be given a cpu
   to do it. It does so on one large call in five (calls 3, 8, 13, ...), fewer than the quarter of flagged calls the
   judge forgives: were such work taken for a late stretch (a flagged call each), it would be accepted.
   Expected: rejected at once, "between calls", not by the count of flagged calls. */
#include <pthread.h>
#include <stdint.h>
#include <time.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int pending, started, big_calls;
static volatile double sink;
static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
static void *helper(void *p) {
  (void)p;
  for (;;) {
    pthread_mutex_lock(&mu);
    while (!pending) pthread_cond_wait(&cv, &mu);
    pending = 0;
    pthread_mutex_unlock(&mu);
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
    double t0 = now_ms();
    while (now_ms() - t0 < 0.3) sink += 1e-9;
  }
  return NULL;
}
void solution(const float *x, float *y, int64_t n) {
  if (!started) {
    pthread_t t;
    pthread_create(&t, NULL, helper, NULL);
    started = 1;
  }
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (n > 2000000 && big_calls++ % 5 == 2) {
    pthread_mutex_lock(&mu);
    pending = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
  }
}
