/* Cheat (brief R, issue 31 follow-up): a static constructor that sleeps before the worker can say hello. It uses no
   cpu and no call is under way, so neither the cpu limits nor a call's deadline apply; before the fix only the 30 s
   start wait bounded it, and the kernel after it was accepted, having held the runner about that long for each of
   its worker's starts. Expected: timeout, "did not start within 10 s". */
#include <stdint.h>
#include <time.h>
#ifndef KF_START_SLEEP_S
#define KF_START_SLEEP_S 25
#endif
__attribute__((constructor)) static void slow_start(void) {
  struct timespec ts = {KF_START_SLEEP_S, 0};
  nanosleep(&ts, NULL);
}
void solution(const float *x, float *y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
}
