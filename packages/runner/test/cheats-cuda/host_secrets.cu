/* Cheat (cuda): host code looks around the sandbox for what it should not see (the plan with the ranked sizes, the
   reference, the host's files, the network) and fails the check loudly if it finds any. Expected: wrong_answer
   with nothing found (it then writes a wrong output on purpose so the test reads the candidate's own report). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>
static const char* probe(void) {
  const char* paths[] = {"/w/plan.txt", "/w/plan", "/w/reference.cu", "/etc/shadow", "/etc/passwd", "/root",
                         "/home", "/work", "/var/lib"};
  for (unsigned i = 0; i < sizeof paths / sizeof *paths; i++)
    if (access(paths[i], R_OK) == 0) return paths[i];
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s >= 0) {
    struct sockaddr_in a = {};
    a.sin_family = AF_INET;
    a.sin_port = htons(8000);
    a.sin_addr.s_addr = htonl(0x7f000001);
    if (connect(s, (struct sockaddr*)&a, sizeof a) == 0) return "network 127.0.0.1:8000";
    close(s);
  }
  return NULL;
}
__global__ void fill(float* y, int64_t n, float v) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = v;
}
extern "C" void solution(const float* x, float* y, int64_t n) {
  (void)x;
  const char* seen = probe();
  fprintf(stderr, "host_secrets: %s\n", seen ? seen : "nothing visible");
  fill<<<(unsigned)((n + 255) / 256), 256>>>(y, n, seen ? 12345.0f : -7.0f);
}
