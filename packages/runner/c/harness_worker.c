/* Starts a worker (the sandbox command line the runner wrote), talks to it over two pipes with a deadline
   on every reply, and inspects its threads from outside after each call. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"

#define MAX_LAUNCH_ARGS 256

/* How long a worker may take from its start to its hello (ms): on a cpu, bubblewrap, the loader and the candidate's
   static constructors, which take milliseconds; a constructor that slept held the runner up to the old 30 s for every
   worker start (brief R). cuda keeps 30 s: creating a context on a cold device can take seconds. */
#define KF_START_LIMIT_MS_CPU 10000.0
#define KF_START_LIMIT_MS_CUDA 30000.0

/* Cpu a sandbox may use outside the timed window of a call without doing work there: the worker's thread
   getting from writing its reply back to reading the next command, and OpenMP team threads (passive wait
   policy) going back to sleep, take microseconds. A forged early reply (the candidate writes the stub's
   "done" itself, then goes on working) or work that wakes up between calls needs more. Measured on the
   project's 2-core VM under load: honest kernels used at most about 10 microseconds after a reply (13 kernels, some 2,000 calls)
   (bench/README.md, Runner). */
#define KF_AFTER_REPLY_CPU_NS 100000LL
#define KF_IDLE_CPU_NS 100000LL
#define KF_AFTER_REPLY_CPU_NS_CUDA 1000000LL

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

/* The sandbox's pid 1 (the candidate's own process: workers run with bwrap --as-pid-1), as a pidfd taken
   while it is known to be alive, so no reused pid is ever signalled. Killing it ends its pid namespace: the
   kernel kills every process left in it. */
static void find_sandbox_init(worker_t *w) {
  w->init_pidfd = -1;
  char path[80], buf[256];
  snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)w->pid, (int)w->pid);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return;
  ssize_t r = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (r <= 0) return;
  buf[r] = 0;
  long child = strtol(buf, NULL, 10);
  if (child > 0) w->init_pidfd = (int)syscall(SYS_pidfd_open, (pid_t)child, 0);
}

/* Ends every process of the worker's sandbox: its pid namespace (through pid 1), then bwrap's process
   group. Never relies on the sandbox's own "die with parent", which a candidate can turn off for itself. */
static void kill_sandbox(worker_t *w) {
  if (w->init_pidfd >= 0) syscall(SYS_pidfd_send_signal, w->init_pidfd, SIGKILL, NULL, 0);
  if (w->pid > 0) {
    kill(-w->pid, SIGKILL);
    kill(w->pid, SIGKILL);
  }
}

static void reap(worker_t *w, int *status) {
  if (w->pid > 0) waitpid(w->pid, status, 0);
  if (w->init_pidfd >= 0) {
    close(w->init_pidfd);
    w->init_pidfd = -1;
  }
  w->dead = 1;
}

static void set_error(worker_t *w) {
  int status = 0;
  /* The reply pipe closed: the worker is most likely dying; give it a moment so its own exit status is
     reported, then end whatever is left of the sandbox. */
  pid_t r = 0;
  for (int i = 0; i < 100 && r == 0; i++) {
    r = waitpid(w->pid, &status, WNOHANG);
    if (r == 0) {
      struct timespec ts = {0, 5000000};
      nanosleep(&ts, NULL);
    }
  }
  if (r == 0) {
    kill_sandbox(w);
    r = waitpid(w->pid, &status, 0);
  } else if (w->init_pidfd >= 0) {
    syscall(SYS_pidfd_send_signal, w->init_pidfd, SIGKILL, NULL, 0); /* bwrap is reaped: only its namespace */
  }
  if (w->init_pidfd >= 0) {
    close(w->init_pidfd);
    w->init_pidfd = -1;
  }
  w->dead = 1;
  if (r <= 0) snprintf(w->error, sizeof w->error, "the worker vanished");
  else if (WIFSIGNALED(status)) snprintf(w->error, sizeof w->error, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
  else if (WEXITSTATUS(status) > 128) snprintf(w->error, sizeof w->error, "killed by signal %d (%s)", WEXITSTATUS(status) - 128, strsignal(WEXITSTATUS(status) - 128));
  else snprintf(w->error, sizeof w->error, "exited with status %d", WEXITSTATUS(status));
}

int worker_start(worker_t *w, const char *launch_file, int shm_fd, int out_fd, int err_fd, int drop_uid) {
  static char storage[65536];
  char *argv[MAX_LAUNCH_ARGS];
  int cuda = w->cuda; /* set by the caller before the start */
  memset(w, 0, sizeof *w);
  w->cuda = cuda;
  w->init_pidfd = -1;
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
    /* The worker's seccomp filter (no new processes), when the runner wrote one: fd 6, named in the launch
       line as `--seccomp 6`. */
    int filter = open("seccomp.bpf", O_RDONLY);
    if (filter >= 0 && filter != 6) {
      if (dup2(filter, 6) < 0) _exit(96);
      close(filter);
    }
    setpgid(0, 0);
    if (drop_uid > 0 && geteuid() == 0) {
      /* Root outside means uid 0 inside user namespaces too: drop to the job's own uid (the runner picks
         one per evaluation; nobody by default) first, so rlimits such as RLIMIT_NPROC apply, to this job
         alone, and the host's files are out of reach by permission as well as by mount. */
      if (setgroups(0, NULL) || setgid((gid_t)drop_uid) || setuid((uid_t)drop_uid)) _exit(97);
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
  w->after_reply_allowance_ns = w->cuda ? KF_AFTER_REPLY_CPU_NS_CUDA : KF_AFTER_REPLY_CPU_NS;
  kf_reply rep;
  /* Generous: starting the sandbox and the cuda context can take a while on a cold machine. */
  const double limit = w->cuda ? KF_START_LIMIT_MS_CUDA : KF_START_LIMIT_MS_CPU;
  if (worker_call(w, 0, NULL, 0, limit, &rep) != 0) {
    if (w->timed_out)
      snprintf(w->error, sizeof w->error,
               "it did not start within %.0f s (its static constructors and start-up ran that long; the limit from "
               "the start of its process to its first answer)",
               limit / 1000);
    return -2;
  }
  /* The candidate's process has said hello, so the sandbox's pid 1 exists now. */
  find_sandbox_init(w);
  if (rep.status != KF_HELLO) {
    snprintf(w->error, sizeof w->error, "the worker did not start (status %d)", rep.status);
    return -2;
  }
  return 0;
}

static int slept_past_limit(worker_t *w, double call_start_ms);
static int forged(worker_t *w, const char *what);

/* Waits for n bytes of reply until deadline_ms. During a watched RUN (call_start_ms > 0) it looks every 250 ms
   whether the call has slept past the worker's limit (slept_past_limit). */
static int read_deadline(worker_t *w, void *buf, size_t n, double deadline_ms, double call_start_ms) {
  char *p = buf;
  while (n > 0) {
    double left = deadline_ms - now_ms();
    if (left <= 0) goto timeout;
    struct pollfd pf = {w->reply_fd, POLLIN, 0};
    int watch = call_start_ms > 0 && w->sleep_limit_ms > 0;
    int r = poll(&pf, 1, (int)((watch && left > 250 ? 250 : left) + 1));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0 && watch && now_ms() < deadline_ms) {
      if (slept_past_limit(w, call_start_ms)) goto slept;
      continue;
    }
    if (r == 0) goto timeout;
    ssize_t got = read(w->reply_fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    /* The stub writes each reply whole, in one write under PIPE_BUF (atomic): part of one and then the end of the pipe
       is something else's bytes (a reply forged at another size, before the stub stopped). */
    if (got == 0 && p != (char *)buf) return forged(w, "a reply of the wrong size arrived");
    if (got <= 0) {
      set_error(w);
      return -1;
    }
    p += got;
    n -= (size_t)got;
  }
  return 0;
timeout:
  if (w->init_pidfd < 0) find_sandbox_init(w);
  kill_sandbox(w);
  reap(w, NULL);
  w->timed_out = 1;
  snprintf(w->error, sizeof w->error, "no answer within %.0f ms", deadline_ms > 0 ? 0.0 : 0.0);
  return -1;
slept:
  if (w->init_pidfd < 0) find_sandbox_init(w);
  kill_sandbox(w);
  reap(w, NULL);
  w->timed_out = w->slept_out = 1;
  return -1;
}

/* A fresh nonce per command (splitmix64 over a seed from the kernel): a reply must echo its command's. */
static uint64_t next_nonce(void) {
  static uint64_t state;
  if (!state) {
    if (syscall(SYS_getrandom, &state, sizeof state, 0) != (long)sizeof state) state = (uint64_t)now_ms() * 2654435761u;
    state |= 1;
  }
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (z ^ (z >> 31)) | 1; /* never 0, the hello's */
}

/* A reply that is not the stub's answer to the command just sent: something in the worker's process (the candidate)
   wrote to the reply pipe. The worker is stopped (its protocol can no longer be trusted) and the verdict is
   `rejected` (kfh_worker_failure). */
static int forged(worker_t *w, const char *what) {
  if (w->init_pidfd < 0) find_sandbox_init(w);
  kill_sandbox(w);
  reap(w, NULL);
  w->forged = 1;
  snprintf(w->error, sizeof w->error,
           "%s: something in the worker's process wrote to its reply pipe (a forged reply, e.g. one sent before the work "
           "was done)",
           what);
  return -1;
}

/* Before a command: the reply pipe must be empty. Left-over bytes are a second reply to the last command. */
static int reply_pipe_pending(worker_t *w) {
  struct pollfd pf = {w->reply_fd, POLLIN, 0};
  if (poll(&pf, 1, 0) != 1 || !(pf.revents & POLLIN)) return 0;
  char b;
  ssize_t got = read(w->reply_fd, &b, 1);
  if (got > 0) return forged(w, "a reply arrived that no command asked for");
  return 0; /* end of file: the worker is gone, which the command's own reply will say */
}

int worker_call(worker_t *w, int op, const kf_arg *args, int nargs, double timeout_ms, kf_reply *rep) {
  if (w->dead) return -1;
  double start = now_ms(), deadline = start + timeout_ms;
  if (op == KF_OP_RUN) w->after_done = w->after_counted = 0;
  uint64_t nonce = 0;
  if (op != 0) {
    if (reply_pipe_pending(w)) return -1;
    kf_cmd cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.op = op;
    cmd.nargs = nargs;
    cmd.nonce = nonce = next_nonce();
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
  if (read_deadline(w, rep, sizeof *rep, deadline, op == KF_OP_RUN && w->call_cpu_known ? start : 0)) {
    if (w->slept_out)
      snprintf(w->error, sizeof w->error,
               "solution() slept: %.0f ms of its calls passed with no thread running or waiting for a cpu (the limit "
               "is %.0f ms in all; a kernel on a cpu never sleeps)",
               w->slept_ms, w->sleep_limit_ms);
    else if (w->timed_out) snprintf(w->error, sizeof w->error, "no answer within %.0f ms", timeout_ms);
    return -1;
  }
  if (rep->nonce != nonce) return forged(w, "a reply did not answer the command it was sent");
  if (op == KF_OP_RUN) w->call_ms = now_ms() - start;
  return 0;
}

/* Tells the worker to exit and waits up to wait_ms for its sandbox to end (whatever prints at its exit, ncu's counters,
   gets out), then ends what is left. */
void worker_stop(worker_t *w, double wait_ms) {
  if (w->dead || w->pid <= 0) return;
  kf_reply rep;
  kf_cmd cmd;
  memset(&cmd, 0, sizeof cmd);
  cmd.op = KF_OP_EXIT;
  if (write(w->cmd_fd, &cmd, sizeof cmd) != (ssize_t)sizeof cmd) { /* it is gone already */ }
  (void)rep;
  for (double waited = 0; waited <= wait_ms; waited += 5) {
    if (waitpid(w->pid, NULL, WNOHANG) == w->pid) {
      /* bwrap is gone (and reaped: its pid is not signalled again); anything still in the sandbox's
         namespace goes with its pid 1 */
      if (w->init_pidfd >= 0) syscall(SYS_pidfd_send_signal, w->init_pidfd, SIGKILL, NULL, 0);
      w->pid = 0;
      reap(w, NULL);
      return;
    }
    struct timespec ts = {0, 5000000};
    nanosleep(&ts, NULL);
  }
  kill_sandbox(w);
  reap(w, NULL);
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

/* Per-thread cpu times of one scan (optional), and how many times each thread has been given a cpu (schedstat's
   third field; 0 where the kernel does not count it). */
typedef struct {
  int n;
  pid_t tid[256];
  long long cpu[256];
  long long ran[256];
} thread_cpu;

/* The last scan's time runnable but waiting for a cpu (ns, schedstat's second field), summed over the threads. */
static long long scan_wait_ns;
/* The last scan's processes, and how many of their cpu clocks could not be read (for the between-calls message). */
static int scan_nprocs, scan_clock_fails;

/* A process's cpu time (ns), all its threads together, those that have exited included: the kernel keeps an exited
   thread's time in its process's total, which the process cpu clock reads (any process may read the clock of a pid
   it can see). Summing the live threads' schedstat instead let work vanish: a relay of short-lived threads that
   finished the rows after the reply and exited before the harness looked left no trace (issue 31). -1: gone. */
static long long process_cpu_ns(pid_t pid) {
  clockid_t cid;
  struct timespec ts;
  if (clock_getcpuclockid(pid, &cid) != 0 || clock_gettime(cid, &ts) != 0) return -1;
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Counts threads of the sandbox in state R or D (uninterruptible sleep is not quiet), and adds up the cpu time of
   its processes (ns, exited threads included: process_cpu_ns); each thread's own, from schedstat, in `each`. */
static int scan_threads_each(pid_t root, long long *cpu_ns, pid_t *running_tids, int cap, thread_cpu *each) {
  pid_t procs[256];
  int np = descendants(root, procs, 256), running = 0;
  *cpu_ns = 0;
  scan_wait_ns = 0;
  scan_nprocs = np;
  scan_clock_fails = 0;
  if (each) each->n = 0;
  for (int k = 0; k < np; k++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", procs[k]);
    DIR *d = opendir(path);
    if (!d) {
      long long pcpu = process_cpu_ns(procs[k]);
      if (pcpu > 0) *cpu_ns += pcpu;
      else scan_clock_fails++;
      continue;
    }
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
        char *after = NULL, *third = NULL;
        long long c = strtoll(buf, &after, 10), ran = 0;
        if (after) {
          scan_wait_ns += strtoll(after, &third, 10);
          if (third) ran = strtoll(third, NULL, 10);
        }
        if (each && each->n < 256) {
          each->tid[each->n] = (pid_t)atoi(e->d_name);
          each->ran[each->n] = ran;
          each->cpu[each->n++] = c;
        }
      }
    }
    closedir(d);
    /* The process's cpu read after its threads' states, not before: a thread seen asleep has stopped adding to it,
       so a reading with none running is exact. Read first, a thread running at the read that blocked before its state
       was read left its last stretch out of the `quiet` reading, and that stretch (a few us, but under load or a
       hypervisor's steal 0.1-0.3 ms) was later counted as cpu used between calls: an honest kernel rejected. */
    long long pcpu = process_cpu_ns(procs[k]);
    if (pcpu > 0) *cpu_ns += pcpu;
    else scan_clock_fails++;
  }
  return running;
}

/* Every thread of the worker's sandbox (its processes' tasks); the count. */
int worker_tids(worker_t *w, pid_t *tids, int cap) {
  if (w->dead || w->pid <= 0) return 0;
  pid_t procs[256];
  int np = descendants(w->pid, procs, 256), n = 0;
  for (int k = 0; k < np; k++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", procs[k]);
    DIR *d = opendir(path);
    if (!d) continue;
    struct dirent *e;
    while ((e = readdir(d)) && n < cap)
      if (e->d_name[0] >= '0' && e->d_name[0] <= '9') tids[n++] = (pid_t)atoi(e->d_name);
    closedir(d);
  }
  return n;
}

static int scan_threads(pid_t root, long long *cpu_ns, pid_t *running_tids, int cap) {
  return scan_threads_each(root, cpu_ns, running_tids, cap, NULL);
}

/* A call's sleep: its wall time less the sandbox's cpu and wait for a cpu over it, counted only when those cover
   less than half of it (a team of threads uses more cpu than wall; a thread reading its own cpu clock late by a tick
   leaves a short call looking idle, which the half rule and the limit's size absorb). */
static double call_sleep_ms(double wall_ms, long long cpu_ns, long long wait_ns) {
  double busy = (double)(cpu_ns + wait_ns) * 1e-6;
  return busy < 0.5 * wall_ms ? wall_ms - busy : 0.0;
}

static int slept_past_limit(worker_t *w, double call_start_ms) {
  long long cpu;
  pid_t tids[8];
  double wall = now_ms() - call_start_ms;
  scan_threads(w->pid, &cpu, tids, 8);
  double slept = call_sleep_ms(wall, cpu - w->call_cpu_ns, scan_wait_ns - w->call_wait_ns);
  if (w->slept_ms + slept <= w->sleep_limit_ms) return 0;
  w->slept_ms += slept;
  return 1;
}

int busy_windows;


static int sandbox_cpus(void) {
  static int n;
  if (!n) {
    cpu_set_t set;
    n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
  }
  return n;
}

static int vanished(const pid_t *tids, int n) {
  for (int i = 0; i < n && i < 64; i++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", tids[i]);
    if (access(path, F_OK) != 0) return 1;
  }
  return 0;
}

static int busy(worker_t *w, const char *fmt, double a, double b) {
  snprintf(w->why, sizeof w->why, fmt, a, b);
  return 1;
}

static int left_running(worker_t *w) {
  snprintf(w->why, sizeof w->why,
           "work was still running after solution() returned (a thread running at return has exited since)");
  return 1;
}

/* How long a call's work may take to go quiet after a flagged return before it counts as left running. */
#define KF_SETTLE_MS 1000.0

/* A quiet reading is confirmed by a second one this long after it (ns): see settle. */
#define KF_CONFIRM_NS 50000L

/* Waits until no thread of the sandbox is runnable (up to KF_SETTLE_MS), and the reading holds. Only then are the cpu
   times exact: the kernel folds a running thread's time since its last tick into its total when it next stops, so a
   reading taken while a thread runs can be up to a tick short, and the time shows up later. "Not runnable" is not
   yet "stopped": a thread that has just set itself asleep (state S) is still on its cpu until the scheduler switches
   it out, and only then is its last stretch added. A reading taken in that moment (microseconds, longer when the
   hypervisor stops the vcpu there) was short by most of a call (a 1.5 ms ReLU call), and the next call's reading
   counted the difference as cpu used between calls: an honest kernel rejected (issue 31; bench/lag-window.c shows
   the stretch arriving after a state read). So a quiet reading counts only when a second one, KF_CONFIRM_NS later,
   finds nothing running and the same cpu. `seen`: a quiet reading already taken (-1: none). 1 when quiet, with the
   sandbox's cpu in *cpu_ns (and scan_wait_ns, scan_nprocs, scan_clock_fails from the confirming scan). */
static int settle(worker_t *w, long long *cpu_ns, long long seen) {
  double t0 = now_ms();
  pid_t tids[64];
  long long prev = seen;
  for (;;) {
    long long c;
    int running = scan_threads(w->pid, &c, tids, 64);
    *cpu_ns = c; /* the last reading, whatever the answer (a cuda worker goes on with it) */
    if (running == 0 && c == prev) return 1;
    prev = running == 0 ? c : -1;
    if (now_ms() - t0 > KF_SETTLE_MS) return 0;
    struct timespec ts = {0, running == 0 ? KF_CONFIRM_NS : 500000L};
    nanosleep(&ts, NULL);
  }
}

/* The exact rules, on a reading taken with nothing running (`cpu_ns`): no thread used more cpu than the round
   trip lasted, plus its way back to sleep (a thread that did went on working after a reply it, or a sibling,
   sent early), and the whole sandbox no more than every cpu for the round trip. */
static int outside_call(worker_t *w, long long cpu_ns) {
  if (!w->call_cpu_known || w->cuda) return 0;
  thread_cpu now;
  long long total;
  pid_t tids[64];
  scan_threads_each(w->pid, &total, tids, 64, &now);
  for (int i = 0; i < now.n; i++) {
    long long was = 0;
    for (int j = 0; j < w->call_nthreads; j++)
      if (w->call_tids[j] == now.tid[i]) was = w->call_tcpu[j];
    long long own = now.cpu[i] - was;
    if ((double)own > w->call_ms * 1e6 + (double)w->after_reply_allowance_ns)
      return busy(w,
                  "work was done outside the timed call (a thread used %.3f ms of cpu in a call of %.3f ms): a "
                  "reply sent before solution() returned?",
                  (double)own * 1e-6, w->call_ms);
  }
  long long used = cpu_ns - w->call_cpu_ns;
  long long room = (long long)(w->call_ms * 1e6 * sandbox_cpus()) + KF_AFTER_REPLY_CPU_NS;
  if ((double)used / (double)room > w->max_call_cpu_share) w->max_call_cpu_share = (double)used / (double)room;
  if (used > room)
    return busy(w,
                "work was done outside the timed call (%.2f ms of cpu for a call of %.3f ms): a reply sent "
                "before solution() returned?",
                (double)used * 1e-6, w->call_ms);
  return 0;
}

/* A thread of the sandbox that was not there at `known` (a scan's threads): one started after the reply is work
   after return, whatever cpu it has used yet. */
static int new_thread(worker_t *w, const thread_cpu *known, const char *when) {
  thread_cpu now;
  long long cpu;
  pid_t tids[8];
  scan_threads_each(w->pid, &cpu, tids, 8, &now);
  for (int i = 0; i < now.n; i++) {
    int seen = 0;
    for (int j = 0; j < known->n && !seen; j++) seen = known->tid[j] == now.tid[i];
    if (!seen && known->n < 256) {
      snprintf(w->why, sizeof w->why, "work went on after solution() returned (a thread was started %s)", when);
      return 1;
    }
  }
  return 0;
}

static int busy_after_return(worker_t *w) {
  /* Nothing runnable: nothing left running (the common case, no waiting). Something runnable is most often
     the worker's own thread on its way from writing the reply back to reading the next command, or an
     OpenMP team thread parking (OMP_WAIT_POLICY=passive: idle team threads sleep instead of spinning), so
     look again a few times over 1 ms. Still runnable then: watch for 20 ms from return. A thread that was
     running at return and has exited since was finishing work after return; a thread merely waiting for a
     core on a loaded machine uses no cpu, while work left running uses most of it. Then wait for quiet (the
     only moment cpu times are exact), and judge: cpu after the reply, and the call's exact totals. Work that
     starts again later is caught before the next call (worker_used_cpu_between_calls). */
  long long before, now, quiet;
  pid_t tids[64], later[64];
  double t0 = now_ms();
  int flagged = 0;
  w->why[0] = 0;
  static thread_cpu at_reply;
  int n = scan_threads_each(w->pid, &before, tids, 64, &at_reply), m = n;
  for (int k = 0; k < 4 && m != 0; k++) {
    struct timespec ts = {0, 250000};
    nanosleep(&ts, NULL);
    m = scan_threads(w->pid, &now, later, 64);
    if (vanished(tids, n)) flagged = left_running(w), m = 0;
  }
  if (m != 0) {
    busy_windows++;
    double left = 20.0 - (now_ms() - t0);
    if (left > 0) {
      struct timespec ts = {0, (long)(left * 1e6)};
      nanosleep(&ts, NULL);
    }
    m = scan_threads(w->pid, &now, later, 64);
    if (vanished(tids, n)) flagged = left_running(w);
    else if (m != 0 && now - before > w->after_reply_allowance_ns)
      flagged = busy(w,
                     "work was still running after solution() returned (threads or processes left busy: %.2f ms of "
                     "cpu in the %.0f ms after return)",
                     (double)(now - before) * 1e-6, 20.0);
  }
  if (!settle(w, &quiet, n == 0 ? before : -1) && !w->cuda) {
    /* (A cuda worker's runtime keeps threads of its own: it is held to the coarse rules only.) */
    snprintf(w->why, sizeof w->why, "work was still running %.0f ms after solution() returned",
             KF_SETTLE_MS + 20.0);
    return 2;
  }
  long long quiet_wait = scan_wait_ns; /* read with nothing running: exact, as `quiet` is */
  int quiet_nprocs = scan_nprocs, quiet_fails = scan_clock_fails;
  if (w->sleep_limit_ms > 0 && w->call_cpu_known) {
    w->slept_ms += call_sleep_ms(w->call_ms, quiet - w->call_cpu_ns, quiet_wait - w->call_wait_ns);
    if (w->slept_ms > w->sleep_limit_ms) {
      snprintf(w->why, sizeof w->why,
               "solution() slept: %.0f ms of its calls passed with no thread running or waiting for a cpu (the limit "
               "is %.0f ms in all; a kernel on a cpu never sleeps)",
               w->slept_ms, w->sleep_limit_ms);
      return 3;
    }
  }
  if (!flagged && !w->cuda) flagged = new_thread(w, &at_reply, "after solution() returned");
  long long after_reply = quiet - before;
  if (after_reply > w->max_after_reply_ns) w->max_after_reply_ns = after_reply;
  if (!flagged && after_reply > w->after_reply_allowance_ns)
    flagged = busy(w, "work went on after solution() returned (%.2f ms of cpu after the reply; the allowance is %.2f ms)",
                   (double)after_reply * 1e-6, (double)w->after_reply_allowance_ns * 1e-6);
  if (!flagged) flagged = outside_call(w, quiet);
  thread_cpu idle;
  long long idle_cpu;
  pid_t idle_running[8];
  scan_threads_each(w->pid, &idle_cpu, idle_running, 8, &idle);
  w->idle_nthreads = idle.n;
  memcpy(w->idle_tids, idle.tid, sizeof(pid_t) * (size_t)idle.n);
  memcpy(w->idle_tcpu, idle.cpu, sizeof(long long) * (size_t)idle.n);
  memcpy(w->idle_tran, idle.ran, sizeof(long long) * (size_t)idle.n);
  w->idle_cpu_ns = quiet;
  w->idle_nprocs = quiet_nprocs;
  w->idle_clock_fails = quiet_fails;
  w->idle_at_ms = now_ms();
  w->idle_known = 1;
  return flagged;
}

int worker_busy_after_return(worker_t *w) {
  if (!w->after_done) {
    w->after_done = 1;
    w->after_result = busy_after_return(w);
    w->call_cpu_known = 0;
    /* cpu used before this call, between calls (worker_used_cpu_between_calls said 2): this call is flagged. */
    if (w->between_flagged && w->after_result == 0) {
      w->after_result = 1;
      snprintf(w->why, sizeof w->why, "%s", w->between_why);
    }
    w->between_flagged = 0;
  }
  return w->after_result;
}

/* Which thread used the cpu between calls, for the verdict's message: the one that used most (its name from
   /proc), the threads' sum against the process clock's, and how long the worker sat between the two readings. */
static void between_detail(worker_t *w, const thread_cpu *now, long long used) {
  long long most = 0, sum = 0;
  pid_t who = 0;
  for (int i = 0; i < now->n; i++) {
    long long was = 0;
    for (int j = 0; j < w->idle_nthreads; j++)
      if (w->idle_tids[j] == now->tid[i]) was = w->idle_tcpu[j];
    long long d = now->cpu[i] - was;
    sum += d;
    if (d > most) most = d, who = now->tid[i];
  }
  char comm[64] = "?";
  if (who > 0) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/comm", (int)who);
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
      ssize_t r = read(fd, comm, sizeof comm - 1);
      close(fd);
      comm[r > 0 ? r : 0] = 0;
      /* The candidate names its threads: only plain characters reach the message. */
      for (char *c = comm; *c; c++)
        if (*c == '\n') *c = 0, c--;
        else if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
                   *c == '-' || *c == '.'))
          *c = '_';
    }
  }
  snprintf(w->between_detail, sizeof w->between_detail,
           "; %.2f ms by thread %d '%s' of %d, the threads %.2f ms in all, over %.0f ms; processes %d then %d, "
           "unread clocks %d then %d",
           (double)most * 1e-6, (int)who, comm, now->n, (double)sum * 1e-6, now_ms() - w->idle_at_ms, w->idle_nprocs,
           scan_nprocs, w->idle_clock_fails, scan_clock_fails);
  (void)used;
}

/* Whether cpu seen between calls can be nothing but the last call's own last stretch, which a quiet reading misses
   when the hypervisor stops the vcpu of a thread on its way to sleep for longer than settle's confirmation (see
   settle): every thread whose clock moved was there at the quiet reading and has not been given a cpu since (the
   kernel's count of its turns on a cpu is unchanged: a thread that woke to work must have had one), the threads'
   clocks account for all of the process's (no thread started and ended in between), and it is no more than the last
   call lasted. Work by a thread that wakes between calls, however little, is never this. 0 where the kernel gives no
   count of turns. */
static int stretch_only(const worker_t *w, const thread_cpu *now, long long used) {
  long long sum = 0;
  int counted = 0;
  for (int i = 0; i < now->n; i++) {
    int j = 0;
    while (j < w->idle_nthreads && w->idle_tids[j] != now->tid[i]) j++;
    if (j == w->idle_nthreads) return 0;
    long long d = now->cpu[i] - w->idle_tcpu[j];
    sum += d;
    if (now->ran[i] > 0) counted = 1;
    if (d > 0 && now->ran[i] != w->idle_tran[j]) return 0;
  }
  if (!counted || used - sum > KF_IDLE_CPU_NS) return 0;
  return (double)used <= w->call_ms * 1e6 + KF_IDLE_CPU_NS;
}

int worker_used_cpu_between_calls(worker_t *w, double *used_ms) {
  *used_ms = 0;
  long long cpu;
  pid_t tids[64];
  thread_cpu each;
  scan_threads_each(w->pid, &cpu, tids, 64, &each);
  w->call_cpu_ns = cpu;
  w->call_wait_ns = scan_wait_ns;
  w->call_cpu_known = 1;
  w->call_nthreads = each.n;
  memcpy(w->call_tids, each.tid, sizeof(pid_t) * (size_t)each.n);
  memcpy(w->call_tcpu, each.cpu, sizeof(long long) * (size_t)each.n);
  if (!w->idle_known) return 0;
  w->idle_known = 0;
  long long used = cpu - w->idle_cpu_ns;
  *used_ms = (double)used * 1e-6;
  w->started_between = 0;
  /* The two readings did not find the same processes (a worker cannot start one: the seccomp filter) or could not
     read the same cpu clocks: a reading missed part of the sandbox, and the two cannot be compared. The coming call is
     flagged (never silently timed) and the harness goes on; a candidate cannot cause it, and were it on every call,
     the share of flagged calls would reject it. */
  if (!w->cuda && (scan_nprocs != w->idle_nprocs || scan_clock_fails != w->idle_clock_fails)) {
    w->between_flagged = 1;
    snprintf(w->between_why, sizeof w->between_why,
             "the sandbox's cpu could not be compared between calls (processes %d then %d, unread clocks %d then %d)",
             w->idle_nprocs, scan_nprocs, w->idle_clock_fails, scan_clock_fails);
    return 2;
  }
  for (int i = 0; i < each.n && !w->cuda; i++) {
    int seen = 0;
    for (int j = 0; j < w->idle_nthreads && !seen; j++) seen = w->idle_tids[j] == each.tid[i];
    if (!seen && w->idle_nthreads < 256) w->started_between = 1;
  }
  if (w->started_between) return 1;
  /* Idle team threads use nothing; work left running uses most of a core. */
  if (!w->cuda && used > KF_IDLE_CPU_NS) {
    between_detail(w, &each, used);
    /* Possibly the last call's own last stretch (stretch_only): the coming call is flagged (its time counted as the
       slowest sample, and against the share of flagged calls the judge allows), never silently timed. Anything
       else is work after return: rejected at once. */
    if (stretch_only(w, &each, used)) {
      w->between_flagged = 1;
      snprintf(w->between_why, sizeof w->between_why,
               "work was still running after solution() returned (the sandbox used %.2f ms of cpu between calls%s)",
               *used_ms, w->between_detail);
      return 2;
    }
    return 1;
  }
  if (!w->cuda) return 0;
  return used > 1000000 && *used_ms > 0.1 * (now_ms() - w->idle_at_ms); /* the cuda runtime's own threads */
}

long long worker_cpu_ns(worker_t *w) {
  long long cpu = 0;
  pid_t tids[8];
  if (w->dead || w->pid <= 0) return 0;
  scan_threads(w->pid, &cpu, tids, 8);
  return cpu;
}

void worker_quiet(worker_t *w, double max_ms) {
  pid_t tids[64];
  long long cpu;
  double t0 = now_ms();
  if (w->dead || w->pid <= 0) return;
  while (scan_threads(w->pid, &cpu, tids, 64) != 0 && now_ms() - t0 < max_ms) {
    struct timespec ts = {0, 250000};
    nanosleep(&ts, NULL);
  }
}

void worker_sched_ns(worker_t *w, long long *cpu_ns, long long *wait_ns) {
  pid_t tids[8];
  *cpu_ns = *wait_ns = 0;
  if (w->dead || w->pid <= 0) return;
  scan_threads(w->pid, cpu_ns, tids, 8);
  *wait_ns = scan_wait_ns;
}
