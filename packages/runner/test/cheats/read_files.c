/* Cheat: tries to read files outside its sandbox (paths filled in by the test). If any read works it
   corrupts its output (so the verdict shows it) and prints what it saw. Expected: accepted, every read blocked. */
#include <stdint.h>
#include <stdio.h>
static const char* paths[] = {KF_SECRET, KF_DATA_FILE, KF_OTHER_SOURCE, "/etc/shadow", "/root/.bashrc"};
static int leaked = -1;
void solution(const float* x, float* y, int64_t n) {
  if (leaked < 0) {
    leaked = 0;
    for (unsigned i = 0; i < sizeof paths / sizeof *paths; i++) {
      FILE* f = fopen(paths[i], "r");
      char buf[128] = {0};
      if (f && fread(buf, 1, sizeof buf - 1, f) > 0) {
        printf("LEAKED %s: %s\n", paths[i], buf);
        leaked = 1;
      } else {
        printf("blocked %s\n", paths[i]);
      }
      if (f) fclose(f);
    }
    fflush(stdout);
  }
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (leaked) y[0] = 12345.0f;
}
