/* The trusted harness: generates inputs, runs the reference, drives the sandboxed candidate through the
   worker protocol, checks every output it is handed back and times the calls from outside. Prints one
   JSON report on stdout; the runner turns it into an EvaluationState.
   usage: harness PLAN LAUNCH BASELINE_LAUNCH|- DROP_UID [LOCK_FD]
   (fds 3 and 4: the worker's stdout, stderr; LOCK_FD: the host-wide timing lock of the device) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"

static plan_t P;
static char *shm, *priv, *saved;
static size_t offs[KF_MAX_ARGS];
static worker_t W, B;
static int have_b;
static double nop_ms, nop_p90_ms;
static FILE *J; /* the report */

static void json_str(const char *s) {
  fputc('"', J);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(J, "\\%c", c);
    else if (c < 0x20 || c >= 0x7f) fprintf(J, "\\u%04x", c);
    else fputc(c, J);
  }
  fputc('"', J);
}

static void json_num(double v) {
  if (isfinite(v)) fprintf(J, "%.9g", v);
  else fputs("null", J);
}

static size_t count_of(const case_desc *c, int i) { return P.args[i].is_ptr ? (size_t)c->vals[i] : 0; }

static size_t layout(const case_desc *c) {
  size_t total = 0;
  for (int i = 0; i < P.nargs; i++) {
    offs[i] = total;
    if (P.args[i].is_ptr) total += (count_of(c, i) * elem_size(P.args[i].etype) + 4095) & ~(size_t)4095;
  }
  return total + 4096;
}

static void scalar_arg(kf_arg *a, int i, double v) {
  switch (P.args[i].etype) {
    case ET_F32: a->f32 = (float)v; break;
    case ET_F64: a->f64 = v; break;
    case ET_I32: a->i32 = (int32_t)v; break;
    default: a->i64 = (int64_t)v;
  }
}

static void args_for(const case_desc *c, char *base, kf_arg *a, int offsets) {
  for (int i = 0; i < P.nargs; i++) {
    memset(&a[i], 0, sizeof a[i]);
    if (P.args[i].is_ptr) {
      if (offsets) a[i].off = (int64_t)offs[i];
      else a[i].p = base + offs[i];
    } else {
      scalar_arg(&a[i], i, c->vals[i]);
    }
  }
}

static int is_input(int i) { return P.args[i].is_ptr && (P.args[i].role == R_IN || P.args[i].role == R_INOUT); }
static int is_output(int i) { return P.args[i].is_ptr && (P.args[i].role == R_OUT || P.args[i].role == R_INOUT); }
static size_t bytes_of(const case_desc *c, int i) { return count_of(c, i) * elem_size(P.args[i].etype); }

/* Fresh inputs and poisoned outputs in the shared copy the candidate sees. */
static void setup_shared(const case_desc *c, uint64_t seed, int dist) {
  for (int i = 0; i < P.nargs; i++) {
    if (!P.args[i].is_ptr) continue;
    if (is_input(i)) gen_input(P.args[i].etype, shm + offs[i], count_of(c, i), dist, seed * 131 + (uint64_t)i);
    else fill_poison(P.args[i].etype, shm + offs[i], count_of(c, i));
  }
}

/* The same inputs in the harness's private copy, the reference's. Generated again from the seed rather
   than copied from the shared copy, which the sandbox can write at any time. */
static void setup_private(const case_desc *c, uint64_t seed, int dist, int poison_outputs) {
  for (int i = 0; i < P.nargs; i++) {
    if (!P.args[i].is_ptr) continue;
    if (is_input(i)) gen_input(P.args[i].etype, priv + offs[i], count_of(c, i), dist, seed * 131 + (uint64_t)i);
    else if (poison_outputs) fill_poison(P.args[i].etype, priv + offs[i], count_of(c, i));
  }
}

/* Fresh inputs in both copies, poisoned outputs in the shared one. */
static void setup(const case_desc *c, uint64_t seed, int dist) {
  setup_private(c, seed, dist, 0);
  setup_shared(c, seed, dist);
}

/* Where the time goes (ms), reported as "profile": bench/runner-profile.mjs prints it. */
static struct {
  double start, worker_start, calibrate, correctness, baseline_start, warmup, setup, setup_private, flush,
      baseline_calls, calls, checks, busy, timing;
  int samples, baseline_samples, checked, flushed, timing_flagged;
} prof;

static void fail(const char *v, const char *msg);
static char message[512]; /* the verdict's message (defined below) */

/* Calls of the candidate flagged for work outside their timed window (worker_busy_after_return). A flagged
   timing sample is not used as measured: it counts as the case's slowest clean sample (timing()), so no
   flagged call shortens a measured time. The kernel is rejected once flagged calls are at least
   P.flagged_min and more than P.flagged_share of its calls (the judge's rule, from the plan), in all or on
   one benchmark case: on a loaded machine
   an honest kernel is flagged on a few calls in a hundred (a thread's cpu time read while it runs lags by up
   to a scheduler tick, and the lag shows up after the reply), while one that works outside its calls is
   flagged on every such call. */
static int runs, flagged_calls, case_runs, case_flagged;
static char flagged_why[200];

/* After a call of W returned: 0 clean, 1 flagged (its time must not count), -1 rejected (the verdict set). */
static int after_return(void) {
  int r = worker_busy_after_return(&W);
  if (r == 0) return 0;
  if (r == 2) {
    fail("rejected", W.why);
    return -1;
  }
  if (!W.after_counted) {
    W.after_counted = 1;
    flagged_calls++;
    case_flagged++;
    snprintf(flagged_why, sizeof flagged_why, "%s", W.why);
  }
  int all = flagged_calls >= P.flagged_min && flagged_calls > P.flagged_share * runs;
  if (all || (case_flagged >= P.flagged_min && case_flagged > P.flagged_share * case_runs)) {
    char m[400];
    snprintf(m, sizeof m, "%s (%d of %d calls%s)", W.why, all ? flagged_calls : case_flagged, all ? runs : case_runs,
             all ? "" : " on one benchmark case");
    fail("rejected", m);
    return -1;
  }
  return 1;
}

static void run_reference(const case_desc *c) {
  kf_arg a[KF_MAX_ARGS];
  args_for(c, priv, a, 0);
  kf_call_reference(a);
}

/* One call of a worker; the time seen from outside its process, less the calibrated round trip. */
static int timed_call(worker_t *w, const case_desc *c, double *outside, double *inside) {
  kf_arg a[KF_MAX_ARGS];
  kf_reply rep;
  args_for(c, NULL, a, 1);
  double used;
  if (w == &W && worker_used_cpu_between_calls(w, &used)) {
    char m[200];
    snprintf(m, sizeof m, "work was still running after solution() returned (the sandbox used %.1f ms of cpu between calls)", used);
    fail("rejected", m);
    snprintf(w->error, sizeof w->error, "%s", m);
    return -2;
  }
  if (P.cuda && worker_call(w, KF_OP_PREPARE, NULL, 0, P.call_timeout_ms, &rep)) return -1;
  if (w == &W) runs++, case_runs++;
  double t0 = now_ms();
  if (worker_call(w, KF_OP_RUN, a, P.nargs, P.call_timeout_ms, &rep)) return -1;
  double t1 = now_ms();
  /* Straight after the reply, before the harness does anything else: cpu used from here on was not timed. */
  if (w == &W && !P.cuda && after_return() < 0) {
    snprintf(w->error, sizeof w->error, "%s", message);
    return -2;
  }
  /* The baseline gets the same quiet after its reply as the candidate (whose threads after_return waits for): its
     OpenMP team parks before the harness goes on, instead of still parking, runnable, into the candidate's next
     call. Beside a busy core the baseline's threads spent 29-34% of their runnable time waiting for a cpu and the
     candidate's 2-4% (19_ReLU, schedstat over the timed samples) before this wait. Judging nothing: a custom
     problem's reference is its author's, and at most 20 ms are spent on it. */
  if (w == &B && !P.cuda) worker_quiet(&B, 20.0);
  if (P.cuda && worker_call(w, KF_OP_FETCH, NULL, 0, P.call_timeout_ms, &rep)) return -1;
  if (rep.status != 0) {
    if (P.cuda && rep.status > 0 && rep.status < 1000)
      snprintf(w->error, sizeof w->error, "the worker reported error %d (a cuda call failed)", rep.status);
    else
      snprintf(w->error, sizeof w->error,
               "the worker's reply was not one the stub sends (status %d): something else wrote to its reply pipe",
               rep.status);
    return -1;
  }
  *outside = fmax(t1 - t0 - nop_ms, 0.0);
  *inside = (double)rep.inside_ns * 1e-6;
  return 0;
}

static const char *dist_name(int d) {
  static const char *n[] = {"uniform", "normal", "positive", "small_int"};
  return n[d];
}

static void print_sizes(const case_desc *c) {
  fputc('{', J);
  int first = 1;
  for (int i = 0; i < P.nargs; i++) {
    if (P.args[i].is_ptr) continue;
    fprintf(J, "%s", first ? "" : ",");
    json_str(P.args[i].name);
    fputc(':', J);
    json_num(c->vals[i]);
    first = 0;
  }
  fputc('}', J);
}

static const char *verdict = "accepted";
static char message[512] = "";
static int ncorr;

static void fail(const char *v, const char *msg) {
  verdict = v;
  snprintf(message, sizeof message, "%s", msg);
}

static void worker_failure(worker_t *w, const char *during) {
  if (!strcmp(verdict, "rejected")) return; /* timed_call found work left running: that is the verdict */
  char m[512];
  snprintf(m, sizeof m, "%s: %s", during, w->error);
  fail(w->timed_out ? "timeout" : "runtime_error", m);
}

/* Checks one returned call: work left running, inputs untouched, outputs against the reference. */
static int check_call(const case_desc *c, err_stats *st, int check_inputs) {
  if (after_return() < 0) {
    snprintf(st->message, sizeof st->message, "work still running after return");
    st->failed = 1;
    return -1;
  }
  if (check_inputs)
    for (int i = 0; i < P.nargs; i++)
      if (P.args[i].is_ptr && P.args[i].role == R_IN && memcmp(shm + offs[i], priv + offs[i], bytes_of(c, i))) {
        snprintf(st->message, sizeof st->message, "input %s was modified", P.args[i].name);
        st->failed = 1;
        fail("incorrect", st->message);
        return -1;
      }
  for (int i = 0; i < P.nargs; i++) {
    if (!is_output(i)) continue;
    /* The absolute tolerance is at most a share of the reference output's RMS, so an output of zeros (or any
       constant) never passes against a reference whose values are all small; an honest reordered sum's error
       scales with its values and still passes. */
    double rms = output_rms(P.args[i].etype, priv + offs[i], count_of(c, i));
    double atol = rms > 0 ? fmin(P.atol, P.atol_rms_share * rms) : P.atol;
    if (!(!check_inputs && P.args[i].etype == ET_F32 &&
          outputs_close_f32((const float *)(shm + offs[i]), (const float *)(priv + offs[i]), count_of(c, i), (float)atol,
                            (float)P.rtol)))
      compare_output(P.args[i].name, P.args[i].etype, shm + offs[i], priv + offs[i], count_of(c, i), atol, P.rtol, st);
  }
  if (st->failed) {
    char m[400];
    snprintf(m, sizeof m, "case %s: %s", c->name, st->message);
    fail("incorrect", m);
    return -1;
  }
  return 0;
}

static int outputs_equal_saved(const case_desc *c) {
  for (int i = 0; i < P.nargs; i++)
    if (is_output(i) && memcmp(shm + offs[i], saved + offs[i], bytes_of(c, i))) return 0;
  return 1;
}

static void save_outputs(const case_desc *c) {
  for (int i = 0; i < P.nargs; i++)
    if (is_output(i)) memcpy(saved + offs[i], shm + offs[i], bytes_of(c, i));
}

static int correctness(void) {
  fputs("\"correctness\":[", J);
  for (int ci = 0; ci < P.ncases; ci++) {
    const case_desc *c = &P.cases[ci];
    if (c->bench) continue;
    layout(c);
    for (int di = 0; di < P.ndists; di++)
      for (int si = 0; si < P.nseeds; si++) {
        uint64_t seed = P.seeds[si] + (uint64_t)ci * 1000003u + (uint64_t)di * 7919u;
        setup(c, seed, P.dists[di]);
        run_reference(c);
        err_stats st;
        memset(&st, 0, sizeof st);
        double o, in;
        int bad = 0;
        if (timed_call(&W, c, &o, &in)) {
          worker_failure(&W, "while checking correctness");
          snprintf(st.message, sizeof st.message, "%s", W.error);
          st.failed = 1;
          bad = 1;
        } else if (check_call(c, &st, 1)) {
          bad = 1;
        } else {
          /* Outputs must stay put after return, and the same inputs must give the same bits. */
          save_outputs(c);
          struct timespec ts = {0, 2000000};
          nanosleep(&ts, NULL);
          if (!outputs_equal_saved(c)) {
            snprintf(st.message, sizeof st.message, "outputs changed after solution() returned");
            fail("rejected", st.message);
            st.failed = bad = 1;
          } else {
            setup(c, seed, P.dists[di]);
            err_stats again;
            memset(&again, 0, sizeof again);
            if (timed_call(&W, c, &o, &in)) {
              worker_failure(&W, "while checking determinism");
              snprintf(st.message, sizeof st.message, "%s", W.error);
              st.failed = bad = 1;
            } else if (check_call(c, &again, 1)) {
              /* Wrong on the second call (e.g. a cache keyed by pointer): incorrect, not merely nondeterministic. */
              snprintf(st.message, sizeof st.message, "second call: %s", again.message);
              st.failed = bad = 1;
            } else if (!outputs_equal_saved(c)) {
              snprintf(st.message, sizeof st.message, "the same inputs gave different outputs on a second run");
              char m[400];
              snprintf(m, sizeof m, "case %s: %s", c->name, st.message);
              fail("nondeterministic", m);
              st.failed = bad = 1;
            }
          }
        }
        fprintf(J, "%s{\"name\":", ncorr++ ? "," : "");
        json_str(c->name);
        fputs(",\"sizes\":", J);
        print_sizes(c);
        fprintf(J, ",\"seed\":%lu,\"distribution\":\"%s\",\"passed\":%s", (unsigned long)(seed % 2147483647u),
                dist_name(P.dists[di]), st.failed ? "false" : "true");
        fputs(",\"max_abs_error\":", J);
        json_num(st.count ? st.max_abs : NAN);
        fputs(",\"mean_abs_error\":", J);
        json_num(st.count ? st.sum_abs / (double)st.count : NAN);
        fputs(",\"max_rel_error\":", J);
        json_num(st.count ? st.max_rel : NAN);
        fputs(",\"mean_rel_error\":", J);
        json_num(st.count ? st.sum_rel / (double)st.count : NAN);
        if (st.failed) {
          fputs(",\"message\":", J);
          json_str(st.message);
        }
        fputc('}', J);
        if (bad) {
          fputs("]", J);
          return -1;
        }
      }
  }
  fputs("]", J);
  return 0;
}

typedef struct {
  double *v;
  int n, cap;
  double sum, sumsq;
} series;

static void push(series *s, double x) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 64;
    s->v = realloc(s->v, sizeof(double) * (size_t)s->cap);
  }
  s->v[s->n++] = x;
  s->sum += x;
  s->sumsq += x * x;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* Linear interpolation between order statistics; p in [0, 1]. */
static double quantile(const double *sorted, int n, double p) {
  double r = p * (n - 1);
  if (r <= 0) return sorted[0];
  if (r >= n - 1) return sorted[n - 1];
  int k = (int)r;
  return sorted[k] + (r - k) * (sorted[k + 1] - sorted[k]);
}

/* The reported statistic is the median, so the rule is on the median's standard error, estimated without
   assuming a distribution: the rank of the sample median varies by about sqrt(n)/2 around n/2, so half the
   distance between the order statistics at ranks n/2 -+ sqrt(n)/2 is one standard error. Outliers (a
   preempted sample on a shared machine) move it only when they make up nearly half the samples, so one slow
   sample cannot keep a stable kernel running for the whole budget. */
static double median_rse(const series *s) {
  if (s->n < 2) return INFINITY;
  double *v = malloc(sizeof(double) * (size_t)s->n);
  memcpy(v, s->v, sizeof(double) * (size_t)s->n);
  qsort(v, (size_t)s->n, sizeof(double), cmp_double);
  double h = 0.5 / sqrt((double)s->n);
  double med = quantile(v, s->n, 0.5), se = (quantile(v, s->n, 0.5 + h) - quantile(v, s->n, 0.5 - h)) / 2;
  free(v);
  return med > 0 ? se / med : INFINITY;
}

static int converged(const series *s) {
  if (s->n < (int)P.min_samples || s->sum < P.min_ms) return 0;
  return median_rse(s) <= P.target_rse;
}

/* The half-width of the median's distribution-free 95% interval over the median: the order statistics at ranks
   n/2 -+ 1.96 sqrt(n)/2, as the judge's medianInterval() publishes it (src/evaluate/judge.ts). */
static double median_rel_half_width(const series *s) {
  int n = s->n;
  if (n < 6) return INFINITY;
  double *v = malloc(sizeof(double) * (size_t)n);
  memcpy(v, s->v, sizeof(double) * (size_t)n);
  qsort(v, (size_t)n, sizeof(double), cmp_double);
  double half = 1.96 * sqrt((double)n) / 2;
  int lo = (int)floor(n / 2.0 - half), hi = (int)ceil(n / 2.0 + half) - 1;
  if (lo < 0) lo = 0;
  if (hi > n - 1) hi = n - 1;
  double med = quantile(v, n, 0.5), hw = (v[hi] - v[lo]) / 2;
  free(v);
  return med > 0 ? hw / med : INFINITY;
}

/* Paired: the speedup is the median of the pairs' ratios, so sampling also goes on until its 95% interval is
   as narrow as the plan asks (or the budget is spent). */
static int speedup_converged(const series *ratio) {
  if (P.speedup_half_width <= 0) return 1;
  return median_rel_half_width(ratio) <= P.speedup_half_width;
}

static void print_series(const char *key, const series *s) {
  fprintf(J, ",\"%s\":[", key);
  for (int i = 0; i < s->n; i++) {
    if (i) fputc(',', J);
    json_num(s->v[i]);
  }
  fputc(']', J);
}

static double uniform01(void) {
  uint32_t r = 0;
  if (getrandom(&r, sizeof r, 0) != sizeof r) r = (uint32_t)rand();
  return r / 4294967296.0;
}

/* A timed sample's seed: 64 bits from the operating system's random source, drawn after the previous call
   returned, so nothing the candidate saw before (earlier inputs, the plan's seeds, the clock) predicts it. */
static uint64_t fresh_seed(void) {
  uint64_t r = 0;
  size_t got = 0;
  while (got < sizeof r) {
    ssize_t n = getrandom((char *)&r + got, sizeof r - got, 0);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      fail("runtime_error", "the operating system's random source failed");
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
static int needs_flush(const case_desc *c) {
  if (P.cuda) return 0; /* the worker's PREPARE flushes the device's L2; the host's caches do not matter */
  if (P.flush == FLUSH_ALWAYS) return 1;
  size_t bytes = 0;
  for (int i = 0; i < P.nargs; i++)
    if (P.args[i].is_ptr) bytes += bytes_of(c, i);
  return bytes < 2 * llc_bytes();
}

static double since(double t0) { return now_ms() - t0; }

/* Drops the reference's (dirty) outputs from the cache: see needs_flush. */
static void evict_private_outputs(const case_desc *c) {
  for (int i = 0; i < P.nargs; i++)
    if (is_output(i)) evict(priv + offs[i], bytes_of(c, i));
}

/* One baseline sample. cpu: the reference, in-process, on fresh private inputs set up exactly as the
   candidate's are (the expected outputs of this seed come out of it); cuda: the baseline worker. */
static int time_baseline(const case_desc *c, uint64_t seed, int flush, double *ms) {
  if (have_b) {
    /* The baseline worker: the reference built as a candidate would be, timed exactly as the candidate is (the
       shared data set up by the caller, the same flush, the same round trip less the same no-op median). */
    if (flush) {
      double t0 = now_ms();
      flush_caches();
      prof.flush += since(t0);
    }
    double in, t0 = now_ms();
    if (timed_call(&B, c, ms, &in)) {
      worker_failure(&B, "the baseline failed");
      verdict = "runtime_error";
      return -1;
    }
    prof.baseline_calls += since(t0);
    return 0;
  }
  double t0 = now_ms();
  setup_private(c, seed, P.dists[0], 1);
  prof.setup_private += since(t0);
  if (flush) {
    t0 = now_ms();
    flush_caches();
    prof.flush += since(t0);
  }
  t0 = now_ms();
  run_reference(c);
  *ms = since(t0);
  prof.baseline_calls += *ms;
  t0 = now_ms();
  evict_private_outputs(c);
  prof.setup_private += since(t0);
  return 0;
}

/* The workers' time runnable but waiting for a cpu over the timed samples (schedstat), against their cpu time:
   a neighbour on the machine shows as a recorded share, not only as slower samples. */
static struct {
  double cand_cpu, cand_wait, base_cpu, base_wait;
} sched;

static double wait_share(double cpu, double wait) { return cpu + wait > 0 ? wait / (cpu + wait) : -1; }

static int timing(void) {
  fputs(",\"bench\":[", J);
  int nbench = 0, printed = 0;
  for (int ci = 0; ci < P.ncases; ci++) nbench += P.cases[ci].bench;
  double budget = P.max_ms / (nbench ? nbench : 1), tstart = now_ms();
  for (int ci = 0; ci < P.ncases; ci++) {
    const case_desc *c = &P.cases[ci];
    if (!c->bench) continue;
    layout(c);
    int flush = needs_flush(c);
    prof.flushed += flush;
    double o, in, b, t0 = now_ms();
    case_runs = case_flagged = 0;
    /* Warm-up on this case's sizes: page faults, OpenMP start-up, frequency ramp. */
    setup(c, P.bench_seed, P.dists[0]);
    double wstart = now_ms();
    for (int k = 0; k < P.warmup_calls || now_ms() - wstart < P.warmup_ms; k++)
      if (timed_call(&W, c, &o, &in)) {
        worker_failure(&W, "during warm-up");
        goto out;
      }
    if (have_b) {
      /* The baseline worker warms up as the candidate did: page faults, thread start-up, frequency. */
      wstart = now_ms();
      for (int k = 0; k < P.warmup_calls || now_ms() - wstart < P.warmup_ms; k++) {
        setup_shared(c, P.bench_seed, P.dists[0]);
        if (timed_call(&B, c, &o, &in)) {
          worker_failure(&B, "the baseline failed during warm-up");
          verdict = "runtime_error";
          goto out;
        }
      }
    } else if (time_baseline(c, P.bench_seed, flush, &b)) {
      goto out;
    }
    prof.warmup += since(t0);
    series cand = {0}, base = {0}, inside = {0}, ratio = {0};
    int checked = 0, dropped = 0;
    long long wc0, ww0, bc0 = 0, bw0 = 0;
    worker_sched_ns(&W, &wc0, &ww0);
    if (have_b) worker_sched_ns(&B, &bc0, &bw0);
    double start = now_ms();
    for (int k = 0;; k++) {
      uint64_t seed = fresh_seed();
      int expected = 0;
      /* Paired: the baseline is timed beside the candidate for the whole timed phase, on the same sample's
         inputs, so a slow minute slows both, and the speedup is estimated from the pairs. With a baseline worker
         (every build since 2026-11-24) it runs in its own process on the shared data, timed exactly as the
         candidate is, and the two alternate which goes first (a drift inside a pair cancels out); the shared
         data is set up afresh before each. In-process (an older build): first, on its own copy of the inputs,
         whose outputs are then the expected ones. */
      int cand_first = have_b && (k & 1);
      /* Small cases are flushed once per pair, before its first call: the second call's own data is cold anyway
         (written afresh with non-temporal stores), and a flush before each call doubled the harness's cost. */
      if (!cand_first) {
        t0 = now_ms();
        setup_shared(c, seed, P.dists[0]);
        prof.setup += since(t0);
        if (time_baseline(c, seed, flush, &b)) goto out;
        push(&base, b);
        prof.baseline_samples++;
        expected = !have_b;
      }
      if (have_b || cand_first) {
        t0 = now_ms();
        setup_shared(c, seed, P.dists[0]);
        prof.setup += since(t0);
      }
      if (flush && (cand_first || !have_b)) {
        t0 = now_ms();
        flush_caches();
        prof.flush += since(t0);
      }
      t0 = now_ms();
      if (timed_call(&W, c, &o, &in)) {
        worker_failure(&W, "while timing");
        goto out;
      }
      prof.calls += since(t0);
      double ta = now_ms();
      int flagged = after_return();
      prof.busy += since(ta);
      if (flagged < 0) goto out;
      if (!flagged) {
        prof.samples++;
        push(&cand, o);
        push(&inside, in);
      } else {
        dropped++;
        prof.timing_flagged++;
      }
      /* Which samples are checked is decided after the call, so a candidate cannot know. The reference
         runs only for these, on inputs regenerated from the seed. */
      int check = expected || P.ranked || uniform01() < P.check_prob || k == 0;
      t0 = now_ms();
      if (check) {
        if (!expected) {
          setup_private(c, seed, P.dists[0], 0);
          run_reference(c);
        }
        err_stats st;
        memset(&st, 0, sizeof st);
        if (check_call(c, &st, 0)) goto out;
        if (!P.cuda) evict_private_outputs(c);
        checked++;
        prof.checked++;
        prof.checks += since(t0);
      }
      if (cand_first) {
        /* The candidate's outputs are checked: the baseline worker may have the shared data now. */
        t0 = now_ms();
        setup_shared(c, seed, P.dists[0]);
        prof.setup += since(t0);
        if (time_baseline(c, seed, 0, &b)) goto out;
        push(&base, b);
        prof.baseline_samples++;
      }
      if (!flagged && o > 0) push(&ratio, b / o);
      double elapsed = now_ms() - start;
      if ((converged(&cand) && converged(&base) && speedup_converged(&ratio)) || elapsed > budget) break;
    }
    {
      long long wc1, ww1, bc1 = 0, bw1 = 0;
      worker_sched_ns(&W, &wc1, &ww1);
      if (have_b) worker_sched_ns(&B, &bc1, &bw1);
      if (wc1 >= wc0 && ww1 >= ww0) {
        sched.cand_cpu += (double)(wc1 - wc0);
        sched.cand_wait += (double)(ww1 - ww0);
      }
      if (have_b && bc1 >= bc0 && bw1 >= bw0) {
        sched.base_cpu += (double)(bc1 - bc0);
        sched.base_wait += (double)(bw1 - bw0);
      }
    }
    if (cand.n == 0) {
      char m[400];
      snprintf(m, sizeof m, "no call of case %s could be timed: %s (%d of %d calls)", c->name, flagged_why,
               flagged_calls, runs);
      fail("rejected", m);
      goto out;
    }
    /* Flagged calls are reported as a count: the judge (src/evaluate/judge.ts) counts each as the case's
       slowest clean sample, so that no flagged call makes a time faster. */
    fprintf(J, "%s{\"name\":", printed++ ? "," : "");
    json_str(c->name);
    fputs(",\"sizes\":", J);
    print_sizes(c);
    fprintf(J, ",\"checked\":%d,\"flagged\":%d", checked, dropped);
    print_series("optimized", &cand);
    print_series("baseline", &base);
    print_series("inside", &inside);
    print_series("ratios", &ratio);
    fputc('}', J);
    free(cand.v);
    free(base.v);
    free(inside.v);
    free(ratio.v);
  }
  prof.timing = since(tstart);
  fputs("]", J);
  return 0;
out:
  prof.timing = since(tstart);
  fputs("]", J);
  return -1;
}


/* One timing at a time per host and device: the runner passes an open lock file (one per device, host-wide,
   outside any data directory) as fd lock_fd; correctness checks and compiles overlap freely, the timed
   phase holds the lock. A holder that never lets go (a hostile custom reference can hold it for its own
   run) delays others by at most KF_LOCK_WAIT_MS, after which they time anyway and say so. */
static int lock_fd = -1;
#define KF_LOCK_WAIT_MS 120000.0
static struct {
  int have_lock_fd, locked, gave_up;
  double wait_ms, wall_ms, outside_cores;
  int cores;
} L = {0, 0, 0, 0, 0, -1, 0};

static void timing_lock(void) {
  if (lock_fd < 0 || fcntl(lock_fd, F_GETFD) < 0) return;
  L.have_lock_fd = 1;
  double t0 = now_ms();
  while (flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) break;
    if (now_ms() - t0 > KF_LOCK_WAIT_MS) {
      L.gave_up = 1;
      break;
    }
    struct timespec ts = {0, 5000000};
    nanosleep(&ts, NULL);
  }
  L.locked = !L.gave_up && flock(lock_fd, LOCK_EX | LOCK_NB) == 0;
  L.wait_ms = now_ms() - t0;
}

static void timing_unlock(void) {
  if (L.locked) flock(lock_fd, LOCK_UN);
  L.locked = 0;
}

/* Busy cpu time of the whole machine (ns) from /proc/stat: user, nice, system, irq, softirq and steal (a
   virtual machine's host taking the cpu is load too). */
static long long machine_busy_ns(void) {
  FILE *f = fopen("/proc/stat", "r");
  if (!f) return -1;
  unsigned long long v[8] = {0};
  int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
  fclose(f);
  if (n < 8) return -1;
  long tick = sysconf(_SC_CLK_TCK);
  unsigned long long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  return (long long)(busy * (1000000000ULL / (unsigned long long)(tick > 0 ? tick : 100)));
}

static long long own_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  long long ns = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
  return ns + worker_cpu_ns(&W) + (have_b ? worker_cpu_ns(&B) : 0);
}

/* Times every benchmark case under the host-wide lock, and measures from outside the sandbox how much
   other work the machine did meanwhile (in cores: busy cpu minus this evaluation's own, over the wall time). */
static void timed_phase(void) {
  timing_lock();
  long long busy0 = machine_busy_ns(), own0 = own_cpu_ns();
  double t0 = now_ms();
  timing();
  /* /proc/stat counts in ticks (10 ms): a short timed phase says nothing about the load around it, so the
     measurement window is held open (idle, lock still held) until it is at least P.load_window_ms long. A
     short phase under heavy load is then seen as such. */
  double left = P.load_window_ms - (now_ms() - t0);
  if (left > 0) {
    struct timespec ts = {(time_t)(left / 1000), (long)(fmod(left, 1000) * 1e6)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
  }
  L.wall_ms = now_ms() - t0;
  long long busy1 = machine_busy_ns(), own1 = own_cpu_ns();
  timing_unlock();
  L.cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (busy0 >= 0 && busy1 >= 0 && L.wall_ms > 0) {
    double other = (double)(busy1 - busy0) - (double)(own1 - own0);
    L.outside_cores = other > 0 ? other / (L.wall_ms * 1e6) : 0;
  }
}

static void print_load(void) {
  fprintf(J, ",\"load\":{\"outside_cores\":%.3f,\"cores\":%d,\"wall_ms\":%.3f,\"lock\":%s,\"lock_wait_ms\":%.3f,\"lock_gave_up\":%s",
          L.outside_cores, L.cores, L.wall_ms, L.have_lock_fd ? "true" : "false", L.wait_ms, L.gave_up ? "true" : "false");
  double cw = wait_share(sched.cand_cpu, sched.cand_wait), bw = wait_share(sched.base_cpu, sched.base_wait);
  if (cw >= 0) fprintf(J, ",\"wait_share\":%.4f", cw);
  if (bw >= 0) fprintf(J, ",\"baseline_wait_share\":%.4f", bw);
  fputc('}', J);
}

static void print_profile(void) {
  fprintf(J,
          ",\"profile\":{\"total_ms\":%.3f,\"worker_start_ms\":%.3f,\"calibrate_ms\":%.3f,\"correctness_ms\":%.3f,"
          "\"baseline_start_ms\":%.3f,\"timing_ms\":%.3f,\"warmup_ms\":%.3f,\"setup_ms\":%.3f,\"setup_private_ms\":%.3f,"
          "\"flush_ms\":%.3f,\"baseline_calls_ms\":%.3f,\"calls_ms\":%.3f,\"checks_ms\":%.3f,\"busy_ms\":%.3f,"
          "\"samples\":%d,\"baseline_samples\":%d,\"checked\":%d,\"flushed_cases\":%d,\"busy_windows\":%d,"
          "\"max_after_reply_ms\":%.4f,\"max_call_cpu_share\":%.4f,\"flagged_calls\":%d,\"timing_flagged\":%d,\"calls\":%d}",
          since(prof.start), prof.worker_start, prof.calibrate, prof.correctness, prof.baseline_start, prof.timing,
          prof.warmup, prof.setup, prof.setup_private, prof.flush, prof.baseline_calls, prof.calls, prof.checks,
          prof.busy, prof.samples, prof.baseline_samples, prof.checked, prof.flushed, busy_windows,
          (double)W.max_after_reply_ns * 1e-6, W.max_call_cpu_share, flagged_calls, prof.timing_flagged, runs);
}

int main(int argc, char **argv) {
  J = stdout;
  prof.start = now_ms();
  if (argc < 5) return 2;
  int rc = plan_read(argv[1], &P);
  if (rc) {
    fprintf(stderr, "bad plan (%d)\n", rc);
    return 2;
  }
  size_t max = 0;
  for (int ci = 0; ci < P.ncases; ci++) {
    size_t t = layout(&P.cases[ci]);
    if (t > max) max = t;
  }
  /* Sealed at its size: the worker holds this fd, and a candidate that shrank the file would make the
     harness's own accesses to the mapping fault (SIGBUS) instead of getting a verdict. */
  int shm_fd = memfd_create("kf-data", MFD_ALLOW_SEALING);
  if (shm_fd < 0 || ftruncate(shm_fd, (off_t)max)) return 3;
  if (fcntl(shm_fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) return 3;
  shm = mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
  priv = aligned_alloc(4096, max);
  saved = aligned_alloc(4096, max);
  if (shm == MAP_FAILED || !priv || !saved) return 3;
  int drop = atoi(argv[4]);
  if (argc > 5) lock_fd = atoi(argv[5]);
  fputs("{", J);
  double t0 = now_ms();
  W.cuda = B.cuda = P.cuda;
  int started = worker_start(&W, argv[2], shm_fd, 3, 4, drop);
  prof.worker_start = since(t0);
  if (started) {
    worker_failure(&W, "the candidate's process did not start");
    fputs("\"correctness\":[]", J);
  } else {
    double rt[33];
    kf_reply rep;
    t0 = now_ms();
    for (int i = 0; i < 33; i++) {
      double t0 = now_ms();
      if (worker_call(&W, KF_OP_NOP, NULL, 0, P.call_timeout_ms, &rep)) break;
      rt[i] = now_ms() - t0;
    }
    for (int i = 1; i < 33; i++)
      for (int j = i; j > 0 && rt[j] < rt[j - 1]; j--) {
        double t = rt[j];
        rt[j] = rt[j - 1];
        rt[j - 1] = t;
      }
    nop_ms = rt[16];
    nop_p90_ms = rt[29];
    prof.calibrate = since(t0);
    t0 = now_ms();
    if (W.dead) {
      worker_failure(&W, "the candidate's process died before its first call");
      fputs("\"correctness\":[]", J);
    } else if (correctness() == 0) {
      prof.correctness = since(t0);
      t0 = now_ms();
      if (strcmp(argv[3], "-") != 0) {
        int devnull = open("/dev/null", 1);
        if (worker_start(&B, argv[3], shm_fd, devnull, devnull, drop)) {
          fail("runtime_error", "the baseline worker did not start");
        } else {
          have_b = 1;
        }
      }
      prof.baseline_start = since(t0);
      if (!strcmp(verdict, "accepted")) timed_phase();
      if (have_b) worker_stop(&B);
    }
    worker_stop(&W);
  }
  print_profile();
  if (L.wall_ms > 0) print_load();
  fputs(",\"nop_ms\":", J);
  json_num(nop_ms);
  fputs(",\"nop_p90_ms\":", J);
  json_num(nop_p90_ms);
  fputs(",\"verdict\":", J);
  json_str(verdict);
  fputs(",\"message\":", J);
  json_str(message);
  fputs("}\n", J);
  fflush(J);
  return 0;
}
