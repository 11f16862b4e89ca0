/* Cheat (sabotage): on its third call writes junk on the worker's reply pipe (fd 4) before the stub's own
   reply, to desynchronise the harness's protocol. Expected: runtime_error naming the bad reply. */
#include <stdint.h>
#include <unistd.h>
static int calls;
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (++calls == 3) write(4, "garbage!garbage!", 16);
}
