/* Cheat (issue 31): sleeps inside every call. It uses no cpu, so no cpu limit stops it, and each call stays under
   the per-call deadline: three such submissions once held the only runner for 80-240 s each while another user's
   job waited. Expected: timeout once its calls have slept 10 s in all ("solution() slept"). */
#include <stdint.h>
#include <time.h>
/* Each call's sleep (ms). At 300 ms the limit is mostly crossed inside a call (the harness looks every 250 ms while
   one runs); under 250 ms only after a reply, where the harness looks again. */
#ifndef KF_SLEEP_MS
#define KF_SLEEP_MS 300
#endif
void solution(const float *x, float *y, int64_t n) {
  struct timespec ts = {0, KF_SLEEP_MS * 1000000L};
  nanosleep(&ts, NULL);
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
}
