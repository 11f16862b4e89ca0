/* Starts a worker (the sandbox command line the runner wrote), talks to it over two pipes with a deadline
   on every reply, and inspects its threads from outside after each call. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"

#define MAX_LAUNCH_ARGS 256

static int read_launch(const char *path, char **argv, char *storage, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t n = fread(storage, 1, cap - 1, f);
  fclose(f);
  storage[n] = 0;
  int argc = 0;
  for (size_t i = 0; i < n && argc < MAX_LAUNCH_ARGS - 1;) {
    argv[argc++] = storage + i;
    i += strlen(storage + i) + 1;
  }
  argv[argc] = NULL;
  return argc;
}

static void set_error(worker_t *w) {
  int status = 0;
  pid_t r = waitpid(w->pid, &status, 0);
  w->dead = 1;
  if (r <= 0) snprintf(w->error, sizeof w->error, "the worker vanished");
  else if (WIFSIGNALED(status)) snprintf(w->error, sizeof w->error, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
  else if (WEXITSTATUS(status) > 128) snprintf(w->error, sizeof w->error, "killed by signal %d (%s)", WEXITSTATUS(status) - 128, strsignal(WEXITSTATUS(status) - 128));
  else snprintf(w->error, sizeof w->error, "exited with status %d", WEXITSTATUS(status));
}

int worker_start(worker_t *w, const char *launch_file, int shm_fd, int out_fd, int err_fd, int drop_uid) {
  static char storage[65536];
  char *argv[MAX_LAUNCH_ARGS];
  memset(w, 0, sizeof *w);
  if (read_launch(launch_file, argv, storage, sizeof storage) < 1) return -1;
  int to_child[2], from_child[2];
  if (pipe2(to_child, O_CLOEXEC) || pipe2(from_child, O_CLOEXEC)) return -1;
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    /* fds 3, 4, 5 in the worker: commands, replies, shared data; 1 and 2: the runner's capture pipes. */
    int fds[5] = {out_fd, err_fd, to_child[0], from_child[1], shm_fd};
    int tmp[5];
    /* Park them above 5 first so no dup2 overwrites a source (low base: RLIMIT_NOFILE may be small). */
    for (int i = 0; i < 5; i++)
      if ((tmp[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 10)) < 0) _exit(96);
    for (int i = 0; i < 5; i++)
      if (dup2(tmp[i], i + 1) < 0) _exit(96);
    int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, 0);
    for (int fd = 6; fd < 1024; fd++) close(fd);
    setpgid(0, 0);
    if (drop_uid && geteuid() == 0) {
      /* Root outside means uid 0 inside user namespaces too: drop to nobody first so rlimits such as
         RLIMIT_NPROC apply and the host's files are out of reach by permission as well as by mount. */
      if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) _exit(97);
    }
    char *envp[] = {"PATH=/usr/bin:/bin", "HOME=/tmp", "OMP_WAIT_POLICY=passive", "LC_ALL=C", NULL};
    execve(argv[0], argv, envp);
    _exit(98);
  }
  close(to_child[0]);
  close(from_child[1]);
  w->pid = pid;
  w->cmd_fd = to_child[1];
  w->reply_fd = from_child[0];
  signal(SIGPIPE, SIG_IGN);
  kf_reply rep;
  /* Generous: starting the sandbox and the cuda context can take a while on a cold machine. */
  if (worker_call(w, 0, NULL, 0, 30000, &rep) != 0) return -2;
  if (rep.status != KF_HELLO) {
    snprintf(w->error, sizeof w->error, "the worker did not start (status %d)", rep.status);
    return -2;
  }
  return 0;
}

static int read_deadline(worker_t *w, void *buf, size_t n, double deadline_ms) {
  char *p = buf;
  while (n > 0) {
    double left = deadline_ms - now_ms();
    if (left <= 0) goto timeout;
    struct pollfd pf = {w->reply_fd, POLLIN, 0};
    int r = poll(&pf, 1, (int)(left + 1));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) goto timeout;
    ssize_t got = read(w->reply_fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      set_error(w);
      return -1;
    }
    p += got;
    n -= (size_t)got;
  }
  return 0;
timeout:
  kill(-w->pid, SIGKILL);
  kill(w->pid, SIGKILL);
  waitpid(w->pid, NULL, 0);
  w->dead = 1;
  w->timed_out = 1;
  snprintf(w->error, sizeof w->error, "no answer within %.0f ms", deadline_ms > 0 ? 0.0 : 0.0);
  return -1;
}

int worker_call(worker_t *w, int op, const kf_arg *args, int nargs, double timeout_ms, kf_reply *rep) {
  if (w->dead) return -1;
  double deadline = now_ms() + timeout_ms;
  if (op != 0) {
    kf_cmd cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.op = op;
    cmd.nargs = nargs;
    for (int i = 0; i < nargs; i++) cmd.args[i] = args[i];
    const char *p = (const char *)&cmd;
    size_t n = sizeof cmd;
    while (n > 0) {
      ssize_t r = write(w->cmd_fd, p, n);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        set_error(w);
        return -1;
      }
      p += r;
      n -= (size_t)r;
    }
  }
  if (read_deadline(w, rep, sizeof *rep, deadline)) {
    if (w->timed_out) snprintf(w->error, sizeof w->error, "no answer within %.0f ms", timeout_ms);
    return -1;
  }
  return 0;
}

void worker_stop(worker_t *w) {
  if (w->dead || w->pid <= 0) return;
  kf_reply rep;
  kf_cmd cmd;
  memset(&cmd, 0, sizeof cmd);
  cmd.op = KF_OP_EXIT;
  if (write(w->cmd_fd, &cmd, sizeof cmd) != (ssize_t)sizeof cmd) { /* it is gone already */ }
  (void)rep;
  for (int i = 0; i < 200; i++) {
    if (waitpid(w->pid, NULL, WNOHANG) == w->pid) {
      w->dead = 1;
      return;
    }
    struct timespec ts = {0, 5000000};
    nanosleep(&ts, NULL);
  }
  kill(-w->pid, SIGKILL);
  kill(w->pid, SIGKILL);
  waitpid(w->pid, NULL, 0);
  w->dead = 1;
}

/* Every process below the worker's sandbox (the candidate may fork as well as start threads), by a full
   scan of /proc: the fallback when the kernel has no /proc/PID/task/TID/children. */
static int descendants_scan(pid_t root, pid_t *out, int cap) {
  static pid_t pids[8192], ppids[8192];
  int n = 0;
  DIR *d = opendir("/proc");
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 8192) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char path[300], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    int fd = open(path, O_RDONLY);
    if (fd < 0) continue;
    ssize_t r = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (r <= 0) continue;
    buf[r] = 0;
    char *rp = strrchr(buf, ')');
    if (!rp) continue;
    char st;
    int ppid;
    if (sscanf(rp + 2, "%c %d", &st, &ppid) != 2) continue;
    pids[n] = atoi(e->d_name);
    ppids[n++] = ppid;
  }
  closedir(d);
  int count = 0;
  out[count++] = root;
  for (int head = 0; head < count; head++)
    for (int i = 0; i < n && count < cap; i++)
      if (ppids[i] == out[head]) out[count++] = pids[i];
  return count;
}

/* The same set by walking down from the worker through each thread's children list: it reads a few files
   of the sandbox's own processes instead of every process on the machine (a full scan of /proc cost
   several ms per call on a busy machine, paid on every timed sample). Orphans of the candidate are
   re-parented to the sandbox's init, which is below the worker too. */
static int descendants(pid_t root, pid_t *out, int cap) {
  static int have_children = -1;
  if (have_children < 0) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)getpid(), (int)getpid());
    have_children = access(path, R_OK) == 0;
  }
  if (!have_children) return descendants_scan(root, out, cap);
  int count = 0;
  out[count++] = root;
  for (int head = 0; head < count; head++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)out[head]);
    DIR *d = opendir(path);
    if (!d) continue;
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
      char cp[300], buf[4096];
      snprintf(cp, sizeof cp, "/proc/%d/task/%s/children", (int)out[head], e->d_name);
      int fd = open(cp, O_RDONLY);
      if (fd < 0) continue;
      ssize_t r = read(fd, buf, sizeof buf - 1);
      close(fd);
      if (r <= 0) continue;
      buf[r] = 0;
      for (char *p = buf, *end; *p && count < cap; p = end) {
        long v = strtol(p, &end, 10);
        if (end == p) break;
        out[count++] = (pid_t)v;
      }
    }
    closedir(d);
  }
  return count;
}

/* Counts threads of the sandbox in state R or D, and adds up their cpu time (ns, from schedstat). */
static int scan_threads(pid_t root, long long *cpu_ns, pid_t *running_tids, int cap) {
  pid_t procs[256];
  int np = descendants(root, procs, 256), running = 0;
  *cpu_ns = 0;
  for (int k = 0; k < np; k++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", procs[k]);
    DIR *d = opendir(path);
    if (!d) continue;
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
      char sp[300], buf[512];
      snprintf(sp, sizeof sp, "/proc/%d/task/%s/stat", procs[k], e->d_name);
      int fd = open(sp, O_RDONLY);
      if (fd < 0) continue;
      ssize_t r = read(fd, buf, sizeof buf - 1);
      close(fd);
      if (r <= 0) continue;
      buf[r] = 0;
      char *rp = strrchr(buf, ')');
      if (rp && (rp[2] == 'R' || rp[2] == 'D')) {
        if (running < cap) running_tids[running] = (pid_t)atoi(e->d_name);
        running++;
      }
      snprintf(sp, sizeof sp, "/proc/%d/task/%s/schedstat", procs[k], e->d_name);
      fd = open(sp, O_RDONLY);
      if (fd < 0) continue;
      r = read(fd, buf, sizeof buf - 1);
      close(fd);
      if (r > 0) {
        buf[r] = 0;
        *cpu_ns += atoll(buf);
      }
    }
    closedir(d);
  }
  return running;
}

int busy_windows;

static int vanished(const pid_t *tids, int n) {
  for (int i = 0; i < n && i < 64; i++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", tids[i]);
    if (access(path, F_OK) != 0) return 1;
  }
  return 0;
}

static int idle(worker_t *w, long long cpu_ns) {
  w->idle_cpu_ns = cpu_ns;
  w->idle_at_ms = now_ms();
  w->idle_known = 1;
  return 0;
}

int worker_busy_after_return(worker_t *w) {
  /* Nothing runnable: nothing left running (the common case, no waiting). Something runnable is most often
     the worker's own thread on its way from writing the reply back to reading the next command, or an
     OpenMP team thread parking (OMP_WAIT_POLICY=passive: idle team threads sleep instead of spinning), so
     look again a few times over 1 ms: all asleep by then, none of the threads seen running gone, and under
     1 ms of cpu used is idle. Otherwise watch for 20 ms from return: a thread that was running at return
     and has exited since was finishing work after return; a thread merely waiting for a core on a loaded
     machine uses next to no cpu, while work left running uses most of it. Work that starts again later
     is caught before the next call (worker_used_cpu_between_calls). */
  long long before, now, after;
  pid_t tids[64], later[64];
  double t0 = now_ms();
  int n = scan_threads(w->pid, &before, tids, 64);
  if (n == 0) return idle(w, before);
  for (int k = 0; k < 4; k++) {
    struct timespec ts = {0, 250000};
    nanosleep(&ts, NULL);
    int m = scan_threads(w->pid, &now, later, 64);
    if (vanished(tids, n)) return 1; /* it was running at return and is gone now */
    if (m == 0 && now - before < 1000000) return idle(w, now);
  }
  busy_windows++;
  double left = 20.0 - (now_ms() - t0);
  if (left > 0) {
    struct timespec ts = {0, (long)(left * 1e6)};
    nanosleep(&ts, NULL);
  }
  int m = scan_threads(w->pid, &after, later, 64);
  if (vanished(tids, n)) return 1;
  if ((m == 0 && after - before < 1000000) || after - before <= 2000000) return idle(w, after);
  return 1; /* more than 2 ms of cpu in 20 ms */
}

int worker_used_cpu_between_calls(worker_t *w, double *used_ms) {
  *used_ms = 0;
  if (!w->idle_known) return 0;
  w->idle_known = 0;
  long long cpu;
  pid_t tids[64];
  scan_threads(w->pid, &cpu, tids, 64);
  double gap = now_ms() - w->idle_at_ms, used = (double)(cpu - w->idle_cpu_ns) * 1e-6;
  *used_ms = used;
  /* Idle team threads use microseconds; work left running uses most of a core. */
  return used > 1.0 && used > 0.1 * gap;
}
