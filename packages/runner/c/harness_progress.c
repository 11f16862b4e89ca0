/* Progress for the runner (the session page's "Timing case 1 of 2 · 37 samples"): a small JSON file the runner reads
   while the harness runs, rewritten whole (a temporary file renamed over it, so a reader never sees half of one) at
   most a few times a second, and only between calls, never inside a timed window. Informational only: nothing the
   judge reads. Where: $KF_PROGRESS (a path in the job folder, which no worker sandbox mounts); unset: no file. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness_internal.h"

/* At most this often (ms), unless the stage or the case changed or the caller forces it (a case's last count). */
#define KF_PROGRESS_EVERY_MS 250.0

static const char *progress_path(void) {
  static int looked;
  static const char *path;
  if (!looked) {
    looked = 1;
    path = getenv("KF_PROGRESS");
    if (path && (!*path || strlen(path) > 400)) path = NULL;
  }
  return path;
}

void kfh_progress(struct harness *h, const char *stage, int case_index, int case_count, int samples, int force) {
  const char *path = progress_path();
  if (!path) return;
  double now = now_ms();
  int changed = strcmp(h->progress.stage, stage) != 0 || h->progress.case_index != case_index;
  if (!changed && !force && now - h->progress.at < KF_PROGRESS_EVERY_MS) return;
  snprintf(h->progress.stage, sizeof h->progress.stage, "%s", stage);
  h->progress.case_index = case_index;
  h->progress.at = now;
  char tmp[420], body[160];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  int n = snprintf(body, sizeof body, "{\"stage\":\"%s\",\"case_index\":%d,\"case_count\":%d,\"samples\":%d}\n", stage,
                   case_index, case_count, samples);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  ssize_t w = write(fd, body, (size_t)n);
  close(fd);
  if (w == n) rename(tmp, path);
}
