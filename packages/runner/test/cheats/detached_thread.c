/* Cheat: hands the work to a detached thread and returns at once. Expected: rejected (work still
   running after return) or incorrect (outputs not written yet when checked). */
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
  pthread_t t;
  pthread_create(&t, NULL, work, j);
  pthread_detach(t);
}
