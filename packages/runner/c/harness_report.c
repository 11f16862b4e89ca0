/* The verdict, and the JSON report on stdout (the runner's src/harness/report-json.ts reads it). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness_internal.h"

/* A failure seen: the fact (a code of the judge's table, src/evaluate/judge/facts.ts, which decides the verdict) and
   its message. `v` is the harness's own reading of the fact, reported beside it as a cross-check only: the judge calls
   a report whose verdict is not its fact's a runtime_error. */
void kfh_fail(struct harness *h, const char *fact, const char *v, const char *msg) {
  h->fact = fact;
  h->verdict = v;
  snprintf(h->message, sizeof h->message, "%s", msg);
}

/* The fact and the verdict changed, the message kept (the baseline failed after the candidate's failure was seen). */
void kfh_refail(struct harness *h, const char *fact, const char *v) {
  h->fact = fact;
  h->verdict = v;
}

void kfh_worker_failure(struct harness *h, worker_t *w, const char *during) {
  /* kfh_timed_call's own look after a reply set the verdict: work left running (rejected) or calls that slept past
     their limit in all (timeout, fact `slept`). That is the verdict, in whichever step it was seen; the second was
     overwritten here as the call's failure (runtime_error) whenever the limit was crossed at that look, not inside
     a call. */
  if (!strcmp(h->verdict, "rejected") || (h->fact && !strcmp(h->fact, "slept"))) return;
  char m[512];
  snprintf(m, sizeof m, "%s: %s", during, w->error);
  kfh_fail(h, w->forged ? "forged_reply" : w->timed_out ? "call_timeout" : "worker_failed",
           w->forged ? "rejected" : w->timed_out ? "timeout" : "runtime_error", m);
}

void kfh_json_str(struct harness *h, const char *s) {
  FILE *J = h->out;
  fputc('"', J);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(J, "\\%c", c);
    else if (c < 0x20 || c >= 0x7f) fprintf(J, "\\u%04x", c);
    else fputc(c, J);
  }
  fputc('"', J);
}

void kfh_json_num(struct harness *h, double v) {
  if (isfinite(v)) fprintf(h->out, "%.9g", v);
  else fputs("null", h->out);
}

const char *kfh_dist_name(int d) {
  static const char *n[] = {"uniform", "normal", "positive", "small_int"};
  return n[d];
}

void kfh_print_sizes(struct harness *h, const case_desc *c) {
  fputc('{', h->out);
  int first = 1;
  for (int i = 0; i < h->plan.nargs; i++) {
    if (h->plan.args[i].is_ptr) continue;
    fprintf(h->out, "%s", first ? "" : ",");
    kfh_json_str(h, h->plan.args[i].name);
    fputc(':', h->out);
    kfh_json_num(h, c->vals[i]);
    first = 0;
  }
  fputc('}', h->out);
}

void kfh_print_series(struct harness *h, const char *key, const series *s) {
  fprintf(h->out, ",\"%s\":[", key);
  for (int i = 0; i < s->n; i++) {
    if (i) fputc(',', h->out);
    kfh_json_num(h, s->v[i]);
  }
  fputc(']', h->out);
}

static void print_load(struct harness *h) {
  const load_t *L = &h->load;
  fprintf(h->out,
          ",\"load\":{\"outside_cores\":%.3f,\"cores\":%d,\"wall_ms\":%.3f,\"lock\":%s,\"lock_wait_ms\":%.3f,\"lock_gave_up\":%s",
          L->outside_cores, L->cores, L->wall_ms, L->have_lock_fd ? "true" : "false", L->wait_ms,
          L->gave_up ? "true" : "false");
  double cw = kfh_wait_share(h->sched.cand_cpu, h->sched.cand_wait);
  double bw = kfh_wait_share(h->sched.base_cpu, h->sched.base_wait);
  if (cw >= 0) fprintf(h->out, ",\"wait_share\":%.4f", cw);
  if (bw >= 0) fprintf(h->out, ",\"baseline_wait_share\":%.4f", bw);
  if (h->plan.retake_wait_share > 0)
    fprintf(h->out, ",\"retaken_pairs\":%d,\"waited_pairs_kept\":%d", h->sched.retaken, h->sched.waited_kept);
  if (L->budget_cores > 0)
    fprintf(h->out, ",\"budget_cores\":%d,\"budget_cpus\":\"%s\",\"budget_resets\":%d", L->budget_cores, L->budget_cpus,
            L->budget_resets);
  fputc('}', h->out);
}

static void print_profile(struct harness *h) {
  const profile_t *p = &h->prof;
  fprintf(h->out,
          ",\"profile\":{\"total_ms\":%.3f,\"worker_start_ms\":%.3f,\"calibrate_ms\":%.3f,\"correctness_ms\":%.3f,"
          "\"baseline_start_ms\":%.3f,\"timing_ms\":%.3f,\"warmup_ms\":%.3f,\"setup_ms\":%.3f,\"setup_private_ms\":%.3f,"
          "\"flush_ms\":%.3f,\"baseline_calls_ms\":%.3f,\"calls_ms\":%.3f,\"checks_ms\":%.3f,\"busy_ms\":%.3f,"
          "\"samples\":%d,\"baseline_samples\":%d,\"checked\":%d,\"flushed_cases\":%d,\"busy_windows\":%d,"
          "\"max_after_reply_ms\":%.4f,\"max_call_cpu_share\":%.4f,\"flagged_calls\":%d,\"timing_flagged\":%d,\"calls\":%d",
          since(p->start), p->worker_start, p->calibrate, p->correctness, p->baseline_start, p->timing, p->warmup,
          p->setup, p->setup_private, p->flush, p->baseline_calls, p->calls, p->checks, p->busy, p->samples,
          p->baseline_samples, p->checked, p->flushed, busy_windows, (double)h->cand.max_after_reply_ns * 1e-6,
          h->cand.max_call_cpu_share, h->flagged_calls, p->timing_flagged, h->runs);
  /* cuda: whether the probe read each worker's data, and the SM clock's range (bench/cuda.mjs prints them). */
  if (h->plan.cuda)
    fprintf(h->out, ",\"probe_candidate\":%d,\"probe_baseline\":%d,\"sm_mhz_min\":%.0f,\"sm_mhz_max\":%.0f",
            h->probe.open[0], h->probe.open[1], h->probe.min_mhz, h->probe.max_mhz);
  fputc('}', h->out);
}

/* Everything after the phases' own keys: profile, load (when timed), the no-op round trip and the verdict. */
void kfh_print_tail(struct harness *h) {
  FILE *J = h->out;
  print_profile(h);
  if (h->load.wall_ms > 0) print_load(h);
  if (h->plan.cuda) {
    const probe_t *P = &h->probe;
    fprintf(J, ",\"probe\":{\"candidate\":%s,\"baseline\":%s,\"busy_us\":%.1f,\"min_sm_mhz\":%.0f,\"max_sm_mhz\":%.0f,\"why\":",
            P->open[0] ? "true" : "false", P->open[1] ? "true" : "false", h->plan.cuda_busy_us, P->min_mhz, P->max_mhz);
    kfh_json_str(h, P->why);
    fputc('}', J);
  }
  fputs(",\"nop_ms\":", J);
  kfh_json_num(h, h->nop_ms);
  fputs(",\"nop_p90_ms\":", J);
  kfh_json_num(h, h->nop_p90_ms);
  if (h->fact) {
    fputs(",\"fact\":", J);
    kfh_json_str(h, h->fact);
  }
  fputs(",\"verdict\":", J);
  kfh_json_str(h, h->verdict);
  fputs(",\"message\":", J);
  kfh_json_str(h, h->message);
  fputs("}\n", J);
  fflush(J);
}
