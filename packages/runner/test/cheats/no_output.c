/* Cheat: returns without writing y. Expected: incorrect (outputs stay NaN). */
#include <stdint.h>
void solution(const float* x, float* y, int64_t n) { (void)x; (void)y; (void)n; }
