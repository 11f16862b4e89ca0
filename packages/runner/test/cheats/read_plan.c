/* Cheat: looks for the harness's plan (hidden ranked sizes, the seeds, the benchmark seed) anywhere the
   sandbox can read: the job folder, its parent, the root, /tmp, /proc of every process it can see. Computes
   a correct ReLU, but if it finds any of it, it leaks it the only way it can: a wrong output, so the
   `incorrect` message carries it. Expected: it finds nothing and is accepted. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int found;
static char needle1[32], needle2[32], needle3[32];

static void look_file(const char *path) {
  char buf[65536];
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) return;
  struct stat st;
  if (fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || strncmp(path, "/proc", 5) == 0)) {
    ssize_t n = read(fd, buf, sizeof buf - 1);
    if (n > 0) {
      buf[n] = 0;
      for (ssize_t i = 0; i < n; i++)
        if (buf[i] == 0) buf[i] = ' ';
      if (strstr(buf, needle1) || strstr(buf, needle2) || strstr(buf, needle3)) found = 1;
    }
  }
  close(fd);
}

static void walk(const char *dir, int depth) {
  if (depth > 4 || found) return;
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) && !found) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name);
    if (!strcmp(p, "/usr") || !strcmp(p, "/sys") || !strcmp(p, "/proc/sys") || !strcmp(p, "/dev")) continue;
    struct stat st;
    if (lstat(p, &st)) continue;
    if (S_ISDIR(st.st_mode)) walk(p, depth + 1);
    else look_file(p);
  }
  closedir(d);
}

void solution(const float *x, float *y, int64_t n) {
  static int looked;
  if (!looked) {
    looked = 1;
    /* Built at run time, so the worker's own binary and source (which it can read) do not match. */
    strcpy(needle1, "bench");
    strcat(needle1, "_seed ");
    strcpy(needle2, "mode");
    strcat(needle2, " ranked");
    strcpy(needle3, "mode");
    strcat(needle3, " benchmark");
    const char *guesses[] = {"/w/plan.txt", "/w/../plan.txt", "plan.txt", "../plan.txt", "/proc/1/cmdline",
                             "/proc/1/environ", "/proc/self/environ", "/proc/self/cmdline"};
    for (unsigned i = 0; i < sizeof guesses / sizeof *guesses; i++) look_file(guesses[i]);
    walk("/", 0);
  }
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (found && n > 0) y[0] = 12345.0f; /* the leak: the plan was readable */
}
