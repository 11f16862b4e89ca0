/* Cheat (sabotage): computes the right answer, then shrinks the shared data file the worker was handed (fd 5)
   to nothing, so that the harness's own reads of the mapping would fault (SIGBUS) and take the trusted side
   down instead of giving a verdict. The file is sealed at its size. Expected: accepted (the shrink fails),
   with the harness intact. */
#include <stdint.h>
#include <unistd.h>
static int denied;
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (ftruncate(5, 0) != 0 && !denied) denied = 1, write(1, "shrink denied\n", 14);
}
