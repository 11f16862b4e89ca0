/* One call: of a worker, timed from outside its process, or of the reference, in-process on the private copy;
   and what is seen of the candidate's sandbox right after its call returned (flagged calls). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness_internal.h"

/* After a call of the candidate returned: 0 clean, 1 flagged (its time must not count), -1 rejected (the
   verdict set). See struct harness for the rule. */
int kfh_after_return(struct harness *h) {
  int r = worker_busy_after_return(&h->cand);
  if (r == 0) return 0;
  if (r == 2 || r == 3) {
    kfh_fail(h, r == 3 ? "slept" : "work_after_return", r == 3 ? "timeout" : "rejected", h->cand.why);
    return -1;
  }
  if (!h->cand.after_counted) {
    h->cand.after_counted = 1;
    h->flagged_calls++;
    h->case_flagged++;
    snprintf(h->flagged_why, sizeof h->flagged_why, "%s", h->cand.why);
  }
  const plan_t *P = &h->plan;
  int all = kfh_flagged_rejects(P, h->flagged_calls, h->runs);
  if (all || kfh_flagged_rejects(P, h->case_flagged, h->case_runs)) {
    char m[400];
    snprintf(m, sizeof m, "%s (%d of %d calls%s)", h->cand.why, all ? h->flagged_calls : h->case_flagged,
             all ? h->runs : h->case_runs, all ? "" : " on one benchmark case");
    kfh_fail(h, "work_after_return", "rejected", m);
    return -1;
  }
  return 1;
}

/* After the candidate's last call, before its worker is stopped: no call follows to catch work done after the last
   reply (worker_used_cpu_between_calls), so the harness waits for quiet (up to 1 s) and looks once more. Work after
   the last reply finished the last call's outputs while the harness was checking them. */
void kfh_final_check(struct harness *h) {
  worker_t *w = &h->cand;
  if (w->dead || h->plan.cuda || strcmp(h->verdict, "accepted") != 0) return;
  worker_quiet(w, 1000.0);
  double used;
  int between = worker_used_cpu_between_calls(w, &used);
  if (!between) return;
  if (between == 2) {
    /* Only the last call's own last stretch (stretch_only): one more flagged call, rejected only when
       that puts the flagged calls past the judge's share. */
    w->between_flagged = 0;
    h->flagged_calls++;
    if (!kfh_flagged_rejects(&h->plan, h->flagged_calls, h->runs)) return;
    char m[600];
    snprintf(m, sizeof m, "%s (%d of %d calls)", w->between_why, h->flagged_calls, h->runs);
    kfh_fail(h, "work_after_return", "rejected", m);
    return;
  }
  char m[200];
  if (w->started_between)
    snprintf(m, sizeof m, "work went on after solution() returned (a thread was started after the last call)");
  else
    snprintf(m, sizeof m,
             "work was still running after solution() returned (the sandbox used %.1f ms of cpu after the last call)",
             used);
  kfh_fail(h, "work_after_return", "rejected", m);
}

void kfh_run_reference(struct harness *h, const case_desc *c) {
  kf_arg a[KF_MAX_ARGS];
  kfh_args_for(h, c, h->priv, a, 0);
  kf_call_reference(a);
}

/* A reply other than 0: why, in w->error. */
static void bad_reply(const struct harness *h, worker_t *w, int status) {
  if (h->plan.cuda && status > 0 && status < 1000)
    snprintf(w->error, sizeof w->error, "the worker reported error %d (a cuda call failed)", status);
  else
    snprintf(w->error, sizeof w->error,
             "the worker's reply was not one the stub sends (status %d): something else wrote to its reply pipe",
             status);
}

/* cuda: the trusted end of the call (harness_probe.c) right after its reply: the probe's keyed sum of the outputs.
   0: answered; -1: the probe failed (the verdict set for the candidate's worker). */
static int probe_end(struct harness *h, worker_t *w, const case_desc *c, int slot) {
  if (kfh_probe_sum(h, c, slot) == 0) return 0;
  snprintf(w->error, sizeof w->error, "%s", h->probe.why);
  return -1;
}

/* cuda, after the timed window: the outputs as the probe copies them, against its timed sum, and the SM clock. */
static int probe_after(struct harness *h, worker_t *w, const case_desc *c, int slot) {
  int m = kfh_probe_copy(h, c, slot);
  if (m < 0) {
    snprintf(w->error, sizeof w->error, "%s", h->probe.why);
    return -1;
  }
  h->last.low_clock = kf_low_clock(h->probe.sm_mhz, h->probe.max_mhz);
  if (m == 1) {
    const char *msg =
        "the outputs changed after the call returned (the trusted probe's keyed checksum, taken right after the reply, "
        "does not match the outputs copied after it): work went on after solution() returned";
    kfh_fail(h, "outputs_changed_after_return", "rejected", msg);
    snprintf(w->error, sizeof w->error, "%s", msg);
    return -2;
  }
  return 0;
}

/* One call of a worker; the time seen from outside its process, less the calibrated round trip. cuda: *inside is the
   stub's events around the call (flush, events and call queued back to back), *outside runs to the trusted probe's
   answer when the probe reads this worker's data (otherwise to the reply). */
int kfh_timed_call(struct harness *h, worker_t *w, const case_desc *c, double *outside, double *inside) {
  const plan_t *P = &h->plan;
  kf_arg a[KF_MAX_ARGS];
  kf_reply rep, run;
  kfh_args_for(h, c, NULL, a, 1);
  double used;
  /* 2: flagged, the call goes on (worker_busy_after_return flags it after its reply). */
  if (w == &h->cand && worker_used_cpu_between_calls(w, &used) == 1) {
    char m[400];
    if (w->started_between)
      snprintf(m, sizeof m, "work went on after solution() returned (a thread was started between calls)");
    else
      snprintf(m, sizeof m, "work was still running after solution() returned (the sandbox used %.1f ms of cpu between calls%s)",
               used, w->between_detail);
    kfh_fail(h, "work_after_return", "rejected", m);
    snprintf(w->error, sizeof w->error, "%s", m);
    return -2;
  }
  int slot = w == &h->cand ? 0 : 1, probed = P->cuda && h->probe.open[slot];
  h->last.low_clock = 0;
  if (P->cuda) {
    kf_arg busy;
    memset(&busy, 0, sizeof busy);
    busy.i64 = (int64_t)(P->cuda_busy_us * 1000.0);
    if (worker_call(w, KF_OP_PREPARE, &busy, 1, P->call_timeout_ms, &rep)) return -1;
  }
  if (w == &h->cand) h->runs++, h->case_runs++;
  double t0 = now_ms();
  if (worker_call(w, KF_OP_RUN, a, P->nargs, P->call_timeout_ms, &run)) return -1;
  if (probed && run.status == 0 && probe_end(h, w, c, slot)) return -1;
  double t1 = now_ms();
  /* Straight after the reply, before the harness does anything else: cpu used from here on was not timed. */
  if (w == &h->cand && !P->cuda && kfh_after_return(h) < 0) {
    snprintf(w->error, sizeof w->error, "%s", h->message);
    return -2;
  }
  /* The baseline gets the same quiet after its reply as the candidate (whose threads kfh_after_return waits for):
     its OpenMP team parks before the harness goes on, instead of still parking, runnable, into the candidate's
     next call. Beside a busy core the baseline's threads spent 29-34% of their runnable time waiting for a cpu
     and the candidate's 2-4% (19_ReLU, schedstat over the timed samples) before this wait. Judging nothing: a
     custom problem's reference is its author's, and at most 20 ms are spent on it. */
  if (w == &h->base && !P->cuda) worker_quiet(&h->base, 20.0);
  if (run.status != 0) {
    bad_reply(h, w, run.status);
    return -1;
  }
  if (probed) {
    int rc = probe_after(h, w, c, slot);
    if (rc) return rc;
  } else if (P->cuda) {
    if (worker_call(w, KF_OP_FETCH, NULL, 0, P->call_timeout_ms, &rep)) return -1;
    if (rep.status != 0) {
      bad_reply(h, w, rep.status);
      return -1;
    }
  }
  *outside = fmax(t1 - t0 - h->nop_ms, 0.0);
  /* (Until 2026-11-27 the FETCH's reply overwrote the RUN's, and every cuda case reported inside 0.) */
  *inside = (double)run.inside_ns * 1e-6;
  h->last.inside = *inside;
  h->last.idle_ns = (double)run.aux_ns;
  return 0;
}
