/* Correctness: every test case x distribution x seed against the reference, each call twice (determinism),
   and the check of every returned call (also of the timed samples that are checked, harness_timing.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "harness_internal.h"

/* Any input changed by the candidate (the shared copy against the private one): the verdict set. */
static int inputs_modified(struct harness *h, const case_desc *c, err_stats *st) {
  for (int i = 0; i < h->plan.nargs; i++)
    if (h->plan.args[i].is_ptr && h->plan.args[i].role == R_IN &&
        memcmp(h->shm + h->offs[i], h->priv + h->offs[i], kfh_bytes_of(h, c, i))) {
      snprintf(st->message, sizeof st->message, "input %s was modified", h->plan.args[i].name);
      st->failed = 1;
      kfh_fail(h, "wrote_input", "incorrect", st->message);
      return -1;
    }
  return 0;
}

/* Every output against the reference's; errors into st. */
static void compare_outputs(struct harness *h, const case_desc *c, err_stats *st, int check_inputs) {
  const plan_t *P = &h->plan;
  for (int i = 0; i < P->nargs; i++) {
    if (!kfh_is_output(h, i)) continue;
    size_t n = kfh_count_of(h, c, i);
    /* The absolute tolerance is at most a share of the reference output's RMS, so an output of zeros (or any
       constant) never passes against a reference whose values are all small; an honest reordered sum's error
       scales with its values and still passes. */
    double rms = output_rms(P->args[i].etype, h->priv + h->offs[i], n);
    double atol = rms > 0 ? fmin(P->atol, P->atol_rms_share * rms) : P->atol;
    if (!(!check_inputs && P->args[i].etype == ET_F32 &&
          outputs_close_f32((const float *)(kfh_outputs(h) + h->offs[i]), (const float *)(h->priv + h->offs[i]), n,
                            (float)atol, (float)P->rtol)))
      compare_output(P->args[i].name, P->args[i].etype, kfh_outputs(h) + h->offs[i], h->priv + h->offs[i], n, atol, P->rtol,
                     st);
  }
}

/* Checks one returned call: work left running, inputs untouched, outputs against the reference. */
int kfh_check_call(struct harness *h, const case_desc *c, err_stats *st, int check_inputs) {
  if (kfh_after_return(h) < 0) {
    snprintf(st->message, sizeof st->message, "work still running after return");
    st->failed = 1;
    return -1;
  }
  if (check_inputs && inputs_modified(h, c, st)) return -1;
  compare_outputs(h, c, st, check_inputs);
  if (st->failed) {
    char m[400];
    snprintf(m, sizeof m, "case %s: %s", c->name, st->message);
    kfh_fail(h, "outputs_differ", "incorrect", m);
    return -1;
  }
  return 0;
}

static int outputs_equal_saved(const struct harness *h, const case_desc *c) {
  for (int i = 0; i < h->plan.nargs; i++)
    if (kfh_is_output(h, i) && memcmp(kfh_outputs(h) + h->offs[i], h->saved + h->offs[i], kfh_bytes_of(h, c, i))) return 0;
  return 1;
}

static void save_outputs(struct harness *h, const case_desc *c) {
  for (int i = 0; i < h->plan.nargs; i++)
    if (kfh_is_output(h, i)) memcpy(h->saved + h->offs[i], kfh_outputs(h) + h->offs[i], kfh_bytes_of(h, c, i));
}

/* After a correct first call: outputs must stay put after return, and the same inputs must give the same bits
   on a second call. 1: failed (st says why, the verdict set where it is this step's). */
static int check_determinism(struct harness *h, const case_desc *c, uint64_t seed, int dist, err_stats *st) {
  double o, in;
  save_outputs(h, c);
  struct timespec ts = {0, 2000000};
  nanosleep(&ts, NULL);
  if (!outputs_equal_saved(h, c)) {
    snprintf(st->message, sizeof st->message, "outputs changed after solution() returned");
    kfh_fail(h, "outputs_changed_after_return", "rejected", st->message);
    st->failed = 1;
    return 1;
  }
  kfh_setup(h, c, seed, dist);
  err_stats again;
  memset(&again, 0, sizeof again);
  if (kfh_timed_call(h, &h->cand, c, &o, &in)) {
    kfh_worker_failure(h, &h->cand, "while checking determinism");
    snprintf(st->message, sizeof st->message, "%s", h->cand.error);
    st->failed = 1;
    return 1;
  }
  if (kfh_check_call(h, c, &again, 1)) {
    /* Wrong on the second call (e.g. a cache keyed by pointer): incorrect, not merely nondeterministic. */
    snprintf(st->message, sizeof st->message, "second call: %s", again.message);
    st->failed = 1;
    return 1;
  }
  if (!outputs_equal_saved(h, c)) {
    snprintf(st->message, sizeof st->message, "the same inputs gave different outputs on a second run");
    char m[400];
    snprintf(m, sizeof m, "case %s: %s", c->name, st->message);
    kfh_fail(h, "nondeterministic", "nondeterministic", m);
    st->failed = 1;
    return 1;
  }
  return 0;
}

static void print_entry(struct harness *h, const case_desc *c, uint64_t seed, int dist, const err_stats *st) {
  FILE *J = h->out;
  fprintf(J, "%s{\"name\":", h->ncorr++ ? "," : "");
  kfh_json_str(h, c->name);
  fputs(",\"sizes\":", J);
  kfh_print_sizes(h, c);
  fprintf(J, ",\"seed\":%lu,\"distribution\":\"%s\",\"passed\":%s", (unsigned long)(seed % 2147483647u),
          kfh_dist_name(dist), st->failed ? "false" : "true");
  fputs(",\"max_abs_error\":", J);
  kfh_json_num(h, st->count ? st->max_abs : NAN);
  fputs(",\"mean_abs_error\":", J);
  kfh_json_num(h, st->count ? st->sum_abs / (double)st->count : NAN);
  fputs(",\"max_rel_error\":", J);
  kfh_json_num(h, st->count ? st->max_rel : NAN);
  fputs(",\"mean_rel_error\":", J);
  kfh_json_num(h, st->count ? st->sum_rel / (double)st->count : NAN);
  if (st->failed) {
    fputs(",\"message\":", J);
    kfh_json_str(h, st->message);
  }
  fputc('}', J);
}

/* One test case on one seed and distribution, reported as one entry. 1: it failed (the verdict set). */
static int check_one(struct harness *h, const case_desc *c, uint64_t seed, int dist) {
  kfh_setup(h, c, seed, dist);
  kfh_run_reference(h, c);
  err_stats st;
  memset(&st, 0, sizeof st);
  double o, in;
  int bad = 0;
  if (kfh_timed_call(h, &h->cand, c, &o, &in)) {
    kfh_worker_failure(h, &h->cand, "while checking correctness");
    snprintf(st.message, sizeof st.message, "%s", h->cand.error);
    st.failed = 1;
    bad = 1;
  } else if (kfh_check_call(h, c, &st, 1)) {
    bad = 1;
  } else {
    bad = check_determinism(h, c, seed, dist, &st);
  }
  print_entry(h, c, seed, dist, &st);
  return bad;
}

int kfh_correctness(struct harness *h) {
  const plan_t *P = &h->plan;
  fputs("\"correctness\":[", h->out);
  int ntest = 0, ti = 0;
  for (int ci = 0; ci < P->ncases; ci++) ntest += !P->cases[ci].bench;
  for (int ci = 0; ci < P->ncases; ci++) {
    const case_desc *c = &P->cases[ci];
    if (c->bench) continue;
    kfh_layout(h, c);
    kfh_progress(h, "correctness", ++ti, ntest, 0, 0);
    for (int di = 0; di < P->ndists; di++)
      for (int si = 0; si < P->nseeds; si++) {
        uint64_t seed = P->seeds[si] + (uint64_t)ci * 1000003u + (uint64_t)di * 7919u;
        if (check_one(h, c, seed, P->dists[di])) {
          fputs("]", h->out);
          return -1;
        }
      }
  }
  fputs("]", h->out);
  return 0;
}
