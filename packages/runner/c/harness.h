/* Shared declarations of the trusted harness (plan, data, workers, report). Never linked with candidate code. */
#ifndef KF_HARNESS_H
#define KF_HARNESS_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "kf_protocol.h"

enum { ET_F32, ET_F64, ET_I32, ET_I64 };
enum { R_IN, R_OUT, R_INOUT, R_SIZE, R_SCALAR };
enum { D_UNIFORM, D_NORMAL, D_POSITIVE, D_SMALL_INT };
enum { FLUSH_AUTO, FLUSH_ALWAYS };

#define KF_MAX_CASES 64
#define KF_MAX_SEEDS 32

typedef struct {
  char name[64];
  int etype, is_ptr, role;
} arg_desc;

typedef struct {
  int bench; /* 0: a correctness (test) case, 1: a timed case */
  char name[96];
  double vals[KF_MAX_ARGS]; /* element count of pointer args, value of the others */
} case_desc;

typedef struct {
  int ranked, cuda;
  double atol, rtol;
  int warmup_calls;
  double warmup_ms, min_samples, min_ms, max_ms, target_rse, check_prob, call_timeout_ms;
  /* Sampling also goes on until the 95% interval of the case's paired speedup has at most this half-width over
     the speedup (the plan's `speedup_half_width` line, judge.ts SPEEDUP_HALF_WIDTH); 0: no such rule. */
  double speedup_half_width;
  /* A timed pair one of whose calls spent more than this share of its window runnable but waiting for a cpu is
     taken again, up to half the pairs kept plus two per case (the plan's `retake_wait_share` line, judge.ts
     RETAKE_WAIT_SHARE); 0: never. */
  double retake_wait_share;
  int nargs;
  arg_desc args[KF_MAX_ARGS];
  int ndists, dists[4];
  int nseeds;
  uint64_t seeds[KF_MAX_SEEDS];
  int ncases;
  case_desc cases[KF_MAX_CASES];
  uint64_t bench_seed;
  int flush; /* FLUSH_AUTO: only cases whose data is under twice the last-level cache */
  /* The judge's rules the harness applies mid-run (the plan's `rules` line; src/evaluate/judge.ts owns them):
     a candidate is rejected once flagged calls are at least flagged_min and over flagged_share of its calls;
     outside load is measured over at least load_window_ms; the absolute tolerance is at most atol_rms_share of
     the reference output's RMS. */
  int flagged_min;
  double flagged_share, load_window_ms, atol_rms_share;
  /* cuda: how long the device is kept busy after a sample's inputs are copied in (us; the plan's `cuda_busy_us`), and
     whether the trusted probe is turned off (`probe off`: only to watch the hostile kernels win without it). */
  double cuda_busy_us;
  int probe_off;
  /* How long the candidate's worker may take to exit once told to (ms; the plan's `exit_wait_ms`, default 1000): the
     profiled run's worker runs under ncu, which prints its counters only after the worker has exited. */
  double exit_wait_ms;
} plan_t;

int plan_read(const char *path, plan_t *p);
size_t elem_size(int etype);

/* data.c */
void gen_input(int etype, void *buf, size_t n, int dist, uint64_t seed);
void fill_poison(int etype, void *buf, size_t n);
void evict(const void *p, size_t bytes);
typedef struct {
  double max_abs, sum_abs, max_rel, sum_rel;
  size_t count;
  int failed;
  char message[256];
} err_stats;
void compare_output(const char *name, int etype, const void *got, const void *want, size_t n, double atol,
                    double rtol, err_stats *st);
int outputs_close_f32(const float *got, const float *want, size_t n, float atol, float rtol);
double output_rms(int etype, const void *p, size_t n);
double now_ms(void);
void flush_caches(void);
size_t llc_bytes(void);
extern size_t llc_override; /* from the plan's `llc` line, when given */

/* worker.c */
typedef struct {
  pid_t pid;
  int init_pidfd; /* the sandbox's pid 1 (pidfd), found after the worker's hello; -1 when unknown */
  int cmd_fd, reply_fd;
  int dead;
  char error[256]; /* why it stopped: "timeout", or an exit status */
  int timed_out;
  int forged; /* a reply that was not the stub's answer to the command sent (worker_call): the verdict is rejected */
  /* The sandbox's cpu time when a call was last seen to leave nothing running (worker_busy_after_return). */
  int idle_known;
  long long idle_cpu_ns;
  double idle_at_ms;
  /* Its threads at that moment: one that appears before the next call was started between calls. */
  int idle_nthreads;
  pid_t idle_tids[256];
  long long idle_tcpu[256]; /* each idle thread's cpu (ns) at that reading */
  long long idle_tran[256]; /* and how many times it had been given a cpu (schedstat's third field) */
  int idle_nprocs, idle_clock_fails; /* the quiet reading's processes and unread cpu clocks */
  char between_detail[240]; /* which thread used the cpu between calls, when it was too much */
  /* Whether a thread was started between calls (worker_used_cpu_between_calls). */
  int started_between;
  /* cpu used between calls that can only be the last call's own last stretch: the coming call is flagged, for this. */
  int between_flagged;
  char between_why[400];
  /* Sleep inside calls (the candidate's cpu worker only, sleep_limit_ms > 0): a call's wall time in which no thread
     of the sandbox ran or waited for a cpu, summed over the calls that spent most of their time so; the run ends
     (timeout) once the sum passes the limit, during the call that passes it. No cpu kernel sleeps; one that does
     would hold the runner for minutes under the per-call deadline alone (issue 31). */
  double sleep_limit_ms, slept_ms;
  long long call_wait_ns; /* the sandbox's wait for a cpu just before the current RUN (with call_cpu_ns) */
  int slept_out;          /* the limit ended the run */
  /* The current RUN: the sandbox's cpu time just before it was sent, its round trip as the harness saw it,
     and whether (and with what result) it has been looked at after return. */
  int cuda; /* a cuda worker: its runtime's own threads use cpu, so only the coarse rules apply */
  long long after_reply_allowance_ns;
  int call_cpu_known;
  long long call_cpu_ns;
  int call_nthreads; /* and each thread's, to hold every thread to the call's round trip */
  pid_t call_tids[256];
  long long call_tcpu[256];
  double call_ms;
  int after_done, after_result;
  char why[200]; /* why worker_busy_after_return said busy */
  int after_counted; /* this RUN's flag has been counted (harness_call.c) */
  /* Profile: the most cpu seen after a reply (ns), and the largest share of its allowance a whole call used. */
  long long max_after_reply_ns;
  double max_call_cpu_share;
} worker_t;
int worker_start(worker_t *w, const char *launch_file, int shm_fd, int out_fd, int err_fd, int drop_uid);
/* 0 ok; -1 the worker died or timed out (see w->error). */
int worker_call(worker_t *w, int op, const kf_arg *args, int nargs, double timeout_ms, kf_reply *rep);
void worker_stop(worker_t *w, double wait_ms);
/* Cpu time (ns) of every thread in the worker's sandbox now. */
long long worker_cpu_ns(worker_t *w);
/* Waits until no thread of the worker's sandbox is runnable, at most max_ms, judging nothing. */
void worker_quiet(worker_t *w, double max_ms);
/* The same, and their time runnable but waiting for a cpu (ns, schedstat's run delay): a neighbour's share. */
void worker_sched_ns(worker_t *w, long long *cpu_ns, long long *wait_ns);
/* Every thread of the worker's sandbox (its processes' tasks), at most cap; the count. */
int worker_tids(worker_t *w, pid_t *tids, int cap);
/* Whether the call's work all happened between sending RUN and its reply. 0: it did. 1: flagged: a thread of
   the worker's sandbox still running after the call returned, more cpu used after the reply than a thread
   going back to sleep needs, or more cpu used over the call than its round trip leaves room for (a forged
   early reply); the sandbox is quiet again now. 2: work still running long after return. w->why says which.
   Looked at once per RUN; later calls return the same answer. */
int worker_busy_after_return(worker_t *w);
extern int busy_windows;
/* Whether the sandbox used cpu (more than KF_IDLE_CPU_NS) between the last call's return, once it was seen idle, and
   now: work that went to sleep at return and woke up later. 0: it did not. 1: a thread was started between calls
   (started_between), or cpu was used that cannot be the last call's own last stretch: rejected. 2: cpu that can only
   be that stretch, missed by the quiet reading (harness_worker.c, stretch_only), or two readings that did not find
   the same processes and clocks, which cannot be compared: the coming call is flagged
   (between_flagged; worker_busy_after_return answers 1 for it). Its reading is also where the next call's cpu
   accounting starts, so it is called right before every RUN. */
int worker_used_cpu_between_calls(worker_t *w, double *used_ms); /* how many times it had to watch for 20 ms (profile) */

/* glue generated per signature */
void kf_call_reference(const kf_arg *a);

#endif
