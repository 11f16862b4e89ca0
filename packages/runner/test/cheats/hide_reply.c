/* Cheat: forges the "done" reply (guessing a nonce) as soon as it is called, then points the reply pipe's fd at
   /dev/null so the stub's own reply goes nowhere, and does the work. Expected: rejected (the forged reply does not
   echo its command's nonce; and the stub, finding fd 4 is no longer its pipe, stops instead of replying). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>
void solution(const float* x, float* y, int64_t n) {
  static int hidden;
  if (n > 2000000 && !hidden) {
    struct { int32_t status, pad; int64_t inside_ns; uint64_t nonce; } rep = {0, 0, 1000, 0};
    syscall(SYS_write, 4, &rep, sizeof rep);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 4);
    hidden = 1;
  }
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
}
