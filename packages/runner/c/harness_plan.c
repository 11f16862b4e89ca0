/* Reads the evaluation plan the runner writes: one keyword per line, values separated by spaces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

size_t elem_size(int etype) { return etype == ET_F64 || etype == ET_I64 ? 8 : 4; }

static int parse_etype(const char *s) {
  if (!strcmp(s, "f32")) return ET_F32;
  if (!strcmp(s, "f64")) return ET_F64;
  if (!strcmp(s, "i32")) return ET_I32;
  return ET_I64;
}

static int parse_role(const char *s) {
  if (!strcmp(s, "in")) return R_IN;
  if (!strcmp(s, "out")) return R_OUT;
  if (!strcmp(s, "inout")) return R_INOUT;
  if (!strcmp(s, "size")) return R_SIZE;
  return R_SCALAR;
}

static int parse_dist(const char *s) {
  if (!strcmp(s, "normal")) return D_NORMAL;
  if (!strcmp(s, "positive")) return D_POSITIVE;
  if (!strcmp(s, "small_int")) return D_SMALL_INT;
  return D_UNIFORM;
}

int plan_read(const char *path, plan_t *p) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  memset(p, 0, sizeof *p);
  p->flagged_min = 4;
  p->flagged_share = 0.25;
  p->load_window_ms = 200;
  p->atol_rms_share = 0.1;
  p->cuda_busy_us = 200;
  p->exit_wait_ms = 1000;
  char key[64], a[128], b[128];
  while (fscanf(f, "%63s", key) == 1) {
    if (!strcmp(key, "mode")) {
      if (fscanf(f, "%127s", a) != 1) return -2;
      p->ranked = !strcmp(a, "ranked");
    } else if (!strcmp(key, "backend")) {
      if (fscanf(f, "%127s", a) != 1) return -2;
      p->cuda = !strcmp(a, "cuda");
    } else if (!strcmp(key, "tolerance")) {
      if (fscanf(f, "%lf %lf", &p->atol, &p->rtol) != 2) return -2;
    } else if (!strcmp(key, "timing")) {
      if (fscanf(f, "%d %lf %lf %lf %lf %lf %lf %lf", &p->warmup_calls, &p->warmup_ms, &p->min_samples,
                 &p->min_ms, &p->max_ms, &p->target_rse, &p->check_prob, &p->call_timeout_ms) != 8)
        return -2;
    } else if (!strcmp(key, "arg")) {
      if (p->nargs >= KF_MAX_ARGS) return -3;
      arg_desc *d = &p->args[p->nargs++];
      int isptr;
      if (fscanf(f, "%63s %127s %d %127s", d->name, a, &isptr, b) != 4) return -2;
      d->etype = parse_etype(a);
      d->is_ptr = isptr;
      d->role = parse_role(b);
    } else if (!strcmp(key, "dist")) {
      if (p->ndists >= 4 || fscanf(f, "%127s", a) != 1) return -2;
      p->dists[p->ndists++] = parse_dist(a);
    } else if (!strcmp(key, "seed")) {
      if (p->nseeds >= KF_MAX_SEEDS || fscanf(f, "%lu", &p->seeds[p->nseeds]) != 1) return -2;
      p->nseeds++;
    } else if (!strcmp(key, "llc")) {
      unsigned long v;
      if (fscanf(f, "%lu", &v) != 1) return -2;
      llc_override = v;
    } else if (!strcmp(key, "speedup_half_width")) {
      if (fscanf(f, "%lf", &p->speedup_half_width) != 1) return -2;
    } else if (!strcmp(key, "retake_wait_share")) {
      if (fscanf(f, "%lf", &p->retake_wait_share) != 1) return -2;
    } else if (!strcmp(key, "flush")) {
      if (fscanf(f, "%127s", a) != 1) return -2;
      p->flush = !strcmp(a, "always") ? FLUSH_ALWAYS : FLUSH_AUTO;
    } else if (!strcmp(key, "rules")) {
      if (fscanf(f, "%d %lf %lf %lf", &p->flagged_min, &p->flagged_share, &p->load_window_ms, &p->atol_rms_share) != 4)
        return -2;
    } else if (!strcmp(key, "cuda_busy_us")) {
      if (fscanf(f, "%lf", &p->cuda_busy_us) != 1) return -2;
    } else if (!strcmp(key, "exit_wait_ms")) {
      if (fscanf(f, "%lf", &p->exit_wait_ms) != 1 || !(p->exit_wait_ms >= 0 && p->exit_wait_ms <= 600000)) return -2;
    } else if (!strcmp(key, "probe")) {
      if (fscanf(f, "%127s", a) != 1) return -2;
      p->probe_off = !strcmp(a, "off");
    } else if (!strcmp(key, "bench_seed")) {
      if (fscanf(f, "%lu", &p->bench_seed) != 1) return -2;
    } else if (!strcmp(key, "case")) {
      if (p->ncases >= KF_MAX_CASES) return -3;
      case_desc *c = &p->cases[p->ncases++];
      if (fscanf(f, "%127s %95s", a, c->name) != 2) return -2;
      c->bench = !strcmp(a, "bench");
      for (int i = 0; i < p->nargs; i++)
        if (fscanf(f, "%lf", &c->vals[i]) != 1) return -2;
    } else {
      return -4;
    }
  }
  fclose(f);
  return p->nargs > 0 && p->ndists > 0 && p->nseeds > 0 ? 0 : -5;
}
