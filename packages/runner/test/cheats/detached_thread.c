/* Cheat: hands the work to a detached thread and returns at once. Expected: rejected (work still
   running after return) or incorrect (outputs not written yet when checked); or, where the harness read the reply
   only after the thread had finished (a loaded machine), timed to the end of the work. KF_HONEST_TWIN: the same
   loop, done in the call. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
struct job { const float* x; float* y; int64_t n; };
static void* work(void* p) {
  struct job* j = p;
  for (int64_t i = 0; i < j->n; i++) j->y[i] = j->x[i] > 0 ? j->x[i] : 0;
  free(j);
  return NULL;
}
void solution(const float* x, float* y, int64_t n) {
  struct job* j = malloc(sizeof *j);
  j->x = x, j->y = y, j->n = n;
#ifdef KF_HONEST_TWIN
  work(j);
  return;
#endif
  pthread_t t;
  pthread_create(&t, NULL, work, j);
  pthread_detach(t);
}
