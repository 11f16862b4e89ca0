/* The trusted harness's own state, one context passed to every step, and the steps its files share:
     harness_main.c     start-up: the plan, the shared data, the workers, the no-op calibration, the order of phases
     harness_layout.c   where each argument lives in the data copies, and fresh inputs / poisoned outputs in them
     harness_call.c     one call of a worker (timed from outside) or of the reference; flagged calls
     harness_correct.c  the correctness phase and the check of every returned call
     harness_stats.c    sample series, medians and the stopping rules
     harness_timing.c   the timed phase: warm-up, paired samples, baseline samples, wait shares
     harness_phase.c    the host-wide timing lock and the outside load over the timed phase
     harness_report.c   the JSON report and the verdict
     harness_progress.c the progress file the runner shows while the harness runs (stage, case i of n, samples)
   Functions shared between these files are prefixed kfh_ so that they can never clash with a custom
   problem's reference, which is linked into the harness. Never linked with candidate code. */
#ifndef KF_HARNESS_INTERNAL_H
#define KF_HARNESS_INTERNAL_H
#include <stdint.h>
#include <stdio.h>
#include "harness.h"
#include "kf_probe.h"

/* Samples of one benchmark case (ms, or ratios), with their running sums. */
typedef struct {
  double *v;
  int n, cap;
  double sum, sumsq;
} series;

/* Where the time goes (ms), reported as "profile": bench/runner-profile.mjs prints it. */
typedef struct {
  double start, worker_start, calibrate, correctness, baseline_start, warmup, setup, setup_private, flush,
      baseline_calls, calls, checks, busy, timing;
  int samples, baseline_samples, checked, flushed, timing_flagged;
} profile_t;

/* The workers' time runnable but waiting for a cpu over the timed samples (schedstat), against their cpu time:
   a neighbour on the machine shows as a recorded share, not only as slower samples. */
typedef struct {
  double cand_cpu, cand_wait, base_cpu, base_wait;
  /* Pairs one of whose calls waited for a cpu more than the plan's retake_wait_share (counted, never dropped since
     2026-11-27: harness_timing.c count_waited); retaken stays 0, for readers of the report's older field. */
  int retaken, waited_kept;
} sched_t;

/* The timed phase's lock and the load around it (harness_phase.c). */
typedef struct {
  int have_lock_fd, locked, gave_up;
  double wait_ms, wall_ms, outside_cores;
  int cores;
  /* The core budget (harness_budget.c): the cpus the candidate and the baseline were both confined to, the cores
     free when the evaluation began; budget_cores 0 when it could not be read (every allowed cpu then). */
  int budget_cores;
  char budget_cpus[128];
  /* Whether the budget is narrower than the cpus the harness was allowed (then it is kept: kfh_keep_budget), and
     how many times a thread of the candidate was found with cpus outside it (and set back). */
  int budget_narrow, budget_resets;
} load_t;

/* cuda: the harness's trusted probe process (harness_probe.c) and what it last said. */
typedef struct {
  pid_t pid;
  int cmd_fd, reply_fd;
  int open[2];     /* whether it reads the candidate's (0) and the baseline's (1) device data */
  int cand_failed; /* the candidate's worker gave no handle the probe could open (decided once the baseline's is tried) */
  char why[200];
  uint64_t key, sum; /* the last keyed sum and its key */
  double sm_mhz, min_mhz, max_mhz;
} probe_t;

/* What the last kfh_timed_call saw beside its times (cuda): the device's idle gap before the call (the stub's events,
   ns) and whether the SM clock read after it was under KF_LOW_CLOCK_SHARE of its top. */
typedef struct {
  double inside, idle_ns;
  int low_clock;
} last_call_t;

/* Everything one run of the harness knows; one instance, owned by main() (harness_main.c). */
struct harness {
  plan_t plan;
  /* The data: the shared copy the worker maps (memfd), the harness's private copy (the reference's inputs and
     expected outputs) and a copy of the candidate's outputs (the determinism check). */
  char *shm, *priv, *saved;
  /* cuda with the probe: the candidate's outputs as the probe copied them from its device data (what is checked). */
  char *pout;
  probe_t probe;
  last_call_t last;
  /* The baseline worker's own data (a second memfd, mapped by the harness and the baseline only): the candidate never
     shares memory with the baseline, so it never sees the baseline's outputs (issue 31: a candidate that read them
     from a mapping both workers shared ranked first at 5.98x with the reference's own loop). */
  char *bshm;
  int bshm_fd;
  size_t offs[KF_MAX_ARGS]; /* each argument's offset in the copies, for the current case (kfh_layout) */
  worker_t cand;            /* the candidate's worker */
  worker_t base;            /* the baseline worker (have_b) */
  int have_b;
  double nop_ms, nop_p90_ms; /* the calibrated no-op round trip: median and 90th percentile */
  FILE *out;                 /* the report */
  profile_t prof;
  /* Calls of the candidate flagged for work outside their timed window (kfh_after_return). A flagged
     timing sample is not used as measured: it counts as the case's slowest clean sample (the judge), so no
     flagged call shortens a measured time. The kernel is rejected once flagged calls are at least
     plan.flagged_min and more than plan.flagged_share of its calls (the judge's rule, from the plan), in all or
     on one benchmark case: on a loaded machine an honest kernel is flagged on a few calls in a hundred (a
     thread's cpu time read while it runs lags by up to a scheduler tick, and the lag shows up after the
     reply), while one that works outside its calls is flagged on every such call. */
  int runs, flagged_calls, case_runs, case_flagged;
  char flagged_why[200];
  const char *verdict; /* "accepted" until a step fails (kfh_fail): the harness's reading of `fact`, a cross-check */
  const char *fact;    /* what made the step fail (a code of src/evaluate/judge/facts.ts); NULL while none did */
  char message[512];   /* the verdict's message */
  int ncorr;           /* correctness entries printed */
  sched_t sched;
  int lock_fd; /* the host-wide timing lock of the device (argv[5]); -1: none */
  load_t load;
  /* The last progress written (harness_progress.c): its stage and case, and when (ms). */
  struct {
    char stage[16];
    int case_index;
    double at;
  } progress;
};

static inline double since(double t0) { return now_ms() - t0; }

/* How long a cpu candidate may sleep inside its calls, in all (worker_t.sleep_limit_ms; docs/evaluation.md). */
#define KF_CALL_SLEEP_LIMIT_MS 10000.0

/* harness_probe.c */
int kfh_probe_start(struct harness *h, size_t size);
int kfh_probe_attach(struct harness *h, worker_t *w, int slot);
int kfh_probe_sum(struct harness *h, const case_desc *c, int slot);
int kfh_probe_copy(struct harness *h, const case_desc *c, int slot);
void kfh_probe_stop(struct harness *h);
/* Where the candidate's outputs are read: the probe's copy (cuda, probe open) or the shared data. */
static inline char *kfh_outputs(const struct harness *h) {
  return h->plan.cuda && h->probe.open[0] && h->pout ? h->pout : h->shm;
}

/* harness_layout.c */
size_t kfh_count_of(const struct harness *h, const case_desc *c, int i);
size_t kfh_bytes_of(const struct harness *h, const case_desc *c, int i);
int kfh_is_output(const struct harness *h, int i);
size_t kfh_layout(struct harness *h, const case_desc *c);
void kfh_args_for(const struct harness *h, const case_desc *c, char *base, kf_arg *a, int offsets);
void kfh_setup_data(struct harness *h, char *base, const case_desc *c, uint64_t seed, int dist);
void kfh_setup_shared(struct harness *h, const case_desc *c, uint64_t seed, int dist);
void kfh_setup_private(struct harness *h, const case_desc *c, uint64_t seed, int dist, int poison_outputs);
void kfh_setup(struct harness *h, const case_desc *c, uint64_t seed, int dist);

/* harness_call.c */
int kfh_after_return(struct harness *h);
void kfh_final_check(struct harness *h);
void kfh_run_reference(struct harness *h, const case_desc *c);
int kfh_timed_call(struct harness *h, worker_t *w, const case_desc *c, double *outside, double *inside);

/* harness_correct.c */
int kfh_check_call(struct harness *h, const case_desc *c, err_stats *st, int check_inputs);
int kfh_correctness(struct harness *h);

/* harness_stats.c */
void kfh_push(series *s, double x);
void kfh_truncate(series *s, int n);
void kfh_series_free(series *s);
/* The statistics the judge also has (judge.ts; test/vectors/stats.json checks all three implementations). */
double kfh_quantile(const double *sorted, int n, double p);
double kfh_median_rse(const series *s);
double kfh_median_rel_half_width(const series *s);
int kfh_flagged_rejects(const plan_t *P, int flagged, int calls);
int kfh_waited(double share, double cpu, double wait);
int kfh_converged(const struct harness *h, const series *s);
int kfh_speedup_converged(const struct harness *h, const series *ratio);
double kfh_wait_share(double cpu, double wait);

/* harness_timing.c */
int kfh_timing(struct harness *h);

/* harness_phase.c */
void kfh_timed_phase(struct harness *h);
/* Confines the harness (and the workers it starts after) to the cpus free now (harness_budget.c). */
void kfh_core_budget(struct harness *h);
/* After a call, outside its window: every thread of the worker whose cpus reach outside the budget is set back to
   the budget (its cpus within it, or all of it); the number set back. Nothing when the budget is every cpu. */
int kfh_keep_budget(struct harness *h, worker_t *w);

/* harness_report.c */
void kfh_fail(struct harness *h, const char *fact, const char *v, const char *msg);
void kfh_refail(struct harness *h, const char *fact, const char *v);
void kfh_worker_failure(struct harness *h, worker_t *w, const char *during);
void kfh_json_str(struct harness *h, const char *s);
void kfh_json_num(struct harness *h, double v);
void kfh_print_sizes(struct harness *h, const case_desc *c);
void kfh_print_series(struct harness *h, const char *key, const series *s);
const char *kfh_dist_name(int d);
void kfh_print_tail(struct harness *h);

/* harness_progress.c */
void kfh_progress(struct harness *h, const char *stage, int case_index, int case_count, int samples, int force);

#endif
