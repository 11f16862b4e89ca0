/* Work after return on a few calls only. A correct ReLU that, on some of its timed (large) calls, leaves a
   helper thread spinning for about 3 ms after it returns: the way an honest kernel looks when the machine's
   cpu accounting of a thread is read a scheduler tick late. KF_EVERY_CALL: on every large call.
   Expected: with KF_EVERY_CALL, rejected (work after return on most calls); otherwise accepted, its flagged
   calls counted as its slowest clean one. */
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
static void* helper(void* p) {
  (void)p;
  for (;;) {
    pthread_mutex_lock(&mu);
    while (!pending) pthread_cond_wait(&cv, &mu);
    pending = 0;
    pthread_mutex_unlock(&mu);
    double t0 = now_ms();
    while (now_ms() - t0 < 3.0) sink += 1e-9;
  }
  return NULL;
}
void solution(const float* restrict x, float* restrict y, int64_t n) {
  if (!started) {
    pthread_t t;
    pthread_create(&t, NULL, helper, NULL);
    started = 1;
  }
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  if (n > 2000000) {
    big_calls++;
#ifdef KF_EVERY_CALL
    int now = 1;
#else
    int now = big_calls == 3 || big_calls == 5;
#endif
    if (now) {
      pthread_mutex_lock(&mu);
      pending = 1;
      pthread_cond_signal(&cv);
      pthread_mutex_unlock(&mu);
    }
  }
}
