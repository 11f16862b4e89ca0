/* Cheat: tries to reach a server on the host (port filled in by the test). Expected: accepted with the
   connection refused inside the sandbox; a successful connect corrupts the output. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
static int connected = -1;
void solution(const float* x, float* y, int64_t n) {
  if (connected < 0) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(KF_PORT);
    a.sin_addr.s_addr = htonl(0x7f000001);
    connected = s >= 0 && connect(s, (struct sockaddr*)&a, sizeof a) == 0;
    printf(connected ? "CONNECTED\n" : "connect failed\n");
    fflush(stdout);
    if (s >= 0) close(s);
  }
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (connected) y[0] = 12345.0f;
}
