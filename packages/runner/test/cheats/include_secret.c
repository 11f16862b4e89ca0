/* Cheat: tries to pull the server's secret in at compile time. Expected: compile_error (the file is not in the sandbox). */
#include <stdint.h>
static const char secret[] = {
#include KF_SECRET
};
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  (void)secret;
}
