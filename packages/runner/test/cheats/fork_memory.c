/* Cheat (denial of service): RLIMIT_AS bounds one process, so it forks children that each take memory of
   their own (here 8 x 512 MiB; a real attack would take the host's). Expected: accepted, with no child
   started: the worker's seccomp filter refuses new processes (threads are still fine). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static int done;
static void* nothing(void* p) { return p; }
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (done) return;
  done = 1;
  int children = 0;
  for (int k = 0; k < 8; k++) {
    pid_t p = fork();
    if (p == 0) {
      char* m = malloc(512u << 20);
      if (m) memset(m, 1, 512u << 20);
      sleep(5);
      _exit(0);
    }
    if (p > 0) children++;
  }
  pthread_t t;
  int thread_ok = pthread_create(&t, NULL, nothing, NULL) == 0 && pthread_join(t, NULL) == 0;
  printf("forked %d children; threads %s\n", children, thread_ok ? "work" : "fail");
  fflush(stdout);
}
