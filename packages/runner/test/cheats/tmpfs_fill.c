/* Cheat (denial of service): fills memory through the sandbox's file systems instead of its address space,
   writing files into every writable-looking place (/dev/shm, /dev, /tmp, /w, /). A tmpfs file's pages are
   not counted by RLIMIT_AS, and bwrap's own root and /dev are tmpfs without a size, so unchecked this takes
   as much of the host's memory as it likes. Expected: accepted, with at most /tmp's 64 MiB and /dev/shm's
   16 MiB written (the root and /dev are read-only, /w is read-only while it runs). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static int done;
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (done) return;
  done = 1;
  static char buf[1 << 20];
  memset(buf, 1, sizeof buf);
  const char* dirs[] = {"/dev/shm", "/dev", "/tmp", "/w", "/"};
  for (int d = 0; d < 5; d++) {
    long total = 0;
    for (int f = 0; f < 8; f++) { /* up to 512 MiB per place */
      char path[64];
      snprintf(path, sizeof path, "%s/fill%d", dirs[d], f);
      int fd = open(path, O_CREAT | O_WRONLY, 0600);
      if (fd < 0) break;
      int ok = 1;
      for (int k = 0; k < 64 && ok; k++) {
        ssize_t w = write(fd, buf, sizeof buf);
        if (w <= 0) ok = 0;
        else total += w;
      }
      close(fd);
      if (!ok) break;
    }
    printf("fill %s %ld MiB\n", dirs[d], total >> 20);
  }
  fflush(stdout);
}
