/* The timed phase: per benchmark case a warm-up, then paired samples (candidate and baseline on the same
   sample's inputs, alternating which goes first) until the stopping rules hold or the case's budget is spent.
   The order of the calls, setups, flushes and quiet waits below is part of the timing method
   (docs/evaluation.md "Timing"). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "harness_internal.h"

/* One benchmark case being timed. o, in, b: the last candidate sample (outside, inside) and baseline sample. */
typedef struct {
  const case_desc *c;
  int flush;
  series cand, base, inside, ratio;
  /* cuda: the baseline's inside (events) times; pairs taken again or kept with a low SM clock; samples whose device
     sat idle before the call (the stub's events: its busy kernel did not cover the host's round trip). */
  series base_in;
  int low_retaken, low_kept, idle_samples;
  double idle_max_ns;
  int checked, dropped;
  double o, in, b, b_in;
  /* Whether a call of the pair being taken waited for a cpu more than the plan's share (count_waited). */
  int waited;
} case_run;

/* A worker's cpu and wait (schedstat, ns) before a call, and after it: whether the call waited more than the
   plan's share of its window (its cpu time plus its wait). Read outside the timed window. */
static void wait_before(struct harness *h, worker_t *w, long long s[2]) {
  s[0] = s[1] = 0;
  if (h->plan.retake_wait_share > 0 && !h->plan.cuda) worker_sched_ns(w, &s[0], &s[1]);
}

static void wait_after(struct harness *h, worker_t *w, const long long s0[2], case_run *r) {
  if (h->plan.retake_wait_share <= 0 || h->plan.cuda) return;
  long long cpu, wait;
  worker_sched_ns(w, &cpu, &wait);
  double dc = (double)(cpu - s0[0]), dw = (double)(wait - s0[1]);
  if (kfh_waited(h->plan.retake_wait_share, dc, dw)) r->waited = 1;
}

static double uniform01(void) {
  uint32_t r = 0;
  if (getrandom(&r, sizeof r, 0) != sizeof r) r = (uint32_t)rand();
  return r / 4294967296.0;
}

/* A timed sample's seed: 64 bits from the operating system's random source, drawn after the previous call
   returned, so nothing the candidate saw before (earlier inputs, the plan's seeds, the clock) predicts it. */
static uint64_t fresh_seed(struct harness *h) {
  uint64_t r = 0;
  size_t got = 0;
  while (got < sizeof r) {
    ssize_t n = getrandom((char *)&r + got, sizeof r - got, 0);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      kfh_fail(h, "harness_failed", "runtime_error", "the operating system's random source failed");
      return 0;
    }
    got += (size_t)n;
  }
  return r;
}

/* Whether a sample needs its own cache flush. Every sample's inputs and poisoned outputs are written with
   non-temporal stores (c/harness_data.c), which leave none of the case's data in any cache, and the
   reference's dirty outputs are evicted after it runs, so each timed call starts with its own data cold and
   nothing of the harness's to write back. A case whose data is at least twice the last-level cache needs
   no more: its own traffic pushes out whatever else the cache holds in its first part. Smaller cases are
   still flushed (a buffer of twice the last-level cache written and read) before every timed call. */
static int needs_flush(const struct harness *h, const case_desc *c) {
  if (h->plan.cuda) return 0; /* the worker's PREPARE flushes the device's L2; the host's caches do not matter */
  if (h->plan.flush == FLUSH_ALWAYS) return 1;
  size_t bytes = 0;
  for (int i = 0; i < h->plan.nargs; i++)
    if (h->plan.args[i].is_ptr) bytes += kfh_bytes_of(h, c, i);
  return bytes < 2 * llc_bytes();
}

/* Drops the reference's (dirty) outputs from the cache: see needs_flush. */
static void evict_private_outputs(struct harness *h, const case_desc *c) {
  for (int i = 0; i < h->plan.nargs; i++)
    if (kfh_is_output(h, i)) evict(h->priv + h->offs[i], kfh_bytes_of(h, c, i));
}

static void timed_flush(struct harness *h) {
  double t0 = now_ms();
  flush_caches();
  h->prof.flush += since(t0);
}

/* cuda: what the last call saw beside its times (harness_call.c): a low SM clock marks the pair, an idle device before
   the call is counted. */
static int pair_low_clock;
static void note_call(struct harness *h, case_run *r) {
  if (!h->plan.cuda) return;
  if (h->last.low_clock) pair_low_clock = 1;
  if (h->last.idle_ns > 5000) r->idle_samples++;
  if (h->last.idle_ns > r->idle_max_ns) r->idle_max_ns = h->last.idle_ns;
}

/* One baseline sample. cpu: the reference, in-process, on fresh private inputs set up exactly as the
   candidate's are (the expected outputs of this seed come out of it); cuda: the baseline worker. */
static int time_baseline(struct harness *h, case_run *r, const case_desc *c, uint64_t seed, int flush, double *ms) {
  if (h->have_b) {
    /* The baseline worker: the reference built as a candidate would be, timed exactly as the candidate is (the
       shared data set up by the caller, the same flush, the same round trip less the same no-op median). */
    if (flush) timed_flush(h);
    long long s0[2];
    wait_before(h, &h->base, s0);
    double in, t0 = now_ms();
    if (kfh_timed_call(h, &h->base, c, ms, &in)) {
      kfh_worker_failure(h, &h->base, "the baseline failed");
      kfh_refail(h, "baseline_failed", "runtime_error");
      return -1;
    }
    r->b_in = in;
    note_call(h, r);
    h->prof.baseline_calls += since(t0);
    wait_after(h, &h->base, s0, r);
    return 0;
  }
  double t0 = now_ms();
  kfh_setup_private(h, c, seed, h->plan.dists[0], 1);
  h->prof.setup_private += since(t0);
  if (flush) timed_flush(h);
  t0 = now_ms();
  kfh_run_reference(h, c);
  *ms = since(t0);
  h->prof.baseline_calls += *ms;
  t0 = now_ms();
  evict_private_outputs(h, c);
  h->prof.setup_private += since(t0);
  return 0;
}

/* Warm-up on this case's sizes: page faults, OpenMP start-up, frequency ramp; the baseline worker warms up as
   the candidate did. Without one, a first in-process baseline sample. */
static int warm_up(struct harness *h, case_run *r) {
  const case_desc *c = r->c;
  const plan_t *P = &h->plan;
  kfh_setup(h, c, P->bench_seed, P->dists[0]);
  double wstart = now_ms();
  for (int k = 0; k < P->warmup_calls || now_ms() - wstart < P->warmup_ms; k++)
    if (kfh_timed_call(h, &h->cand, c, &r->o, &r->in)) {
      kfh_worker_failure(h, &h->cand, "during warm-up");
      return -1;
    }
  if (!h->have_b) return time_baseline(h, r, c, P->bench_seed, r->flush, &r->b);
  wstart = now_ms();
  for (int k = 0; k < P->warmup_calls || now_ms() - wstart < P->warmup_ms; k++) {
    kfh_setup_data(h, h->bshm, c, P->bench_seed, P->dists[0]);
    if (kfh_timed_call(h, &h->base, c, &r->o, &r->in)) {
      kfh_worker_failure(h, &h->base, "the baseline failed during warm-up");
      kfh_refail(h, "baseline_failed", "runtime_error");
      return -1;
    }
  }
  return 0;
}

static void timed_setup_shared(struct harness *h, const case_desc *c, uint64_t seed) {
  double t0 = now_ms();
  kfh_setup_shared(h, c, seed, h->plan.dists[0]);
  h->prof.setup += since(t0);
}

/* The baseline's half of a pair, on the sample's inputs set up afresh in its own data (the baseline worker's memfd,
   which the candidate's process never maps; without a baseline worker the reference's private copy is set up by
   time_baseline). */
static int baseline_sample(struct harness *h, case_run *r, uint64_t seed, int flush) {
  if (h->have_b) {
    double t0 = now_ms();
    kfh_setup_data(h, h->bshm, r->c, seed, h->plan.dists[0]);
    h->prof.setup += since(t0);
  }
  if (time_baseline(h, r, r->c, seed, flush, &r->b)) return -1;
  kfh_push(&r->base, r->b);
  if (h->have_b) kfh_push(&r->base_in, r->b_in);
  h->prof.baseline_samples++;
  return 0;
}

/* The candidate's half of a pair. *flagged: the call was flagged (its time is not a sample). */
static int candidate_sample(struct harness *h, case_run *r, uint64_t seed, int cand_first, int *flagged) {
  (void)cand_first;
  timed_setup_shared(h, r->c, seed);
  if (r->flush && (cand_first || !h->have_b)) timed_flush(h);
  long long s0[2];
  wait_before(h, &h->cand, s0);
  double t0 = now_ms();
  if (kfh_timed_call(h, &h->cand, r->c, &r->o, &r->in)) {
    kfh_worker_failure(h, &h->cand, "while timing");
    return -1;
  }
  h->prof.calls += since(t0);
  note_call(h, r);
  double ta = now_ms();
  *flagged = kfh_after_return(h);
  h->prof.busy += since(ta);
  wait_after(h, &h->cand, s0, r);
  kfh_keep_budget(h, &h->cand);
  if (*flagged < 0) return -1;
  if (!*flagged) {
    h->prof.samples++;
    kfh_push(&r->cand, r->o);
    kfh_push(&r->inside, r->in);
  } else {
    r->dropped++;
    h->prof.timing_flagged++;
  }
  return 0;
}

/* Which samples are checked is decided after the call, so a candidate cannot know. The reference runs only
   for these, on inputs regenerated from the seed (expected: the in-process baseline already ran it). */
static int check_sample(struct harness *h, case_run *r, uint64_t seed, int expected, int k) {
  int check = expected || h->plan.ranked || uniform01() < h->plan.check_prob || k == 0;
  double t0 = now_ms();
  if (!check) return 0;
  if (!expected) {
    kfh_setup_private(h, r->c, seed, h->plan.dists[0], 0);
    kfh_run_reference(h, r->c);
  }
  err_stats st;
  memset(&st, 0, sizeof st);
  if (kfh_check_call(h, r->c, &st, 0)) return -1;
  if (!h->plan.cuda) evict_private_outputs(h, r->c);
  r->checked++;
  h->prof.checked++;
  h->prof.checks += since(t0);
  return 0;
}

/* A pair one of whose calls waited for a cpu more than the plan's share of its window (cpu plus wait) is counted
   (load.waited_pairs_kept), never dropped. Until 2026-11-27 such a pair was dropped and taken again, up to half the
   pairs kept plus two: the candidate's own wait is the candidate's to make (more runnable threads than cores, or all
   pinned to one cpu of its budget, on exactly the calls it wants dropped: its slow ones), so it chose which of its
   pairs counted (issue 31); dropping on the baseline's wait alone would bias every speedup low under load (the pairs
   with a slow baseline call dropped, those with a slow candidate call kept). Which pairs count is decided by nothing
   but their order. */
static void count_waited(struct harness *h, const case_run *r) {
  if (r->waited) h->sched.waited_kept++;
}

/* One paired sample (k: its index in the case). Paired: the baseline is timed beside the candidate for the
   whole timed phase, on the same sample's inputs, so a slow minute slows both, and the speedup is estimated
   from the pairs. With a baseline worker (every build since 2026-11-24) it runs in its own process on the
   shared data, timed exactly as the candidate is, and the two alternate which goes first (a drift inside a pair
   cancels out); the shared data is set up afresh before each. In-process (an older build): first, on its own
   copy of the inputs, whose outputs are then the expected ones. Small cases are flushed once per pair, before
   its first call: the second call's own data is cold anyway (written afresh with non-temporal stores), and a
   flush before each call doubled the harness's cost. */
static int paired_sample(struct harness *h, case_run *r, int k) {
  uint64_t seed = fresh_seed(h);
  int expected = 0, flagged;
  r->waited = 0;
  pair_low_clock = 0;
  int n_cand = r->cand.n, n_in = r->inside.n, n_base = r->base.n, n_bin = r->base_in.n;
  int cand_first = h->have_b && (k & 1);
  if (!cand_first) {
    if (baseline_sample(h, r, seed, r->flush)) return -1;
    expected = !h->have_b;
  }
  if (candidate_sample(h, r, seed, cand_first, &flagged)) return -1;
  if (check_sample(h, r, seed, expected, k)) return -1;
  /* The candidate's outputs are checked: the baseline worker may have the shared data now. */
  if (cand_first && baseline_sample(h, r, seed, 0)) return -1;
  count_waited(h, r);
  /* cuda: a pair one of whose calls ran under KF_LOW_CLOCK_SHARE of the SM's top clock (nvbench's rule) is taken
     again, up to half the pairs kept plus two; past that it is kept and counted. */
  if (pair_low_clock) {
    if (r->low_retaken < r->ratio.n / 2 + 2) {
      r->low_retaken++;
      kfh_truncate(&r->cand, n_cand);
      kfh_truncate(&r->inside, n_in);
      kfh_truncate(&r->base, n_base);
      kfh_truncate(&r->base_in, n_bin);
      return 0;
    }
    r->low_kept++;
  }
  /* cuda: the pair's ratio of the events' times (the figure ranked; the trusted outside times bound it, judge.ts). */
  if (h->plan.cuda && h->have_b) {
    if (!flagged && r->in > 0 && r->b_in > 0) kfh_push(&r->ratio, r->b_in / r->in);
  } else if (!flagged && r->o > 0) {
    kfh_push(&r->ratio, r->b / r->o);
  }
  return 0;
}

/* The stopping rule: both sides' medians and the paired speedup's interval are as precise as the plan asks,
   or the case's budget is spent. */
static int done_sampling(const struct harness *h, const case_run *r, double start, double budget) {
  double elapsed = now_ms() - start;
  int cuda = h->plan.cuda && h->have_b; /* cuda ranks the events' times */
  const series *cand = cuda ? &r->inside : &r->cand, *base = cuda ? &r->base_in : &r->base;
  return (kfh_converged(h, cand) && kfh_converged(h, base) && kfh_speedup_converged(h, &r->ratio)) ||
         elapsed > budget;
}

/* The workers' cpu and wait (schedstat) now: candidate cpu, candidate wait, baseline cpu, baseline wait (ns). */
static void sched_read(struct harness *h, long long s[4]) {
  s[2] = s[3] = 0;
  worker_sched_ns(&h->cand, &s[0], &s[1]);
  if (h->have_b) worker_sched_ns(&h->base, &s[2], &s[3]);
}

/* Adds the workers' cpu and wait since s0 (sched_read) to h->sched. */
static void sched_add(struct harness *h, const long long s0[4]) {
  long long s1[4];
  sched_read(h, s1);
  if (s1[0] >= s0[0] && s1[1] >= s0[1]) {
    h->sched.cand_cpu += (double)(s1[0] - s0[0]);
    h->sched.cand_wait += (double)(s1[1] - s0[1]);
  }
  if (h->have_b && s1[2] >= s0[2] && s1[3] >= s0[3]) {
    h->sched.base_cpu += (double)(s1[2] - s0[2]);
    h->sched.base_wait += (double)(s1[3] - s0[3]);
  }
}

/* Flagged calls are reported as a count: the judge (src/evaluate/judge.ts) counts each as the case's slowest
   clean sample, so that no flagged call makes a time faster. */
static void print_case(struct harness *h, const case_run *r, int first) {
  FILE *J = h->out;
  fprintf(J, "%s{\"name\":", first ? "" : ",");
  kfh_json_str(h, r->c->name);
  fputs(",\"sizes\":", J);
  kfh_print_sizes(h, r->c);
  fprintf(J, ",\"checked\":%d,\"flagged\":%d", r->checked, r->dropped);
  if (h->plan.cuda && h->have_b) {
    /* cuda: the events' times are what is ranked (optimized, baseline); the outside ones run from sending RUN to the
       trusted probe's answer (to the reply where the probe does not read that worker's data). */
    kfh_print_series(h, "optimized", &r->inside);
    kfh_print_series(h, "baseline", &r->base_in);
    kfh_print_series(h, "outside", &r->cand);
    kfh_print_series(h, "baseline_outside", &r->base);
    fprintf(J, ",\"low_clock_retaken\":%d,\"low_clock_kept\":%d,\"idle_samples\":%d,\"idle_max_us\":%.3f",
            r->low_retaken, r->low_kept, r->idle_samples, r->idle_max_ns * 1e-3);
  } else {
    kfh_print_series(h, "optimized", &r->cand);
    kfh_print_series(h, "baseline", &r->base);
  }
  kfh_print_series(h, "inside", &r->inside);
  kfh_print_series(h, "ratios", &r->ratio);
  fputc('}', J);
}

/* Samples one benchmark case (index of count, for the progress file), without printing it. */
static int sample_case(struct harness *h, case_run *r, double budget, int index, int count) {
  kfh_progress(h, "timing", index, count, 0, 0);
  double t0 = now_ms();
  h->case_runs = h->case_flagged = 0;
  if (warm_up(h, r)) return -1;
  h->prof.warmup += since(t0);
  long long s0[4];
  sched_read(h, s0);
  double start = now_ms();
  for (int k = 0;; k++) {
    if (paired_sample(h, r, k)) return -1;
    if (done_sampling(h, r, start, budget)) break;
    /* Between pairs, outside every timed window: throttled to a few writes a second. */
    kfh_progress(h, "timing", index, count, r->cand.n, 0);
  }
  sched_add(h, s0);
  kfh_progress(h, "timing", index, count, r->cand.n, 1);
  if (r->cand.n == 0) {
    char m[400];
    snprintf(m, sizeof m, "no call of case %s could be timed: %s (%d of %d calls)", r->c->name, h->flagged_why,
             h->flagged_calls, h->runs);
    kfh_fail(h, "all_calls_flagged", "rejected", m);
    return -1;
  }
  return 0;
}

/* Times and prints one benchmark case. */
static int time_case(struct harness *h, const case_desc *c, double budget, int first, int index, int count) {
  kfh_layout(h, c);
  case_run r;
  memset(&r, 0, sizeof r);
  r.c = c;
  r.flush = needs_flush(h, c);
  h->prof.flushed += r.flush;
  int rc = sample_case(h, &r, budget, index, count);
  if (rc == 0) print_case(h, &r, first);
  kfh_series_free(&r.cand);
  kfh_series_free(&r.base);
  kfh_series_free(&r.inside);
  kfh_series_free(&r.ratio);
  kfh_series_free(&r.base_in);
  return rc;
}

int kfh_timing(struct harness *h) {
  const plan_t *P = &h->plan;
  fputs(",\"bench\":[", h->out);
  int nbench = 0, printed = 0, rc = 0, timed = 0;
  for (int ci = 0; ci < P->ncases; ci++) nbench += P->cases[ci].bench;
  double budget = P->max_ms / (nbench ? nbench : 1), tstart = now_ms();
  for (int ci = 0; ci < P->ncases && rc == 0; ci++) {
    if (!P->cases[ci].bench) continue;
    rc = time_case(h, &P->cases[ci], budget, printed == 0, ++timed, nbench);
    printed += rc == 0;
  }
  h->prof.timing = since(tstart);
  fputs("]", h->out);
  return rc;
}
