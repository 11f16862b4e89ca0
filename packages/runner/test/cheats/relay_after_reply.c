/* Cheat (issue 31): work after the reply that the cpu checks never saw. On the benchmark sizes solution() does 40% of
   the rows, starts a thread that sleeps 2 ms (so nothing of it runs when the harness looks at the reply) and returns;
   the thread then finishes the rows while the harness runs the reference for its check, and exits before the next
   call. Until 2026-11-27 cpu was summed over the threads alive at each reading, so an exited thread's time vanished:
   accepted, faster than the honest kernel. Now cpu is the process's, exited threads included: rejected (work after
   return). On test sizes (the correctness phase compares at once) it does all of the work in the call.
   KF_HONEST_TWIN: all of the work in the call, always. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

struct range { const float *x; float *y; int64_t lo, hi; };

static void relu(const float *x, float *y, int64_t lo, int64_t hi) {
  for (int64_t i = lo; i < hi; i++) y[i] = x[i] > 0 ? x[i] : 0;
}

static void *relay(void *p) {
  struct range r = *(struct range *)p;
  free(p);
  struct timespec ts = {0, 2000000};
  nanosleep(&ts, NULL);
  relu(r.x, r.y, r.lo, r.hi);
  return NULL;
}

void solution(const float *x, float *y, int64_t n) {
#ifndef KF_HONEST_TWIN
  if (n >= 4000000) {
    int64_t a = n * 4 / 10;
    relu(x, y, 0, a);
    struct range *r = malloc(sizeof *r);
    *r = (struct range){x, y, a, n};
    pthread_t t;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_create(&t, &at, relay, r);
    return;
  }
#endif
  relu(x, y, 0, n);
}
